// A client of the official MCP TypeScript SDK (`@modelcontextprotocol/client`
// v2, installed by `.ci/install`; NODE_PATH names its node_modules) asking
// lingo what the e2e test `sdk_clients` checks, and printing the answers as
// one JSON object on stdout.
//
//   node client.mjs [--mode M] [--token T] [--project ID] stdio COMMAND ARGS...
//   node client.mjs [--mode M] [--token T] [--project ID] http URL
//
// The workspace is the scratch crate of that test: `src/lib.rs` calls
// `greet::hello()` on its third line, `src/greet.rs` declares `hello`.
// `--mode` is the SDK's version negotiation (`versionNegotiation.mode`):
// `auto` (the default here) probes `server/discover` first and falls back
// to the `initialize` handshake for a 2025-era server; `legacy` (the SDK's
// own default) is the handshake alone.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The SDK is not beside this file: resolve it through NODE_PATH (which
// `require` honours and `import` does not).
const require = createRequire(import.meta.url);
const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');
const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio');
// Its package.json is not exported: read it beside `dist/`.
const sdkEntry = require.resolve('@modelcontextprotocol/client');
const sdkVersion = JSON.parse(
  readFileSync(join(dirname(sdkEntry), '..', 'package.json'), 'utf8'),
).version;

// Options come first; what follows the transport's name is its target
// (the server's command line is passed on untouched).
const args = process.argv.slice(2);
const options = {};
while (args.length >= 2 && ['--mode', '--token', '--project'].includes(args[0])) {
  const [name, value] = args.splice(0, 2);
  options[name.slice(2)] = value;
}
const { mode = 'auto', token, project } = options;
const [transportKind, ...target] = args;

let transport;
if (transportKind === 'stdio') {
  const [command, ...commandArgs] = target;
  // stderr inherited: lingo's log lands in this client's stderr.
  transport = new StdioClientTransport({ command, args: commandArgs, stderr: 'inherit' });
} else if (transportKind === 'http') {
  // A static bearer token: the SDK's simplest `AuthProvider`.
  const auth = token ? { authProvider: { token: async () => token } } : {};
  transport = new StreamableHTTPClientTransport(new URL(target[0]), auth);
} else {
  console.error(
    'usage: client.mjs [--mode auto|legacy] [--token T] [--project ID] (stdio COMMAND ARGS... | http URL)',
  );
  process.exit(2);
}

const client = new Client(
  { name: 'lingo-e2e-ts-sdk', version: '0.1.0' },
  { capabilities: {}, versionNegotiation: { mode } },
);
await client.connect(transport);

// Every tool call names the project on a hosted server.
const withProject = (toolArgs) => (project ? { projectId: project, ...toolArgs } : toolArgs);
const call = async (name, toolArgs) => {
  const result = await client.callTool({ name, arguments: withProject(toolArgs) });
  return {
    isError: result.isError ?? false,
    text: result.content?.find((block) => block.type === 'text')?.text ?? null,
    structuredContent: result.structuredContent ?? null,
  };
};

const tools = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : {});
  tools.push(...page.tools.map((tool) => tool.name));
  cursor = page.nextCursor;
} while (cursor);

// A hosted server indexes in the background: wait (bounded) until
// `hello` is found.
let search;
let searches = 0;
const deadline = Date.now() + 60_000;
do {
  if (searches > 0) await new Promise((resolve) => setTimeout(resolve, 100));
  search = await call('search_symbols', { query: 'hello' });
  searches += 1;
} while (!(search.structuredContent?.symbols?.length > 0) && Date.now() < deadline);

// `greet::hello()` in `    greet::hello()` (line 2, zero-based): `hello` at 11.
const definition = await call('find_definition', { path: 'src/lib.rs', line: 2, character: 11 });
const references = await call('find_references', { symbol: 'hello', path: 'src/greet.rs' });

const report = {
  sdk: '@modelcontextprotocol/client',
  sdkVersion,
  transport: transportKind,
  negotiationMode: mode,
  protocolVersion: client.getNegotiatedProtocolVersion() ?? null,
  serverInfo: client.getServerVersion() ?? null,
  tools,
  searches,
  search,
  definition,
  references,
};
await client.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
