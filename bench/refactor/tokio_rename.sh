#!/usr/bin/env bash
# A rename checked by the compiler on a crate that declares through macros:
# lingo renames `tokio::sync::Barrier` (declared in src/sync/barrier.rs,
# re-exported inside `cfg_sync! { .. }`, used by tokio's integration tests)
# in a copy of tokio from crates.io, then `cargo check --tests --offline`
# compiles the copy before and after. The rename passes when every target
# that compiled before still compiles and no error names the old or the new
# name. It is applied with `force`: lingo leaves uses it resolves by name
# only (other crates' `Barrier`s, `std::sync::Barrier` among them) as they
# are and says so; the compiler then judges the result. Some test targets fail before any rename: they use `tokio-test`,
# built against crates.io's tokio, outside this copy.
#
#   bench/refactor/tokio_rename.sh            # WORK=/tmp/lingo-rename by default
#
# Environment: WORK, LINGO (the binary, default target/debug/lingo, built if
# missing), TOKIO_VERSION (default 1.54.1), NEW_NAME (default Gate).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
WORK="${WORK:-/tmp/lingo-rename}"
CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
TOKIO_VERSION="${TOKIO_VERSION:-1.54.1}"
NEW_NAME="${NEW_NAME:-Gate}"
FEATURES="full,test-util"
mkdir -p "$WORK"

say() { echo "== $*" >&2; }
# shellcheck source=../lib/crates.sh
source "$HERE/../lib/crates.sh"

LINGO="${LINGO:-$REPO/target/debug/lingo}"
if [ ! -x "$LINGO" ]; then
  say "cargo build -p lingo"
  (cd "$REPO" && cargo build -p lingo)
fi

src="$(crate_source tokio "$TOKIO_VERSION")"
copy="$WORK/tokio-$TOKIO_VERSION"
rm -rf "$copy" && cp -r "$src" "$copy"
(cd "$copy" && cargo fetch >&2)

# The targets that fail to compile, one per line, sorted.
failing() {  # log
  grep -o 'could not compile `tokio` ([^)]*)' "$1" | sort -u || true
}

check() {  # label
  local log="$WORK/check-$1.log" start=$SECONDS
  say "cargo check --tests ($1)"
  (cd "$copy" && cargo check --tests --offline --features "$FEATURES" --keep-going \
    --message-format short --target-dir "$WORK/target" >"$log" 2>&1) || true
  say "$1: $((SECONDS - start)) s, $(failing "$log" | wc -l) targets fail"
}

check before
failing "$WORK/check-before.log" > "$WORK/failing-before.txt"

# The declaration's name, zero-based, as lingo's tools take positions.
line="$(grep -n '^pub struct Barrier' "$copy/src/sync/barrier.rs" | head -1 | cut -d: -f1)"
line=$((line - 1))
character="$(sed -n "$((line + 1))p" "$copy/src/sync/barrier.rs" | grep -bo 'Barrier' | head -1 | cut -d: -f1)"
say "rename Barrier (src/sync/barrier.rs:$line:$character) to $NEW_NAME"
(cd "$copy" && "$LINGO" call --cache-dir "$WORK/cache" rename \
  "{\"path\": \"src/sync/barrier.rs\", \"line\": $line, \"character\": $character, \"new_name\": \"$NEW_NAME\", \"dryRun\": false, \"force\": true}" \
  2>"$WORK/lingo.log" | tee "$WORK/rename.txt")

check after
failing "$WORK/check-after.log" > "$WORK/failing-after.txt"

newly_failing="$(comm -13 "$WORK/failing-before.txt" "$WORK/failing-after.txt")"
named="$(grep -E "^(src|tests|benches|examples)/.*error.*\b(Barrier|$NEW_NAME)\b" "$WORK/check-after.log" || true)"
left="$(grep -rnw --include='*.rs' 'Barrier' "$copy/src" "$copy/tests" | grep -vE ':[0-9]+:\s*//' | grep -v 'std::sync::Barrier' || true)"
echo
echo "targets failing before: $(wc -l < "$WORK/failing-before.txt"), after: $(wc -l < "$WORK/failing-after.txt")"
echo "newly failing: ${newly_failing:-none}"
echo "errors naming Barrier or $NEW_NAME: ${named:-none}"
echo "Barrier left in the sources (other types of that name, comments aside): $(printf '%s' "$left" | grep -c . || true)"
if [ -n "$newly_failing" ] || [ -n "$named" ]; then
  echo "FAIL"
  exit 1
fi
echo "PASS"
