#!/usr/bin/env python3
"""Cyclomatic complexity of every function, lingo against lizard.

Usage: compare.py LINGO_BINARY LANGUAGE:DIR [LANGUAGE:DIR ...]

For each tree: `lingo serve` is asked `analyze_quality` with every
threshold at 0 (so every function is a finding, with its metrics), and
`lizard --csv` (PyPI `lizard`) is run on the same files. Functions are
matched by file and first line; the script prints, per language, how many
matched, how many agree exactly, the mean absolute difference, and the
largest disagreements, for reading by hand.
"""

import csv
import io
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

LIZARD_LANG = {"rust": "rust", "go": "go", "typescript": "typescript", "csharp": "csharp"}
EXTENSIONS = {"rust": (".rs",), "go": (".go",), "typescript": (".ts",), "csharp": (".cs",)}


def lingo_functions(binary, root):
    """(relative path, 1-based first line) -> (name, cyclomatic)."""
    cache = tempfile.mkdtemp(prefix="lingo-cmp-")
    proc = subprocess.Popen(
        [binary, "serve", "--toolsets", "all", "--root", root, "--cache-dir", cache],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )

    def call(i, method, params):
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n")
        proc.stdin.flush()
        while True:
            message = json.loads(proc.stdout.readline())
            if message.get("id") == i:
                return message

    call(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "cmp", "version": "0"}})
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    thresholds = {k: 0 for k in ["cyclomatic_complexity", "cognitive_complexity", "nesting_depth", "parameter_count", "function_length"]}
    found = {}
    offset, i = 0, 1
    while True:
        answer = call(i, "tools/call", {"name": "analyze_quality", "arguments": {
            "kind": "complexity", "options": {"thresholds": thresholds}, "limit": 5000, "offset": offset, "format": "json"}})
        result = answer["result"]["structuredContent"]
        for finding in result["findings"]:
            where = (finding["location"]["file_path"], finding["location"]["range"]["start"]["line"] + 1)
            found[where] = (finding["symbol"]["symbol"], finding["metrics"]["cyclomatic_complexity"])
        if not result["summary"]["has_more"]:
            break
        offset += len(result["findings"])
        i += 1
    proc.stdin.close()
    proc.wait()
    return found


def lizard_functions(language, root):
    """(relative path, first line) -> (name, CCN)."""
    out = subprocess.run(["lizard", "-l", LIZARD_LANG[language], "--csv", root], capture_output=True, text=True).stdout
    found = {}
    for row in csv.reader(io.StringIO(out)):
        if len(row) < 11:
            continue
        path = os.path.relpath(row[6], root)
        found[(path, int(row[9]))] = (row[7], int(row[1]))
    return found


def main():
    binary = sys.argv[1]
    for spec in sys.argv[2:]:
        language, root = spec.split(":", 1)
        ours = lingo_functions(binary, root)
        theirs = lizard_functions(language, root)
        matched = [(k, ours[k], theirs[k]) for k in sorted(ours) if k in theirs]
        agree = sum(1 for _, a, b in matched if a[1] == b[1])
        diff = sum(abs(a[1] - b[1]) for _, a, b in matched)
        by_delta = defaultdict(int)
        for _, a, b in matched:
            by_delta[a[1] - b[1]] += 1
        print(f"## {language}: {root}")
        print(f"functions: lingo {len(ours)}, lizard {len(theirs)}, matched by file and line {len(matched)}")
        if matched:
            print(f"cyclomatic equal: {agree} ({100 * agree / len(matched):.1f}%), mean |difference| {diff / len(matched):.2f}")
            print("lingo - lizard: " + ", ".join(f"{d:+d}: {n}" for d, n in sorted(by_delta.items())))
            worst = sorted(matched, key=lambda m: -abs(m[1][1] - m[2][1]))[:5]
            for (path, line), a, b in worst:
                if a[1] != b[1]:
                    print(f"  {path}:{line} {a[0]}: lingo {a[1]}, lizard {b[1]}")
        print()


if __name__ == "__main__":
    main()
