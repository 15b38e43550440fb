#!/bin/sh
# Time to plan and to apply a rename with about 1,000 references on a tree
# of 1M+ lines of Rust (BENCHMARKS.md, "Rename at 1M lines").
#
# The tree: the crates of the local cargo registry in name order, copied
# until they hold a million lines of `.rs` (kept in $WORK/tree; the apply
# writes to it and the rollback restores it). Then `lingo serve` on it, a
# sample of declarations asked find_references, and the one nearest 1,000
# references renamed: planned, applied, rolled back
# (`host/benches/workspace/rename.rs`).
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
work="${WORK:-/tmp/lingo-rename}"
registry="${REGISTRY:-$(ls -d "$HOME"/.cargo/registry/src/*/ | head -n 1)}"
tree="$work/tree"
mkdir -p "$work"

if [ ! -d "$tree" ]; then
    mkdir -p "$tree.partial"
    lines=0
    for crate in $(ls "$registry" | sort); do
        [ "$lines" -ge 1000000 ] && break
        cp -r "$registry/$crate" "$tree.partial/"
        n=$(find "$tree.partial/$crate" -name '*.rs' -print0 | xargs -0 cat | wc -l)
        lines=$((lines + n))
    done
    mv "$tree.partial" "$tree"
fi
files=$(find "$tree" -name '*.rs' | wc -l)
lines=$(find "$tree" -name '*.rs' -print0 | xargs -0 cat | wc -l)
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(uname -sr), load $(cut -d' ' -f1 /proc/loadavg)"
echo "commit: $(git -C "$repo" rev-parse --short HEAD)"
echo "tree: $tree, $(ls "$tree" | wc -l) crates, $files .rs files, $lines lines"

cd "$repo"
cargo build -q -p lingo
driver=$(cargo bench -q -p lingo --bench workspace --no-run --message-format=json |
    sed -n 's/.*"executable":"\([^"]*\/workspace-[^"]*\)".*/\1/p' | tail -n 1)
"$driver" --lingo "$repo/target/debug/lingo" --root "$tree" --cache-dir "$work/cache" \
    --sample "${SAMPLE:-30000}" --rename-near "${NEAR:-1000}"
