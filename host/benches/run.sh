#!/bin/sh
# Reproduces the indexing figures of BENCHMARKS.md. Builds the `index` bench
# (release profile), then, for each language, runs it in ROUNDS rounds of one
# native and one plugin process each (separate processes, so each peak RSS is
# its own; alternating, so both modes see the same machine conditions), and
# once more with the plugins compiled from scratch (no cache) for the cold
# start. Prints the machine, every pass, a summary per language (per mode the
# median over rounds of each process's median pass, the best pass, the
# highest peak RSS, and the median over rounds of the plugin/native time
# ratio), and last a markdown table of all the languages.
#
# usage: host/benches/run.sh [LANGS] [REPEAT] [ROUNDS]
#   LANGS   languages, separated by spaces or commas (default
#           "rust typescript go csharp")
#   REPEAT  timed passes per process (default 5)
#   ROUNDS  native/plugin process pairs (default 3)
#
# The tree of each language (LINGO_BENCH_DIR_<LANG> overrides it):
#   rust        the newest wasmtime-<version> sources in the cargo registry
#               (the bench's default; $LINGO_BENCH_DIR overrides it too)
#   typescript  rxjs 7.8.2 `src/` (npm pack rxjs@7.8.2; bench/accuracy's copy
#               in /tmp/lingo-accuracy/projects is used when present)
#   go          the net/http and encoding packages of the Go standard library
#               (Debian golang-go's GOROOT/src; installed with apt-get if
#               missing), copied to one tree
#   csharp      Python.NET 3.2.1 (PyPI sdist: pip download pythonnet==3.2.1)
# Downloads and copies go to $LINGO_BENCH_WORK (default /tmp/lingo-index-bench)
# and are reused.
set -eu

cd "$(dirname "$0")/../.."
langs="$(echo "${1:-rust typescript go csharp}" | tr ',' ' ')"
repeat="${2:-5}"
rounds="${3:-3}"
work="${LINGO_BENCH_WORK:-/tmp/lingo-index-bench}"

for lang in $langs; do
    case "$lang" in
        rust | typescript | go | csharp) ;;
        *) echo "unknown language: $lang (rust, typescript, go, csharp)" >&2; exit 2 ;;
    esac
done

# Sets `dir` (empty: the bench's default) and `label` for language $1,
# fetching the tree if needed.
tree() {
    override="$(printenv "LINGO_BENCH_DIR_$(echo "$1" | tr '[:lower:]' '[:upper:]')" || true)"
    if [ -n "$override" ]; then
        dir="$override"
        label="$override"
        return
    fi
    mkdir -p "$work"
    case "$1" in
        rust)
            dir=""
            label="" # the bench's tree line names it
            ;;
        typescript)
            label="rxjs 7.8.2 src/ (npm)"
            dir="$work/rxjs-7.8.2/src"
            if [ ! -d "$dir" ] && [ -d /tmp/lingo-accuracy/projects/rxjs-7.8.2/src ]; then
                dir=/tmp/lingo-accuracy/projects/rxjs-7.8.2/src
            elif [ ! -d "$dir" ]; then
                (cd "$work" && npm pack -q rxjs@7.8.2 >/dev/null)
                mkdir -p "$work/rxjs-7.8.2"
                tar xzf "$work/rxjs-7.8.2.tgz" -C "$work/rxjs-7.8.2" --strip-components=1
            fi
            ;;
        go)
            if command -v go >/dev/null 2>&1; then
                goroot="$(go env GOROOT)"
            else
                goroot="$(ls -d /usr/lib/go-*/ 2>/dev/null | sort -V | tail -n 1)"
                if [ -z "$goroot" ]; then
                    apt-get install -y golang-go >&2
                    goroot="$(go env GOROOT)"
                fi
            fi
            version="$(head -n 1 "$goroot/VERSION")"
            label="$version std: net/http, encoding (Debian)"
            dir="$work/$version-std"
            if [ ! -d "$dir" ]; then
                mkdir -p "$dir.tmp/net"
                cp -RL "$goroot/src/net/http" "$dir.tmp/net/"
                cp -RL "$goroot/src/encoding" "$dir.tmp/"
                mv "$dir.tmp" "$dir"
            fi
            ;;
        csharp)
            label="Python.NET 3.2.1 (PyPI sdist)"
            dir="$work/pythonnet-3.2.1"
            if [ ! -d "$dir" ]; then
                [ -f "$work/pythonnet-3.2.1.tar.gz" ] ||
                    pip download -q pythonnet==3.2.1 --no-binary :all: --no-deps -d "$work" >&2
                tar xzf "$work/pythonnet-3.2.1.tar.gz" -C "$work"
            fi
            ;;
    esac
}

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
table="$(mktemp)"
trap 'rm -f "$out" "$table"' EXIT
bench() {
    echo
    if [ -n "$dir" ]; then
        cargo bench -q -p lingo --bench index -- --lang "$lang" --dir "$dir" "$@" | tee -a "$out"
    else
        cargo bench -q -p lingo --bench index -- --lang "$lang" "$@" | tee -a "$out"
    fi
}
for lang in $langs; do
    tree "$lang"
    : >"$out"
    load_before="$(cut -d' ' -f1 /proc/loadavg)"
    round=1
    while [ "$round" -le "$rounds" ]; do
        echo
        echo "== $lang: round $round of $rounds"
        bench --mode native --repeat "$repeat"
        bench --mode plugin --repeat "$repeat"
        round=$((round + 1))
    done
    bench --mode plugin --repeat 1 --no-cache
    load_after="$(cut -d' ' -f1 /proc/loadavg)"
    if [ -z "$label" ]; then
        label="$(sed -n 's/^tree: \(.*\) (.*/\1/p' "$out" | head -n 1)"
        label="$(basename "$label")"
    fi

    echo
    echo "== $lang summary ($rounds rounds x $repeat passes)"
    awk -v lang="$lang" -v label="$label" -v load="$load_before-$load_after" -v table="$table" '
        function median(list, n,    i, j, t) {
            for (i = 2; i <= n; i++)
                for (j = i; j > 1 && list[j - 1] > list[j]; j--) { t = list[j]; list[j] = list[j - 1]; list[j - 1] = t }
            return n % 2 ? list[(n + 1) / 2] : (list[n / 2] + list[n / 2 + 1]) / 2
        }
        function thousands(n,    s) {
            s = sprintf("%d", n)
            while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
            return s
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
            if (value["failures"] > failures) failures = value["failures"]
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
            ratio = median(ratios, r)
            printf "; median %.2f\n", ratio
            printf "| %s | %s | %s | %s | %s | %.1f MiB | %s | %.1f MiB | %.2f | %d | %s |\n", \
                lang, label, thousands(files), thousands(lines), \
                thousands(lines / med["plugin"]), peak["plugin"] / 1024, \
                thousands(lines / med["native"]), peak["native"] / 1024, ratio, failures, load >> table
        }
    ' "$out"
done

echo
echo "== all languages ($rounds rounds x $repeat passes; lines/s of the median pass;" \
    "ratio = median plugin/native time; load = 1-minute load average before-after)"
echo
echo "| language | tree | files | lines | plugin lines/s | plugin peak RSS | native lines/s | native peak RSS | plugin/native time | failed files | load |"
echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|"
cat "$table"
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
