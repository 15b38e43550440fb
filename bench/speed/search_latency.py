#!/usr/bin/env python3
"""Latency of search_symbols and outline, one request at a time, next to
ripgrep doing the text search an agent would do instead (BENCHMARKS.md,
"Search and outline latency").

usage: bench/speed/search_latency.py --lingo BIN --root TREE [--cache-dir DIR]
       [--queries 200] [--rounds 3]

The server is `lingo serve` on TREE, spoken to over stdio (newline-delimited
JSON-RPC). The queries are every Nth distinct declared name of the tree (as
`search_symbols` lists them), cut to their first 3 to 8 characters, so that
short and common parts of names are asked as often as they occur; the
outline files are every Nth file of the tree. Each query is asked `rounds`
times; p50 and p99 are over all asks. ripgrep is timed on the same query
(`rg -c -i -F QUERY TREE`, what finds the text without knowing declarations).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lingo", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--cache-dir")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    command = [args.lingo, "serve", "--root", args.root]
    if args.cache_dir:
        command += ["--cache-dir", args.cache_dir]
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    next_id = [0]

    def call(method, params):
        next_id[0] += 1
        message = {"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params}
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()
        while True:
            line = server.stdout.readline()
            if not line:
                sys.exit("the server stopped")
            answer = json.loads(line)
            if answer.get("id") == next_id[0]:
                return answer

    def tool(name, arguments):
        started = time.perf_counter()
        answer = call("tools/call", {"name": name, "arguments": arguments})
        elapsed = time.perf_counter() - started
        if "error" in answer or answer["result"].get("isError"):
            sys.exit(f"{name} {arguments}: {answer}")
        return elapsed, answer["result"]

    call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "search-latency", "version": "1"}})
    server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    server.stdin.flush()
    # The first call waits for the index.

    names, files = set(), set()
    offset = 0
    while True:
        _, result = tool("search_symbols", {"query": ".", "regex": True, "limit": 1000,
                                            "offset": offset, "format": "json"})
        hits = result["structuredContent"]["symbols"]
        for hit in hits:
            names.add(hit["name"])
            files.add(hit["filePath"])
        offset += len(hits)
        if not hits:
            break
    names, files = sorted(names), sorted(files)
    step = max(1, len(names) // args.queries)
    queries = [name[: 3 + i % 6] for i, name in enumerate(names[::step][: args.queries])]
    outline_files = files[:: max(1, len(files) // args.queries)][: args.queries]

    search, outline, ripgrep = [], [], []
    for _ in range(args.rounds):
        for query in queries:
            search.append(tool("search_symbols", {"query": query, "limit": 20})[0])
        for path in outline_files:
            outline.append(tool("outline", {"path": path})[0])
    for query in queries:
        started = time.perf_counter()
        subprocess.run(["rg", "-c", "-i", "-F", query, args.root], stdout=subprocess.DEVNULL)
        ripgrep.append(time.perf_counter() - started)
    server.stdin.close()
    server.wait(timeout=30)

    def row(label, times):
        times = sorted(times)
        p50 = statistics.median(times) * 1000
        p99 = times[int(len(times) * 0.99) - 1] * 1000
        return label, p50, p99, len(times)

    print(f"tree: {args.root}; {len(names)} names sampled from, {len(queries)} queries, "
          f"{len(outline_files)} files, {args.rounds} rounds")
    rows = [row("search_symbols", search), row("outline", outline), row("rg -c -i -F", ripgrep)]
    print("| what | p50 ms | p99 ms | asks |")
    print("|---|--:|--:|--:|")
    for label, p50, p99, count in rows:
        print(f"| {label} | {p50:.2f} | {p99:.2f} | {count} |")
    print(f"rg p50 / search_symbols p50: {rows[2][1] / rows[0][1]:.0f}x")


if __name__ == "__main__":
    main()
