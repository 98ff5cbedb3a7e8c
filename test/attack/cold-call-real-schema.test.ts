/**
 * Attack (issue 26, item 3): a cold call is checked against the server's real `inputSchema`, not the form a
 * client profile converted it to. Before the fix, with `--profile gemini` the calls below that the real
 * schema rejects (exclusive minimum, `multipleOf`, an extra property, `propertyNames`, `uniqueItems`) were
 * forwarded; with `--profile openai-strict` the natural call (an optional property left out) was refused;
 * and a call by the server's own name of a renamed tool skipped the check. The verdicts expected here come
 * from the JSON Schema meaning of the hand-written schemas, not from the code under test.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../cli/helpers.js';
import { ProxyProcess, WIRE_SERVER, node, readWireLog } from '../cli/proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());
const dir = tempDir('toolslim-cold-real-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STRICT_TOOL = {
  name: 'check_me',
  description: 'A tool whose schema says more than Gemini reads.',
  inputSchema: {
    type: 'object',
    properties: {
      n: { type: 'number', exclusiveMinimum: 0, multipleOf: 5 },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      meta: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: 'string' } },
    },
    required: ['n'],
    additionalProperties: false,
  },
};

const DOTTED_TOOL = {
  name: 'pets.find',
  description: 'Find pets.',
  inputSchema: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, required: ['q'], additionalProperties: false },
};

/** Sends each call; returns, per call, whether the proxy answered it itself (isError from toolslim) and what reached the server. */
async function calls(args: string[], tools: object[], list: { name: string; arguments: unknown }[]) {
  const file = join(dir, `tools-${Math.random().toString(36).slice(2)}.json`);
  const log = `${file}.log`;
  writeFileSync(file, JSON.stringify(tools));
  const p = new ProxyProcess([...args, '--', node, WIRE_SERVER, '--tools', file, '--log', log]);
  const answered: boolean[] = [];
  try {
    await p.initialize();
    p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    const listed = await p.until(1);
    expect(listed.message.error, p.stderr).toBeUndefined();
    for (const [i, c] of list.entries()) {
      p.send(JSON.stringify({ jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: c }));
      const { message } = await p.until(100 + i);
      const result = message.result as { isError?: boolean; content: { text: string }[] };
      answered.push(result.isError === true && result.content[0]!.text.startsWith('toolslim did not call'));
    }
  } finally {
    p.end();
    await p.closed;
  }
  const reached = readWireLog(log)
    .sent.map((l) => JSON.parse(l) as { method?: string; params?: { name: string; arguments: unknown } })
    .filter((m) => m.method === 'tools/call')
    .map((m) => m.params);
  return { answered, reached };
}

describe('cold calls are checked against the real inputSchema', () => {
  it('--profile gemini: every call the real schema rejects is answered, not forwarded; a valid one is forwarded', async () => {
    const invalid = [{ n: 0 }, { n: 7 }, { n: 5, extra: 1 }, { n: 5, meta: { A1: 'v' } }, { n: 5, tags: ['a', 'a'] }];
    const valid = { n: 10, tags: ['a', 'b'], meta: { ab: 'v' } };
    const { answered, reached } = await calls(['--profile', 'gemini', '--hot-set', '0'], [STRICT_TOOL], [...invalid.map((a) => ({ name: 'check_me', arguments: a })), { name: 'check_me', arguments: valid }]);
    expect(answered).toEqual([true, true, true, true, true, false]);
    expect(reached).toEqual([{ name: 'check_me', arguments: valid }]);
  });

  it('--profile openai-strict: the natural call is forwarded, nulls are dropped, a renamed tool called by its server name is checked', async () => {
    const { answered, reached } = await calls(['--profile', 'openai-strict', '--allow-rejected', '--hot-set', '0'], [DOTTED_TOOL], [
      { name: 'pets_find', arguments: { q: 'cat' } },
      { name: 'pets_find', arguments: { q: 'dog', limit: null } },
      { name: 'pets_find', arguments: { q: 'cat', limit: 0 } },
      { name: 'pets.find', arguments: { q: 1 } },
      { name: 'pets.find', arguments: { q: 'owl', limit: 2 } },
    ]);
    expect(answered).toEqual([false, false, true, true, false]);
    expect(reached).toEqual([
      { name: 'pets.find', arguments: { q: 'cat' } },
      { name: 'pets.find', arguments: { q: 'dog' } },
      { name: 'pets.find', arguments: { q: 'owl', limit: 2 } },
    ]);
  });
});
