/**
 * Attack (issue 26, item 7): the list-changed reveal.
 * - A cold tool called with invalid arguments, the server having declared `tools.listChanged`: the proxy
 *   said on stderr that it sent `notifications/tools/list_changed` and did not send it (it did only when
 *   the call was forwarded). Now both reveal paths send it.
 * - A `tools/call` that comes before the client's first `tools/list` was forwarded unchecked (the session
 *   did not exist yet). Now it waits for the list and is checked like any other.
 * Expected verdicts come from demo-tools.json (`get_pet` needs an integer `id` ≥ 1), written by hand.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../cli/helpers.js';
import { ProxyProcess, WIRE_SERVER, node, readWireLog } from '../cli/proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());
const dir = tempDir('toolslim-reveal-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const calledOnServer = (log: string) => readWireLog(log).sent.filter((l) => (JSON.parse(l) as { method?: string }).method === 'tools/call');

describe('the list-changed reveal and calls before the first list', () => {
  it('an invalid cold call under --reveal list-changed sends notifications/tools/list_changed, as stderr says', async () => {
    const log = join(dir, 'a.log');
    const p = new ProxyProcess(['--hot-set', '0', '--reveal', 'list-changed', '--', node, WIRE_SERVER, '--list-changed', '--log', log]);
    try {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      await p.until(1);
      p.send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_pet","arguments":{"id":"not a number"}}}');
      const { message, before } = await p.until(2);
      expect((message.result as { isError: boolean }).isError).toBe(true);
      expect(before).toEqual(['{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}']);
    } finally {
      p.end();
      await p.closed;
    }
    expect(p.stderr).toMatch(/revealed `get_pet`.*notifications\/tools\/list_changed sent/);
    expect(calledOnServer(log)).toEqual([]);
  });

  it('a tools/call before the first tools/list is checked: invalid → answered, valid → forwarded', async () => {
    const log = join(dir, 'b.log');
    const p = new ProxyProcess(['--hot-set', '0', '--', node, WIRE_SERVER, '--log', log]);
    try {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_pet","arguments":{"id":0}}}');
      const invalid = await p.until(2);
      expect((invalid.message.result as { isError: boolean; content: { text: string }[] }).content[0]!.text).toMatch(/^toolslim did not call `get_pet`/);
      p.send('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_pet","arguments":{"id":4}}}');
      const valid = await p.until(3);
      expect(valid.message.error).toBeUndefined();
    } finally {
      p.end();
      await p.closed;
    }
    expect(calledOnServer(log).map((l) => (JSON.parse(l) as { params: unknown }).params)).toEqual([{ name: 'get_pet', arguments: { id: 4 } }]);
  });
});
