/**
 * The null-union collapse (schema/null-union.ts, a rule of normalize-schema).
 *
 * 1. The "kept" fixture (test/fixtures/normalize-schema/12-null-union-kept) is strong enough: for each case
 *    it leaves alone, a hand-written naive collapse (the union removed, the branch's keywords merged, `"null"`
 *    added to `type`) changes ajv's verdict on a named instance, so a rule that collapsed it would fail
 *    the fixture runner's verdict check.
 * 2. The predicate says why it refuses, case by case (reasons written here by hand).
 * 3. The verify gate accepts the rewrite at both levels, in the default preset.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collapseNullUnion, isBareNull, isNullUnionCollapsible, isNullUnionShape } from '../../src/schema/null-union.js';
import { findAnyTypes, getRenderer, normalizeSchema, presetSafe, transformTools } from '../../src/index.js';
import { verdicts } from '../helpers/ajv.js';
import { readingVerdicts } from '../helpers/readings.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'normalize-schema');
const read = (dir: string, file: string): unknown => JSON.parse(readFileSync(join(FIXTURES, dir, file), 'utf8'));

type Schema = Record<string, unknown>;
const NULL = { type: 'null' };

/** Kept case → its naive collapse (written by hand) and an instance on which the two disagree. */
const NAIVE: Readonly<Record<string, readonly [Schema, unknown]>> = {
  constant: [{ type: ['string', 'null'], const: 'a' }, null],
  oneOfEnum: [{ type: ['string', 'null'], enum: ['a', 'b'] }, null],
  negated: [{ type: ['string', 'null'], not: { maxLength: 0 } }, null],
  conditional: [{ type: ['integer', 'null'], if: { minimum: 10 }, then: { type: 'integer', multipleOf: 5 } }, null],
  nestedAllOf: [{ type: ['string', 'null'], allOf: [{ type: 'string', minLength: 1 }] }, null],
  nestedAnyOf: [{ type: ['number', 'null'], anyOf: [{ type: 'integer' }, { type: 'number', maximum: 0 }] }, null],
  referenced: [{ type: ['string', 'null'], $ref: '#/$defs/nonEmpty' }, null],
  // ajv refuses `"null"` in `type` beside `nullable: false`: the schema stops compiling.
  nullableBranch: [{ type: ['string', 'null'], nullable: false }, null],
  oneOfNullable: [{ type: ['string', 'null'] }, null],
  siblingReads: [{ prefixItems: [{ type: 'string' }], type: ['array', 'null'], items: false }, ['a']],
  // adapt-to-client's openai-strict form; the typescript reader shows neither: verdicts would stay, so no naive case.
  // The branch's keyword merged over the holder's.
  clash: [{ maxLength: 5, type: ['string', 'null'] }, 'abcd'],
  typeBeside: [{ type: ['string', 'null'], minLength: 1 }, null],
  // Its branch moved: the reference no longer resolves, and the schema stops compiling.
  targeted: [{ type: ['string', 'null'], maxLength: 2 }, 'x'],
  // The anchor now names the holder, which accepts null.
  anchored: [{ type: ['string', 'null'], $anchor: 'shortText', maxLength: 2 }, null],
};

/** Where the instance goes: the property itself, or the one that reaches it through a reference. */
const REACHED_BY: Readonly<Record<string, string>> = { targeted: 'alias', anchored: 'viaAnchor' };

describe('the kept fixture would catch each wrong collapse', () => {
  const input = read('12-null-union-kept', 'input.json') as { inputSchema: Schema }[];
  const root = input[0]!.inputSchema;
  it.each(Object.entries(NAIVE))('%s: the naive collapse changes ajv’s verdict', (name, [naive, instance]) => {
    const naiveRoot = jsonClone(root);
    (naiveRoot.properties as Record<string, unknown>)[name] = naive;
    const data = { [REACHED_BY[name] ?? name]: instance };
    expect(verdicts(naiveRoot, [data])).not.toEqual(verdicts(root, [data]));
  });

  it('the rule itself leaves them alone (the gate off: with it on, a wrong collapse would be reverted and the fixture pass anyway)', () => {
    for (const dir of ['12-null-union-kept', '13-null-union-dialects', '14-null-union-unevaluated']) {
      const kept = read(dir, 'input.json') as never[];
      const result = normalizeSchema(deepFreeze(kept), {}, { verify: false });
      expect(JSON.stringify(result.tools)).toBe(JSON.stringify(read(dir, 'output.json')));
    }
  });

  it('every case of the fixture but the conservative ones has a naive counterpart here', () => {
    const props = Object.keys(root.properties as object).filter((k) => !Object.values(REACHED_BY).includes(k));
    // No naive counterpart, on purpose: a union of three (left alone), annotations only (two descriptions,
    // a described null branch), no `type` to add to, a `$ref` beside the union in 2020-12 (exact there;
    // left alone because draft-07 readers ignore its siblings — see the dialects fixture), and an object
    // branch (exact too; kept as the union strict clients want).
    expect(props.filter((p) => !(p in NAIVE)).sort()).toEqual(['describedNull', 'describedTwice', 'objectBranch', 'refBeside', 'threeWays', 'untyped']);
  });

  it('draft-07: a `$ref` inside the branch ignores its `type` sibling, so adding null there changes nothing', () => {
    const tool = (read('13-null-union-dialects', 'input.json') as { inputSchema: Schema }[])[0]!.inputSchema;
    const naive = jsonClone(tool);
    (naive.properties as Record<string, unknown>).branchRef = { type: ['string', 'null'], $ref: '#/definitions/short' };
    const data = [{ branchRef: null }];
    expect(readingVerdicts('draft7-spec', naive, data)).toEqual([false]);
    expect(readingVerdicts('draft7-spec', tool, data)).toEqual([true]);
  });

  it('draft-04: a boolean `exclusiveMaximum` in the holder would start modifying the branch’s `maximum`', () => {
    const tool = (read('13-null-union-dialects', 'input.json') as { inputSchema: Schema }[])[3]!.inputSchema;
    const naive = jsonClone(tool);
    (naive.properties as Record<string, unknown>).modified = { exclusiveMaximum: true, type: ['number', 'null'], maximum: 10 };
    // The original does not compile (ajv-draft-04: exclusiveMaximum needs maximum beside it); the naive one does.
    expect(readingVerdicts('draft4', tool, [{ modified: 10 }])).toHaveProperty('error');
    expect(readingVerdicts('draft4', naive, [{ modified: 10 }])).toEqual([false]);
  });
});

describe('collapseNullUnion', () => {
  const collapse = (holder: Schema, keyword: 'anyOf' | 'oneOf' = 'anyOf', dialect: Parameters<typeof collapseNullUnion>[2] = '2020-12') =>
    collapseNullUnion(deepFreeze(holder), keyword, dialect);

  it('puts the branch’s keywords where the union stood, `"null"` last in `type`, holder keys kept in place', () => {
    const r = collapse({ description: 'd', anyOf: [NULL, { minLength: 1, type: 'string' }], default: null });
    expect(r).toEqual({ ok: true, type: 'string', schema: { description: 'd', minLength: 1, type: ['string', 'null'], default: null } });
    expect(Object.keys((r as { schema: Schema }).schema)).toEqual(['description', 'minLength', 'type', 'default']);
  });

  it('appends null to an `enum` under `anyOf`, once', () => {
    expect(collapse({ anyOf: [{ type: 'string', enum: ['a'] }, NULL] })).toMatchObject({ ok: true, schema: { type: ['string', 'null'], enum: ['a', null] } });
    expect(collapse({ anyOf: [{ type: 'string', enum: [null, 'a'] }, NULL] })).toMatchObject({ ok: true, schema: { enum: [null, 'a'] } });
  });

  it('keeps a `type` that already allows null under `anyOf`', () => {
    expect(collapse({ anyOf: [{ type: ['null', 'integer'] }, { type: ['null'] }] })).toMatchObject({ ok: true, schema: { type: ['null', 'integer'] } });
  });

  it('keeps a `__proto__` key an own key', () => {
    const holder = JSON.parse('{"anyOf":[{"type":"array","items":{}},{"type":"null"}],"__proto__":{"x":1}}') as Schema;
    const r = collapse(holder);
    expect(r.ok).toBe(true);
    const schema = (r as { schema: Schema }).schema;
    expect(Object.keys(schema)).toEqual(['type', 'items', '__proto__']);
    expect(Object.getPrototypeOf(schema)).toBe(Object.prototype);
  });

  it.each([
    ['not two branches', { anyOf: [{ type: 'string' }, NULL, NULL] }, 'anyOf', '`anyOf` is not two branches'],
    ['no bare null branch', { anyOf: [{ type: 'string' }, { type: 'null', title: 't' }] }, 'anyOf', '`anyOf` is not two branches'],
    ['a boolean branch', { anyOf: [true, NULL] }, 'anyOf', 'not a schema object'],
    ['no type', { anyOf: [{ minLength: 1 }, NULL] }, 'anyOf', 'has no `type`'],
    ['an empty type array', { anyOf: [{ type: [] }, NULL] }, 'anyOf', 'has no `type`'],
    ['oneOf over a nullable branch', { oneOf: [{ type: ['string', 'null'] }, NULL] }, 'oneOf', 'accepts null too'],
    ['enum under oneOf', { oneOf: [{ type: 'string', enum: ['a'] }, NULL] }, 'oneOf', '`enum` beside `oneOf`'],
    ['an empty enum', { anyOf: [{ type: 'string', enum: [] }, NULL] }, 'anyOf', '`enum` is not a non-empty array'],
    ['const', { anyOf: [{ type: 'string', const: 'a' }, NULL] }, 'anyOf', '`const` may reject null'],
    ['not', { anyOf: [{ type: 'string', not: {} }, NULL] }, 'anyOf', '`not` may reject null'],
    ['if', { anyOf: [{ type: 'string', if: {} }, NULL] }, 'anyOf', '`if` may reject null'],
    ['$ref in the branch', { anyOf: [{ type: 'string', $ref: '#' }, NULL] }, 'anyOf', '`$ref` may reject null'],
    ['$id in the branch', { anyOf: [{ type: 'string', $id: 'x' }, NULL] }, 'anyOf', '`$id` may reject null'],
    ['an unknown keyword', { anyOf: [{ type: 'string', nullable: false }, NULL] }, 'anyOf', '`nullable` is not a keyword of 2020-12'],
    ['an object branch', { anyOf: [{ type: ['string', 'object'] }, NULL] }, 'anyOf', 'may be an object'],
    ['unevaluatedProperties in the branch', { anyOf: [{ type: 'array', unevaluatedProperties: false }, NULL] }, 'anyOf', 'reads every sibling'],
    ['unevaluatedItems beside', { unevaluatedItems: false, anyOf: [{ type: 'array' }, NULL] }, 'anyOf', 'reads every sibling'],
    ['a key in both', { title: 'a', anyOf: [{ type: 'string', title: 'b' }, NULL] }, 'anyOf', '`title` is in both'],
    ['type beside', { type: 'string', anyOf: [{ type: 'string' }, NULL] }, 'anyOf', '`type` is in both'],
    ['$ref beside', { $ref: '#/$defs/a', anyOf: [{ type: 'string' }, NULL] }, 'anyOf', '`$ref` beside the union'],
    ['$dynamicRef beside', { $dynamicRef: '#a', anyOf: [{ type: 'string' }, NULL] }, 'anyOf', '`$dynamicRef` beside the union'],
    ['properties beside additionalProperties', { properties: {}, anyOf: [{ type: 'array', additionalProperties: false }, NULL] }, 'anyOf', '`properties` reads a keyword'],
    ['prefixItems beside items', { prefixItems: [{}], anyOf: [{ type: 'array', items: false }, NULL] }, 'anyOf', '`prefixItems` reads a keyword'],
    ['minContains beside contains', { minContains: 2, anyOf: [{ type: 'array', contains: {} }, NULL] }, 'anyOf', '`minContains` reads a keyword'],
    ['nullable beside', { nullable: true, anyOf: [{ type: 'string' }, NULL] }, 'anyOf', '`nullable` reads a keyword'],
    ['discriminator beside oneOf', { discriminator: { propertyName: 'k' }, oneOf: [{ type: 'string' }, NULL] }, 'oneOf', '`discriminator` reads a keyword'],
  ] as const)('refuses %s', (_name, holder, keyword, reason) => {
    const r = collapse(holder as Schema, keyword);
    expect(r.ok).toBe(false);
    expect((r as { reason: string }).reason).toContain(reason);
    expect(isNullUnionCollapsible(holder as Schema, keyword, '2020-12')).toBe(false);
  });

  it('reads keywords by dialect: `$comment` is unknown to draft-04, `exclusiveMaximum` beside `maximum` is a group', () => {
    expect(collapse({ anyOf: [{ type: 'string', $comment: 'c' }, NULL] }, 'anyOf', 'draft-04')).toMatchObject({ ok: false, reason: expect.stringContaining('`$comment` is not a keyword of draft-04') });
    expect(collapse({ anyOf: [{ type: 'string', $comment: 'c' }, NULL] }, 'anyOf', 'draft-07').ok).toBe(true);
    expect(collapse({ exclusiveMaximum: true, anyOf: [{ type: 'number', maximum: 1 }, NULL] }, 'anyOf', 'draft-04')).toMatchObject({ ok: false, reason: expect.stringContaining('`exclusiveMaximum` reads a keyword') });
    expect(collapse({ anyOf: [{ type: 'string' }, NULL] }, 'anyOf', 'openapi-3.0')).toMatchObject({ ok: false, reason: expect.stringContaining('OpenAPI 3.0') });
  });

  it('isNullUnionShape: two branches, one the bare null schema', () => {
    expect(isNullUnionShape([{ type: 'string' }, { type: 'null' }])).toBe(true);
    expect(isNullUnionShape([{ type: ['null'] }, {}])).toBe(true);
    expect(isNullUnionShape([{ type: 'string' }, { type: 'null', description: 'd' }])).toBe(false);
    expect(isNullUnionShape([{ type: 'null' }])).toBe(false);
    expect(isNullUnionShape({ 0: { type: 'null' }, 1: {}, length: 2 })).toBe(false);
  });
});

describe('in the default preset', () => {
  it('collapses a union in a document with nothing else to tidy (reconcile-dialect’s look ahead counts it as work)', () => {
    const input = deepFreeze([{ name: 't', inputSchema: { type: 'object', properties: { q: { anyOf: [{ type: 'string' }, NULL] } } } }]);
    const r = transformTools(input, { transforms: [presetSafe] });
    expect(r.tools[0]!.inputSchema).toEqual({ type: 'object', properties: { q: { type: ['string', 'null'] } } });
  });
});

describe('the verify gate accepts the collapse in the default preset', () => {
  const inputs = ['11-null-union-collapsed', '13-null-union-dialects'].map((dir) => deepFreeze(read(dir, 'input.json') as never[]));
  it.each(['structural', 'verdicts'] as const)('at `%s`', (level) => {
    for (const input of inputs) {
      const r = transformTools(input, { transforms: [presetSafe], verify: level, onError: 'throw' });
      expect(r.report.skipped).toEqual([]);
      expect(r.report.diagnostics.filter((d) => d.transform === 'verify')).toEqual([]);
      expect(r.report.changes.filter((c) => c.code === 'collapsed-null-union').length).toBeGreaterThanOrEqual(6);
      expect(r.report.stats.verify).toMatchObject({ level, failed: 0 });
      expect(r.report.stats.verify!.tools).toBeGreaterThan(0);
      if (level === 'verdicts') expect(r.report.stats.verify!.instances).toBeGreaterThan(0);
    }
  });
});

describe('the typescript reader (render branch): a collapsed union reads as a type', () => {
  // Two corpus parameters (playwright's colorScheme, sentry's query) in their original form.
  const input = deepFreeze([
    {
      name: 'emulate',
      inputSchema: {
        type: 'object',
        properties: {
          colorScheme: { description: 'Emulates the prefers-color-scheme media feature', anyOf: [{ type: 'string', enum: ['light', 'dark'] }, NULL] },
          query: { default: null, anyOf: [{ type: 'string', description: 'Search query' }, NULL] },
        },
      },
    },
  ]);
  const ts = getRenderer('typescript');

  it('renders `string | null` where the original rendered `any`', () => {
    const after = transformTools(input, { transforms: [presetSafe] }).tools[0]!;
    // Written by hand from the harmony rules (a description is a comment line above, a default a comment after).
    expect(ts.renderTool(input[0]!)).toBe(
      ['type emulate = (_: {', '// Emulates the prefers-color-scheme media feature', 'colorScheme?: any,', 'query?: any, // default: null', '}) => any;', ''].join('\n'),
    );
    expect(ts.renderTool(after)).toBe(
      ['type emulate = (_: {', '// Emulates the prefers-color-scheme media feature', 'colorScheme?: string | null,', '// Search query', 'query?: string | null, // default: null', '}) => any;', ''].join('\n'),
    );
    expect(findAnyTypes(input[0]!.inputSchema)).toEqual([
      { path: '/properties/colorScheme', reason: 'anyOf' },
      { path: '/properties/query', reason: 'anyOf' },
    ]);
    expect(findAnyTypes(after.inputSchema)).toEqual([]);
  });
});

describe('isBareNull', () => {
  it('takes {"type": "null"} and {"type": ["null"]} with no other own key, and reads only own keys', () => {
    expect([{ type: 'null' }, { type: ['null'] }].map(isBareNull)).toEqual([true, true]);
    expect([{ type: 'null', description: 'x' }, { description: 'x', type: 'null' }, { type: ['null', 'string'] }, { type: 'string' }, {}, null, ['null'], { nullable: true }].map(isBareNull)).toEqual([false, false, false, false, false, false, false, false]);
    // A polluted prototype: an inherited `type` is not the branch's own (JSON has no inheritance).
    const proto = Object.prototype as Record<string, unknown>;
    proto.type = 'null';
    try {
      expect(isBareNull({ description: 'x' })).toBe(false);
      expect(isBareNull(JSON.parse('{"type":"null"}'))).toBe(true);
    } finally {
      delete proto.type;
    }
  });
});
