#!/usr/bin/env bash
# The analyses at 1M lines: assemble a tree of about 1,000,000 lines of Rust
# from the cargo registry's sources (crates in name order, none over 200k
# lines), commit it to a fresh git repository (so churn reads a history),
# then time `lingo index` cold and `lingo analyze` comprehensive and
# deep_context, with peak memory (GNU time).
#
#   bench/analyses/run.sh [LINGO] [WORK]
set -euo pipefail
lingo=${1:-target/debug/lingo}
work=${2:-/tmp/lingo-analyses-bench}
tree=$work/tree
cache=$work/cache
rm -rf "$work" && mkdir -p "$tree" "$cache"
registry=$(ls -d ~/.cargo/registry/src/*/ | head -1)
total=0
for crate in $(ls "$registry" | sort); do
  lines=$(find "$registry/$crate" -name '*.rs' -print0 | xargs -0 cat 2>/dev/null | wc -l)
  [ "$lines" -gt 200000 ] && continue
  cp -r "$registry/$crate" "$tree/"
  total=$((total + lines))
  [ "$total" -gt 1000000 ] && break
done
echo "tree: $total lines of Rust in $(ls "$tree" | wc -l) crates"
git -C "$tree" init -q
git -C "$tree" -c user.name=bench -c user.email=bench@example.com add -A
git -C "$tree" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false commit -qm tree

measure() {
  local label=$1; shift
  /usr/bin/time -v "$@" > "$work/$label.out" 2> "$work/$label.err"
  printf '%-40s %s, peak %s KiB\n' "$label" \
    "$(grep 'Elapsed (wall' "$work/$label.err" | awk '{print $NF}')" \
    "$(grep 'Maximum resident' "$work/$label.err" | awk '{print $NF}')"
}
measure "index (cold: empty cache)" "$lingo" index --root "$tree" --cache-dir "$cache"
measure "comprehensive (graph built)" "$lingo" analyze comprehensive --root "$tree" --cache-dir "$cache" --args '{"perf": true}'
measure "comprehensive (graph loaded)" "$lingo" analyze comprehensive --root "$tree" --cache-dir "$cache" --args '{"perf": true}'
measure "deep_context" "$lingo" analyze deep_context --root "$tree" --cache-dir "$cache"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
for label in ["comprehensive (graph loaded)", "deep_context"]:
    value = json.load(open(f"{work}/{label}.out"))
    timings = value.get("perf") or value.get("timings")
    print(label, ", ".join(f"{t['analysis']} {t['milliseconds']} ms" for t in timings))
PY
