#!/usr/bin/env node
// A hand-rolled MCP server over stdio (no SDK) for the proxy's fault tests: every byte it writes is
// chosen here, and it can misbehave on purpose.
//   --tools <file>         the tools it lists (default: demo-tools.json)
//   --big-tools <n>        list n generated tools instead (each ~0.4 kB + 37 bytes × --big-repeat, default 20)
//   --pages <n>            pages of n tools (nextCursor)
//   --list-delay <ms>      answer tools/list after a delay
//   --list-changed         declare capabilities.tools.listChanged
//   --no-tools-capability  declare no tools capability
//   --instructions <text>  the initialize result's instructions
//   --server-name <name>   the initialize result's serverInfo.name (default wire-server)
//   --change-tools <file>  what the change tool replaces the list with (default: adds one tool)
//   --list-text <file>     answer tools/list with this exact text as the result (one line)
//   --list-error           answer tools/list with a JSON-RPC error
//   --init-error           answer initialize with a JSON-RPC error
//   --refuse-early         answer requests before notifications/initialized with an error
//   --banner               print a line that is not JSON on stdout at start
//   --log <file>           append every stdin line as "IN <base64>" and stdout line as "OUT <base64>"
//   --pid <file>           write the process id
//   --ignore-eof           keep running when stdin ends
//   --ignore-term          ignore SIGTERM
// Tools it answers: echo (the arguments as text), crash (exits 3 mid-call), hang (never answers),
// noise (a non-JSON line, then the answer), big (a result of --big-bytes bytes, default 50 MB), exit
// (answers, then exits with arguments.code), change (adds a tool and sends list_changed).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};
const flag = (name) => argv.includes(name);
const log = opt('--log');
if (opt('--pid')) writeFileSync(opt('--pid'), String(process.pid));
if (flag('--ignore-term')) process.on('SIGTERM', () => {});

let tools;
if (opt('--big-tools')) {
  const n = Number(opt('--big-tools'));
  const repeat = Number(opt('--big-repeat') ?? 20);
  tools = [];
  for (let i = 0; i < n; i++) {
    tools.push({
      name: `tool_${i}`,
      description: `Tool number ${i}. ` + 'It does one thing and does it well. '.repeat(repeat),
      inputSchema: { type: 'object', properties: { id: { type: 'integer', description: 'The id of the thing' }, q: { type: 'string' }, opts: { $ref: '#/$defs/Opts' } }, required: ['id'], $defs: { Opts: { type: 'object', properties: { deep: { type: 'boolean' } } }, Unused: { type: 'string' } } },
    });
  }
} else {
  tools = JSON.parse(readFileSync(opt('--tools') ?? new URL('./demo-tools.json', import.meta.url), 'utf8'));
}
const pageSize = Number(opt('--pages') ?? 0);
const listDelay = Number(opt('--list-delay') ?? 0);
const bigBytes = Number(opt('--big-bytes') ?? 50_000_000);
let initialized = false;

const write = (text) => {
  if (log) appendFileSync(log, `OUT ${Buffer.from(text).toString('base64')}\n`);
  process.stdout.write(text + '\n');
};
const reply = (id, result) => JSON.stringify({ jsonrpc: '2.0', id, result });
const fail = (id, code, message) => JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

function handle(msg) {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return fail(null, -32600, 'Invalid Request');
  if (msg.method === 'notifications/initialized') {
    initialized = true;
    return undefined;
  }
  if (msg.id === undefined || typeof msg.method !== 'string') return undefined;
  const { id, method, params } = msg;
  if (flag('--refuse-early') && method !== 'initialize' && method !== 'ping' && !initialized) return fail(id, -32600, 'Received request before initialization was complete');
  switch (method) {
    case 'initialize': {
      if (flag('--init-error')) return fail(id, -32603, 'this server cannot start today');
      const capabilities = flag('--no-tools-capability') ? {} : { tools: flag('--list-changed') ? { listChanged: true } : {} };
      const result = { protocolVersion: params?.protocolVersion ?? '2025-06-18', capabilities, serverInfo: { name: opt('--server-name') ?? 'wire-server', version: '0.0.1' } };
      if (opt('--instructions') !== undefined) result.instructions = opt('--instructions');
      return reply(id, result);
    }
    case 'ping':
      return reply(id, {});
    case 'tools/list': {
      if (flag('--list-error')) return fail(id, -32603, 'tools are not available right now');
      if (opt('--list-text')) return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${readFileSync(opt('--list-text'), 'utf8').trim()}}`;
      const start = Number(params?.cursor ?? 0);
      const page = pageSize ? tools.slice(start, start + pageSize) : tools;
      const next = pageSize && start + pageSize < tools.length ? String(start + pageSize) : undefined;
      const text = reply(id, next === undefined ? { tools: page } : { tools: page, nextCursor: next });
      if (listDelay) {
        setTimeout(() => write(text), listDelay);
        return undefined;
      }
      return text;
    }
    case 'tools/call': {
      const args = params?.arguments ?? {};
      switch (params?.name) {
        case 'crash':
          process.exit(3);
          break;
        case 'hang':
          return undefined;
        case 'noise':
          process.stdout.write('some log line that is not JSON\n');
          return reply(id, { content: [{ type: 'text', text: 'after noise' }] });
        case 'big':
          return reply(id, { content: [{ type: 'text', text: 'x'.repeat(bigBytes) }] });
        case 'exit':
          setTimeout(() => process.exit(Number(args.code ?? 0)), 20);
          return reply(id, { content: [{ type: 'text', text: 'bye' }] });
        case 'change':
          if (opt('--change-tools')) tools = JSON.parse(readFileSync(opt('--change-tools'), 'utf8'));
          else tools.push({ name: `added_${tools.length}`, description: 'Added', inputSchema: { type: 'object' } });
          setTimeout(() => write('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'), 10);
          return reply(id, { content: [{ type: 'text', text: 'changed' }] });
        default:
          return reply(id, { content: [{ type: 'text', text: JSON.stringify(args) }] });
      }
    }
    default:
      return fail(id, -32601, `Method not found: ${method}`);
  }
}

function onLine(line) {
  if (line.trim() === '') return;
  if (log) appendFileSync(log, `IN ${Buffer.from(line).toString('base64')}\n`);
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    write(fail(null, -32700, 'Parse error'));
    return;
  }
  if (Array.isArray(msg)) {
    const out = msg.map(handle).filter((x) => x !== undefined);
    if (out.length > 0) write(`[${out.join(',')}]`);
    return;
  }
  const out = handle(msg);
  if (out !== undefined) write(out);
}

if (flag('--banner')) process.stdout.write('wire-server starting (this line is not JSON)\n');
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buffer += d;
  let nl = buffer.indexOf('\n');
  while (nl !== -1) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    onLine(line);
    nl = buffer.indexOf('\n');
  }
});
process.stdin.on('end', () => {
  if (!flag('--ignore-eof')) process.exit(0);
});
if (flag('--ignore-eof')) setInterval(() => {}, 1000);
