#!/usr/bin/env node
// A hand-written MCP server over stdio for the byte-cap attacks (issue 26 item 8). Every loop is bounded.
//   --page-bytes <n>     each tools/list page carries one tool whose description is n bytes (default 100)
//   --endless-cursor     every page has a nextCursor (a cursor loop); at most 10 000 pages are answered
//   --count <file>       append one line per tools/list request received
// Tools: `endless` answers with a line that never ends (1 MB chunks, at most 64 MB, no newline);
// `id-last` answers with a 2 MB line whose `id` is its last member, as the official SDK writes every
// response ({ result, jsonrpc, id }); any other tool answers { content: [] }.
import { appendFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};
const pageBytes = Number(opt('--page-bytes') ?? 100);
const endless = argv.includes('--endless-cursor');
const count = opt('--count');
let pages = 0;

const write = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');

async function endlessLine(id) {
  process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`);
  const chunk = 'a'.repeat(1024 * 1024);
  for (let i = 0; i < 64; i++) {
    if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once('drain', r));
  }
  // never ends the line: the proxy must not wait for it
}

let buf = '';
process.stdin.on('data', (d) => {
  buf += d.toString('utf8');
  let nl;
  while ((nl = buf.indexOf('\n')) !== -1) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    if (line.trim() === '') continue;
    const msg = JSON.parse(line);
    if (msg.id === undefined) continue;
    if (msg.method === 'initialize') write({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hostile-bytes', version: '1' } } });
    else if (msg.method === 'tools/list') {
      if (count) appendFileSync(count, 'list\n');
      pages++;
      const tool = { name: `t${pages}`, description: 'd'.repeat(pageBytes), inputSchema: { type: 'object' } };
      write({ jsonrpc: '2.0', id: msg.id, result: { tools: [tool], ...(endless && pages < 10_000 ? { nextCursor: `c${pages}` } : {}) } });
    } else if (msg.method === 'tools/call' && msg.params?.name === 'endless') void endlessLine(msg.id);
    else if (msg.method === 'tools/call' && msg.params?.name === 'id-last') write({ result: { content: [{ type: 'text', text: 'a'.repeat(2_000_000) }] }, jsonrpc: '2.0', id: msg.id });
    else if (msg.method === 'tools/call') write({ jsonrpc: '2.0', id: msg.id, result: { content: [] } });
    else write({ jsonrpc: '2.0', id: msg.id, result: {} });
  }
});
process.stdin.on('end', () => process.exit(0));
