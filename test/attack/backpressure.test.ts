/**
 * Attack: a server that floods the client with notifications while the client is not reading. The proxy pauses
 * the server when the client's pipe is full; lines already read keep coming, and each added its own `drain`
 * listener, so 2,000 quick notifications made Node print MaxListenersExceededWarning on the proxy's stderr
 * (the client's log), again after each drain. Found attacking the proxy. Every line must still arrive, in order.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, requireBuild } from '../cli/helpers.js';
import { INIT, INITIALIZED, node } from '../cli/proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());
const dir = tempDir('toolslim-backpressure-');

/** Answers initialize and tools/list; after the list, `count` logging notifications of ~300 bytes each, numbered. */
const FLOOD_SERVER = `
import { createInterface } from 'node:readline';
const write = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
const pad = 'x'.repeat(300);
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.method === 'initialize') write({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {}, logging: {} }, serverInfo: { name: 'flood', version: '1' } } });
  else if (msg.method === 'tools/list') {
    write({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } });
    for (let i = 0; i < Number(process.argv[2]); i++) write({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i + ' ' + pad } });
  } else if (msg.id !== undefined) write({ jsonrpc: '2.0', id: msg.id, result: {} });
});
`;

describe('a flood to a client that is not reading', () => {
  it('arrives whole and in order, with no listener warning on stderr', async () => {
    const server = join(dir, 'flood-server.mjs');
    writeFileSync(server, FLOOD_SERVER);
    const count = 3000;
    const child = spawn(node, [BIN, 'proxy', '--', node, server, String(count)], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    // Not reading stdout yet: the flood (about 1 MB) fills the pipe, and the proxy waits for it to drain.
    child.stdout.pause();
    child.stdin.write(`${INIT}\n${INITIALIZED}\n{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n`);
    await new Promise((r) => setTimeout(r, 1500));
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString('utf8')));
    child.stdout.resume();
    const numbers = () =>
      text
        .split('\n')
        .filter((l) => l.includes('notifications/message'))
        .map((l) => Number(((JSON.parse(l) as { params: { data: string } }).params.data).split(' ')[0]));
    for (let waited = 0; numbers().length < count && waited < 20_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    child.stdin.end();
    await new Promise((r) => child.on('close', r));
    expect(numbers()).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(stderr).not.toMatch(/MaxListenersExceeded|memory leak/);
  });
});
