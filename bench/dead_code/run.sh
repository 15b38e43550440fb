#!/usr/bin/env bash
# Dead-code false positives on published crates: each crate of the cargo
# registry's sources (name order, library crates of 3,000 to 30,000 lines of
# Rust, every STEP-th of them, at most COUNT) is checked by rustc
# (`cargo check --lib --tests`, or `--lib` where the tests do not build:
# its dead_code and unused_imports warnings are the truth) and by `lingo
# analyze dead_code`. A lingo finding in the code rustc checked (src/, and
# tests/ when it built them within 3 minutes) at a place rustc does not warn about is a false
# positive; the figure is per 20,000 lines of that code.
#
#   bench/dead_code/run.sh [LINGO] [WORK] [STEP] [COUNT]
set -euo pipefail
lingo=$(realpath "${1:-target/debug/lingo}")
work=${2:-/tmp/lingo-dead-code-bench}
step=${3:-7}
count=${4:-8}
rm -rf "$work" && mkdir -p "$work/crates" "$work/cache"
registry=$(ls -d ~/.cargo/registry/src/*/ | head -1)
picked=0
seen=0
registry_list=$(ls "$registry" | wc -l)
echo "registry: $registry_list crates"
printf '%-28s %7s %6s %6s %6s %6s\n' crate lines rustc lingo false per20k
# The sample is fixed: bench/dead_code/sample.txt, written by the rule
# above from the registry as it stood (`cargo check` extracts more crates
# into it, which would move the sample); delete it to draw a new one.
sample=$(dirname "$0")/sample.txt
if [ -f "$sample" ]; then
  cp "$sample" "$work/sample.txt"
else
for crate in $(ls "$registry" | sort); do
  [ -f "$registry/$crate/src/lib.rs" ] || continue
  lines=$(find "$registry/$crate/src" -name '*.rs' -print0 | xargs -0 cat 2>/dev/null | wc -l)
  { [ "$lines" -lt 3000 ] || [ "$lines" -gt 30000 ]; } && continue
  seen=$((seen + 1))
  [ $((seen % step)) -eq 0 ] && echo "$crate"
done > "$work/sample.txt"
cp "$work/sample.txt" "$sample"
fi
for crate in $(cat "$work/sample.txt"); do
  if [ ! -d "$registry/$crate" ]; then
    echo "$crate: not in this registry, skipped"
    continue
  fi
  dir=$work/crates/$crate
  cp -r "$registry/$crate" "$dir"
  # rustc's verdict: the places of its dead_code and unused_imports warnings.
  checked="src tests"
  if ! (cd "$dir" && timeout 180 cargo check --lib --tests --quiet --message-format=json 2>/dev/null > "$work/$crate.rustc.json"); then
    checked="src"
    if ! (cd "$dir" && timeout 180 cargo check --lib --quiet --message-format=json 2>/dev/null > "$work/$crate.rustc.json"); then
      echo "$crate: does not build here, skipped"
      continue
    fi
  fi
  lines=$(for folder in $checked; do if [ -d "$dir/$folder" ]; then find "$dir/$folder" -name '*.rs'; fi; done | xargs cat 2>/dev/null | wc -l)
  python3 - "$work/$crate.rustc.json" > "$work/$crate.rustc" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    try:
        message = json.loads(line)
    except ValueError:
        continue
    inner = message.get("message") or {}
    code = (inner.get("code") or {}).get("code")
    if message.get("reason") != "compiler-message" or code not in ("dead_code", "unused_imports"):
        continue
    for span in inner.get("spans", []):
        if span.get("is_primary"):
            print(f"{span['file_name']}:{span['line_start']}")
PY
  "$lingo" analyze dead_code --root "$dir" --cache-dir "$work/cache" > "$work/$crate.lingo.json" 2> "$work/$crate.lingo.log" || true
  python3 - "$work/$crate.lingo.json" "$work/$crate.rustc" "$crate" "$lines" "$checked" <<'PY'
import json, sys
answer = json.load(open(sys.argv[1]))
truth = set(line.strip() for line in open(sys.argv[2]) if line.strip())
lines = int(sys.argv[4])
checked = tuple(folder + "/" for folder in sys.argv[5].split())
findings = [f for f in answer.get("findings", []) if f["location"]["file_path"].startswith(checked)]
false = [f for f in findings
         if f"{f['location']['file_path']}:{f['location']['range']['start']['line'] + 1}" not in truth]
print(f"{sys.argv[3]:<28} {lines:>7} {len(truth):>6} {len(findings):>6} {len(false):>6} {20000 * len(false) / lines:>6.2f}")
for f in false[:5]:
    print(f"    {f['severity']:<6} {f['location']['file_path']}:{f['location']['range']['start']['line'] + 1} {f['message'][:90]}")
PY
  picked=$((picked + 1))
  [ "$picked" -ge "$count" ] && break
done | tee "$work/table.txt"
awk '$2 ~ /^[0-9]+$/ { lines += $2; found += $4; false += $5 }
     END { if (lines) printf "all: %d lines, %d findings, %d false, %.2f per 20,000 lines\n", lines, found, false, 20000 * false / lines }' "$work/table.txt"
