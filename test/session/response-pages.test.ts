/**
 * Response policies in the session library (issue 28): which result shapes hold records, the pager's pages
 * and errors, its store, the contract in the served definition, and the policy readers. Expected values are
 * written by hand (byte counts worked out in the comments), inputs deep-frozen.
 */
import { describe, expect, it } from 'vitest';
import { describeRecords, ResponsePager } from '../../src/session/response-pages.js';
import { findRecords } from '../../src/session/response-records.js';
import { contractText, formatBudget, mergePolicies, parsePolicyFlag, parseResponsePolicies, withContract } from '../../src/session/response-policy.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const ROWS = [
  { id: 1, name: 'alpha', extra: 'x' },
  { id: 2, name: 'beta', extra: 'y' },
  { id: 3, name: 'gamma', extra: 'z' },
];
const firstText = (d: unknown) => (d as { action: string; result: { content: { text: string }[] } }).result.content[0]!.text;
const text = (value: unknown) => deepFreeze({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] });

describe('findRecords: the shapes a policy covers', () => {
  it('finds records in a text array, a text object with one array member, and structuredContent', () => {
    expect(findRecords(text(ROWS))).toEqual({ records: ROWS, from: 'text' });
    expect(findRecords(text({ total: 3, items: ROWS }))).toEqual({ records: ROWS, from: 'text', wrapper: { object: { total: 3, items: ROWS }, key: 'items' } });
    const sc = { items: ROWS };
    expect(findRecords(deepFreeze({ content: [{ type: 'text', text: JSON.stringify(sc) }], structuredContent: sc }))).toMatchObject({ from: 'structuredContent', records: ROWS });
    expect(findRecords(deepFreeze({ content: [], structuredContent: sc }))).toMatchObject({ from: 'structuredContent' });
    // server-filesystem's form: structuredContent { content: <the very text> }.
    const t = JSON.stringify(ROWS, null, 2);
    expect(findRecords(deepFreeze({ content: [{ type: 'text', text: t }], structuredContent: { content: t } }))).toMatchObject({ from: 'text', records: ROWS });
  });

  it('leaves a structuredContent that is not plain JSON uncovered, naming the pointer (a library caller\'s live object)', () => {
    const cyclic = () => {
      const sc: Record<string, unknown> = { items: [{ id: 1 }, { id: 2 }] };
      (sc.items as Record<string, unknown>[])[1]!.parent = sc;
      return { content: [], structuredContent: sc };
    };
    const why = 'structuredContent is not plain JSON: the object contains itself (a reference cycle); JSON cannot hold it at `/structuredContent/items/1/parent`';
    expect(findRecords(cyclic())).toEqual({ reason: why });
    expect(describeRecords(cyclic())).toBeUndefined();
    // Every policy passes such a result through with the reason (it threw JSON.stringify's TypeError).
    for (const policy of [{}, { budget: 200 }, { project: ['id'] }]) {
      expect(new ResponsePager({ policies: { t: policy } }).onResult('t', {}, cyclic())).toEqual({ uncovered: why });
    }
    const getter = { content: [], structuredContent: { items: [{ id: 1 }], get total() { return 1; } } };
    expect(findRecords(getter)).toEqual({ reason: 'structuredContent is not plain JSON: an accessor (getter/setter) is not a JSON value at `/structuredContent/total`' });
    // A member whose value is undefined is absent in JSON: still covered.
    expect(findRecords({ content: [], structuredContent: { items: [{ id: 1 }], note: undefined } })).toMatchObject({ from: 'structuredContent', records: [{ id: 1 }] });
  });

  it('names why anything else is not covered', () => {
    const reason = (r: unknown) => (findRecords(r) as { reason: string }).reason;
    expect(reason(text('id title\n1 a'))).toBe('the text is not JSON');
    expect(reason(text(42))).toBe('the text is JSON holding a number, not a list of records');
    expect(reason(text({ a: 1 }))).toBe('the text is a JSON object with no array member, not a list of records');
    expect(reason(text({ entities: [], relations: [] }))).toBe('the text is a JSON object with 2 array members (entities, relations), not one list of records');
    expect(reason(text([{ id: 1 }, 'two']))).toBe('record 1 is a string, not an object');
    expect(reason(text([[1]]))).toBe('record 0 is an array, not an object');
    expect(reason(deepFreeze({ content: [{ type: 'text', text: '[]' }, { type: 'text', text: '[]' }] }))).toBe('2 content items (records are looked for in one text item)');
    expect(reason(deepFreeze({ content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] }))).toBe('a content item of type "image", not text');
    expect(reason(deepFreeze({ content: [{ type: 'text', text: '[]' }], structuredContent: { other: 1 } }))).toBe('structuredContent that is neither the records nor a copy of the text');
    expect(reason(deepFreeze({ content: [{ type: 'text', text: 'hello' }], structuredContent: { items: [] } }))).toBe('content items besides the records in structuredContent (not a copy of them)');
    expect(findRecords(deepFreeze({ isError: true, content: [{ type: 'text', text: '[]' }] }))).toEqual({ reason: 'an error result', quiet: true });
  });

  it('describeRecords measures the compact container: `{"n":1,"items":[]}` holds 0 records in 18 bytes', () => {
    expect(describeRecords(text({ n: 1, items: [] }))).toEqual({ records: 0, recordsBytes: 18, fields: [] });
    expect(describeRecords(text(ROWS))?.fields).toEqual(['id', 'name', 'extra']);
    expect(describeRecords(text('nope'))).toBeUndefined();
  });
});

describe('ResponsePager', () => {
  // Projected to id, name: {"id":1,"name":"alpha"} 23 bytes, {"id":2,"name":"beta"} 22, {"id":3,"name":"gamma"} 23.
  // Budget 52: [23,22] = 48 bytes; adding the third makes 72. Page 2: [23] = 25 bytes.
  const policies = { list: { project: ['id', 'name'], budget: 52 } };

  it('projects, pages on record boundaries, and serves later pages from the stored result', () => {
    const pager = new ResponsePager({ policies });
    pager.learn('list', { type: 'object', properties: {} });
    expect(pager.onCall('list', {})).toEqual({ action: 'forward' });
    const first = pager.onResult('list', {}, text(ROWS));
    expect(first).toEqual({
      page: 1,
      pages: 2,
      result: {
        content: [
          { type: 'text', text: '[{"id":1,"name":"alpha"},{"id":2,"name":"beta"}]' },
          { type: 'text', text: 'page 1 of 2; call again with page: 2 for the next' },
        ],
        _meta: { 'toolslim/page': { page: 1, pages: 2, nextPage: 2 } },
      },
    });
    const second = pager.onCall('list', { page: 2 });
    expect(second).toEqual({
      action: 'answer',
      page: 2,
      pages: 2,
      result: {
        content: [
          { type: 'text', text: '[{"id":3,"name":"gamma"}]' },
          { type: 'text', text: 'page 2 of 2: the last' },
        ],
        _meta: { 'toolslim/page': { page: 2, pages: 2, nextPage: null } },
      },
    });
    // Other arguments: another stored result (none yet), so the call is forwarded without `page`.
    expect(pager.onCall('list', { q: 'b', page: 2 })).toEqual({ action: 'forward', strip: 'page', arguments: { q: 'b' } });
  });

  it('keeps the server’s other result members and _meta; a wrapper keeps its other members on every page', () => {
    const pager = new ResponsePager({ policies: { list: { budget: 60 } } });
    // {"n":3,"items":[...]}: 16 bytes around the array, so 44 for it: one 35-byte record per page (two need 72).
    const r = pager.onResult('list', {}, deepFreeze({ content: [{ type: 'text', text: JSON.stringify({ n: 3, items: ROWS }) }], _meta: { trace: 'a' }, extra: true }));
    expect(r.pages).toBe(3);
    expect(r.result).toEqual({
      content: [
        { type: 'text', text: '{"n":3,"items":[{"id":1,"name":"alpha","extra":"x"}]}' },
        { type: 'text', text: 'page 1 of 3; call again with page: 2 for the next' },
      ],
      _meta: { trace: 'a', 'toolslim/page': { page: 1, pages: 3, nextPage: 2 } },
      extra: true,
    });
  });

  it('a record over the budget, a budget below the smallest page, a page past the end, a page of the wrong type: isError', () => {
    const pager = new ResponsePager({ policies: { list: { budget: 30 }, wrapped: { budget: 17 } } });
    // Record 0 is {"id":1,"name":"alpha","extra":"x"}: 1 + 6 + 1 + 14 + 1 + 11 + 1 = 35 bytes; alone in a page 37.
    const over = pager.onResult('list', {}, text(ROWS));
    expect(over.error).toBe(true);
    expect((over.result as { content: { text: string }[] }).content[0]!.text).toContain('record 0 alone is 35 bytes of compact JSON (a page holding only it needs 37 bytes), over the budget of 30 bytes per page');
    // {"n":3,"items":} is 16 bytes: with [] 18, over 17.
    const small = pager.onResult('wrapped', {}, text({ n: 3, items: ROWS }));
    expect((small.result as { content: { text: string }[] }).content[0]!.text).toContain('below the smallest page (18 bytes');
    for (const bad of ['2', 0, 2.5, null, true]) {
      const d = pager.onCall('list', { page: bad });
      expect(d.action, String(bad)).toBe('answer');
      expect((d as unknown as { result: { isError: boolean } }).result.isError).toBe(true);
    }
    const ok = new ResponsePager({ policies });
    ok.onResult('list', {}, text(ROWS));
    const past = ok.onCall("list", { page: 3 }) as unknown as { result: { content: { text: string }[] } };
    expect(past.result.content[0]!.text).toBe('toolslim: `page` 3 is past the last page: this result of `list` has 2 pages (page 1 to 2).');
    // A page past the end of a freshly fetched result (nothing stored for it before).
    const fresh = new ResponsePager({ policies });
    expect(fresh.onCall('list', { page: 5 })).toMatchObject({ action: 'forward', strip: 'page' });
    expect(fresh.onResult('list', { page: 5 }, text(ROWS)).error).toBe(true);
  });

  it('never alters a result it does not cover, nor any result of a tool without a policy', () => {
    const pager = new ResponsePager({ policies });
    expect(pager.onResult('list', {}, text('plain'))).toEqual({ uncovered: 'the text is not JSON' });
    expect(pager.onResult('list', {}, deepFreeze({ isError: true, content: [{ type: 'text', text: '[]' }] }))).toEqual({});
    expect(pager.onResult('other', {}, text(ROWS))).toEqual({});
    expect(pager.onCall('other', { page: 2 })).toEqual({ action: 'forward' });
  });

  it('a projected field no record has is kept empty and reported once per tool', () => {
    const pager = new ResponsePager({ policies: { list: { project: ['nope', 'id'] } } });
    const a = pager.onResult('list', {}, text(ROWS));
    expect(a.missing).toEqual(['nope']);
    expect((a.result as { content: { text: string }[] }).content).toEqual([{ type: 'text', text: '[{"id":1},{"id":2},{"id":3}]' }]);
    expect(pager.onResult('list', {}, text(ROWS)).missing).toBeUndefined();
    expect(new ResponsePager({ policies: { list: { project: ['nope'] } } }).onResult('list', {}, text(ROWS)).result).toEqual({ content: [{ type: 'text', text: '[{},{},{}]' }] });
  });

  it('a result without records reports no field missing, and a later result with records still does (found as a user: the first, empty, result reported every field, once)', () => {
    const pager = new ResponsePager({ policies: { list: { project: ['id', 'nope'] } } });
    expect(pager.onResult('list', {}, text({ items: [] })).missing).toBeUndefined();
    expect(pager.onResult('list', {}, text([])).missing).toBeUndefined();
    expect(pager.onResult('list', {}, text({ items: ROWS })).missing).toEqual(['nope']);
  });

  it('pages come from the stored result, not from what the server would say now; the store is an LRU bounded in bytes', () => {
    const pager = new ResponsePager({ policies, maxStoredBytes: 100 });
    pager.onResult('list', { q: 'a' }, text(ROWS));
    // The stored result is [23,22,23] = 2 + 68 + 2 commas = 72 bytes: a second one (72 more) evicts the first.
    expect(pager.storedBytes).toBe(72);
    const changed = ROWS.map((r) => ({ ...r, name: r.name.toUpperCase() }));
    expect(firstText(pager.onCall('list', { q: 'a', page: 2 }))).toBe('[{"id":3,"name":"gamma"}]');
    pager.onResult('list', { q: 'b' }, text(changed));
    expect(pager.storedBytes).toBe(72);
    expect(pager.onCall('list', { q: 'a', page: 2 })).toMatchObject({ action: 'forward' });
    expect(firstText(pager.onCall('list', { page: 2, q: 'b' }))).toBe('[{"id":3,"name":"GAMMA"}]');
  });
});

describe('the contract and the policy readers', () => {
  it('withContract appends the contract, adds the paging argument last, drops outputSchema, keeps key order', () => {
    const tool = deepFreeze({ name: 't', description: 'Lists.', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, outputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
    const out = withContract(tool as never, { project: ['id', 'a.b'], budget: 8000 });
    expect(Object.keys(out)).toEqual(['name', 'description', 'inputSchema', 'annotations']);
    expect(out.description).toBe('Lists.\n\nReturns only id, a.b of each record; at most 8 KB of records per page (pass `page`: 2, 3, … for the next pages; each page says how many there are).');
    expect(Object.keys((out.inputSchema as { properties: object }).properties)).toEqual(['q', 'page']);
    expect((out.inputSchema as { required: string[] }).required).toEqual(['q']);
    const own = withContract({ name: 'p', inputSchema: { type: 'object', properties: { page: { type: 'string' } } } } as never, { budget: 1234 });
    expect(Object.keys((own.inputSchema as { properties: object }).properties)).toEqual(['page', 'toolslim_page']);
    expect(own.description).toBe('At most 1.3 KB of records per page (pass `toolslim_page`: 2, 3, … for the next pages; each page says how many there are).');
    expect(contractText({ project: ['id'] }, undefined)).toBe('Returns only id of each record.');
    expect([formatBudget(999), formatBudget(8000), formatBudget(8001)]).toEqual(['999 bytes', '8 KB', '8.1 KB']);
  });

  it('reads flags and overlay members, and names what is wrong', () => {
    expect(parsePolicyFlag('project', 'list=id, owner.login')).toEqual(['list', { project: ['id', 'owner.login'] }]);
    expect(parsePolicyFlag('response-budget', 'a=b=8000')).toEqual(['a=b', { budget: 8000 }]);
    expect(() => parsePolicyFlag('response-budget', 'list=8k')).toThrow('--response-budget list=8k: the budget must be a whole number of bytes, at least 2');
    expect(() => parsePolicyFlag('response-budget', 'list=1')).toThrow('at least 2');
    expect(() => parsePolicyFlag('project', 'list=id,,x')).toThrow('field "" is not a field name');
    expect(() => parsePolicyFlag('project', 'list=a..b')).toThrow('field "a..b"');
    expect(() => parsePolicyFlag('project', '=id')).toThrow('expected TOOL=field,field…');
    expect(mergePolicies({ a: { project: ['x'], budget: 10 } }, [['a', { budget: 20 }]])).toEqual({ a: { project: ['x'], budget: 20 } });
    expect(parseResponsePolicies({ a: { project: ['id'], budget: 100 } })).toEqual({ a: { project: ['id'], budget: 100 } });
    expect(() => parseResponsePolicies({ 'a/b': { budget: 'x' } }, 'o.json')).toThrow('o.json at `/responses/a~1b`: the budget must be');
    expect(() => parseResponsePolicies({ a: { limit: 3 } }, 'o.json')).toThrow('o.json: expected { "project": [fields], "budget": bytes } at `/responses/a`');
    expect(() => parseResponsePolicies([], 'o.json')).toThrow('at `/responses`');
    expect(() => parseResponsePolicies({ a: {} }, 'o.json')).toThrow('needs `project`, `budget` or both');
  });
});
