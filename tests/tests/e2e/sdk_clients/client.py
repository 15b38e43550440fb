"""A client of the official MCP Python SDK (PyPI `mcp`, in the virtualenv
`.ci/install` makes) asking lingo what the e2e test `sdk_clients` checks,
and printing the answers as one JSON object on stdout.

    python client.py [--mode M] [--token T] [--project ID] stdio COMMAND ARGS...
    python client.py [--mode M] [--token T] [--project ID] http URL

The workspace is the scratch crate of that test: `src/lib.rs` calls
`greet::hello()` on its third line, `src/greet.rs` declares `hello`.

`--mode` is the SDK's version negotiation, `mcp.client.Client(mode=...)`.
`auto`, the SDK's default and this script's: `Client` first probes `server/discover` at the newest
per-request-envelope revision (2026-07-28) and adopts its answer when the
server offers that revision; any JSON-RPC error or a discover result naming
only handshake-era revisions falls back to the `initialize` handshake
(2025-11-25 down to 2024-11-05). `legacy` is the handshake alone. The transport follows from what the client
is given: a URL is Streamable HTTP, `StdioServerParameters` spawns a process.
"""

import asyncio
import importlib.metadata
import json
import sys
import time

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

USAGE = "usage: client.py [--mode auto|legacy] [--token T] [--project ID] (stdio COMMAND ARGS... | http URL)"


def parse(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """The leading options, and the rest: the transport's name and target
    (the server's command line is passed on untouched)."""
    options: dict[str, str] = {}
    while len(args) >= 2 and args[0] in ("--mode", "--token", "--project"):
        options[args[0][2:]] = args[1]
        args = args[2:]
    return options, args


def outcome(result) -> dict:
    text = next((block.text for block in result.content if block.type == "text"), None)
    return {
        "isError": result.is_error,
        "text": text,
        "structuredContent": result.structured_content,
    }


async def main(args: list[str]) -> None:
    options, args = parse(args)
    mode = options.get("mode", "auto")
    token = options.get("token")
    project = options.get("project")
    if len(args) < 2 or args[0] not in ("stdio", "http"):
        sys.exit(USAGE)
    kind, target = args[0], args[1:]
    if kind == "stdio":
        # lingo's log goes to this client's stderr (the SDK's default errlog).
        server = StdioServerParameters(command=target[0], args=target[1:])
    elif token is None:
        server = target[0]
    else:
        # A bearer token: the transport over an HTTP client sending it.
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        server = streamable_http_client(target[0], http_client=http)

    def with_project(arguments: dict) -> dict:
        return {"projectId": project, **arguments} if project else arguments

    async with Client(
        server,
        mode=mode,
        read_timeout_seconds=60,
    ) as client:

        async def call(name: str, arguments: dict) -> dict:
            return outcome(await client.call_tool(name, with_project(arguments)))

        tools: list[str] = []
        cursor = None
        while True:
            page = await client.list_tools(cursor=cursor)
            tools.extend(tool.name for tool in page.tools)
            cursor = page.next_cursor
            if not cursor:
                break

        # A hosted server indexes in the background: wait (bounded) until
        # `hello` is found.
        deadline = time.monotonic() + 60
        searches = 0
        while True:
            search = await call("search_symbols", {"query": "hello"})
            searches += 1
            symbols = (search["structuredContent"] or {}).get("symbols") or []
            if symbols or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)

        # `greet::hello()` in `    greet::hello()` (line 2, zero-based): `hello` at 11.
        definition = await call("find_definition", {"path": "src/lib.rs", "line": 2, "character": 11})
        references = await call("find_references", {"symbol": "hello", "path": "src/greet.rs"})

        server_info = client.server_info
        report = {
            "sdk": "mcp",
            "sdkVersion": importlib.metadata.version("mcp"),
            "transport": kind,
            "negotiationMode": mode,
            "protocolVersion": client.protocol_version,
            "serverInfo": server_info.model_dump(mode="json", exclude_none=True) if server_info else None,
            "tools": tools,
            "searches": searches,
            "search": search,
            "definition": definition,
            "references": references,
        }
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
