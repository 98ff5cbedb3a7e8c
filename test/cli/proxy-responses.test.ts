/**
 * `toolslim proxy --project / --response-budget` (issue 28), through the built binary with the SDK Client.
 * Expected values come from the server itself, called directly (no proxy), projected and paged by hand in
 * this file: a field list written out, byte lengths counted with Buffer.byteLength.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, requireBuild, run } from './helpers.js';
import { node } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const RECORDS = join(ROOT, 'test', 'servers', 'records-server.mjs');
const dir = tempDir('toolslim-responses-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => requireBuild());

type Result = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: unknown; _meta?: Record<string, unknown> };

async function connect(proxyArgs: readonly string[] | undefined): Promise<{ client: Client; stderr: () => string }> {
  const args = proxyArgs === undefined ? [RECORDS] : [BIN, 'proxy', ...proxyArgs, '--', node, RECORDS];
  const transport = new StdioClientTransport({ command: node, args, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'responses-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as unknown as Result;
const serverCalls = async (client: Client) => Number((await call(client, 'call_count')).content[0]!.text);
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

let direct: Client;
beforeAll(async () => {
  direct = (await connect(undefined)).client;
});
afterAll(async () => direct?.close());

describe('proxy: projection and byte-budget pages', () => {
  it('serves ~110 KB of records in pages within the budget: each parses, together they are the projected original, the server is called once', async () => {
    const original = JSON.parse((await call(direct, 'list_items')).content[0]!.text) as Record<string, unknown>[];
    expect(bytes(JSON.stringify(original))).toBeGreaterThan(100_000);
    const projected = original.map((r) => ({ id: r.id, title: r.title, category: r.category }));

    const stats = join(dir, 'paged.jsonl');
    const { client } = await connect(['--project', 'list_items=id,title,category', '--response-budget', 'list_items=8000', '--stats', stats]);
    try {
      const tools = (await client.listTools()).tools;
      const served = tools.find((t) => t.name === 'list_items')!;
      expect(served.description).toBe('List issues.\n\nReturns only id, title, category of each record; at most 8 KB of records per page (pass `page`: 2, 3, … for the next pages; each page says how many there are).');
      expect(served.inputSchema.properties).toEqual({ query: { type: 'string' }, page: expect.objectContaining({ type: 'integer', minimum: 1 }) });
      // A tool without a policy is served as the server sent it.
      const directTools = (await direct.listTools()).tools;
      expect(tools.find((t) => t.name === 'not_json')).toEqual(directTools.find((t) => t.name === 'not_json'));

      const before = await serverCalls(client);
      const pages: Result[] = [await call(client, 'list_items', { query: 'x' })];
      const meta = () => pages.at(-1)!._meta!['toolslim/page'] as { page: number; pages: number; nextPage: number | null };
      while (meta().nextPage !== null && pages.length < 100) pages.push(await call(client, 'list_items', { query: 'x', page: meta().nextPage }));
      expect(await serverCalls(client)).toBe(before + 1);

      const n = pages.length;
      expect(n).toBeGreaterThan(1);
      const union: unknown[] = [];
      pages.forEach((p, i) => {
        const text = p.content[0]!.text;
        const rows = JSON.parse(text) as unknown[];
        expect(bytes(text)).toBeLessThanOrEqual(8000);
        // Full pages: the next record would not have fitted.
        if (i < n - 1) expect(bytes(text) + 1 + bytes(JSON.stringify(projected[union.length + rows.length]))).toBeGreaterThan(8000);
        union.push(...rows);
        expect(p._meta!['toolslim/page']).toEqual({ page: i + 1, pages: n, nextPage: i + 1 < n ? i + 2 : null });
        expect(p.content[1]!.text).toBe(i + 1 < n ? `page ${i + 1} of ${n}; call again with page: ${i + 2} for the next` : `page ${n} of ${n}: the last`);
        expect(p.isError).toBeUndefined();
      });
      expect(union).toEqual(projected);

      // Out of range and the wrong type: isError results, the server not called.
      const past = await call(client, 'list_items', { query: 'x', page: n + 1 });
      expect(past.isError).toBe(true);
      expect(past.content[0]!.text).toBe(`toolslim: \`page\` ${n + 1} is past the last page: this result of \`list_items\` has ${n} pages (page 1 to ${n}).`);
      for (const bad of ['2', 1.5, 0, -1, null]) {
        const r = await call(client, 'list_items', { query: 'x', page: bad });
        expect(r.isError, JSON.stringify(bad)).toBe(true);
        expect(r.content[0]!.text).toContain('`page` must be a whole number from 1');
      }
      expect(await serverCalls(client)).toBe(before + 1);

      // --stats: the first page as the client got it, next to what the server sent; later pages answered by toolslim.
      const lines = readFileSync(stats, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.tool === 'list_items');
      expect(lines[0]).toMatchObject({ resultBytes: bytes(JSON.stringify(pages[0])), page: 1, pages: n, records: original.length, fields: ['id', 'title', 'category', 'owner', 'labels', 'body'] });
      expect(lines[0]!.upstreamBytes as number).toBeGreaterThan(100_000);
      expect(lines[1]).toMatchObject({ answered: true, page: 2, pages: n, resultBytes: bytes(JSON.stringify(pages[1])) });
    } finally {
      await client.close();
    }
  });

  it('a record larger than the budget is never cut: an isError result names it, its size and the budget', async () => {
    const original = JSON.parse((await call(direct, 'big_record')).content[0]!.text) as unknown[];
    const size = bytes(JSON.stringify(original[3]));
    expect(size).toBeGreaterThan(5000);
    const { client } = await connect(['--response-budget', 'big_record=2000', '--response-budget', 'list_paged=50']);
    try {
      const r = await call(client, 'big_record');
      expect(r.isError).toBe(true);
      expect(r.content[0]!.text).toBe(
        `toolslim could not page this result of \`big_record\`: record 3 alone is ${size} bytes of compact JSON (a page holding only it needs ${size + 2} bytes), over the budget of 2000 bytes per page. A record is never cut. Keep fewer fields of each record (a projection: --project big_record=id,title,category) or raise --response-budget big_record.`,
      );
      // A budget below the smallest page (`[]` plus the first record).
      const tiny = await call(client, 'list_paged');
      expect(tiny.isError).toBe(true);
      expect(tiny.content[0]!.text).toContain('record 0 alone is');
    } finally {
      await client.close();
    }
  });

  it('pages come from the stored result even when the server would now answer differently; a tool with its own `page` gets `toolslim_page`', async () => {
    const { client } = await connect(['--response-budget', 'changing=1500', '--response-budget', 'list_paged=20000']);
    try {
      const tools = (await client.listTools()).tools;
      const paged = tools.find((t) => t.name === 'list_paged')!;
      expect(Object.keys(paged.inputSchema.properties!)).toEqual(['page', 'toolslim_page']);
      expect(paged.description).toContain('(pass `toolslim_page`: 2, 3, …');

      const first = await call(client, 'changing');
      const second = await call(client, 'changing', { page: 2 });
      const ids = [...JSON.parse(first.content[0]!.text), ...JSON.parse(second.content[0]!.text)].map((r: { id: number }) => r.id);
      // One call reached the server: every id is from that call's range, in order.
      expect(ids[0]).toBe(ids.at(-1)! - ids.length + 1);
      const again = await call(client, 'changing');
      expect(JSON.parse(again.content[0]!.text)[0].id).not.toBe(ids[0]);

      const before = await serverCalls(client);
      const p1 = await call(client, 'list_paged', { page: 'cursor-a' });
      const p2 = await call(client, 'list_paged', { page: 'cursor-a', toolslim_page: 2 });
      expect(await serverCalls(client)).toBe(before + 1);
      expect((p2._meta!['toolslim/page'] as { page: number }).page).toBe(2);
      expect(p1.content[1]!.text).toMatch(/^page 1 of \d+; call again with toolslim_page: 2 for the next$/);
    } finally {
      await client.close();
    }
  });

  it('records in structuredContent: pages of the wrapper as text, no outputSchema served', async () => {
    const original = (await call(direct, 'wrapped')).structuredContent as { total: number; items: Record<string, unknown>[] };
    const { client, stderr } = await connect(['--project', 'wrapped=id,owner.login,nope', '--response-budget', 'wrapped=1000']);
    try {
      const served = (await client.listTools()).tools.find((t) => t.name === 'wrapped')!;
      expect(served.outputSchema).toBeUndefined();
      const items: unknown[] = [];
      let r = await call(client, 'wrapped');
      for (let i = 0; i < 50; i++) {
        expect(r.structuredContent).toBeUndefined();
        const page = JSON.parse(r.content[0]!.text) as { total: number; items: unknown[] };
        expect(Object.keys(page)).toEqual(['total', 'items']);
        expect(page.total).toBe(30);
        expect(bytes(r.content[0]!.text)).toBeLessThanOrEqual(1000);
        items.push(...page.items);
        const next = (r._meta!['toolslim/page'] as { nextPage: number | null }).nextPage;
        if (next === null) break;
        r = await call(client, 'wrapped', { page: next });
      }
      expect(items).toEqual(original.items.map((x) => ({ id: x.id, owner: { login: (x.owner as { login: string }).login } })));
      // A field no record has: kept empty, said once.
      expect(stderr().match(/no record of its result has `nope`/g)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('results it does not cover pass through untouched, and --stats names why', async () => {
    const stats = join(dir, 'uncovered.jsonl');
    const names = ['not_json', 'scalars', 'mixed', 'graph', 'failing'];
    const { client, stderr } = await connect([...names.flatMap((n) => ['--project', `${n}=id`, '--response-budget', `${n}=100`]), '--stats', stats]);
    try {
      for (const name of names) expect(await call(client, name), name).toEqual(await call(direct, name));
    } finally {
      await client.close();
    }
    const lines = readFileSync(stats, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { tool: string; uncovered?: string });
    const why = Object.fromEntries(lines.map((l) => [l.tool, l.uncovered]));
    expect(why).toEqual({
      not_json: 'the text is not JSON',
      scalars: 'record 0 is a number, not an object',
      mixed: 'record 1 is a string, not an object',
      graph: 'the text is a JSON object with 2 array members (entities, relations), not one list of records',
      failing: undefined,
    });
    expect(stderr()).toContain('not_json: a result passed through untouched: the text is not JSON');
  });

  it('policies come from the overlay too, and a bad one is refused before the server starts', async () => {
    const overlay = join(dir, 'overlay.json');
    const made = await run(['optimize', '--overlay', overlay, '--', node, RECORDS]);
    expect(made.code, made.stderr).toBe(0);
    const json = JSON.parse(readFileSync(overlay, 'utf8'));
    writeFileSync(overlay, JSON.stringify({ ...json, responses: { list_items: { project: ['id'], budget: 4000 } } }, null, 2));
    const { client } = await connect(['--overlay', overlay]);
    try {
      const served = (await client.listTools()).tools.find((t) => t.name === 'list_items')!;
      expect(served.description).toContain('Returns only id of each record; at most 4 KB of records per page');
      const page = await call(client, 'list_items');
      expect(JSON.parse(page.content[0]!.text)[0]).toEqual({ id: 1 });
    } finally {
      await client.close();
    }
    writeFileSync(overlay, JSON.stringify({ ...json, responses: { list_items: { budget: '4k' } } }));
    const bad = await run(['proxy', '--overlay', overlay, '--', node, RECORDS]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('/responses/list_items');
    const flag = await run(['proxy', '--response-budget', 'list_items', '--', node, RECORDS]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--response-budget "list_items": expected TOOL=BYTES');
  });
});
