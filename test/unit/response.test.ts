/**
 * toolslim/response. Byte counts are checked against Node's own encoder (`Buffer.byteLength` of
 * `JSON.stringify`), never against the module's arithmetic; expected projections are written by hand.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measureResponse, pageByByteBudget, projectFields, type Page } from '../../src/response/index.js';
import { ToolslimError } from '../../src/index.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

const SEED = 20_260_707;
const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');

/** Walks every page from offset 0; fails the test instead of looping forever. */
function allPages<T>(rows: readonly T[], budget: number): Page<T>[] {
  const pages: Page<T>[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    if (pages.length > rows.length + 1) throw new Error('pagination did not end');
    const page: Page<T> = pageByByteBudget(rows, { budget, offset });
    pages.push(page);
    offset = page.nextOffset;
  }
  return pages;
}

describe('projectFields', () => {
  const rows = deepFreeze([
    { id: 1, title: 'a', owner: { login: 'x', id: 9, site_admin: false }, labels: [{ name: 'bug', color: 'red' }, 'stray', { color: 'blue' }], body: 'long' },
    { id: 2, owner: null, labels: 'none' },
    7,
    null,
    ['not', 'an', 'object'],
  ]);

  it('keeps listed top-level fields in the order listed and leaves missing ones out', () => {
    expect(projectFields(rows, ['title', 'id'])).toEqual([{ title: 'a', id: 1 }, { id: 2 }, 7, null, ['not', 'an', 'object']]);
    expect(Object.keys(projectFields(rows, ['title', 'id'])[0] as object)).toEqual(['title', 'id']);
  });

  it('follows dotted paths, keeping the nesting, and maps through arrays', () => {
    expect(projectFields(rows, ['owner.login', 'labels.name'])).toEqual([
      { owner: { login: 'x' }, labels: [{ name: 'bug' }, {}] },
      {},
      7,
      null,
      ['not', 'an', 'object'],
    ]);
  });

  it('lets a shorter path win over a longer one, whichever comes first', () => {
    const want = { owner: { login: 'x', id: 9, site_admin: false } };
    expect(projectFields([rows[0]], ['owner', 'owner.login'])).toEqual([want]);
    expect(projectFields([rows[0]], ['owner.login', 'owner'])).toEqual([want]);
  });

  it('merges paths that share a prefix in first-mention order', () => {
    const out = projectFields([{ a: { b: 1, c: 2, d: 3 }, e: 4 }], ['a.d', 'e', 'a.b']);
    expect(JSON.stringify(out)).toBe('[{"a":{"d":3,"b":1},"e":4}]');
  });

  it('takes an array of keys for names that hold a dot', () => {
    const r = [{ metadata: { 'app.kubernetes.io/name': 'web', other: 1 }, 'a.b': 2 }];
    expect(projectFields(r, [['metadata', 'app.kubernetes.io/name'], ['a.b']])).toEqual([{ metadata: { 'app.kubernetes.io/name': 'web' } , 'a.b': 2 }]);
  });

  it('treats __proto__ as data and does not touch prototypes', () => {
    const r = JSON.parse('[{"__proto__":{"polluted":true,"x":1},"y":2}]') as unknown[];
    const out = projectFields(deepFreeze(r), ['__proto__.x']) as Record<string, unknown>[];
    expect(JSON.stringify(out)).toBe('[{"__proto__":{"x":1}}]');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out[0])).toBe(Object.prototype);
  });

  it('does not change its input and shares unprojected values', () => {
    const input = deepFreeze(jsonClone(rows));
    const out = projectFields(input, ['owner']) as Record<string, unknown>[];
    expect(out[0]!.owner).toBe((input[0] as Record<string, unknown>).owner);
  });

  it('rejects unusable fields with the field named', () => {
    expect(() => projectFields(rows, ['a..b'])).toThrow(/field 0/);
    expect(() => projectFields(rows, ['ok', []])).toThrow(/field 1/);
    expect(() => projectFields(rows, [''])).toThrow(ToolslimError);
    expect(() => projectFields({} as never, ['a'])).toThrow(/must be an array/);
  });

  it('shrinks a list response to the fields asked for (property: result is the hand-rolled projection)', () => {
    const row = fc.record({ id: fc.integer(), name: fc.string(), extra: fc.jsonValue({ maxDepth: 2 }), nested: fc.record({ k: fc.string(), v: fc.integer() }) }, { requiredKeys: ['id'] });
    fc.assert(
      fc.property(fc.array(row), (rs) => {
        const out = projectFields(rs, ['name', 'nested.v']);
        const oracle = rs.map((r) => {
          const o: Record<string, unknown> = {};
          if ('name' in r) o.name = r.name;
          if ('nested' in r) o.nested = { v: r.nested!.v };
          return o;
        });
        expect(out).toEqual(oracle);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('pageByByteBudget', () => {
  it('counts brackets and commas exactly (hand-computed)', () => {
    // "[1,22,333]" is 10 bytes; each prefix page: "[1]" 3, "[1,22]" 6.
    expect(pageByByteBudget([1, 22, 333], { budget: 10 })).toEqual({ rows: [1, 22, 333], bytes: 10, nextOffset: null });
    expect(pageByByteBudget([1, 22, 333], { budget: 9 })).toEqual({ rows: [1, 22], bytes: 6, nextOffset: 2 });
    expect(pageByByteBudget([1, 22, 333], { budget: 6 })).toEqual({ rows: [1, 22], bytes: 6, nextOffset: 2 });
    expect(pageByByteBudget([1, 22, 333], { budget: 5 })).toEqual({ rows: [1], bytes: 3, nextOffset: 1 });
    expect(pageByByteBudget([1, 22, 333], { budget: 5, offset: 2 })).toEqual({ rows: [333], bytes: 5, nextOffset: null });
  });

  it('counts UTF-8, not UTF-16 units: "é" is 2 bytes, "😀" is 4, an escaped lone surrogate is 6', () => {
    expect(pageByByteBudget(['é'], { budget: 100 }).bytes).toBe(6); // ["é"]
    expect(pageByByteBudget(['😀'], { budget: 100 }).bytes).toBe(8);
    expect(pageByByteBudget(['\ud800'], { budget: 100 }).bytes).toBe(bytesOf(['\ud800']));
    expect(pageByByteBudget(['😀', 'é'], { budget: 8 })).toEqual({ rows: ['😀'], bytes: 8, nextOffset: 1 });
  });

  it('returns an empty page at or past the end, and for an empty input', () => {
    expect(pageByByteBudget([], { budget: 2 })).toEqual({ rows: [], bytes: 2, nextOffset: null });
    expect(pageByByteBudget([1, 2], { budget: 100, offset: 2 })).toEqual({ rows: [], bytes: 2, nextOffset: null });
    expect(pageByByteBudget([1, 2], { budget: 100, offset: 9 })).toEqual({ rows: [], bytes: 2, nextOffset: null });
  });

  it('counts undefined records as the null JSON gives them', () => {
    const page = pageByByteBudget([undefined, 1], { budget: 100 });
    expect(page.bytes).toBe(bytesOf([undefined, 1])); // [null,1]
  });

  it('throws, naming the record and its size, when one record cannot fit alone', () => {
    const rows = [{ a: 1 }, { big: 'x'.repeat(100) }, { c: 3 }];
    const first = pageByByteBudget(rows, { budget: 50 });
    expect(first).toEqual({ rows: [{ a: 1 }], bytes: 9, nextOffset: 1 });
    let error: unknown;
    try {
      pageByByteBudget(rows, { budget: 50, offset: 1 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolslimError);
    const size = bytesOf(rows[1]);
    expect((error as Error).message).toContain(`record 1 is ${size} bytes`);
    expect((error as Error).message).toContain('budget of 50 bytes');
    expect((error as ToolslimError).path).toBe('/1');
  });

  it('names a record that cannot be written as JSON (a cycle, a BigInt) instead of throwing a bare TypeError', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => pageByByteBudget([{ ok: 1 }, cyclic], { budget: 100, offset: 1 })).toThrow(/record 1 cannot be written as JSON/);
    expect(() => pageByByteBudget([1n], { budget: 100 })).toThrow(ToolslimError);
  });

  it('rejects budgets and offsets that make no sense', () => {
    expect(() => pageByByteBudget([1], { budget: 1 })).toThrow(/budget/);
    expect(() => pageByByteBudget([1], { budget: Number.NaN })).toThrow(/budget/);
    expect(() => pageByByteBudget([1], {} as never)).toThrow(/budget/);
    expect(() => pageByByteBudget([1], { budget: 10, offset: -1 })).toThrow(/offset/);
    expect(() => pageByByteBudget([1], { budget: 10, offset: 1.5 })).toThrow(/offset/);
  });

  it('property: every page parses, fits, is full, and the pages concatenate to the input', () => {
    const record = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 40 }), fc.integer({ min: 2, max: 400 }), (rows, extra) => {
        // A budget every record fits in alone, plus slack, so pagination must succeed.
        const largest = rows.reduce((m: number, r) => Math.max(m, bytesOf([r])), 2);
        const budget = largest + extra;
        const pages = allPages(rows, budget);
        const joined: unknown[] = [];
        for (const [p, page] of pages.entries()) {
          const text = JSON.stringify(page.rows);
          expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(page.rows)));
          expect(Buffer.byteLength(text, 'utf8')).toBe(page.bytes);
          expect(page.bytes).toBeLessThanOrEqual(budget);
          if (page.nextOffset !== null) {
            expect(page.rows.length).toBeGreaterThan(0);
            // Fill rate: the next record would not have fit.
            expect(bytesOf([...page.rows, rows[page.nextOffset]])).toBeGreaterThan(budget);
          } else expect(p).toBe(pages.length - 1);
          joined.push(...page.rows);
        }
        expect(JSON.stringify(joined)).toBe(JSON.stringify(rows));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('property: a budget too small for some record throws on exactly that record, never loops', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 30 }), { minLength: 1, maxLength: 30 }), fc.integer({ min: 2, max: 40 }), (rows, budget) => {
        const tooBig = rows.findIndex((r) => bytesOf([r]) > budget);
        let offset: number | null = 0;
        let calls = 0;
        let thrown: Error | undefined;
        while (offset !== null && calls <= rows.length) {
          calls++;
          try {
            offset = pageByByteBudget(rows, { budget, offset }).nextOffset;
          } catch (e) {
            thrown = e as Error;
            break;
          }
        }
        if (tooBig === -1) {
          expect(thrown).toBeUndefined();
          expect(offset).toBeNull();
        } else {
          expect(thrown?.message).toContain(`record ${tooBig} is ${bytesOf(rows[tooBig])} bytes`);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('pages a real-size list response that a byte cut would break', () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ id: i, name: `item-${i}`, description: 'ü'.repeat(i % 37), tags: ['a', 'b'].slice(0, i % 3) }));
    const pages = allPages(rows, 2_000);
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.flatMap((p) => p.rows)).toEqual(rows);
    for (const p of pages) expect(() => JSON.parse(JSON.stringify(p.rows))).not.toThrow();
  });
});

describe('measureResponse', () => {
  const counting = { name: 'chars', count: (t: string) => [...t].length };

  it('measures text items, embedded text resources and structured content', () => {
    const result = {
      content: [
        { type: 'text', text: 'héllo' },
        { type: 'image', data: 'QUJD', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a', text: 'abc' } },
        { type: 'resource', resource: { uri: 'file:///b', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'file:///c', name: 'c' },
      ],
      structuredContent: { ok: true },
    };
    const m = measureResponse(deepFreeze(result), { tokenizer: counting });
    expect(m.text).toEqual({ bytes: 6 + 3, tokens: 5 + 3 });
    expect(m.structured).toEqual({ bytes: 11, tokens: 11 }); // {"ok":true}
    expect(m.bytes).toBe(9 + 11);
    expect(m.tokens).toBe(8 + 11);
    expect(m.wireBytes).toBe(bytesOf(result));
    expect(m.items).toEqual([
      { index: 0, type: 'text', bytes: 6, tokens: 5 },
      { index: 1, type: 'image', bytes: 4 },
      { index: 2, type: 'resource', bytes: 3, tokens: 3 },
      { index: 3, type: 'resource', bytes: 4 },
      { index: 4, type: 'resource_link', bytes: bytesOf(result.content[4]) },
    ]);
    expect(m.structuredDuplicatedInText).toBe(false);
  });

  it('leaves tokens out without a tokenizer', () => {
    const m = measureResponse({ content: [{ type: 'text', text: 'abc' }] });
    expect(m).toEqual({ bytes: 3, text: { bytes: 3 }, wireBytes: bytesOf({ content: [{ type: 'text', text: 'abc' }] }), items: [{ index: 0, type: 'text', bytes: 3 }], structuredDuplicatedInText: false });
  });

  it('unwraps a JSON-RPC response and flags structured content repeated as text', () => {
    const structured = { rows: [1, 2], total: 2 };
    const res = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured } };
    const m = measureResponse(res);
    expect(m.structuredDuplicatedInText).toBe(true);
    expect(m.structured!.bytes).toBe(bytesOf(structured));
    expect(m.wireBytes).toBe(bytesOf(res.result));
  });

  it('names the place of a value that cannot be written as JSON', () => {
    expect(() => measureResponse({ content: [], structuredContent: { n: 1n } })).toThrow(/`\/structuredContent` cannot be written/);
  });

  it('rejects what is not a result', () => {
    expect(() => measureResponse('text')).toThrow(ToolslimError);
    expect(() => measureResponse({ content: 'x' })).toThrow(/content/);
  });
});

describe('the toolslim/response entry', () => {
  it('is in the exports map (types for import and require) and built by tsup', async () => {
    const { readFileSync } = await import('node:fs');
    const root = new URL('../../', import.meta.url);
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
    expect(pkg.exports['./response']).toEqual({
      import: { types: './dist/response.d.ts', default: './dist/response.js' },
      require: { types: './dist/response.d.cts', default: './dist/response.cjs' },
    });
    expect(readFileSync(new URL('tsup.config.ts', root), 'utf8')).toContain("response: 'src/response/index.ts'");
  });
});
