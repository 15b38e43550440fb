#!/usr/bin/env bash
# Build and test figures of BENCHMARKS.md ("Build and test"):
#   bench/build/run.sh binaries     test executables cargo builds, with sizes
#   bench/build/run.sh incremental  `cargo test --workspace` after touching
#                                   one file of lingo-analysis
#   bench/build/run.sh fresh DIR    the README's two commands on a fresh
#                                   clone in DIR (crates and apt packages
#                                   already downloaded), each timed
set -euo pipefail
cd "$(dirname "$0")/../.."

case "${1:-}" in
  binaries)
    cargo test --workspace --no-run --message-format json 2>/dev/null \
      | python3 -c '
import json, os, sys
total = 0
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        size = os.path.getsize(m["executable"]); total += size
        name = m["target"]["name"]
        package = m["package_id"].split("#")[0].rsplit("/", 1)[-1]
        print(f"{size / 2**20:8.1f} MiB  {name} ({package})")
print(f"{total / 2**20:8.1f} MiB  in all")'
    ;;
  incremental)
    cargo test --workspace --no-run >/dev/null 2>&1
    touch host/analysis/src/outline.rs
    log=$(mktemp)
    /usr/bin/time -f "%e s wall, %U s user" -o "$log.time" cargo test --workspace >"$log" 2>&1 \
      || { tail -n 40 "$log"; exit 1; }
    grep -o '[0-9]* passed' "$log" | awk '{s+=$1} END {print s " passed"}'
    cat "$log.time"
    ;;
  fresh)
    dir="${2:?a directory for the fresh clone}"
    git clone -q . "$dir"
    cd "$dir"
    /usr/bin/time -f "first command: %e s" bash -c \
      'bash .ci/install && cargo build -p lingo && timeout 5 cargo run -q -p lingo -- index --root . >/dev/null'
    /usr/bin/time -f "second command: %e s" cargo test --workspace -q 2>&1 | tail -n 3
    ;;
  *)
    echo "usage: $0 binaries | incremental | fresh DIR" >&2
    exit 2
    ;;
esac
