#!/usr/bin/env bash
# Dead-code false positives on published TypeScript: each package of
# bench/dead_code/typescript-sample.txt (npm packages that publish their
# TypeScript sources under src/) is checked by tsc (`--noUnusedLocals`:
# its unused-declaration diagnostics, TS6133 TS6138 TS6192 TS6196 TS6198
# TS6199 TS6205, are the truth) and by `lingo analyze dead_code`. A lingo
# finding in src/ at a place tsc does not report is a false positive; the
# figure is per 20,000 lines of src/.
#
# tsc judges what is local to a module (declarations not exported, private
# members, imports); lingo's dead_code lists the same kind (private
# declarations nothing uses), so every lingo finding is one tsc judges.
#
#   bench/dead_code/typescript.sh [LINGO] [WORK]
set -euo pipefail
lingo=$(realpath "${1:-target/debug/lingo}")
work=${2:-/tmp/lingo-dead-code-ts-bench}
sample=$(realpath "$(dirname "$0")/typescript-sample.txt")
rm -rf "$work/projects" "$work/cache" && mkdir -p "$work/npm" "$work/projects" "$work/cache"
# The packages and tsc, installed once (no install scripts run).
if [ ! -x "$work/npm/node_modules/.bin/tsc" ]; then
  (cd "$work/npm" && echo '{}' > package.json \
    && npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
      typescript@5.9.3 $(cat "$sample") >&2)
fi
tsc="$work/npm/node_modules/.bin/tsc"
echo "tsc $("$tsc" --version)"
printf '%-28s %7s %6s %6s %6s %6s\n' package lines tsc lingo false per20k
for spec in $(cat "$sample"); do
  name=${spec%@*}
  dir=$work/projects/${name//\//_}
  mkdir -p "$dir"
  cp -r "$work/npm/node_modules/$name/src" "$dir/"
  # Its own modules only: types from dependencies are not needed to judge
  # what is unused inside the package.
  cat > "$dir/tsconfig.json" <<'JSON'
{"compilerOptions": {"noUnusedLocals": true, "noEmit": true, "skipLibCheck": true,
  "target": "es2022", "module": "esnext", "moduleResolution": "bundler",
  "lib": ["es2022", "dom"], "experimentalDecorators": true, "jsx": "react-jsx", "types": []},
 "include": ["src"]}
JSON
  (cd "$dir" && "$tsc" -p . --pretty false 2>&1 || true) > "$work/${name//\//_}.tsc.txt" 2>&1 || true
  lines=$(find "$dir/src" \( -name '*.ts' -o -name '*.tsx' \) -not -name '*.d.ts' -print0 | xargs -0 cat | wc -l)
  "$lingo" analyze dead_code --root "$dir" --cache-dir "$work/cache" > "$work/${name//\//_}.lingo.json" 2> "$work/${name//\//_}.lingo.log" || true
  python3 - "$work/${name//\//_}.lingo.json" "$work/${name//\//_}.tsc.txt" "$spec" "$lines" <<'PY'
import json, re, sys
answer = json.load(open(sys.argv[1]))
codes = {"6133", "6138", "6192", "6196", "6198", "6199", "6205"}
truth = set()
for line in open(sys.argv[2]):
    m = re.match(r"(src/[^(]+)\((\d+),\d+\): error TS(\d+):", line)
    if m and m.group(3) in codes:
        truth.add(f"{m.group(1)}:{m.group(2)}")
lines = int(sys.argv[4])
findings = [f for f in answer.get("findings", []) if f["location"]["file_path"].startswith("src/")]
false = [f for f in findings
         if f"{f['location']['file_path']}:{f['location']['range']['start']['line'] + 1}" not in truth]
print(f"{sys.argv[3]:<28} {lines:>7} {len(truth):>6} {len(findings):>6} {len(false):>6} {20000 * len(false) / lines:>6.2f}")
for f in false[:5]:
    print(f"    {f['severity']:<6} {f['location']['file_path']}:{f['location']['range']['start']['line'] + 1} {f['message'][:90]}")
PY
done | tee "$work/table.txt"
awk '$2 ~ /^[0-9]+$/ { lines += $2; found += $4; false += $5 }
     END { if (lines) printf "all: %d lines, %d findings, %d false, %.2f per 20,000 lines\n", lines, found, false, 20000 * false / lines }' "$work/table.txt"
