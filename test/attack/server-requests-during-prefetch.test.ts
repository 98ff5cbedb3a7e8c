/**
 * Attack (issue 26, item 6): with `--preset max` (the proxy fetches the list before it answers initialize)
 * a server whose `tools/list` waits for the client's answer to its `roots/list` request. Before the fix the
 * proxy held the server's request until the list came: a deadlock, ended after --timeout by a message
 * blaming a slow server. Now the request reaches the client at once; when the client does not answer it,
 * the timeout message names what the server waited for.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../cli/helpers.js';
import { INIT, ProxyProcess, node } from '../cli/proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());
const dir = tempDir('toolslim-roots-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stdio server (no SDK) that answers tools/list only after the client answered its roots/list. */
const SERVER = `
let buf = '';
let waiting = [];
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
process.stdin.on('data', (d) => {
  buf += d;
  let nl;
  while ((nl = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    if (m.method === 'initialize') out({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'roots-first', version: '1' } } });
    else if (m.method === 'tools/list') {
      waiting.push(m.id);
      out({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
    } else if (m.id === 'srv-1' && !m.method) {
      const tools = [{ name: 'files', description: 'Files under ' + JSON.stringify(m.result.roots), inputSchema: { type: 'object' } }];
      for (const id of waiting.splice(0)) out({ jsonrpc: '2.0', id, result: { tools } });
    } else if (m.id !== undefined && m.method) out({ jsonrpc: '2.0', id: m.id, result: {} });
  }
});
process.stdin.on('end', () => process.exit(0));
`;

describe('server→client requests during the list fetch', () => {
  const server = join(dir, 'roots-first.mjs');
  beforeAll(() => writeFileSync(server, SERVER));

  it('a roots/list the server sends while the proxy fetches the list reaches the client, and initialize completes', async () => {
    const p = new ProxyProcess(['--preset', 'max', '--timeout', '5', '--', node, server]);
    try {
      p.send(INIT);
      const request = JSON.parse(await p.next(4000)) as { id: string; method: string };
      expect(request).toEqual({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
      p.send(JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [{ uri: 'file:///tmp/x' }] } }));
      const { message } = await p.until(0, 4000);
      expect((message.result as { serverInfo: { name: string } }).serverInfo.name).toBe('roots-first');
    } finally {
      p.end();
      await p.closed;
    }
  });

  it('a client that never answers: the timeout message names the request the server waits for', async () => {
    const p = new ProxyProcess(['--preset', 'max', '--timeout', '1', '--', node, server]);
    try {
      p.send(INIT);
      const { message, before } = await p.until(0, 6000);
      expect(before.map((l) => (JSON.parse(l) as { method?: string }).method)).toEqual(['roots/list']);
      expect((message.error as { message: string }).message).toMatch(/did not answer tools\/list within 1s \(the server itself is still waiting for the client's answer to roots\/list\)/);
    } finally {
      p.end();
      await p.closed;
    }
  });
});
