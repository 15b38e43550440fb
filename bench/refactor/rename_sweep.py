#!/usr/bin/env python3
"""Renames every Nth declaration of a project with lingo and lets the
language's compiler judge each result.

The project is copied; `lingo serve` runs on the copy. Each picked
declaration (of the kinds asked for, in path and line order, from
`outline`) is renamed to its name + `Swept` with `dryRun: false` and no
`force`, the compiler runs, and the rename is rolled back. A rename
passes when the compiler reports no error it did not report before (errors
compared as (file, code) counts: a rename moves positions); a refusal
(a name clash, uses resolved by name only, a shorthand the plugin cannot
write out) is counted as such, not as a failure. After each rollback the
copy's files must be byte for byte what they were.

  rename_sweep.py --lingo target/debug/lingo --project DIR \\
      --compile 'tsc -p tsconfig.json --noEmit' --error 'error TS' \\
      --extension .ts --kinds property,method,field --every 10 --limit 40
"""
import argparse
import collections
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def files_of(root, extension):
    out = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
        for name in sorted(names):
            if name.endswith(extension):
                out.append(os.path.relpath(os.path.join(folder, name), root))
    return out


def digest(root):
    h = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "node_modules"]
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                h[os.path.relpath(path, root)] = hashlib.sha256(f.read()).hexdigest()
    return h


class Server:
    def __init__(self, lingo, root, cache):
        self.process = subprocess.Popen(
            [lingo, "serve", "--root", root, "--cache-dir", cache, "--structured-output"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "rename-sweep", "version": "1"}})
        self.notify("notifications/initialized")

    def notify(self, method):
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")
        self.process.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.process.stdin.write(json.dumps(
            {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n")
        self.process.stdin.flush()
        while True:
            message = json.loads(self.process.stdout.readline())
            if message.get("id") == self.next_id:
                return message

    def call(self, tool, arguments):
        """The structured answer, or (None, error code)."""
        while True:
            reply = self.request("tools/call", {"name": tool, "arguments": arguments})
            if "error" in reply:
                return None, f"JSON-RPC {reply['error']['code']}"
            result = reply["result"].get("structuredContent", {})
            if reply["result"].get("isError"):
                code = result.get("error", {}).get("code", "UNKNOWN")
                if code in ("FILE_NOT_INDEXED", "REQUEST_TIMEOUT"):
                    time.sleep(1)  # the first index is under way
                    continue
                return None, code
            return result, None

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)


def compile_errors(command, root, pattern):
    run = subprocess.run(command, shell=True, cwd=root, capture_output=True, text=True)
    lines = (run.stdout + run.stderr).splitlines()
    errors = collections.Counter()
    for line in lines:
        if pattern in line:
            file = re.split(r"[(:]", line, maxsplit=1)[0]
            code = re.search(pattern + r"\s*(\S*)", line)
            errors[(file, code.group(1) if code else "")] += 1
    return errors, lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lingo", required=True)
    parser.add_argument("--project", required=True)
    parser.add_argument("--compile", required=True, help="shell command run in the copy")
    parser.add_argument("--error", required=True, help="text marking a compiler error line")
    parser.add_argument("--extension", required=True)
    parser.add_argument("--kinds", default="property,method,field,function,class,interface")
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--work", default=None)
    parser.add_argument("--out", default=None, help="JSON result file")
    args = parser.parse_args()

    work = args.work or tempfile.mkdtemp(prefix="rename-sweep-")
    copy = os.path.join(work, "copy")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(args.project, copy, symlinks=True,
                    ignore=shutil.ignore_patterns(".git"))
    baseline, _ = compile_errors(args.compile, copy, args.error)
    print(f"baseline: {sum(baseline.values())} compiler errors", file=sys.stderr)
    original = digest(copy)
    server = Server(os.path.abspath(args.lingo), copy, os.path.join(work, "cache"))

    kinds = set(args.kinds.split(","))
    eligible = []
    for path in files_of(copy, args.extension):
        answer, _ = server.call("outline", {"path": path, "format": "json"})
        stack = list((answer or {}).get("outline", []))
        while stack:
            item = stack.pop()
            stack.extend(item.get("children", []))
            if item.get("type") in kinds:
                eligible.append((path, item["line"], item["name"], item.get("containerName")))
    eligible.sort()
    picked = eligible[args.every // 2::args.every][: args.limit]
    print(f"{len(eligible)} eligible declarations, {len(picked)} picked (every {args.every}th)",
          file=sys.stderr)

    results = []
    for path, line, name, container in picked:
        symbol = f"{container}.{name}" if container else name
        new_name = name + "Swept"
        started = time.time()
        # The declaration by its position: its name's first match on its
        # line (by name when the line does not show it).
        with open(os.path.join(copy, path), encoding="utf-8", errors="replace") as f:
            text = f.read().split("\n")[line - 1]
        column = re.search(r"\b" + re.escape(name) + r"\b", text)
        target = ({"path": path, "line": line - 1, "character": len(text[: column.start()].encode("utf-16-le")) // 2}
                  if column else {"symbol": symbol, "path": path})
        applied, refused = server.call(
            "rename", {**target, "new_name": new_name, "dryRun": False})
        record = {"path": path, "line": line, "symbol": symbol}
        if refused:
            record["outcome"] = f"refused {refused}"
        else:
            record["files"] = len(applied.get("applied_files", []))
            errors, lines = compile_errors(args.compile, copy, args.error)
            new = errors - baseline
            record["outcome"] = "compiles" if not new else "breaks"
            if new:
                record["new_errors"] = [
                    l for l in lines
                    if args.error in l and any(l.startswith(f) and c in l for f, c in new)
                ][:5]
            _, failed = server.call("rollback", {"snapshot_id": applied["snapshot_id"]})
            restored = not failed and digest(copy) == original
            if not restored:
                record["outcome"] += ", rollback differs"
        record["seconds"] = round(time.time() - started, 1)
        results.append(record)
        print(f"{record['outcome']:>32}  {symbol} ({path}:{line})", file=sys.stderr)
    server.stop()

    outcomes = collections.Counter(r["outcome"] for r in results)
    print(json.dumps({"eligible": len(eligible), "picked": len(picked), "outcomes": outcomes},
                     indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"project": args.project, "compile": args.compile, "every": args.every,
                       "results": results, "outcomes": outcomes}, f, indent=1)
    return 1 if any(r["outcome"].startswith("breaks") or "differs" in r["outcome"]
                    for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
