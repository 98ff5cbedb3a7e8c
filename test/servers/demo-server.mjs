#!/usr/bin/env node
// A small MCP server over stdio for the CLI tests, built with the official SDK's low-level Server so its
// tools/list is exactly demo-tools.json (plus late_tool once add_tool was called).
//   --pages <n>      serve tools/list in pages of n tools (nextCursor)
//   --log <file>     append every raw stdin chunk as "IN <base64>" and stdout write as "OUT <base64>"
//   --pid <file>     write the process id
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};
const pageSize = Number(opt('--pages') ?? 0);
const log = opt('--log');
const pidFile = opt('--pid');
if (pidFile) writeFileSync(pidFile, String(process.pid));
if (log) {
  process.stdin.on('data', (chunk) => appendFileSync(log, `IN ${Buffer.from(chunk).toString('base64')}\n`));
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    appendFileSync(log, `OUT ${Buffer.from(chunk).toString('base64')}\n`);
    return write(chunk, ...rest);
  };
}

const tools = JSON.parse(readFileSync(new URL('./demo-tools.json', import.meta.url), 'utf8'));
const LATE = {
  name: 'late_tool',
  description: 'Added by add_tool',
  inputSchema: { type: 'object', properties: { n: { $ref: '#/$defs/N', description: 'n' } }, $defs: { N: { type: 'number' }, Unused: { type: 'string' } } },
};

const server = new Server({ name: 'demo-server', version: '1.2.3' }, { capabilities: { tools: {} }, instructions: 'Demo server for toolslim tests' });
server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  if (!pageSize) return { tools };
  const start = Number(request.params?.cursor ?? 0);
  const page = tools.slice(start, start + pageSize);
  const next = start + pageSize < tools.length ? String(start + pageSize) : undefined;
  return next === undefined ? { tools: page } : { tools: page, nextCursor: next };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args = {} } = request.params;
  switch (name) {
    case 'echo':
    case 'get_pet':
    case 'late_tool':
      return { content: [{ type: 'text', text: JSON.stringify(args) }] };
    case 'add_tool':
      if (!tools.some((t) => t.name === LATE.name)) tools.push(LATE);
      setTimeout(() => void server.sendToolListChanged(), 10);
      return { content: [{ type: 'text', text: 'added late_tool' }] };
    case 'exit_server':
      setTimeout(() => process.exit(Number(args.code ?? 0)), 20);
      return { content: [{ type: 'text', text: 'bye' }] };
    default:
      return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] };
  }
});
process.stderr.write('demo-server: ready\n');
await server.connect(new StdioServerTransport());
