/**
 * SEP-2549 through the built proxy: on a session negotiated at 2026-07-28 the served tools/list carries
 * `ttlMs` and `cacheScope` (the server's own when it sent them, else 0 and private); on an older session
 * the served bytes have neither. The wire server answers initialize with the client's version.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from './helpers.js';
import { INITIALIZED, node, ProxyProcess, WIRE_SERVER } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-hints-');
const init = (version: string) => JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'wire', version: '0' } } });
const LIST = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';

async function listResult(version: string, args: string[] = [], server: string[] = []) {
  const p = new ProxyProcess([...args, '--', node, WIRE_SERVER, ...server]);
  p.send(init(version));
  await p.until(0);
  p.send(INITIALIZED, LIST);
  const { message } = await p.until(1);
  p.end();
  await p.closed;
  return message.result as Record<string, unknown>;
}

beforeAll(() => requireBuild());

describe('proxy: SEP-2549 list cache hints', () => {
  it('2026-07-28: a list without hints gets ttlMs 0 and cacheScope private, after its other members', async () => {
    const r = await listResult('2026-07-28');
    expect(Object.keys(r)).toEqual(['tools', 'ttlMs', 'cacheScope']);
    expect(r.ttlMs).toBe(0);
    expect(r.cacheScope).toBe('private');
    // In session modes too (the hot set beside cold stubs).
    const hot = await listResult('2026-07-28', ['--hot-set']);
    expect([hot.ttlMs, hot.cacheScope]).toEqual([0, 'private']);
  });

  it('2026-07-28: the server\'s own hints are kept as it sent them', async () => {
    const text = join(dir, 'list.json');
    writeFileSync(text, JSON.stringify({ tools: [{ name: 'a', description: 'A.', inputSchema: { type: 'object' } }], ttlMs: 60000, cacheScope: 'public' }));
    const r = await listResult('2026-07-28', [], ['--list-text', text]);
    expect([r.ttlMs, r.cacheScope]).toEqual([60000, 'public']);
  });

  it('2025-06-18: no hints', async () => {
    const r = await listResult('2025-06-18');
    expect(Object.keys(r)).toEqual(['tools']);
  });
});
