#!/usr/bin/env python3
"""Start `lingo serve` on an empty compiled-plugin cache and time, from the
spawn, the answers to `initialize`, `tools/list` and the first `outline` of
one file; then when every plugin the workspace called runs on optimized
code (health_check's `codeTier`) and when the first index is done (its
`state`), both polled every 0.2 s. Then the same on the cache that start
left (a warm start, with the index database removed so the index is cold).

    bench/speed/cold_start.py LINGO ROOT FILE [ROUNDS]
    # e.g. target/debug/lingo /tmp/lingo-speed/tree tokio/src/runtime/runtime.rs 5
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time


def start(lingo, root, cache, file):
    began = time.time()
    p = subprocess.Popen([lingo, "serve", "--root", root, "--cache-dir", cache, "--toolsets", "default,workspace"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    ids = iter(range(1, 1 << 30))

    def ask(method, params=None):
        message = {"jsonrpc": "2.0", "id": next(ids), "method": method}
        if params is not None:
            message["params"] = params
        p.stdin.write((json.dumps(message) + "\n").encode())
        p.stdin.flush()
        return json.loads(p.stdout.readline())

    ask("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "cold-start", "version": "0"}})
    t_init = time.time() - began
    p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    ask("tools/list")
    t_list = time.time() - began
    answer = ask("tools/call", {"name": "outline", "arguments": {"path": file}})
    t_outline = time.time() - began
    ok = not answer["result"].get("isError") and "declarations" in answer["result"]["content"][0]["text"]
    # Until every compiled plugin runs on optimized code, and until the
    # first index is done (health_check polled; at most 300 s).
    t_optimized = t_indexed = None
    while time.time() - began < 300 and (t_optimized is None or t_indexed is None):
        health = ask("tools/call", {"name": "health_check", "arguments": {"format": "json"}})
        content = health["result"]["structuredContent"]
        tiers = [p["health"].get("codeTier") for p in content["components"]["plugins"] if p.get("health")]
        if t_optimized is None and "baseline" not in tiers:
            t_optimized = time.time() - began
        if t_indexed is None and content["workspace"]["state"] == "Ready":
            t_indexed = time.time() - began
        time.sleep(0.2)
    p.kill()
    p.wait()
    return t_init, t_list, t_outline, ok, t_optimized, t_indexed


def main():
    lingo, root, file = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    rows = {"empty cache": [], "warm cache, cold index": []}
    for _ in range(rounds):
        cache = tempfile.mkdtemp(prefix="lingo-cold-")
        rows["empty cache"].append(start(lingo, root, cache, file))
        shutil.rmtree(os.path.join(cache, "index"), ignore_errors=True)
        rows["warm cache, cold index"].append(start(lingo, root, cache, file))
        shutil.rmtree(cache, ignore_errors=True)
    for name, runs in rows.items():
        med = lambda i: statistics.median(r[i] for r in runs if r[i] is not None)
        print(f"{name}: initialize {med(0):.3f} s, tools/list {med(1):.3f} s, "
              f"first outline {med(2):.2f} s (runs {', '.join(f'{r[2]:.2f}' for r in runs)}), "
              f"all outlines ok: {all(r[3] for r in runs)}, "
              f"no baseline code left {med(4):.1f} s, first index done {med(5):.1f} s "
              f"(median of {len(runs)})")


main()
