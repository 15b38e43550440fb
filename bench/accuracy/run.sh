#!/usr/bin/env bash
# Reference accuracy of lingo's find_references against each language's own
# reference tool, end to end: installs the tools, copies the projects to a
# scratch directory, builds lingo, measures, prints the table.
#
#   bench/accuracy/run.sh                 # every language lingo has a plugin for
#   bench/accuracy/run.sh rust go         # some of them
#
# Environment: WORK (scratch directory, default /tmp/lingo-accuracy),
# SAMPLE (declarations per language, default 40), SEED (default 20240611),
# NO_BUILD=1 (use target/debug/lingo as it is), RESULTS (default bench/accuracy/results).
#
# Projects and tools (pinned):
#   rust        regex-syntax 0.8.11 (crates.io)    rust-analyzer (rustup component, + rust-src)
#   typescript  rxjs 7.8.2 src/ + tsconfig (npm)   typescript 5.9.3 tsserver via typescript-language-server 4.4.1
#   go          go-cmp 0.5.9 (Debian golang-github-google-go-cmp-dev)   gopls + go from Debian
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
WORK="${WORK:-/tmp/lingo-accuracy}"
SAMPLE="${SAMPLE:-40}"
SEED="${SEED:-20240611}"
RESULTS="${RESULTS:-$HERE/results}"
mkdir -p "$WORK/projects" "$RESULTS"

say() { echo "== $*" >&2; }

# --- lingo: built once, copied so that a rebuild during the run cannot change it
if [ -z "${NO_BUILD:-}" ]; then
  say "cargo build -p lingo"
  (cd "$REPO" && cargo build -p lingo)
fi
cp "$REPO/target/debug/lingo" "$WORK/lingo"
LINGO="$WORK/lingo"

plugins="$("$LINGO" index --root "$HERE" 2>/dev/null | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["plugins"]))')"
say "lingo plugins: $plugins"

langs=("$@")
[ ${#langs[@]} -eq 0 ] && langs=(rust typescript go)

have_plugin() { [[ " $plugins " == *" $1 "* ]]; }

# --- Rust: regex-syntax 0.8.11 from the cargo registry, rust-analyzer
setup_rust() {
  command -v rustup >/dev/null && {
    rustup component list --installed | grep -q '^rust-analyzer' || rustup component add rust-analyzer
    rustup component list --installed | grep -q '^rust-src' || rustup component add rust-src
  }
  local src
  src="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/regex-syntax-0.8.11 2>/dev/null | head -1 || true)"
  if [ -z "$src" ]; then
    say "fetching regex-syntax 0.8.11 into the cargo registry"
    local f="$WORK/fetch-regex-syntax"
    mkdir -p "$f/src" && echo 'fn main() {}' > "$f/src/main.rs"
    printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nregex-syntax = "=0.8.11"\n' > "$f/Cargo.toml"
    (cd "$f" && cargo fetch)
    src="$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/regex-syntax-0.8.11 | head -1)"
  fi
  rm -rf "$WORK/projects/regex-syntax-0.8.11"
  cp -r "$src" "$WORK/projects/regex-syntax-0.8.11"
  RUST_TOOL="${CARGO_HOME:-$HOME/.cargo}/bin/rust-analyzer"
  "$RUST_TOOL" --version
}

# --- TypeScript: rxjs 7.8.2 (ships src/ and tsconfig.json), tsserver
setup_typescript() {
  local tools="$WORK/ts-tools"
  mkdir -p "$tools"
  if [ ! -x "$tools/node_modules/.bin/typescript-language-server" ] || [ ! -d "$tools/node_modules/rxjs/src" ]; then
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error \
      typescript@5.9.3 typescript-language-server@4.4.1 rxjs@7.8.2)
  fi
  local p="$WORK/projects/rxjs-7.8.2"
  rm -rf "$p" && mkdir -p "$p"
  cp -r "$tools/node_modules/rxjs/src" "$tools/node_modules/rxjs/tsconfig.json" \
        "$tools/node_modules/rxjs/package.json" "$p/"
  rm -f "$p/src/Rx.global.js"   # the one .js file: TypeScript sources only
}

# --- Go: go-cmp 0.5.9 from Debian, gopls from Debian
setup_go() {
  if ! command -v gopls >/dev/null || ! command -v go >/dev/null \
     || [ ! -d /usr/share/gocode/src/github.com/google/go-cmp ]; then
    apt-get update >&2
    apt-get install -y gopls golang-go golang-github-google-go-cmp-dev >&2
  fi
  local p="$WORK/projects/go-cmp-0.5.9"
  rm -rf "$p"
  cp -r /usr/share/gocode/src/github.com/google/go-cmp "$p"
  mkdir -p "$WORK/gopath"
}

for lang in "${langs[@]}"; do
  if ! have_plugin "$lang"; then
    say "$lang: lingo has no $lang plugin in this build; skipped"
    continue
  fi
  case "$lang" in
    rust)
      setup_rust
      python3 "$HERE/measure.py" --lang rust --root "$WORK/projects/regex-syntax-0.8.11" \
        --project "regex-syntax 0.8.11" --tool "$RUST_TOOL" --lingo "$LINGO" \
        --seed "$SEED" --sample "$SAMPLE" --out "$RESULTS/rust.json" --logs "$WORK/logs" ;;
    typescript)
      setup_typescript
      python3 "$HERE/measure.py" --lang typescript --root "$WORK/projects/rxjs-7.8.2" \
        --project "rxjs 7.8.2" --tool "$WORK/ts-tools" --lingo "$LINGO" \
        --seed "$SEED" --sample "$SAMPLE" --out "$RESULTS/typescript.json" --logs "$WORK/logs" ;;
    go)
      setup_go
      python3 "$HERE/measure.py" --lang go --root "$WORK/projects/go-cmp-0.5.9" \
        --project "go-cmp 0.5.9" --tool gopls --gopath "$WORK/gopath" --lingo "$LINGO" \
        --seed "$SEED" --sample "$SAMPLE" --out "$RESULTS/go.json" --logs "$WORK/logs" ;;
    *) say "unknown language $lang"; exit 2 ;;
  esac
done

shopt -s nullglob
results=()
for lang in "${langs[@]}"; do
  [ -f "$RESULTS/$lang.json" ] && results+=("$RESULTS/$lang.json")
done
[ ${#results[@]} -gt 0 ] && python3 "$HERE/report.py" --worst 5 "${results[@]}"
