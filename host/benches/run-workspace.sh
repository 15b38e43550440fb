#!/bin/sh
# Reproduces "Workspace index and graph (500k+ lines)" of BENCHMARKS.md, end
# to end and idempotently:
#
# 1. builds the tree from scratch (outside the repository): named crate
#    versions copied from the cargo registry, the `src/` of named npm
#    packages (fetched once with `npm pack`), and counts its lines per
#    language;
# 2. builds lingo (`cargo build -p lingo`: the dev profile, opt-level 1, deps
#    at 2) and the `workspace` bench driver;
# 3. times `lingo index` cold (empty cache dir), cold with the compiled
#    plugins cached, warm (unchanged tree, facts from SQLite), and after
#    editing one file, each under /usr/bin/time -v;
# 4. runs the driver (`lingo serve`: graph build, find_references and
#    dependents_of p50/p99, re-index after an edit, peak memory);
# 5. in the same run, universal-ctags and CodeGraph on the same tree;
# 6. prints a markdown table with the load average next to each figure.
#
# The machine may be shared: every indexing step runs in ROUNDS rounds (each
# round runs all tools one after the other, so they see the same conditions),
# and the table gives the median, the range and the load before each round.
#
# usage: host/benches/run-workspace.sh [SAMPLE] [EDITS] [ROUNDS]
#   SAMPLE  symbols sampled for the latency figures (default 200)
#   EDITS   one-file edits timed in the server (default 5)
#   ROUNDS  rounds of the indexing steps (default 3)
# environment:
#   LINGO_BENCH_TREE   the tree (default /tmp/lingo-bench-tree; deleted and rebuilt)
#   LINGO_BENCH_WORK   caches, logs and outputs (default /tmp/lingo-bench-work)
#   LINGO_BENCH_NPM    npm tarballs (default /tmp/lingo-bench-npm; kept)
#   CODEGRAPH          the codegraph CLI (default /tmp/codegraph/node_modules/.bin/codegraph;
#                      install: npm install --prefix /tmp/codegraph @colbymchenry/codegraph)
#   LINGO_BENCH_RELEASE=1  also time `lingo index` built with --release
set -eu

cd "$(dirname "$0")/../.."
repo="$(pwd)"
sample="${1:-200}"
edits="${2:-5}"
rounds="${3:-3}"
tree="${LINGO_BENCH_TREE:-/tmp/lingo-bench-tree}"
work="${LINGO_BENCH_WORK:-/tmp/lingo-bench-work}"
npm_dir="${LINGO_BENCH_NPM:-/tmp/lingo-bench-npm}"
codegraph="${CODEGRAPH:-/tmp/codegraph/node_modules/.bin/codegraph}"
# CodeGraph must run offline: no telemetry, no bundle download.
export CODEGRAPH_TELEMETRY=0 CODEGRAPH_NO_DOWNLOAD=1

# The tree: crate versions from the cargo registry, npm packages' src/.
crates="wasmtime-48.0.8 cranelift-codegen-0.135.8 tokio-1.54.1 regex-automata-0.4.18 serde_json-1.0.154"
packages="effect@3.10.0 rxjs@7.8.1"
# What lingo indexes (the built-in plugins' extensions) and skips.
extensions="rs ts tsx js go cs"
skipped_dirs="target node_modules vendor bin obj dist build"

load() { cut -d' ' -f1 /proc/loadavg; }

machine() {
    cpu_field() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -n 1; }
    echo "machine: $(nproc) CPUs, $(cpu_field 'model name') (family $(cpu_field 'cpu family')," \
        "model $(cpu_field 'model'), $(cpu_field 'cpu MHz') MHz)," \
        "$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) RAM," \
        "$(uname -sr)$(grep -q hypervisor /proc/cpuinfo && echo ', virtual machine')"
    echo "toolchain: $(rustc --version)"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
    echo "ctags: $(ctags --version | head -n 1)"
    echo "codegraph: $("$codegraph" --version 2>/dev/null || echo 'not installed')"
    echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
}

registry_src() {
    for dir in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
        [ -d "$dir/tokio-1.54.1" ] && { echo "$dir"; return; }
    done
    echo "no cargo registry with the crates (build lingo once first)" >&2
    exit 1
}

build_tree() {
    src="$(registry_src)"
    rm -rf "$tree"
    mkdir -p "$tree/rust" "$tree/ts" "$npm_dir"
    for crate in $crates; do
        [ -d "$src/$crate" ] || { echo "missing crate $crate in $src" >&2; exit 1; }
        cp -r "$src/$crate" "$tree/rust/$crate"
    done
    for package in $packages; do
        name="${package%@*}"
        version="${package##*@}"
        tarball="$npm_dir/$name-$version.tgz"
        [ -f "$tarball" ] || (cd "$npm_dir" && npm pack --silent "$package" >/dev/null)
        mkdir -p "$work/unpack" && rm -rf "$work/unpack/package"
        tar -xzf "$tarball" -C "$work/unpack"
        cp -r "$work/unpack/package/src" "$tree/ts/$name-$version"
    done
}

# Files lingo indexes: the extensions, outside skipped and hidden folders.
indexed_files() {
    prune=""
    for d in $skipped_dirs; do prune="$prune -name $d -o"; done
    # shellcheck disable=SC2086
    find "$tree" -mindepth 1 \( $prune -name '.*' \) -prune -o -type f -name "*.$1" -print0
}

count_lines() {
    echo "tree: $tree"
    total=0
    for ext in $extensions; do
        files=$(indexed_files "$ext" | tr -cd '\0' | wc -c)
        lines=$(indexed_files "$ext" | xargs -0 -r cat | wc -l)
        [ "$files" -gt 0 ] && echo "  .$ext: $files files, $lines lines"
        total=$((total + lines))
    done
    echo "  total: $total lines (wc -l)"
    for part in "$tree"/rust/* "$tree"/ts/*; do
        printf '    %-32s %8s lines\n' "$(basename "$part")" \
            "$(find "$part" -type f \( -name '*.rs' -o -name '*.ts' -o -name '*.tsx' -o -name '*.js' \) -print0 | xargs -0 cat | wc -l)"
    done
    tree_lines=$total
}

# timed NAME CMD...: run CMD under /usr/bin/time -v; stdout to
# NAME.ROUND.out, stderr to NAME.ROUND.err; records the round, wall seconds,
# peak RSS, the load average before the run and the exit status in
# results.tsv.
timed() {
    name="$1"
    shift
    out="$work/$name.$round"
    before="$(load)"
    status=0
    /usr/bin/time -v -o "$out.time" "$@" >"$out.out" 2>"$out.err" || status=$?
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {
        n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$out.time")
    rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$out.time")
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$round" "$wall" "$rss" "$before" "$status" >>"$work/results.tsv"
    echo "$name (round $round): ${wall} s wall, ${rss} MiB peak RSS, exit $status (load before $before)"
    echo "  command: $*"
}

# step_stat NAME COLUMN median|min|max|list: over the rounds of a step (columns:
# 3 wall, 4 peak RSS, 5 load, 6 exit status).
step_stat() {
    awk -F'\t' -v n="$1" -v c="$2" -v what="$3" '
        $1 == n { v[++k] = $c }
        END {
            if (k == 0) exit
            for (i = 2; i <= k; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            if (what == "median") print (k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2)
            else if (what == "min") print v[1]
            else if (what == "max") print v[k]
        }' "$work/results.tsv"
}
# The values of COLUMN of step NAME in round order, comma-separated.
list() { awk -F'\t' -v n="$1" -v c="$2" '$1 == n { printf "%s%s", sep, $c; sep = ", " }' "$work/results.tsv"; }
json_field() { sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" "$work/$1.1.out" | head -n 1; }

lingo_index() {
    name="$1"
    cache="$2"
    timed "$name" "$work/lingo" index --root "$tree" --cache-dir "$cache"
    echo "  $(cat "$work/$name.$round.out")"
}

measure_lingo() {
    # Cold: nothing cached (components compiled by Cranelift, every file analysed).
    rm -rf "$work/cache"
    lingo_index lingo_cold_empty "$work/cache"
    # Cold with the compiled components cached: drop only the index database.
    rm -rf "$work/cache/index"
    lingo_index lingo_cold_cached "$work/cache"
    # Warm restart: unchanged tree, facts loaded from SQLite.
    lingo_index lingo_warm "$work/cache"
    # One file edited: the restart re-analyses it alone.
    cp "$edit_file" "$work/edited.orig"
    echo "// lingo bench edit" >>"$edit_file"
    lingo_index lingo_edit "$work/cache"
    cp "$work/edited.orig" "$edit_file"
    if [ "${LINGO_BENCH_RELEASE:-0}" = 1 ]; then
        rm -rf "$work/cache-release"
        timed lingo_release_cold_empty "$work/lingo-release" index --root "$tree" --cache-dir "$work/cache-release"
        rm -rf "$work/cache-release/index"
        timed lingo_release_cold_cached "$work/lingo-release" index --root "$tree" --cache-dir "$work/cache-release"
    fi
}

measure_server() {
    echo "load before the server run: $(load)"
    server_load="$(load)"
    rm -f "$work/server.out" "$work/server.log"
    "$work/workspace-driver" --root "$tree" --lingo "$work/lingo" --cache-dir "$work/cache" \
        --sample "$sample" --edits "$edits" --log "$work/server.log" >"$work/server.out" ||
        { cat "$work/server.out"; echo "the workspace driver failed" >&2; exit 1; }
    cat "$work/server.out"
    echo "from the server log (refresh and graph build times inside the server):"
    grep -E 'workspace refreshed|symbol graph built' "$work/server.log" |
        sed -E 's/.*(generation: [0-9]+).*(analyzed: [0-9]+, loaded: [0-9]+).*(elapsed_ms: [0-9]+).*/  refresh \1, \2, \3/;
                s/.*symbol graph built (nodes=[0-9]+ edges=[0-9]+).*(elapsed_ms=[0-9]+).*/  graph \1 \2/'
}

measure_ctags() {
    rm -f "$work/tags" "$work/tags-langs"
    timed ctags_all ctags -R -f "$work/tags" --fields=+n "$tree"
    echo "  $(grep -vc '^!_' "$work/tags") tags"
    timed ctags_langs ctags -R -f "$work/tags-langs" --fields=+n --languages=Rust,TypeScript,JavaScript "$tree"
    echo "  $(grep -vc '^!_' "$work/tags-langs") tags"
}

measure_codegraph() {
    if ! [ -x "$codegraph" ]; then
        echo "codegraph not installed at $codegraph" >&2
        return
    fi
    rm -rf "$tree/.codegraph"
    timed codegraph_init "$codegraph" init -y "$tree"
    tail -n 12 "$work/codegraph_init.$round.out" | grep -v '^[│ ]*$' | sed 's/^/  /'
    timed codegraph_index "$codegraph" index "$tree"
    tail -n 6 "$work/codegraph_index.$round.out" | grep -v '^[│ ]*$' | sed 's/^/  /'
    cp "$edit_file" "$work/edited.orig"
    echo "// lingo bench edit (codegraph)" >>"$edit_file"
    timed codegraph_sync "$codegraph" sync "$tree"
    cp "$work/edited.orig" "$edit_file"
    tail -n 6 "$work/codegraph_sync.$round.out" | grep -v '^[│ ]*$' | sed 's/^/  /'
    [ "$round" = 1 ] && { "$codegraph" status "$tree" 2>&1 | sed -n '/Files by Language/,/^ *$/p' | sed 's/^/  /' || true; }
    # The tree stays as lingo indexes it: CodeGraph's database is hidden, but remove it.
    rm -rf "$tree/.codegraph"
}

server_field() { sed -n "s/^RESULT.* $1=\([^ ]*\).*/\1/p" "$work/server.out"; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
lines_per_s() { awk -v l="$tree_lines" -v s="$1" 'BEGIN { if (s > 0) printf "%.0f", l / s; else print "n/a" }'; }

# One row of the indexing table: median wall time (range), lines/s at the
# median, highest peak RSS, the load before each round.
row() { # name label
    [ -n "$(step_stat "$1" 3 median)" ] || return 0
    median="$(step_stat "$1" 3 median)"
    failed="$(awk -F'\t' -v n="$1" '$1 == n && $6 != 0 { k++ } END { print k + 0 }' "$work/results.tsv")"
    echo "| $2 | $median s ($(step_stat "$1" 3 min)-$(step_stat "$1" 3 max)) | $(lines_per_s "$median") |" \
        "$(step_stat "$1" 4 max) MiB | $(list "$1" 5) |$([ "$failed" = 0 ] || echo " $failed failed")"
}

table() {
    echo
    echo "## results ($tree_lines lines; lines/s = tree lines / median wall time; $rounds rounds)"
    echo
    echo "lingo index reports: $(json_field lingo_cold_empty files) files, $(json_field lingo_cold_empty lines) lines," \
        "$(json_field lingo_cold_empty symbols) symbols; plugins $(sed -n 's/.*"plugins":\(\[[^]]*\]\).*/\1/p' "$work/lingo_cold_empty.1.out")"
    echo
    echo "| step | wall, median (min-max) | lines/s | peak RSS (max) | load (1 min) before each round |"
    echo "|---|---:|---:|---:|---:|"
    row lingo_cold_empty "lingo index, cold (empty cache dir)"
    row lingo_cold_cached "lingo index, cold (compiled plugins cached)"
    row lingo_warm "lingo index, warm restart (facts from SQLite)"
    row lingo_edit "lingo index, restart after editing one file"
    if [ "${LINGO_BENCH_RELEASE:-0}" = 1 ]; then
        row lingo_release_cold_empty "lingo index --release build, cold (empty cache dir)"
        row lingo_release_cold_cached "lingo index --release build, cold (plugins cached)"
    fi
    row ctags_all "ctags -R (all languages it knows)"
    row ctags_langs "ctags -R --languages=Rust,TypeScript,JavaScript"
    if [ -n "$(step_stat codegraph_init 3 median)" ]; then
        row codegraph_init "codegraph init -y (includes the first full index)"
        row codegraph_index "codegraph index (full re-index)"
        row codegraph_sync "codegraph sync after editing one file"
    fi
    echo
    echo "| server (lingo serve, load $server_load before) | value |"
    echo "|---|---:|"
    echo "| ready (spawn to health_check with files; SQLite warm) | $(server_field ready_s) s |"
    echo "| graph build (first find_references) | $(server_field graph_build_ms) ms |"
    echo "| find_references p50 / p99 ($(server_field refs_n) calls) | $(server_field refs_p50_ms) / $(server_field refs_p99_ms) ms |"
    echo "| find_references errors | $(server_field refs_errors) ($(server_field refs_error_codes)) |"
    echo "| dependents_of p50 / p99 ($(server_field deps_n) calls) | $(server_field deps_p50_ms) / $(server_field deps_p99_ms) ms |"
    echo "| dependents_of errors | $(server_field deps_errors) ($(server_field deps_error_codes)) |"
    echo "| re-index after editing one file, median of $(server_field reindex_n) (max) | $(server_field reindex_median_ms) ms ($(server_field reindex_max_ms) ms) |"
    echo "| peak RSS (VmHWM) | $(awk -v k="$(server_field peak_kib)" 'BEGIN { printf "%.1f", k / 1024 }') MiB |"
    echo
    med() { step_stat "$1" 3 median; }
    peak() { step_stat "$1" 4 max; }
    echo "ratios (lingo / other; medians of wall time, highest peak RSS):"
    echo "- lingo cold (empty cache) / ctags -R: $(ratio "$(med lingo_cold_empty)" "$(med ctags_all)");" \
        "/ ctags three languages: $(ratio "$(med lingo_cold_empty)" "$(med ctags_langs)")"
    echo "- lingo cold (plugins cached) / ctags three languages: $(ratio "$(med lingo_cold_cached)" "$(med ctags_langs)")"
    if [ -n "$(med codegraph_init)" ]; then
        echo "- lingo cold (empty cache) / codegraph init: $(ratio "$(med lingo_cold_empty)" "$(med codegraph_init)");" \
            "lingo cold (plugins cached) / codegraph index: $(ratio "$(med lingo_cold_cached)" "$(med codegraph_index)")"
        echo "- lingo restart after one edit / codegraph sync: $(ratio "$(med lingo_edit)" "$(med codegraph_sync)")"
        echo "- peak RSS lingo cold / codegraph init: $(ratio "$(peak lingo_cold_empty)" "$(peak codegraph_init)")"
    fi
    echo "- peak RSS lingo cold / ctags -R: $(ratio "$(peak lingo_cold_empty)" "$(peak ctags_all)")"
}

# Build lingo and the driver, and copy both into the work directory: the
# checkout is shared, and a rebuild of target/debug/lingo in the middle of the
# run (new plugin fingerprints) would invalidate the stored facts.
build_binaries() {
    cargo build -q -p lingo
    cp "$repo/target/debug/lingo" "$work/lingo"
    if [ "${LINGO_BENCH_RELEASE:-0}" = 1 ]; then
        cargo build -q --release -p lingo
        cp "$repo/target/release/lingo" "$work/lingo-release"
    fi
    driver=$(cargo bench -q --profile dev -p lingo --bench workspace --no-run --message-format=json |
        sed -n 's/.*"executable":"\([^"]*\/workspace-[^"]*\)".*/\1/p' | tail -n 1)
    cp "$driver" "$work/workspace-driver"
    echo "lingo (dev profile: opt-level 1, dependencies 2): sha256 $(sha256sum "$work/lingo" | cut -c1-16)"
}

main() {
    mkdir -p "$work"
    : >"$work/results.tsv"
    machine
    echo
    echo "== building the tree"
    build_tree
    count_lines
    echo
    echo "== building lingo (dev profile) and the driver"
    build_binaries
    # The file the CLI edit steps touch: a mid-sized file of the tree.
    edit_file="$tree/rust/tokio-1.54.1/src/sync/barrier.rs"
    round=1
    while [ "$round" -le "$rounds" ]; do
        echo
        echo "== round $round of $rounds: lingo index"
        measure_lingo
        echo
        echo "== round $round of $rounds: ctags"
        measure_ctags
        echo
        echo "== round $round of $rounds: codegraph"
        measure_codegraph
        round=$((round + 1))
    done
    echo
    echo "== lingo serve"
    measure_server
    table
    echo
    echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
}

main
