/**
 * ArgumentValidator: hand-labelled arguments per dialect, every BFCL reference call (the data says each
 * is valid against its tool), compile-once caching, and schemas ajv refuses.
 */
import { describe, expect, it } from 'vitest';
import { ToolslimError } from '../../src/index.js';
import { ArgumentValidator, MAX_DEPENDENT_CHECKED, MAX_OBJECTS_CHECKED, MAX_ONE_OF_CHECKED, MAX_PATTERNS_CHECKED, MAX_REFS_CHECKED, MAX_UNIQUE_CHECKED } from '../../src/session/validate-arguments.js';
import { BFCL_SESSIONS, sessionTools } from './bfcl.js';
import { runBounded } from '../helpers/bounded.js';

const object = (inputSchema: unknown) => ({ inputSchema }) as never;

describe('ArgumentValidator', () => {
  it('judges arguments by hand-written labels, naming each problem with its pointer', () => {
    const v = new ArgumentValidator();
    const tool = object({
      type: 'object',
      properties: { path: { type: 'string' }, depth: { type: 'integer', minimum: 0 }, mode: { enum: ['a', 'b'] } },
      required: ['path'],
      additionalProperties: false,
    });
    expect(v.check(tool, { path: 'x' })).toEqual({ status: 'valid' });
    expect(v.check(tool, { path: 'x', depth: 2, mode: 'b' })).toEqual({ status: 'valid' });
    const bad = v.check(tool, { depth: -1, mode: 'c', extra: true });
    expect(bad.status).toBe('invalid');
    if (bad.status !== 'invalid') return;
    expect(bad.issues).toEqual([
      { path: '', message: "must have required property 'path'" },
      { path: '', message: 'must NOT have additional properties: `extra`' },
      { path: '/depth', message: 'must be >= 0' },
      { path: '/mode', message: 'must be equal to one of the allowed values: ["a","b"]' },
    ]);
    expect(bad.omitted).toBe(0);
    // Absent arguments are read as {}.
    expect(v.check(tool, undefined)).toMatchObject({ status: 'invalid', issues: [{ path: '', message: "must have required property 'path'" }] });
  });

  it('reads each schema in its dialect: 2020-12 by default, draft-07 and 2019-09 when declared', () => {
    const v = new ArgumentValidator();
    // prefixItems is a 2020-12 keyword: it applies without $schema, and is unknown (ignored) in draft-07.
    const modern = object({ type: 'object', properties: { p: { prefixItems: [{ type: 'string' }] } } });
    const legacy = object({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { p: { prefixItems: [{ type: 'string' }] } } });
    expect(v.check(modern, { p: [1] }).status).toBe('invalid');
    expect(v.check(legacy, { p: [1] }).status).toBe('valid');
    // draft-07 tuple `items` applies there; in 2019-09 too (`items` array form is still the tuple form).
    const tuple07 = object({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { p: { items: [{ type: 'string' }] } } });
    const tuple19 = object({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties: { p: { items: [{ type: 'string' }] } } });
    expect(v.check(tuple07, { p: [1] }).status).toBe('invalid');
    expect(v.check(tuple19, { p: [1] }).status).toBe('invalid');
    // assume: a schema without $schema read as draft-07.
    expect(new ArgumentValidator({ assume: 'draft-07' }).check(modern, { p: [1] }).status).toBe('valid');
  });

  it('reads draft-04/06/07 as those drafts say: `$ref` siblings ignored, draft-04 `id` and no `const`, draft-06 no `if`', () => {
    const v = new ArgumentValidator();
    const D4 = 'http://json-schema.org/draft-04/schema#';
    const D6 = 'http://json-schema.org/draft-06/schema#';
    const D7 = 'http://json-schema.org/draft-07/schema#';
    // draft-07 §8.3: "All other properties in a "$ref" object MUST be ignored" — maxLength and type beside $ref do not apply.
    const siblings = (d: string) => object({ $schema: d, type: 'object', definitions: { s: { type: 'string' } }, properties: { a: { $ref: '#/definitions/s', maxLength: 2 }, b: { $ref: '#/definitions/s', type: 'number' } } });
    for (const d of [D4, D6, D7]) expect(v.check(siblings(d), { a: 'hello', b: 'text' }), d).toEqual({ status: 'valid' });
    // The target still applies.
    expect(v.check(siblings(D7), { a: 5 }).status).toBe('invalid');
    // 2020-12 applies $ref siblings.
    expect(v.check(object({ type: 'object', $defs: { s: { type: 'string' } }, properties: { a: { $ref: '#/$defs/s', maxLength: 2 } } }), { a: 'hello' }).status).toBe('invalid');
    // draft-04: `id` changes the base URI, so `#/definitions/s` inside p is p's own definition (integer).
    const ids = object({ $schema: D4, type: 'object', definitions: { s: { type: 'string' } }, properties: { p: { id: 'http://example.com/other.json', type: 'object', definitions: { s: { type: 'integer' } }, properties: { q: { $ref: '#/definitions/s' } } } } });
    expect(v.check(ids, { p: { q: 3 } })).toEqual({ status: 'valid' });
    expect(v.check(ids, { p: { q: 'x' } }).status).toBe('invalid');
    // draft-04 has no `const`; draft-06 has, but no `if`/`then`.
    expect(v.check(object({ $schema: D4, type: 'object', properties: { p: { const: 1 } } }), { p: 2 })).toEqual({ status: 'valid' });
    expect(v.check(object({ $schema: D6, type: 'object', properties: { p: { const: 1 } } }), { p: 2 }).status).toBe('invalid');
    expect(v.check(object({ $schema: D6, type: 'object', properties: { p: { if: { type: 'integer' }, then: { minimum: 5 } } } }), { p: 2 })).toEqual({ status: 'valid' });
    expect(v.check(object({ $schema: D7, type: 'object', properties: { p: { if: { type: 'integer' }, then: { minimum: 5 } } } }), { p: 2 }).status).toBe('invalid');
  });

  it('does not assert formats (an annotation in 2020-12) and never changes the arguments', () => {
    const v = new ArgumentValidator();
    const tool = object({ type: 'object', properties: { at: { type: 'string', format: 'date-time' }, n: { type: 'integer', default: 3 } } });
    const args = Object.freeze({ at: 'not a date' });
    expect(v.check(tool, args)).toEqual({ status: 'valid' });
    expect(args).toEqual({ at: 'not a date' });
  });

  it('reads only the arguments\' own members: a property named like an Object.prototype member is absent unless sent', () => {
    // JSON has no prototype: `{}` has no `constructor`. ajv's default reads `data.constructor`, which an
    // object inherits, so a valid call was refused (`/constructor`: must be number) and a missing required
    // `hasOwnProperty` passed.
    const v = new ArgumentValidator();
    const tool = object({ type: 'object', properties: { constructor: { type: 'number' }, toString: { type: 'string' }, q: { type: 'string' } }, required: ['q'] });
    expect(v.check(tool, { q: 'x' })).toEqual({ status: 'valid' });
    expect(v.check(tool, { q: 'x', constructor: 1 })).toEqual({ status: 'valid' });
    expect(v.check(tool, { q: 'x', constructor: 'y' })).toMatchObject({ status: 'invalid', issues: [{ path: '/constructor', message: 'must be number' }] });
    for (const dialect of ['http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-04/schema#', 'https://json-schema.org/draft/2019-09/schema']) {
      expect(v.check(object({ $schema: dialect, type: 'object', properties: { valueOf: { type: 'string' } } }), {})).toEqual({ status: 'valid' });
    }
    expect(v.check(object({ type: 'object', required: ['hasOwnProperty'] }), {})).toMatchObject({ status: 'invalid', issues: [{ path: '', message: "must have required property 'hasOwnProperty'" }] });
  });

  it('compiles a schema once, however often its tool is called', () => {
    const v = new ArgumentValidator();
    const tool = object({ type: 'object', properties: { q: { type: 'string' } } });
    for (let i = 0; i < 20; i++) v.check(tool, { q: String(i) });
    expect(v.compiled).toBe(1);
  });

  it('keeps tools with the same $id apart', () => {
    const v = new ArgumentValidator();
    const a = object({ $id: 'https://example.com/args', type: 'object', properties: { x: { type: 'string' } } });
    const b = object({ $id: 'https://example.com/args', type: 'object', properties: { x: { type: 'number' } } });
    expect(v.check(a, { x: 's' }).status).toBe('valid');
    expect(v.check(b, { x: 1 }).status).toBe('valid');
    expect(v.check(b, { x: 's' }).status).toBe('invalid');
  });

  it('says it cannot check a schema ajv refuses, or one that is not a schema', () => {
    const v = new ArgumentValidator();
    const broken = v.check(object({ type: 'object', properties: { x: { $ref: '#/$defs/nowhere' } } }), {});
    expect(broken.status).toBe('unchecked');
    if (broken.status === 'unchecked') expect(broken.reason).toMatch(/ajv cannot compile it: can't resolve reference #\/\$defs\/nowhere/);
    expect(v.check(object('nope'), {})).toEqual({ status: 'unchecked', reason: 'the tool\'s `inputSchema` is "nope", not a schema' });
    expect(v.check(object(true), { any: 1 })).toEqual({ status: 'valid' });
    expect(v.check(object(false), {}).status).toBe('invalid');
  });

  it('caps the issues listed and counts the rest', () => {
    const v = new ArgumentValidator({ maxIssues: 2 });
    const tool = object({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } } });
    expect(v.check(tool, { a: 1, b: 2, c: 3 })).toMatchObject({ status: 'invalid', omitted: 1 });
  });

  // The test's timeout is the guard: ajv compares every two items of a uniqueItems array of objects (10,000
  // took 1.4 s, 50,000 some 35 s).
  it('leaves a uniqueItems array longer than it can check in bounded time unchecked, and checks one at the bound', () => {
    const v = new ArgumentValidator();
    const tool = { inputSchema: { type: 'object', properties: { a: { type: 'array', uniqueItems: true }, b: { type: 'array' } } } };
    const objects = (n: number) => Array.from({ length: n }, (_, i) => ({ k: i }));
    expect(MAX_UNIQUE_CHECKED).toBe(2048);
    const over = v.check(tool, { a: objects(50_000) });
    expect(over).toEqual({ status: 'unchecked', reason: 'an array of 50,000 items, where the schema says `uniqueItems` (ajv compares every two items; more than 2,048 are not checked)' });
    // At the bound it is checked: ajv's own verdict, naming the pair (the last item repeats item 5).
    const at = [...objects(2047), { k: 5 }];
    expect(v.check(tool, { a: at })).toEqual({ status: 'invalid', issues: [{ path: '/a', message: 'must NOT have duplicate items (items ## 5 and 2047 are identical)' }], omitted: 0 });
    // A long array where the schema says no uniqueItems at all is checked as ever.
    const plain = { inputSchema: { type: 'object', properties: { b: { type: 'array', items: { type: 'object' } } } } };
    expect(v.check(plain, { b: objects(50_000) })).toEqual({ status: 'valid' });
    expect(v.check(plain, { b: [...objects(50_000), 1] }).status).toBe('invalid');
  });

  it('rejects unusable options', () => {
    expect(() => new ArgumentValidator({ assume: 'draft-3' as never })).toThrow(ToolslimError);
    expect(() => new ArgumentValidator({ maxIssues: 0 })).toThrow(/`maxIssues` must be a positive integer, got 0/);
    expect(() => new ArgumentValidator(7 as never)).toThrow(/options must be an object/);
  });

  it('finds every BFCL reference call valid, as the data says it is', () => {
    const v = new ArgumentValidator();
    let calls = 0;
    for (const s of BFCL_SESSIONS) {
      const tools = new Map(sessionTools(s).map((t) => [t.name, t]));
      for (const turn of s.turns) {
        for (const call of turn.calls) {
          calls++;
          expect(v.check(tools.get(call.name)!, call.arguments), `${s.id} ${call.name}`).toEqual({ status: 'valid' });
        }
      }
    }
    expect(calls).toBeGreaterThan(50);
  });
});

// The test's timeout is the guard: ajv's code for a `dependentRequired` list grows with the square of it, on
// the proxy's one thread (8,000 names: 4.9 s; 20,000 ran the process out of memory).
describe('a dependentRequired list of thousands of names', () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);
  const tool = (n: number) => ({ inputSchema: { type: 'object', dependentRequired: { trigger: names(n) } } });

  it('8,000 names: the call is left unchecked, with the reason, at once', () => {
    expect(MAX_DEPENDENT_CHECKED).toBe(2048);
    const r = new ArgumentValidator().check(tool(8000), { trigger: 1 });
    expect(r.status).toBe('unchecked');
    expect(r.status === 'unchecked' ? r.reason : '').toMatch(/8,000 names/);
  });

  it('1,000 names: still checked (a missing name found, all of them valid, no trigger valid)', () => {
    const v = new ArgumentValidator();
    const all = Object.fromEntries(names(1000).map((n) => [n, 1]));
    expect(v.check(tool(1000), { trigger: 1, ...all }).status).toBe('valid');
    const { p999: _last, ...allButLast } = all;
    expect(v.check(tool(1000), { trigger: 1, ...allButLast }).status).toBe('invalid');
    expect(v.check(tool(1000), { p5: 1 }).status).toBe('valid');
  });
});

// Shapes ajv's code generation is slow on (verify/compile-cost.ts), each held the proxy's one thread for
// seconds on a cold tool's first call (1,000 object branches of one `oneOf`: 2.6 s; 4,000 patterns, references
// or `allOf` members: about 4 s each). Past a bound the call is unchecked at once, with the reason; the tests
// assert the reason, so each fails without its bound (the call was checked, slowly) and its timeout guards it.
describe('schemas ajv is slow to compile', () => {
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  const reasonOf = (schema: unknown, args: unknown): string => {
    const r = new ArgumentValidator().check({ inputSchema: schema } as never, args);
    return r.status === 'unchecked' ? r.reason : `checked: ${r.status}`;
  };

  it('a `oneOf` of more than 256 branches is not compiled', () => {
    expect(MAX_ONE_OF_CHECKED).toBe(256);
    const oneOf = range(1000).map((i) => ({ type: 'object', properties: { k: { const: i } }, required: ['k'] }));
    expect(reasonOf({ type: 'object', properties: { u: { oneOf } } }, { u: { k: 1 } })).toMatch(/^a `oneOf` of 1,000 branches/);
  });

  it('more than 512 patterns (`pattern` values and `patternProperties` names together) are not compiled', () => {
    expect(MAX_PATTERNS_CHECKED).toBe(512);
    const properties = Object.fromEntries(range(300).map((i) => [`p${i}`, { type: 'string', pattern: `^a${i}$` }]));
    const patternProperties = Object.fromEntries(range(1700).map((i) => [`^x${i}$`, { type: 'string' }]));
    expect(reasonOf({ type: 'object', properties, patternProperties }, {})).toMatch(/^2,000 patterns/);
  });

  it('more than 512 references are not compiled', () => {
    expect(MAX_REFS_CHECKED).toBe(512);
    const properties = Object.fromEntries(range(2000).map((i) => [`p${i}`, { $ref: `#/$defs/d${i}` }]));
    const $defs = Object.fromEntries(range(2000).map((i) => [`d${i}`, { type: 'string' }]));
    expect(reasonOf({ type: 'object', properties, $defs }, {})).toMatch(/^2,000 references/);
  });

  it('a schema of more than 4,096 objects is not compiled; one of 4,096 is, and judged', () => {
    expect(MAX_OBJECTS_CHECKED).toBe(4096);
    // The root, its `properties` and n property schemas: n + 2 objects.
    const of = (n: number) => ({ type: 'object', properties: Object.fromEntries(range(n).map((i) => [`p${i}`, { type: 'integer' }])) });
    expect(reasonOf(of(4095), { p0: 1 })).toMatch(/^a schema of more than 4,096 objects/);
    const v = new ArgumentValidator();
    expect(v.check({ inputSchema: of(4094) } as never, { p0: 1, p4093: 2 })).toEqual({ status: 'valid' });
    expect(v.check({ inputSchema: of(4094) } as never, { p4093: 'x' })).toMatchObject({ status: 'invalid', issues: [{ path: '/p4093', message: 'must be integer' }] });
    // 2,000 `allOf` members of three objects each (about 2 s to compile before the bound).
    const allOf = range(2000).map((i) => ({ properties: { [`k${i}`]: { type: 'string' } } }));
    expect(reasonOf({ type: 'object', allOf }, {})).toMatch(/^a schema of more than 4,096 objects/);
  });

  it('a schema that holds itself (a library caller\'s object; JSON cannot write it) is left unchecked at once', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    // Bounded (test/helpers/bounded.ts): the walk without its stop never returned.
    expect(runBounded(() => reasonOf(schema, { self: {} }), 120_000)).toMatch(/^a schema of more than 4,096 objects .*one that holds itself/);
  });

  it('a schema at every list bound at once is still checked (hand-written verdicts)', () => {
    const properties: Record<string, unknown> = {
      u: { oneOf: range(256).map((i) => ({ type: 'object', properties: { k: { const: i } }, required: ['k'] })) },
    };
    for (const i of range(512)) properties[`s${i}`] = { type: 'string', pattern: `^a${i}$` };
    for (const i of range(512)) properties[`r${i}`] = { $ref: `#/$defs/d${i}` };
    const $defs = Object.fromEntries(range(512).map((i) => [`d${i}`, { type: 'integer' }]));
    const schema = { type: 'object', properties, $defs, dependentRequired: { s0: range(2048).map((i) => `n${i}`) } };
    const v = new ArgumentValidator();
    expect(v.check({ inputSchema: schema } as never, { u: { k: 255 }, s7: 'a7', r511: 3 })).toEqual({ status: 'valid' });
    expect(v.check({ inputSchema: schema } as never, { u: { k: 256 } })).toMatchObject({ status: 'invalid' });
    expect(v.check({ inputSchema: schema } as never, { s7: 'a8' })).toMatchObject({ status: 'invalid', issues: [{ path: '/s7', message: 'must match pattern "^a7$"' }] });
    expect(v.check({ inputSchema: schema } as never, { r511: 'x' })).toMatchObject({ status: 'invalid', issues: [{ path: '/r511', message: 'must be integer' }] });
    expect(v.compiled).toBe(1);
  });
});
