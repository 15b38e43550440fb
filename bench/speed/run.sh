#!/bin/sh
# Speed and memory of lingo on a 1M+ line Rust tree, next to universal-ctags
# and CodeGraph on the same tree, in one run (BENCHMARKS.md, "Speed at 1M
# lines"):
#
# 1. the tree: `cargo vendor` of a crate depending on tokio, serde, syn,
#    regex, clap, hyper and rayon (made once, kept in $WORK/tree);
# 2. release builds of lingo, the sandbox bench and the workspace driver;
# 3. tree-sitter's parse alone and the plugin code native and as a
#    component, single-threaded (bench/sandbox): the sandbox's cost;
# 4. `lingo index` cold (empty cache), cold with the plugins compiled,
#    warm; ctags -R; CodeGraph init and index when installed;
# 5. the server (host/benches/workspace.rs): a warm restart's time to its
#    first find_references, throughput with 128 requests in flight and one
#    at a time, edits made visible, peak memory.
#
# usage: bench/speed/run.sh            (environment: WORK, default /tmp/lingo-speed;
#                                       CODEGRAPH, default /tmp/codegraph/node_modules/.bin/codegraph)
set -eu

cd "$(dirname "$0")/../.."
repo="$(pwd)"
work="${WORK:-/tmp/lingo-speed}"
tree="$work/tree"
codegraph="${CODEGRAPH:-/tmp/codegraph/node_modules/.bin/codegraph}"
export CODEGRAPH_TELEMETRY=0 CODEGRAPH_NO_DOWNLOAD=1
mkdir -p "$work"

load() { cut -d' ' -f1 /proc/loadavg; }

make_tree() {
    [ -d "$tree" ] && return
    project="$work/project"
    mkdir -p "$project/src"
    cat >"$project/Cargo.toml" <<'EOF'
[package]
name = "speed-tree"
version = "0.1.0"
edition = "2021"
[dependencies]
tokio = { version = "1", features = ["full"] }
serde = { version = "1", features = ["derive"] }
syn = { version = "2", features = ["full"] }
regex = "1"
clap = { version = "4", features = ["derive"] }
hyper = { version = "1", features = ["full"] }
rayon = "1"
EOF
    echo 'fn main() {}' >"$project/src/main.rs"
    # The versions the figures of BENCHMARKS.md were measured on: without
    # the lock, the tree grows with every release of its crates.
    cp "$repo/bench/speed/tree.Cargo.lock" "$project/Cargo.lock"
    (cd "$project" && cargo vendor -q --locked "$tree" >/dev/null)
}

# timed NAME CMD...: wall seconds and peak RSS (MiB) of CMD into NAME.time.
timed() {
    name="$1"
    shift
    /usr/bin/time -f "%e %M" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err"
    read -r wall kib <"$work/$name.time"
    echo "$name: $wall s, $((kib / 1024)) MiB peak (load $(load)): $*"
}

make_tree
files=$(find "$tree" -name '*.rs' -size -4096k | wc -l)
lines=$(find "$tree" -name '*.rs' -size -4096k -print0 | xargs -0 cat | wc -l)
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(uname -sr)"
echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' (uncommitted changes)')"
echo "tree: $tree, $files .rs files, $lines lines"

cargo build -q --release -p lingo -p lingo-bench-sandbox
driver=$(cargo bench -q -p lingo --bench workspace --no-run --message-format=json |
    sed -n 's/.*"executable":"\([^"]*\/workspace-[^"]*\)".*/\1/p' | tail -n 1)
cp "$repo/target/release/lingo" "$work/lingo"
cp "$repo/target/release/sandbox" "$work/sandbox"
cp "$driver" "$work/driver"

echo
echo "== plugin code natively and as a component, one core"
"$work/sandbox" --lang rust --dir "$tree" --passes 1 2>/dev/null | tee "$work/sandbox.out"

echo
echo "== indexing"
rm -rf "$work/cache"
timed lingo_cold_empty "$work/lingo" index --root "$tree" --cache-dir "$work/cache"
rm -rf "$work/cache/index"
timed lingo_cold "$work/lingo" index --root "$tree" --cache-dir "$work/cache"
timed lingo_warm "$work/lingo" index --root "$tree" --cache-dir "$work/cache"
timed ctags ctags -R -f "$work/tags" --fields=+n "$tree"
if [ -x "$codegraph" ]; then
    rm -rf "$tree/.codegraph"
    timed codegraph_init "$codegraph" init -y "$tree"
    timed codegraph_index "$codegraph" index "$tree"
    rm -rf "$tree/.codegraph"
else
    echo "codegraph: not installed ($codegraph)"
fi

echo
echo "== the server"
# The first run builds and saves the graph; the second is the warm restart.
"$work/driver" --root "$tree" --lingo "$work/lingo" --cache-dir "$work/cache" \
    --first Runtime@tokio/src/runtime/runtime.rs --sample 0
"$work/driver" --root "$tree" --lingo "$work/lingo" --cache-dir "$work/cache" \
    --first Runtime@tokio/src/runtime/runtime.rs --sample 200 --edits 5 \
    --load 3000 --in-flight 128 --log "$work/server.log" | tee "$work/server.out"

field() { sed -n "s/^RESULT.* $1=\([^ ]*\).*/\1/p" "$work/server.out"; }
wall() { cut -d' ' -f1 "$work/$1.time"; }
peak() { awk '{ printf "%.0f", $2 / 1024 }' "$work/$1.time"; }
parse=$(sed -n 's/^| parse only (native tree-sitter) | \([0-9.]*\) s.*/\1/p' "$work/sandbox.out")
echo
echo "| figure | value | target |"
echo "|---|--:|--:|"
echo "| cold index (plugins compiled) | $(wall lingo_cold) s | $(awk -v p="$parse" -v c="$(nproc)" 'BEGIN { printf "%.1f", p / c / 0.3 }') s (0.3 x parse on $(nproc) cores) |"
echo "| sandbox / native | $(sed -n 's/^sandbox cost (component \/ native): //p' "$work/sandbox.out") | 1.3 |"
echo "| warm restart to the first find_references | $(field first_answer_s) s | 1 s |"
echo "| find_references + find_definition, 128 in flight | $(field load_rps) req/s, p99 $(field load_p99_ms) ms | 1000 req/s, 50 ms |"
echo "| one edit to the next answer showing it (median) | $(field reindex_median_ms) ms | 50 ms |"
echo "| server peak RSS per line | $(awk -v k="$(field peak_kib)" -v l="$lines" 'BEGIN { printf "%.2f", k * 1024 / l / 1000 }') KB | 0.5 KB |"
echo "| lingo index cold peak RSS per line | $(awk -v m="$(peak lingo_cold)" -v l="$lines" 'BEGIN { printf "%.2f", m * 1048576 / l / 1000 }') KB | 0.5 KB |"
echo "| ctags -R | $(wall ctags) s, $(peak ctags) MiB | |"
if [ -x "$codegraph" ]; then
    echo "| codegraph init / index | $(wall codegraph_init) s / $(wall codegraph_index) s, $(peak codegraph_init) MiB | |"
fi
