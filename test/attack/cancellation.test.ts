/**
 * Attack (issue 26, item 10): a request the client cancels (`notifications/cancelled`) is forgotten — no
 * answer, no memory — and the cancellation reaches the server. Before the fix the proxy kept it pending
 * and, when the client left, answered it with an error, which MCP says not to do.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../cli/helpers.js';
import { ProxyProcess, WIRE_SERVER, node, readWireLog } from '../cli/proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());
const dir = tempDir('toolslim-cancel-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cancellations', () => {
  it('a cancelled call is forwarded as cancelled and never answered, also when the client leaves', async () => {
    const log = join(dir, 'wire.log');
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--log', log]);
    const lines: string[] = [];
    try {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"hang","arguments":{}}}');
      p.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}}');
      p.send('{"jsonrpc":"2.0","id":6,"method":"ping"}');
      const { before } = await p.until(6);
      lines.push(...before);
    } finally {
      p.end();
    }
    // Whatever the proxy still writes before it exits: never an answer to 5.
    for (let i = 0; i < 5; i++) {
      const line = await p.next(5000).catch(() => undefined);
      if (line === undefined) break;
      lines.push(line);
    }
    await p.closed;
    expect(lines.filter((l) => (JSON.parse(l) as { id?: unknown }).id === 5)).toEqual([]);
    const sent = readWireLog(log).sent.map((l) => JSON.parse(l) as { method?: string; params?: unknown });
    expect(sent.filter((m) => m.method === 'notifications/cancelled').map((m) => m.params)).toEqual([{ requestId: 5, reason: 'user' }]);
  });
});
