"""Minimal stdio clients: an LSP client (Content-Length framing) for the
reference tools (rust-analyzer, typescript-language-server, gopls,
roslyn/RoslynRefs.cs, pyright-langserver) and an MCP client
(newline-delimited JSON-RPC) for `lingo serve`.

Standard library only (Python 3.11).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path


def file_uri(path: Path) -> str:
    return Path(path).resolve().as_uri()


def uri_path(uri: str) -> Path:
    from urllib.parse import unquote, urlparse

    return Path(unquote(urlparse(uri).path))


class LspError(RuntimeError):
    def __init__(self, message: str, code: int | None = None):
        super().__init__(message)
        self.code = code


class LspClient:
    """Speaks LSP to a server process; answers the server's own requests with
    neutral values so that it never blocks on the client."""

    def __init__(self, argv: list[str], cwd: Path, env: dict | None = None, log: Path | None = None):
        self.log = open(log, "wb") if log else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env={**os.environ, **(env or {})},
        )
        self.next_id = 0
        self.pending: dict[int, queue.Queue] = {}
        self.notifications: queue.Queue = queue.Queue()
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # -- framing
    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        with self.lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    for q in self.pending.values():
                        q.put({"error": {"message": "server exited"}})
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = out.read(length)
            message = json.loads(body)
            if "method" in message and "id" in message:
                self._answer_server_request(message)
            elif "method" in message:
                self.notifications.put(message)
            else:
                q = self.pending.pop(message.get("id"), None)
                if q is not None:
                    q.put(message)

    def _answer_server_request(self, message: dict) -> None:
        method = message["method"]
        if method == "workspace/configuration":
            items = message.get("params", {}).get("items", [])
            result = [self.configuration(item.get("section")) for item in items]
        else:
            # window/workDoneProgress/create, client/registerCapability, ...
            result = None
        self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def configuration(self, section):
        return None

    # -- API
    def request(self, method: str, params, timeout: float = 600, retries: int = 20):
        """One request; retried while the server answers ContentModified or
        RequestCancelled (it is still loading)."""
        for attempt in range(retries):
            try:
                return self._request(method, params, timeout)
            except LspError as e:
                if e.code not in (-32801, -32800, -32802) or attempt == retries - 1:
                    raise
                time.sleep(1)

    def _request(self, method: str, params, timeout: float):
        self.next_id += 1
        rid = self.next_id
        q: queue.Queue = queue.Queue()
        self.pending[rid] = q
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        try:
            reply = q.get(timeout=timeout)
        except queue.Empty:
            raise LspError(f"{method}: no answer in {timeout} s")
        if "error" in reply:
            raise LspError(f"{method}: {reply['error']}", reply["error"].get("code"))
        return reply.get("result")

    def notify(self, method: str, params) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_notification(self, predicate, timeout: float) -> dict | None:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                message = self.notifications.get(timeout=left)
            except queue.Empty:
                return None
            if predicate(message):
                return message

    def drain_notifications(self) -> None:
        while True:
            try:
                self.notifications.get_nowait()
            except queue.Empty:
                return

    def initialize(self, root: Path, initialization_options=None, experimental=None):
        capabilities = {
            "workspace": {"configuration": True, "workspaceFolders": True},
            "textDocument": {
                "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
                "references": {},
                "synchronization": {"didSave": False},
            },
            "window": {"workDoneProgress": True},
            "general": {"positionEncodings": ["utf-16"]},
        }
        if experimental:
            capabilities["experimental"] = experimental
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": file_uri(root),
                "rootPath": str(root),
                "workspaceFolders": [{"uri": file_uri(root), "name": root.name}],
                "capabilities": capabilities,
                "initializationOptions": initialization_options,
            },
        )
        self.notify("initialized", {})
        return result

    def did_open(self, path: Path, language_id: str) -> None:
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": file_uri(path),
                    "languageId": language_id,
                    "version": 1,
                    "text": Path(path).read_text(encoding="utf-8", errors="replace"),
                }
            },
        )

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=30)
            self.notify("exit", None)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class McpClient:
    """`lingo serve` over newline-delimited JSON-RPC."""

    def __init__(self, argv: list[str], log: Path | None = None):
        self.log = open(log, "wb") if log else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log
        )
        self.next_id = 0

    def _send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params):
        self.next_id += 1
        rid = self.next_id
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("lingo exited")
            message = json.loads(line)
            if message.get("id") == rid:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def initialize(self):
        result = self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "lingo-accuracy-bench", "version": "1"},
            },
        )
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return result

    def call(self, tool: str, arguments: dict) -> tuple[bool, dict]:
        """(is_error, payload) of one tools/call."""
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        payload = result.get("structuredContent")
        if payload is None:
            text = "".join(c.get("text", "") for c in result.get("content", []))
            payload = json.loads(text) if text else {}
        return bool(result.get("isError")), payload

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)
        except Exception:
            self.proc.kill()


if __name__ == "__main__":
    sys.exit("a library; run measure.py")
