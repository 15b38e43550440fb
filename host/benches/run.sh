#!/bin/sh
# Reproduces the indexing figures of BENCHMARKS.md: builds the `index` bench
# (release profile), runs it once per mode in separate processes so that
# each peak RSS is its own, and prints the machine, both results and the
# plugin/native ratio.
#
# usage: host/benches/run.sh [SOURCE_DIR] [REPEAT]
#   SOURCE_DIR  tree of .rs files (default: $LINGO_BENCH_DIR, else the
#               wasmtime sources in the cargo registry)
#   REPEAT      timed passes per mode, the median is reported (default 3)
set -eu

cd "$(dirname "$0")/../.."
dir="${1:-${LINGO_BENCH_DIR:-}}"
repeat="${2:-3}"

echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
    "$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) RAM, $(uname -sr)"
echo "toolchain: $(rustc --version)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

cargo bench -p lingo --bench index --no-run

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
for mode in native plugin; do
    echo
    if [ -n "$dir" ]; then
        cargo bench -q -p lingo --bench index -- --mode "$mode" --dir "$dir" --repeat "$repeat" | tee -a "$out"
    else
        cargo bench -q -p lingo --bench index -- --mode "$mode" --repeat "$repeat" | tee -a "$out"
    fi
done

echo
awk '
    /^RESULT / {
        for (i = 2; i <= NF; i++) { split($i, kv, "="); value[kv[1]] = kv[2] }
        mode = value["mode"]
        seconds[mode] = value["median_s"]; rate[mode] = value["lines_per_s"]; peak[mode] = value["peak_kib"]
        lines = value["lines"]; files = value["files"]
    }
    END {
        printf "%d files, %d lines\n", files, lines
        printf "%-7s %10s %14s %14s\n", "mode", "median s", "lines/s", "peak RSS MiB"
        printf "%-7s %10.3f %14d %14.1f\n", "native", seconds["native"], rate["native"], peak["native"] / 1024
        printf "%-7s %10.3f %14d %14.1f\n", "plugin", seconds["plugin"], rate["plugin"], peak["plugin"] / 1024
        printf "plugin/native time ratio: %.2f\n", seconds["plugin"] / seconds["native"]
    }
' "$out"
