/**
 * Attack (issue 26, items 7 and 10, in JSON-RPC batches): what single messages already got, batches get too.
 * - A `tools/call` inside a batch that arrives before the first `tools/list` answer was forwarded without the
 *   cold check (a single call waits for the list and is checked). Now the batch waits for the list, and its
 *   answer stays one batch response.
 * - A `notifications/cancelled` for a member of a batch the proxy answers in part (a `tools/list` beside a
 *   call): the batch response waited for the cancelled member forever, so the other members' answers never
 *   came. Now the member is forgotten (never answered), the cancel is
 *   forwarded, and the batch is answered without it.
 * - A `notifications/cancelled` for a call (alone or in a batch) still held for the first list: the call was
 *   forwarded and answered once the list came. Now it is forgotten: never forwarded, never answered.
 * Expected verdicts come from demo-tools.json (`get_pet` needs an integer `id` ≥ 1), written by hand.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../cli/helpers.js';
import { ProxyProcess, WIRE_SERVER, node, readWireLog } from '../cli/proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());
const dir = tempDir('toolslim-batch-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Msg = { id?: unknown; method?: string; params?: unknown; result?: { isError?: boolean; content?: { text: string }[] }; error?: unknown };
const sentToServer = (log: string) => readWireLog(log).sent.flatMap((l) => [JSON.parse(l) as Msg | Msg[]].flat());

describe('batches', () => {
  it('a tools/call in a batch before the first tools/list is checked: invalid → answered, valid → forwarded, one batch response', async () => {
    const log = join(dir, 'early.log');
    const p = new ProxyProcess(['--hot-set', '0', '--', node, WIRE_SERVER, '--log', log]);
    let answer: Msg[];
    try {
      await p.initialize();
      p.send(
        JSON.stringify([
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_pet', arguments: { id: 0 } } },
          { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_pet', arguments: { id: 4 } } },
        ]),
      );
      answer = JSON.parse(await p.next(10_000)) as Msg[];
    } finally {
      p.end();
      await p.closed;
    }
    expect(Array.isArray(answer)).toBe(true);
    const byId = new Map(answer.map((m) => [m.id, m]));
    expect([...byId.keys()].sort()).toEqual([2, 3]);
    expect(byId.get(2)!.result!.isError).toBe(true);
    expect(byId.get(2)!.result!.content![0]!.text).toMatch(/^toolslim did not call `get_pet`/);
    expect(byId.get(3)!.error).toBeUndefined();
    const calls = sentToServer(log).filter((m) => m.method === 'tools/call');
    expect(calls.map((m) => m.params)).toEqual([{ name: 'get_pet', arguments: { id: 4 } }]);
  });

  it('a cancelled batch member is forgotten: the cancel is forwarded, the batch is answered without it, it never is', async () => {
    const log = join(dir, 'cancel.log');
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--log', log]);
    const lines: string[] = [];
    try {
      await p.initialize();
      p.send(JSON.stringify([{ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'hang', arguments: {} } }, { jsonrpc: '2.0', id: 6, method: 'tools/list' }]));
      p.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}}');
      p.send('{"jsonrpc":"2.0","id":7,"method":"ping"}');
      const { before } = await p.until(7, 10_000);
      lines.push(...before);
      // The batch's answer may come after 7's: read (bounded) until it is there.
      for (let i = 0; i < 3 && !lines.some((l) => l.startsWith('[')); i++) lines.push(await p.next(5000));
    } finally {
      p.end();
    }
    for (let i = 0; i < 5; i++) {
      const line = await p.next(3000).catch(() => undefined);
      if (line === undefined) break;
      lines.push(line);
    }
    await p.closed;
    const batches = lines.filter((l) => l.startsWith('[')).map((l) => JSON.parse(l) as Msg[]);
    expect(batches.map((b) => b.map((m) => m.id))).toEqual([[6]]);
    expect(lines.flatMap((l) => [JSON.parse(l) as Msg | Msg[]].flat()).filter((m) => m.id === 5)).toEqual([]);
    expect(sentToServer(log).filter((m) => m.method === 'notifications/cancelled').map((m) => m.params)).toEqual([{ requestId: 5, reason: 'user' }]);
  });

  /** Sends `msgs` to a proxy whose server answers tools/list after 1.5 s, then cancels `cancel`; every line back. */
  async function cancelWhileHeld(name: string, msgs: string, cancel: number): Promise<{ lines: string[]; log: string }> {
    const log = join(dir, name);
    const p = new ProxyProcess(['--hot-set', '0', '--', node, WIRE_SERVER, '--log', log, '--list-delay', '1500']);
    const lines: string[] = [];
    try {
      await p.initialize();
      p.send(msgs);
      p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${cancel},"reason":"user"}}`);
      // The client's own list comes after the held calls were decided (the proxy fetches one list for both).
      p.send('{"jsonrpc":"2.0","id":90,"method":"tools/list"}');
      lines.push(...(await p.until(90, 15_000)).before);
      p.send('{"jsonrpc":"2.0","id":91,"method":"ping"}');
      lines.push(...(await p.until(91, 10_000)).before);
    } finally {
      p.end();
    }
    for (let i = 0; i < 5; i++) {
      const line = await p.next(2000).catch(() => undefined);
      if (line === undefined) break;
      lines.push(line);
    }
    await p.closed;
    return { lines, log };
  }

  it('a call alone cancelled while it waits for the first list is never forwarded nor answered', async () => {
    const { lines, log } = await cancelWhileHeld('held-alone.log', JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_pet', arguments: { id: 4 } } }), 7);
    expect(lines.flatMap((l) => [JSON.parse(l) as Msg | Msg[]].flat()).filter((m) => m.id === 7)).toEqual([]);
    expect(sentToServer(log).filter((m) => m.method === 'tools/call')).toEqual([]);
    expect(sentToServer(log).filter((m) => m.method === 'notifications/cancelled').map((m) => m.params)).toEqual([{ requestId: 7, reason: 'user' }]);
  });

  it('a batch member cancelled while the batch waits for the first list is dropped; the rest is answered', async () => {
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'get_pet', arguments: { id: 4 } } },
      { jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'get_pet', arguments: { id: 0 } } },
    ]);
    const { lines, log } = await cancelWhileHeld('held-batch.log', batch, 11);
    const batches = lines.filter((l) => l.startsWith('[')).map((l) => JSON.parse(l) as Msg[]);
    expect(batches.map((b) => b.map((m) => m.id))).toEqual([[12]]);
    expect(batches[0]![0]!.result!.isError).toBe(true);
    expect(lines.flatMap((l) => [JSON.parse(l) as Msg | Msg[]].flat()).filter((m) => m.id === 11)).toEqual([]);
    expect(sentToServer(log).filter((m) => m.method === 'tools/call')).toEqual([]);
  });
});
