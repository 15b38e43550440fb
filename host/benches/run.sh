#!/bin/sh
# Reproduces the indexing figures of BENCHMARKS.md. Builds the `index` bench
# (release profile), then runs it in ROUNDS rounds of one native and one
# plugin process each (separate processes, so each peak RSS is its own;
# alternating, so both modes see the same machine conditions), and once more
# with the plugin compiled from scratch (no cache) for the cold start. Prints
# the machine, every pass, and a summary: per mode the median over rounds of
# each process's median pass, the best pass, the highest peak RSS, and the
# median over rounds of the plugin/native time ratio.
#
# usage: host/benches/run.sh [SOURCE_DIR] [REPEAT] [ROUNDS]
#   SOURCE_DIR  tree of .rs files ("" or absent: $LINGO_BENCH_DIR, else the
#               wasmtime sources in the cargo registry)
#   REPEAT      timed passes per process (default 5)
#   ROUNDS      native/plugin process pairs (default 3)
set -eu

cd "$(dirname "$0")/../.."
dir="${1:-${LINGO_BENCH_DIR:-}}"
repeat="${2:-5}"
rounds="${3:-3}"

cpu_field() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -n 1; }
echo "machine: $(nproc) CPUs, $(cpu_field 'model name') (family $(cpu_field 'cpu family')," \
    "model $(cpu_field 'model'), $(cpu_field 'cpu MHz') MHz)," \
    "$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) RAM," \
    "$(uname -sr)$(grep -q hypervisor /proc/cpuinfo && echo ', virtual machine')"
echo "toolchain: $(rustc --version)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

cargo bench -p lingo --bench index --no-run

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
bench() {
    echo
    if [ -n "$dir" ]; then
        cargo bench -q -p lingo --bench index -- --dir "$dir" "$@" | tee -a "$out"
    else
        cargo bench -q -p lingo --bench index -- "$@" | tee -a "$out"
    fi
}
round=1
while [ "$round" -le "$rounds" ]; do
    echo
    echo "== round $round of $rounds"
    bench --mode native --repeat "$repeat"
    bench --mode plugin --repeat "$repeat"
    round=$((round + 1))
done
bench --mode plugin --repeat 1 --no-cache

echo
echo "== summary ($rounds rounds x $repeat passes)"
awk '
    function median(list, n,    i, j, t) {
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && list[j - 1] > list[j]; j--) { t = list[j]; list[j] = list[j - 1]; list[j - 1] = t }
        return n % 2 ? list[(n + 1) / 2] : (list[n / 2] + list[n / 2 + 1]) / 2
    }
    /^RESULT / {
        delete value
        for (i = 2; i <= NF; i++) { split($i, kv, "="); value[kv[1]] = kv[2] }
        mode = value["mode"]
        if (value["cache"] == "false") { cold = value["setup_s"]; next }
        lines = value["lines"]; files = value["files"]
        n[mode]++
        medians[mode, n[mode]] = value["median_s"]
        if (!(mode in best) || value["best_s"] < best[mode]) best[mode] = value["best_s"]
        if (value["peak_kib"] > peak[mode]) peak[mode] = value["peak_kib"]
        setup[mode] = value["setup_s"]
        if (mode == "plugin") ratios[++r] = value["median_s"] / medians["native", n["native"]]
    }
    END {
        printf "%d files, %d lines\n", files, lines
        printf "%-7s %10s %12s %8s %12s %14s %9s\n", "mode", "median s", "lines/s", "best s", "best lines/s", "peak RSS MiB", "setup s"
        for (m = 0; m < 2; m++) {
            mode = m == 0 ? "native" : "plugin"
            for (i = 1; i <= n[mode]; i++) list[i] = medians[mode, i]
            med[mode] = median(list, n[mode])
            printf "%-7s %10.3f %12d %8.3f %12d %14.1f %9.3f\n", mode, med[mode], lines / med[mode], best[mode], lines / best[mode], peak[mode] / 1024, setup[mode]
        }
        printf "plugin setup without the compiled-component cache: %.3f s\n", cold
        printf "plugin/native time ratio per round:"
        for (i = 1; i <= r; i++) printf " %.2f", ratios[i]
        printf "; median %.2f\n", median(ratios, r)
    }
' "$out"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
