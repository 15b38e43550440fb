#!/usr/bin/env bash
# Tokens an agent reads per question: lingo's default text, lingo's JSON and
# the grep output it would read instead, counted with o200k_base
# (bench/tokens/count, tiktoken-rs). Questions: bench/tokens/measure.py.
#
#   bench/tokens/run.sh            # Rust regex-syntax, Go go-cmp, TypeScript rxjs, C# dbus-sharp
#
# The projects and their systematic declaration samples come from the
# accuracy benchmark (bench/accuracy/run.sh fetches them into $WORK/projects
# when missing). Environment: WORK (default /tmp/lingo-accuracy), NO_BUILD=1
# (use target/debug/lingo as it is). Results: bench/tokens/results.json and
# the tables on stdout (BENCHMARKS.md, "Answer size").
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
WORK="${WORK:-/tmp/lingo-accuracy}"
ACCURACY="$REPO/bench/accuracy/results"
PROJECTS=(
  "regex-syntax regex-syntax-0.8.11 rust-regex-syntax"
  "go-cmp go-cmp-0.5.9 go-go-cmp"
  "rxjs rxjs-7.8.2 typescript-rxjs"
  "dbus-sharp dbus-sharp-0.8.1-2.1 csharp-dbus-sharp"
)

if [ -z "${NO_BUILD:-}" ]; then
  (cd "$REPO" && cargo build -p lingo)
fi
cp -p "$REPO/target/debug/lingo" "$WORK/lingo-tokens" 2>/dev/null || { mkdir -p "$WORK"; cp -p "$REPO/target/debug/lingo" "$WORK/lingo-tokens"; }

COUNTER_TARGET="${COUNTER_TARGET:-$WORK/token-count-target}"
(cd "$HERE/count" && CARGO_TARGET_DIR="$COUNTER_TARGET" cargo build --release --locked >&2)

args=()
for entry in "${PROJECTS[@]}"; do
  read -r name dir sample <<<"$entry"
  if [ ! -d "$WORK/projects/$dir" ]; then
    NO_BUILD=1 WORK="$WORK" "$REPO/bench/accuracy/run.sh" "$name" >&2
  fi
  args+=("$WORK/projects/$dir:$ACCURACY/$sample.json")
done

python3 "$HERE/measure.py" --lingo "$WORK/lingo-tokens" \
  --counter "$COUNTER_TARGET/release/lingo-token-count" --out "$HERE/results.json" "${args[@]}"
