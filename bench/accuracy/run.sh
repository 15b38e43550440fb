#!/usr/bin/env bash
# Reference accuracy of lingo's find_references against each language's own
# reference tool, end to end: installs the tools, copies the projects to a
# scratch directory, builds lingo, measures each project, prints the tables
# and writes a markdown fragment for BENCHMARKS.md ($RESULTS/summary.md).
#
#   bench/accuracy/run.sh                    # every project of every language lingo has a plugin for
#   bench/accuracy/run.sh rust go            # the projects of some languages
#   bench/accuracy/run.sh indexmap pflag     # some projects, by name
#
# Environment: WORK (scratch directory, default /tmp/lingo-accuracy),
# SAMPLE (declarations per project, default 80), SEED (default 20240611),
# NO_BUILD=1 (use target/debug/lingo as it is), RESULTS (default bench/accuracy/results).
#
# Projects and tools (pinned; sources from crates.io, npm and Debian only):
#   rust        regex-syntax 0.8.11, indexmap 2.14.2 (crates.io)   rust-analyzer (rustup component, + rust-src)
#   go          go-cmp 0.5.9 (golang-github-google-go-cmp-dev),
#               pflag 1.0.6~git20210604 (golang-github-spf13-pflag-dev)   gopls + go from Debian
#   typescript  rxjs 7.8.2 src/ + its tsconfig, mobx 6.16.1 src/ (npm; the tsconfig is written here)
#               typescript 5.9.3 tsserver via typescript-language-server 4.4.1
# Results: $RESULTS/<language>-<project>.json.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
WORK="${WORK:-/tmp/lingo-accuracy}"
SAMPLE="${SAMPLE:-80}"
SEED="${SEED:-20240611}"
RESULTS="${RESULTS:-$HERE/results}"
CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
mkdir -p "$WORK/projects" "$RESULTS"

say() { echo "== $*" >&2; }

# language project version: every project measured, in this order
PROJECTS=(
  "rust regex-syntax 0.8.11"
  "rust indexmap 2.14.2"
  "go go-cmp 0.5.9"
  "go pflag 1.0.6~git20210604"
  "typescript rxjs 7.8.2"
  "typescript mobx 6.16.1"
)

# --- lingo: built once, copied so that a rebuild during the run cannot change it
if [ -z "${NO_BUILD:-}" ]; then
  say "cargo build -p lingo"
  (cd "$REPO" && cargo build -p lingo)
fi
cp -p "$REPO/target/debug/lingo" "$WORK/lingo"  # -p: its build time goes in the results
LINGO="$WORK/lingo"
# the commit measured, as the checkout is when the binary is copied (bench/ aside)
LINGO_COMMIT="$(git -C "$REPO" rev-parse --short HEAD)"
[ -n "$(git -C "$REPO" status --porcelain --untracked-files=no -- . ':!bench')" ] \
  && LINGO_COMMIT+="+uncommitted changes"
say "lingo: $LINGO_COMMIT, built $(date -u -r "$LINGO" '+%F %T UTC')"

plugins="$("$LINGO" index --root "$HERE" 2>/dev/null | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["plugins"]))')"
say "lingo plugins: $plugins"
have_plugin() { [[ " $plugins " == *" $1 "* ]]; }

# --- Rust: crates from the cargo registry (fetched by cargo if missing), rust-analyzer
rust_tools() {
  command -v rustup >/dev/null && {
    rustup component list --installed | grep -q '^rust-analyzer' || rustup component add rust-analyzer
    rustup component list --installed | grep -q '^rust-src' || rustup component add rust-src
  }
  TOOL="$CARGO_HOME/bin/rust-analyzer"
  "$TOOL" --version >&2
}

crate_source() {  # name version -> the unpacked crate in the cargo registry
  local src
  src="$(ls -d "$CARGO_HOME"/registry/src/*/"$1-$2" 2>/dev/null | head -1 || true)"
  if [ -z "$src" ]; then
    say "fetching $1 $2 into the cargo registry"
    local f="$WORK/fetch-$1"
    mkdir -p "$f/src" && echo 'fn main() {}' > "$f/src/main.rs"
    printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n%s = "=%s"\n' "$1" "$2" > "$f/Cargo.toml"
    (cd "$f" && cargo fetch >&2)
    src="$(ls -d "$CARGO_HOME"/registry/src/*/"$1-$2" | head -1)"
  fi
  echo "$src"
}

setup_rust() {  # name version -> project directory
  local p="$WORK/projects/$1-$2"
  rm -rf "$p" && cp -r "$(crate_source "$1" "$2")" "$p"
  # dependencies, optional ones too (its own Cargo.lock when it ships one), so
  # that rust-analyzer can load it with every feature
  (cd "$p" && cargo fetch >&2)
  echo "$p"
}

# --- Go: Debian source packages under /usr/share/gocode, gopls + go from Debian
GO_PACKAGES=(gopls golang-go golang-github-google-go-cmp-dev golang-github-spf13-pflag-dev)
go_tools() {
  if ! command -v gopls >/dev/null || ! command -v go >/dev/null \
     || [ ! -d /usr/share/gocode/src/github.com/google/go-cmp ] \
     || [ ! -d /usr/share/gocode/src/github.com/spf13/pflag ]; then
    apt-get update >&2
    apt-get install -y "${GO_PACKAGES[@]}" >&2
  fi
  mkdir -p "$WORK/gopath"
  TOOL=gopls
}

setup_go() {
  local src
  case "$1" in
    go-cmp) src=/usr/share/gocode/src/github.com/google/go-cmp ;;
    pflag) src=/usr/share/gocode/src/github.com/spf13/pflag ;;
  esac
  local p="$WORK/projects/$1-$2"
  rm -rf "$p" && cp -r "$src" "$p"
  echo "$p"
}

# --- TypeScript: npm packages that ship their .ts sources, tsserver
typescript_tools() {
  local tools="$WORK/ts-tools"
  mkdir -p "$tools"
  if [ ! -x "$tools/node_modules/.bin/typescript-language-server" ] || [ ! -d "$tools/node_modules/rxjs/src" ] \
     || [ ! -d "$tools/node_modules/mobx/src" ]; then
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error \
      typescript@5.9.3 typescript-language-server@4.4.1 rxjs@7.8.2 mobx@6.16.1 >&2)
  fi
  TOOL="$tools"
}

setup_typescript() {
  local pkg="$WORK/ts-tools/node_modules/$1" p="$WORK/projects/$1-$2"
  rm -rf "$p" && mkdir -p "$p"
  cp -r "$pkg/src" "$pkg/package.json" "$p/"
  case "$1" in
    rxjs)
      cp "$pkg/tsconfig.json" "$p/"
      rm -f "$p/src/Rx.global.js" ;;  # the one .js file: TypeScript sources only
    mobx)
      # mobx ships src/ (with src/global.d.ts) but no tsconfig: a plain strict one
      printf '{ "compilerOptions": { "target": "es2019", "lib": ["es2019", "dom"], "strict": true,\n  "noEmit": true, "downlevelIteration": true, "experimentalDecorators": true }, "include": ["src"] }\n' \
        > "$p/tsconfig.json" ;;
  esac
  echo "$p"
}

wanted() {  # language project: whether the command line selects it
  local s
  for s in "${SELECT[@]}"; do
    [ "$s" = "$1" ] || [ "$s" = "$2" ] && return 0
  done
  return 1
}

SELECT=("$@")
results=()
for entry in "${PROJECTS[@]}"; do
  read -r lang name version <<<"$entry"
  if [ ${#SELECT[@]} -gt 0 ] && ! wanted "$lang" "$name"; then continue; fi
  if ! have_plugin "$lang"; then
    say "$lang: lingo has no $lang plugin in this build; $name skipped"
    continue
  fi
  "${lang}_tools"
  root="$("setup_$lang" "$name" "$version")"
  out="$RESULTS/$lang-$name.json"
  say "$lang: $name $version (sample $SAMPLE, seed $SEED)"
  start=$SECONDS
  python3 "$HERE/measure.py" --lang "$lang" --root "$root" --project "$name $version" \
    --tool "$TOOL" --gopath "$WORK/gopath" --lingo "$LINGO" --lingo-commit "$LINGO_COMMIT" \
    --seed "$SEED" --sample "$SAMPLE" --out "$out" --logs "$WORK/logs"
  say "$lang: $name done in $((SECONDS - start)) s"
  results+=("$out")
done

[ ${#results[@]} -gt 0 ] && python3 "$HERE/report.py" --worst 5 --markdown "$RESULTS/summary.md" "${results[@]}"
