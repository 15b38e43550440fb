#!/usr/bin/env python3
"""Start `lingo serve` on an empty compiled-plugin cache and time, from the
spawn, the answers to `initialize`, `tools/list` and the first `outline`
(which waits for the plugins to compile).

    bench/speed/cold_start.py LINGO ROOT   # e.g. target/debug/lingo host/model
"""
import subprocess, time, json, sys, tempfile, os
cache = tempfile.mkdtemp(prefix="lingo-cold-")
start = time.time()
p = subprocess.Popen([sys.argv[1], "serve", "--root", sys.argv[2], "--cache-dir", cache],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def send(m): p.stdin.write((json.dumps(m)+"\n").encode()); p.stdin.flush()
send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}})
p.stdout.readline(); t_init = time.time()-start
send({"jsonrpc":"2.0","method":"notifications/initialized"})
send({"jsonrpc":"2.0","id":2,"method":"tools/list"}); p.stdout.readline(); t_list=time.time()-start
send({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"outline","arguments":{"path":sys.argv[3] if len(sys.argv) > 3 else "src/name.rs"}}})
line=p.stdout.readline(); t_call=time.time()-start
print(f"initialize {t_init:.2f} s, tools/list {t_list:.2f} s, first outline {t_call:.2f} s, ok={'error' not in json.loads(line).get('result',{}).get('structuredContent',{})}")
p.kill()
