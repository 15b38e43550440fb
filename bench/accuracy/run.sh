#!/usr/bin/env bash
# Reference accuracy of lingo's find_references against each language's own
# reference tool, end to end: installs the tools, copies the projects to a
# scratch directory, builds lingo, measures each project, prints the tables
# and writes a markdown fragment for BENCHMARKS.md ($RESULTS/summary.md).
#
#   bench/accuracy/run.sh                    # every project of every language lingo has a plugin for
#   bench/accuracy/run.sh rust go            # the projects of some languages
#   bench/accuracy/run.sh indexmap pflag     # some projects, by name
#   LINGO=/tmp/lingo bench/accuracy/run.sh zod zod-paths   # another binary, nothing built
#
# Environment: WORK (scratch directory, default /tmp/lingo-accuracy),
# SAMPLE (declarations per project, default 80), SEED (default 20240611),
# NO_BUILD=1 (use target/debug/lingo as it is), RESULTS (default bench/accuracy/results),
# OVERLOADS=1 (sample overloaded methods and constructors only: <language>-<project>-overloads.json
# and overloads.md instead of summary.md),
# LINGO (the binary measured, default target/debug/lingo; when set nothing is built),
# LINGO_COMMIT (the commit it was built at, for the record; default the checkout's HEAD).
#
# Projects and tools (pinned; sources from crates.io, npm, PyPI and Debian only):
#   rust        regex-syntax 0.8.11, indexmap 2.14.2, tokio 1.54.1, tracing 0.1.44 (crates.io;
#               tokio and tracing declare items inside macro invocations, and their tests/ name
#               the crate)   rust-analyzer (rustup component, + rust-src)
#   go          go-cmp 0.5.9 (golang-github-google-go-cmp-dev),
#               pflag 1.0.6~git20210604 (golang-github-spf13-pflag-dev)   gopls + go from Debian
#   typescript  rxjs 7.8.2 src/ + its tsconfig, mobx 6.16.1 src/ (npm; the tsconfig is written here),
#               zod 4.1.12 src/ + package.json (npm; its tests import the package by its own name,
#               "zod/v4" etc.): as `zod`, resolved through package.json `exports` and its
#               `@zod/source` condition (tsconfig customConditions), and as `zod-paths`,
#               resolved through tsconfig `paths` (package.json without `exports`); the
#               tsconfigs are written here
#               midday at 47d252a (github.com/midday-ai/midday, MIDDAY_GIT: a local clone or
#               snapshot): a bun-workspaces monorepo (packages/*, apps/*) whose packages import
#               each other by name through `exports` maps to their sources, and whose apps have
#               tsconfigs of their own with `paths` aliases (`@/*`, `@api/*`) and `extends` of a
#               package (`@midday/tsconfig/nextjs.json`); measured whole, sampled twice:
#               `midday-app` from apps/dashboard (the `@/` aliases), `midday-packages` from
#               packages/ (imported by name); workspace links made as `bun install` makes them
#               typescript 5.9.3 tsserver via typescript-language-server 4.4.1
#   csharp      keepass2 2.47+dfsg-2 (KeePass/KeePass.csproj, which compiles KeePassLib too),
#               dbus-sharp 0.8.1-2.1 (src/dbus-sharp.csproj) (Debian source packages, `apt-get source`)
#               Roslyn 3.7.0 (SymbolFinder) on Debian's mono, through roslyn/RoslynRefs.cs: the
#               Roslyn DLLs from npm @autorest/csharp@3.0.0-beta.20201217.2, their netstandard2.0
#               dependencies from the public repository Ourpalm/ILRuntime at a pinned commit
#               (ILRUNTIME_GIT: a local clone or snapshot of it; else downloaded), every DLL
#               checked against roslyn/dlls.sha256
#   java        gson 2.14.0 (gson/src/main/java at the tag gson-parent-2.14.0 of github.com/google/gson;
#               GSON_GIT: a local clone or snapshot), jsoup 1.15.3-1 (its src/main/java, Debian
#               source package, `apt-get source`)   javac 17's Compiler Tree API through
#               javac/JavacRefs.java (every name javac binds, one compilation)
#   python      requests 2.34.2, click 8.5.1 (PyPI sdists, `pip download`: their src/ and tests/;
#               the pyrightconfig.json is written here)   pyright 1.1.414 (npm), pyright-langserver
# Results: $RESULTS/<language>-<project>.json (.json.gz over 1 MB).
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
  "rust tokio 1.54.1"
  "rust tracing 0.1.44"
  "go go-cmp 0.5.9"
  "go pflag 1.0.6~git20210604"
  "typescript rxjs 7.8.2"
  "typescript mobx 6.16.1"
  "typescript zod 4.1.12"
  "typescript zod-paths 4.1.12"
  "typescript midday-app 47d252a"
  "typescript midday-packages 47d252a"
  "csharp keepass2 2.47+dfsg-2"
  "csharp dbus-sharp 0.8.1-2.1"
  "java gson 2.14.0"
  "java jsoup 1.15.3-1"
  "python requests 2.34.2"
  "python click 8.5.1"
)

# --- lingo: built once (unless LINGO names a binary), copied so that a rebuild
# during the run cannot change it
if [ -z "${NO_BUILD:-}" ] && [ -z "${LINGO:-}" ]; then
  say "cargo build -p lingo"
  (cd "$REPO" && cargo build -p lingo)
fi
LINGO_GIVEN="${LINGO:-$REPO/target/debug/lingo}"
[ -x "$LINGO_GIVEN" ] || { say "no lingo binary at $LINGO_GIVEN"; exit 1; }
[ "$(realpath "$LINGO_GIVEN")" = "$(realpath -m "$WORK/lingo")" ] \
  || cp -p "$LINGO_GIVEN" "$WORK/lingo"  # -p: its build time goes in the results
LINGO="$WORK/lingo"
# the commit measured: LINGO_COMMIT, or the checkout as it is when the binary
# is copied (bench/ aside)
if [ -z "${LINGO_COMMIT:-}" ]; then
  LINGO_COMMIT="$(git -C "$REPO" rev-parse --short HEAD)"
  [ -n "$(git -C "$REPO" status --porcelain --untracked-files=no -- . ':!bench')" ] \
    && LINGO_COMMIT+="+uncommitted changes"
fi
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

# crate_source: crates.io sources through the cargo registry
# shellcheck source=../lib/crates.sh
source "$HERE/../lib/crates.sh"

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
     || [ ! -d "$tools/node_modules/mobx/src" ] || [ ! -d "$tools/node_modules/zod/src" ]; then
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error \
      typescript@5.9.3 typescript-language-server@4.4.1 rxjs@7.8.2 mobx@6.16.1 zod@4.1.12 >&2)
  fi
  TOOL="$tools"
}

MIDDAY_COMMIT=47d252aab7e3ab28a0027376cfdd6ee83d2e5ccf
setup_midday() {  # -> the monorepo at MIDDAY_COMMIT with its workspace links
  local p="$WORK/projects/midday-${MIDDAY_COMMIT:0:7}" git="${MIDDAY_GIT:-}"
  [ -z "$git" ] && [ -d /work/.mirror/midday-ai+midday/repo ] && git=/work/.mirror/midday-ai+midday/repo
  if [ -z "$git" ]; then
    git="$WORK/midday.git"
    [ -d "$git" ] || git clone --quiet --bare https://github.com/midday-ai/midday "$git" >&2
  fi
  rm -rf "$p" && mkdir -p "$p"
  # Every file of the commit that the snapshot holds (a snapshot lacks files
  # of 4 MiB and more: here one image), through `git cat-file --batch`.
  python3 - "$git" "$MIDDAY_COMMIT" "$p" >&2 <<'PY'
import os, subprocess, sys
from pathlib import Path
git, commit, root = sys.argv[1], sys.argv[2], Path(sys.argv[3])
listing = subprocess.run(["git", "-C", git, "ls-tree", "-r", "-z", commit],
                         capture_output=True, check=True).stdout.split(b"\0")
entries = []
for line in filter(None, listing):
    meta, path = line.split(b"\t", 1)
    mode, kind, sha = meta.split()
    if kind == b"blob":
        entries.append((mode, sha, path.decode()))
batch = subprocess.Popen(["git", "-C", git, "cat-file", "--batch"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for mode, sha, path in entries:
    batch.stdin.write(sha + b"\n")
    batch.stdin.flush()
    header = batch.stdout.readline().split()
    if header[-1] == b"missing":
        print(f"midday: {path} is not in the snapshot", file=sys.stderr)
        continue
    data = batch.stdout.read(int(header[2]))
    batch.stdout.read(1)
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    if mode == b"120000":
        os.symlink(data.decode(), target)
    else:
        target.write_bytes(data)
        if mode == b"100755":
            target.chmod(0o755)
batch.stdin.close()
batch.wait()
PY
  # What `bun install` makes of the workspaces (package.json `workspaces`:
  # packages/*, apps/*): node_modules/<name> links to each member, through
  # which tsserver reads its `exports` and `extends: "@midday/tsconfig/.."`.
  # No other dependency is installed: imports of them are unresolved for
  # both tools. lingo reads package.json and tsconfig.json, not node_modules.
  python3 - "$p" >&2 <<'PY'
import json, os, sys
from pathlib import Path
root = Path(sys.argv[1])
for manifest in sorted([*root.glob("packages/*/package.json"), *root.glob("apps/*/package.json")]):
    name = json.loads(manifest.read_text()).get("name")
    if not name:
        continue
    link = root / "node_modules" / name
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.exists():
        os.symlink(os.path.relpath(manifest.parent, link.parent), link)
PY
  echo "$p"
}

setup_typescript() {
  case "$1" in
    midday-*) setup_midday; return ;;
  esac
  # zod-paths: the zod package, set up another way
  local pkg="$WORK/ts-tools/node_modules/${1%-paths}" p="$WORK/projects/$1-$2"
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
    zod)
      # the tests import "zod", "zod/v4", "zod/v4/core"...: package.json `exports`
      # maps each to its source under the "@zod/source" condition (they also
      # import "vitest", absent: unresolved for both tools)
      printf '{ "compilerOptions": { "strict": true, "target": "es2022", "module": "esnext",
  "moduleResolution": "bundler", "customConditions": ["@zod/source"], "skipLibCheck": true,
  "noEmit": true, "types": [] }, "include": ["src"] }\n' > "$p/tsconfig.json" ;;
    zod-paths)
      # the same sources, the package's own name mapped by tsconfig `paths`
      # instead, as the exports map does (`zod/v4/locales/*` names files);
      # package.json keeps its name but not its `exports`, the only route left
      python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); p.pop("exports"); json.dump(p, open(sys.argv[1],"w"), indent=2)' \
        "$p/package.json"
      printf '{ "compilerOptions": { "strict": true, "target": "es2022", "module": "esnext",
  "moduleResolution": "bundler", "skipLibCheck": true, "noEmit": true, "types": [],
  "baseUrl": ".", "paths": { "zod": ["./src/index.ts"], "zod/v4/locales/*": ["./src/v4/locales/*"],
  "zod/*": ["./src/*/index.ts"] } }, "include": ["src"] }\n' > "$p/tsconfig.json" ;;
  esac
  echo "$p"
}

# --- C#: Roslyn 3.7.0 on mono, Debian source packages
ROSLYN_NPM="@autorest/csharp@3.0.0-beta.20201217.2"
ILRUNTIME_COMMIT=369255a3bd63e7a7694068b85c5f49ac5938b962
ILRUNTIME_DLLS=(  # packages/<id>.<version>/lib/netstandard2.0/<id>.dll in Ourpalm/ILRuntime
  Microsoft.Bcl.AsyncInterfaces.5.0.0 System.Buffers.4.5.1 System.Collections.Immutable.5.0.0
  System.Memory.4.5.4 System.Numerics.Vectors.4.5.0 System.Reflection.Metadata.5.0.0
  System.Runtime.CompilerServices.Unsafe.5.0.0 System.Text.Encoding.CodePages.4.5.1
  System.Threading.Tasks.Extensions.4.5.4
)
ROSLYN_DLLS=(  # from the npm package
  Microsoft.CodeAnalysis Microsoft.CodeAnalysis.CSharp Microsoft.CodeAnalysis.Workspaces
  Microsoft.CodeAnalysis.CSharp.Workspaces System.Composition.AttributedModel
  System.Composition.Convention System.Composition.Hosting System.Composition.Runtime
  System.Composition.TypedParts
)
csharp_tools() {
  local tools="$WORK/cs-tools" lib="$WORK/cs-tools/lib" p id
  if ! command -v mcs >/dev/null || [ ! -f /usr/lib/mono/4.5/Facades/netstandard.dll ]; then
    apt-get update >&2
    apt-get install -y mono-complete >&2  # mono-mcs/mono-runtime alone lack Facades/netstandard.dll
  fi
  mkdir -p "$lib"
  if ! (cd "$lib" && sha256sum --quiet -c "$HERE/roslyn/dlls.sha256" >/dev/null 2>&1); then
    say "fetching the Roslyn DLLs ($ROSLYN_NPM) and their dependencies (ILRuntime $ILRUNTIME_COMMIT)"
    rm -rf "$tools/package" && (cd "$tools" && npm pack --silent "$ROSLYN_NPM" >&2 \
      && tar xzf autorest-csharp-*.tgz && rm -f autorest-csharp-*.tgz)
    for id in "${ROSLYN_DLLS[@]}"; do cp "$tools/package/$id.dll" "$lib/"; done
    local git="${ILRUNTIME_GIT:-}"
    [ -z "$git" ] && [ -d /work/.mirror/Ourpalm+ILRuntime/repo ] && git=/work/.mirror/Ourpalm+ILRuntime/repo
    for p in "${ILRUNTIME_DLLS[@]}"; do
      id="${p%.*.*.*}"  # the package id without its three-part version
      local path="packages/$p/lib/netstandard2.0/$id.dll"
      if [ -n "$git" ]; then
        git --git-dir="$git" show "$ILRUNTIME_COMMIT:$path" > "$lib/$id.dll"
      else
        curl -fsSL -o "$lib/$id.dll" "https://raw.githubusercontent.com/Ourpalm/ILRuntime/$ILRUNTIME_COMMIT/$path"
      fi
    done
    (cd "$lib" && sha256sum --quiet -c "$HERE/roslyn/dlls.sha256" >&2) || { say "DLL checksums differ"; exit 1; }
  fi
  if [ ! -f "$lib/RoslynRefs.exe" ] || [ "$HERE/roslyn/RoslynRefs.cs" -nt "$lib/RoslynRefs.exe" ]; then
    local refs=()
    for p in "$lib"/M*.dll "$lib"/S*.dll; do refs+=("-r:$p"); done
    mcs -nologo -nowarn:1701,1702 -out:"$lib/RoslynRefs.exe" -r:System.Xml.Linq \
      -r:/usr/lib/mono/4.5/Facades/netstandard.dll -r:/usr/lib/mono/4.5/Facades/System.Runtime.dll \
      "${refs[@]}" "$HERE/roslyn/RoslynRefs.cs" >&2
  fi
  cp "$HERE/roslyn/RoslynRefs.exe.config" "$lib/"
  TOOL="$lib/RoslynRefs.exe"
}

deb_source() {  # name debian-version -> the unpacked Debian source package's directory
  local src="$WORK/deb-src/$1-$2"
  if [ ! -d "$src/tree" ]; then
    if ! apt-get source --print-uris "$1=$2" >/dev/null 2>&1; then
      # deb-src lines for the suites the machine already uses
      sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
        > /etc/apt/sources.list.d/lingo-accuracy-deb-src.sources
      apt-get update >&2
    fi
    rm -rf "$src" && mkdir -p "$src"
    (cd "$src" && apt-get source "$1=$2" >&2 && mv "$(find . -mindepth 1 -maxdepth 1 -type d | head -1)" tree)
  fi
  echo "$src/tree"
}

setup_csharp() {  # name debian-version -> project directory (only the compiled projects' folders)
  local src p="$WORK/projects/$1-$2"
  src="$(deb_source "$1" "$2")"
  rm -rf "$p" && mkdir -p "$p"
  case "$1" in
    keepass2) cp -r "$src/KeePass" "$src/KeePassLib" "$p/" ;;
    dbus-sharp) cp -r "$src/src" "$p/" ;;
  esac
  echo "$p"
}

csproj_of() {  # name -> the project files Roslyn loads, relative to the project directory
  case "$1" in
    keepass2) echo KeePass/KeePass.csproj ;;
    dbus-sharp) echo src/dbus-sharp.csproj ;;
  esac
}

# --- Python: sdists from PyPI (pure Python, src/ layout), pyright
# --- Java: gson's main sources at a release tag (GSON_GIT: a local clone or
# snapshot of github.com/google/gson; else cloned), javac's Compiler Tree API
# through javac/JavacRefs.java
java_tools() {
  local tools="$WORK/java-tools"
  command -v javac >/dev/null || { apt-get update >&2; apt-get install -y openjdk-17-jdk-headless >&2; }
  mkdir -p "$tools"
  javac --add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED -d "$tools" "$HERE/javac/JavacRefs.java" >&2
  TOOL="$tools"
  javac -version >&2
}

setup_java() {  # name version -> project directory (the library's main sources)
  local p="$WORK/projects/$1-$2" git="${GSON_GIT:-}" src
  rm -rf "$p" && mkdir -p "$p"
  case "$1" in
    gson)
      [ -z "$git" ] && [ -d /work/.mirror/google+gson/repo ] && git=/work/.mirror/google+gson/repo
      if [ -z "$git" ]; then
        git="$WORK/gson.git"
        [ -d "$git" ] || git clone --quiet --bare https://github.com/google/gson "$git" >&2
      fi
      git -C "$git" archive "gson-parent-$2" gson/src/main/java | tar -x -C "$p"
      ;;
    *)  # a Debian source package: its src/main/java
      src="$(deb_source "$1" "$2")"
      mkdir -p "$p/src/main"
      cp -r "$src/src/main/java" "$p/src/main/"
      ;;
  esac
  echo "$p"
}

java_sources() {  # name -> the source folder javac compiles, relative to the project directory
  case "$1" in
    gson) echo gson/src/main/java ;;
    *) echo src/main/java ;;
  esac
}

python_tools() {
  local tools="$WORK/py-tools"
  mkdir -p "$tools"
  if ! grep -qs '"version": "1.1.414"' "$tools/node_modules/pyright/package.json"; then
    (cd "$tools" && npm install --no-audit --no-fund --loglevel=error pyright@1.1.414 >&2)
  fi
  TOOL="$tools"
}

setup_python() {  # name version -> project directory (the sdist's src/ and tests/)
  local sdists="$WORK/py-sdists" p="$WORK/projects/$1-$2"
  if [ ! -d "$sdists/$1-$2" ]; then
    mkdir -p "$sdists"
    python3 -m pip download --quiet --no-deps --no-binary :all: "$1==$2" -d "$sdists" >&2
    tar xzf "$sdists/$1-$2.tar.gz" -C "$sdists"
  fi
  rm -rf "$p" && mkdir -p "$p"
  cp -r "$sdists/$1-$2/src" "$sdists/$1-$2/tests" "$sdists/$1-$2/pyproject.toml" "$p/"
  # Its own [tool.pyright] covers src/ only (click: and tests/typing): every
  # source directory instead, the package importable from src/, basic mode
  printf '{ "include": ["src", "tests"], "extraPaths": ["src"], "pythonVersion": "3.10",\n  "typeCheckingMode": "basic" }\n' \
    > "$p/pyrightconfig.json"
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
  out="$RESULTS/$lang-$name${OVERLOADS:+-overloads}.json"
  say "$lang: $name $version (sample $SAMPLE, seed $SEED)"
  start=$SECONDS
  extra=()
  if [ "$lang" = csharp ]; then
    for c in $(csproj_of "$name"); do extra+=(--csproj "$c"); done
  fi
  if [ "$lang" = java ]; then extra+=(--source-dir "$(java_sources "$name")"); fi
  # midday: one monorepo, two samples (the whole tree is the truth's and lingo's)
  case "$name" in
    midday-app) extra+=(--sample-under apps/dashboard) ;;
    midday-packages) extra+=(--sample-under packages) ;;
  esac
  if [ -n "${OVERLOADS:-}" ]; then extra+=(--only-overloads); fi
  python3 "$HERE/measure.py" --lang "$lang" --root "$root" --project "$name $version" \
    --tool "$TOOL" "${extra[@]}" --gopath "$WORK/gopath" --lingo "$LINGO" --lingo-commit "$LINGO_COMMIT" \
    --seed "$SEED" --sample "$SAMPLE" --out "$out" --logs "$WORK/logs"
  say "$lang: $name done in $((SECONDS - start)) s"
  # Projects read from a repository's snapshot rather than a package
  # (gson, midday): their source lines are not kept in the results.
  case "$name" in
    gson|midday-*)
      python3 - "$out" <<'PY'
import json, sys
def strip(value):  # a site's `text` and a reference's `line_text`, wherever
    if isinstance(value, dict):
        if "file" in value:
            value.pop("text", None)
        value.pop("line_text", None)
        for v in value.values():
            strip(v)
    elif isinstance(value, list):
        for v in value:
            strip(v)
record = json.load(open(sys.argv[1]))
strip(record["symbols"])
json.dump(record, open(sys.argv[1], "w"), indent=1)
PY
      ;;
  esac
  # A result over 1 MB (tracing's: ten thousand invocations in its
  # generated test crate) is kept gzipped; report.py reads either.
  if [ "$(stat -c %s "$out")" -gt 1000000 ]; then
    gzip -9 -f "$out"
    out="$out.gz"
  else
    rm -f "$out.gz"
  fi
  results+=("$out")
done

summary="$RESULTS/summary.md"
[ -n "${OVERLOADS:-}" ] && summary="$RESULTS/overloads.md"
[ ${#results[@]} -gt 0 ] && python3 "$HERE/report.py" --worst 5 --markdown "$summary" "${results[@]}"
