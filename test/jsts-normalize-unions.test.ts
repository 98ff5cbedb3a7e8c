/**
 * The JSON Schema Test Suite as an oracle for normalize-unions (schema/readable-types.ts). Each case's
 * schema is put below a property `v` in shapes the rewrites apply to: as it is (its own `anyOf`, `const`,
 * `type`), as one branch of an `anyOf` beside a branch of another type (`null`, and `string`/`boolean`), as
 * the typed branch of a nullable `type: [T, "null"]` with `properties`/`items` beside its own keywords, and
 * under an `anyOf` of two pinned values. Each suite instance (as `{"v": data}`), and `{"v": null}`, must get
 * the same verdict from ajv before and after, with the gate off (the rule itself is tested); a fair share of
 * the shapes must actually be rewritten. A sabotaged rule (rename every `anyOf`, drop the type check of a
 * number `const`, leave `properties` behind in a split) is caught by the same comparison.
 */
import { describe, expect, it } from 'vitest';
import { loadJstsCases } from './helpers/jsts.js';
import { verdicts } from './helpers/ajv.js';
import { deepFreeze } from './helpers/freeze.js';
import { normalizeUnions } from '../src/index.js';

const URI = { draft7: 'http://json-schema.org/draft-07/schema#', 'draft2020-12': 'https://json-schema.org/draft/2020-12/schema' } as const;
type Schema = Record<string, unknown>;

/** Each shape, and how many of the suite's cases (of about 560) it must at least rewrite. */
const SHAPES: readonly (readonly [string, (s: Schema) => Schema, number])[] = [
  // The suite's own `anyOf`s mostly overlap, and its `const`s are mostly not strings.
  ['as it is', (s) => s, 15],
  ['anyOf [X, null]', (s) => ({ anyOf: [s, { type: 'null' }] }), 100],
  ['anyOf [boolean, X as a string]', (s) => ({ anyOf: [{ type: 'boolean' }, { ...s, type: 'string' }] }), 400],
  ['anyOf [X as an array, X as an object]', (s) => ({ anyOf: [{ ...s, type: 'array' }, { ...s, type: 'object' }] }), 400],
  ['nullable object beside X', (s) => ({ ...s, type: ['object', 'null'], properties: { ...(isPlain(s.properties) ? s.properties : {}), p: { type: 'integer' } } }), 400],
  ['nullable array beside X', (s) => ({ ...s, type: ['null', 'array'], items: 'items' in s ? s.items : { type: 'integer' } }), 400],
];

function cases() {
  return loadJstsCases().filter((c) => isPlain(c.schema) && !c.needsRemotes && !/"\$(?:ref|id|anchor|dynamic|recursive|defs)|"definitions"|"id"/.test(JSON.stringify(c.schema)));
}

function wrap(c: { schema: unknown; dialect: keyof typeof URI }, v: Schema): Schema {
  return deepFreeze({ $schema: URI[c.dialect], type: 'object', properties: { v }, required: ['v'] }) as Schema;
}

describe('JSON Schema Test Suite schemas under normalize-unions', () => {
  it.each(SHAPES)('%s: ajv’s verdict on every instance (and on null) is unchanged', (_name, shape, least) => {
    const failures: string[] = [];
    let rewritten = 0;
    let compared = 0;
    for (const c of cases()) {
      const { $schema: _ignored, ...inner } = c.schema as Schema;
      const root = wrap(c as never, shape(inner));
      const data = [...c.tests.map((t) => ({ v: t.data })), { v: null }];
      const before = verdicts(root, data);
      if ('error' in before) continue;
      const result = normalizeUnions([{ name: 'case', inputSchema: root }], {}, { verify: false });
      if (result.report.changes.length > 0) rewritten++;
      const after = verdicts(result.tools[0]!.inputSchema, data);
      const label = `${c.dialect}/${c.file}: ${c.description}`;
      if ('error' in after) failures.push(`${label}: no longer compiles (${after.error})`);
      else
        for (const [i, d] of data.entries()) {
          compared++;
          if (after[i] !== before[i]) failures.push(`${label} / ${JSON.stringify(d)}: ajv said ${before[i]} before, ${after[i]} after`);
        }
    }
    expect(failures).toEqual([]);
    expect(compared).toBeGreaterThan(4000);
    expect(rewritten).toBeGreaterThan(least);
  });
});

describe('a sabotaged rule is caught by the same comparison', () => {
  const instance = (root: Schema, data: unknown[]) => verdicts(root, data.map((v) => ({ v })));
  it('renaming an `anyOf` whose branches overlap (integer ⊂ number) changes a verdict, and normalize-unions leaves it', () => {
    const v = { anyOf: [{ type: 'integer' }, { type: 'number' }] };
    const root = wrap({ schema: v, dialect: 'draft2020-12' }, v);
    const naive = wrap({ schema: v, dialect: 'draft2020-12' }, { oneOf: v.anyOf });
    expect(instance(naive, [1])).not.toEqual(instance(root, [1]));
    expect(normalizeUnions([{ name: 't', inputSchema: root }], {}, { verify: false }).report.changes).toEqual([]);
  });
  it('typing a number `const` as a string changes a verdict, and normalize-unions leaves it', () => {
    const v = { const: 1 };
    const root = wrap({ schema: v, dialect: 'draft2020-12' }, v);
    const naive = wrap({ schema: v, dialect: 'draft2020-12' }, { type: 'string', enum: [1] });
    expect(instance(naive, [1])).not.toEqual(instance(root, [1]));
    expect(normalizeUnions([{ name: 't', inputSchema: root }], {}, { verify: false }).report.changes).toEqual([]);
  });
  it('a split that leaves `properties` beside the union while `additionalProperties` moves changes a verdict; the rule moves both', () => {
    const v = { type: ['object', 'null'], properties: { a: { type: 'string' } }, additionalProperties: false };
    const root = wrap({ schema: v, dialect: 'draft2020-12' }, v);
    const naive = wrap({ schema: v, dialect: 'draft2020-12' }, { oneOf: [{ type: 'object', additionalProperties: false }, { type: ['null'] }], properties: v.properties });
    expect(instance(naive, [{ a: 'x' }])).not.toEqual(instance(root, [{ a: 'x' }]));
    const out = normalizeUnions([{ name: 't', inputSchema: root }], {}, { verify: false }).tools[0]!.inputSchema as Schema;
    expect((out.properties as Schema).v).toEqual({ oneOf: [{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, { type: ['null'] }] });
  });
});

function isPlain(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
