/**
 * adapt-to-client's lossy steps, one at a time, through the scratch editor: describe-formats,
 * relax-assertions, close-objects. Expected schemas are written by hand; ajv (with formats) judges
 * hand-picked instances: the exact conversions keep every verdict, relaxations only ever accept more, and
 * the strict conversion accepts what the Structured Outputs guide says a strict schema accepts.
 */
import { describe, expect, it } from 'vitest';
import { checkToolForProfile, getProfile, type ClientProfile } from '../../src/index.js';
import { EditContext } from '../../src/core/context.js';
import { SlotEditor } from '../../src/transforms/adapt-to-client/editor.js';
import type { AdaptStep } from '../../src/transforms/adapt-to-client/step.js';
import { closeObjects } from '../../src/transforms/adapt-to-client/steps/close-objects.js';
import { describeFormats } from '../../src/transforms/adapt-to-client/steps/describe-formats.js';
import { relaxAssertions } from '../../src/transforms/adapt-to-client/steps/relax-assertions.js';
import { compile } from '../helpers/ajv.js';
import { deepFreeze } from '../helpers/freeze.js';

function run(step: AdaptStep, schema: unknown, profile: string | ClientProfile) {
  const p = getProfile(profile);
  const ctx = new EditContext(deepFreeze(structuredClone(schema)), {});
  const ed = new SlotEditor(ctx, '');
  step.run(ed, { profile: p, dialect: '2020-12', source: 'assumed', isArguments: true, growthLimit: (b) => 2 * b });
  return { root: ed.root as Record<string, unknown>, ops: ctx.changes.map((o) => `${o.op === 'move' ? `rename ${o.from} → ${o.path.split('/').pop()}` : `${o.op} ${o.path}`} ${o.code}`), notes: ed.notes.map((n) => `${n.severity} ${n.code} ${n.path}`) };
}

const errorsOf = (schema: unknown, profile: string) => checkToolForProfile({ name: 'tool', inputSchema: schema }, profile).filter((f) => f.severity === 'error').map((f) => `${f.code} ${f.path}`);

describe('describe-formats', () => {
  const schema = {
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri', description: 'Page to fetch' },
      id: { type: 'string', format: 'uuid' },
      when: { type: 'string', format: 'date-time', description: 'Start' },
      tags: { type: 'array', items: { type: 'string', format: 'email', description: '' } },
    },
  };

  it('moves each format the client rejects into the description and keeps the accepted ones', () => {
    const r = run(describeFormats, schema, 'gemini');
    expect(r.root).toEqual({
      type: 'object',
      properties: {
        url: { type: 'string', description: 'Page to fetch (format: uri)' },
        id: { type: 'string', description: 'format: uuid' },
        when: { type: 'string', format: 'date-time', description: 'Start' },
        tags: { type: 'array', items: { type: 'string', description: 'format: email' } },
      },
    });
    expect(errorsOf(schema, 'gemini')).toHaveLength(3);
    expect(errorsOf(r.root, 'gemini')).toEqual([]);
    // The schema accepts more (ajv with formats): a string that is not a URI.
    const bad = { url: 'not a uri' };
    expect([compile(schema)(bad), compile(r.root)(bad)]).toEqual([false, true]);
  });

  it('reads the profile’s own list: openai-strict keeps uuid and email', () => {
    const r = run(describeFormats, schema, 'openai-strict');
    expect(r.ops).toEqual(['replace /properties/url/description described-format', 'remove /properties/url/format moved-format']);
  });

  it('does nothing for a profile that accepts any format', () => {
    expect(describeFormats.applies(getProfile('claude'))).toBe(false);
  });
});

describe('relax-assertions (gemini)', () => {
  it('const of a string becomes a one-value enum in place, with the same verdicts', () => {
    const schema = { type: 'object', properties: { kind: { type: 'string', const: 'user', description: 'Kind' } } };
    const r = run(relaxAssertions, schema, 'gemini');
    expect(JSON.stringify(r.root)).toBe(JSON.stringify({ type: 'object', properties: { kind: { type: 'string', enum: ['user'], description: 'Kind' } } }));
    for (const x of [{ kind: 'user' }, { kind: 'admin' }, {}, { kind: 1 }]) expect(compile(r.root)(x), JSON.stringify(x)).toBe(compile(schema)(x));
  });

  it('const of a number goes into the description (an enum of strings is all Gemini takes)', () => {
    const r = run(relaxAssertions, { type: 'object', properties: { v: { type: 'integer', const: 2, description: 'Version' } } }, 'gemini');
    expect(r.root).toEqual({ type: 'object', properties: { v: { type: 'integer', description: 'Version (always 2)' } } });
  });

  it('exclusive bounds: exact on integers, inclusive (lossy) on numbers, dropped beside a tighter bound', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10.5 },
        x: { type: 'number', exclusiveMinimum: 0 },
        y: { type: 'integer', minimum: 5, exclusiveMinimum: 0 },
      },
    };
    const r = run(relaxAssertions, schema, 'gemini');
    expect(JSON.stringify(r.root)).toBe(JSON.stringify({ type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 10 }, x: { type: 'number', minimum: 0 }, y: { type: 'integer', minimum: 5 } } }));
    const before = compile(schema);
    const after = compile(r.root);
    for (const n of [-1, 0, 1, 10, 11]) expect(after({ n }), `n=${n}`).toBe(before({ n }));
    for (const y of [0, 4, 5]) expect(after({ y }), `y=${y}`).toBe(before({ y }));
    expect([before({ x: 0 }), after({ x: 0 })]).toEqual([false, true]);
  });

  it('oneOf becomes anyOf where it stood; additionalProperties and propertyNames go; nothing is refused that was accepted', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: { id: { oneOf: [{ type: 'string' }, { type: 'integer' }], description: 'Id' }, meta: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: 'string' } } },
    };
    const r = run(relaxAssertions, schema, 'gemini');
    expect(JSON.stringify(r.root)).toBe(JSON.stringify({ type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }], description: 'Id' }, meta: { type: 'object' } } }));
    expect(r.ops).toContain('rename /properties/id/oneOf → anyOf oneof-to-anyof');
    expect(errorsOf(schema, 'gemini').length).toBeGreaterThan(0);
    expect(errorsOf(r.root, 'gemini')).toEqual([]);
    const before = compile(schema);
    const after = compile(r.root);
    for (const x of [{ id: 'a' }, { id: 1 }, { id: 1.5 }, { other: 1 }, { meta: { a: 'x' } }, { meta: { A: 1 } }, { meta: 'x' }]) if (before(x)) expect(after(x), JSON.stringify(x)).toBe(true);
    expect([before({ other: 1 }), after({ other: 1 })]).toEqual([false, true]);
  });

  it('keeps a keyword a reference points into', () => {
    const p = getProfile('openai-strict');
    const schema = { type: 'object', properties: { a: { $ref: '#/properties/b/not' }, b: { not: { type: 'string' } } } };
    const r = run(relaxAssertions, schema, p);
    expect(r.root).toEqual(schema);
  });
});

describe('close-objects (openai-strict)', () => {
  const schema = {
    type: 'object',
    properties: {
      q: { type: 'string', description: 'Query' },
      limit: { type: 'integer', enum: [10, 20] },
      filter: { type: 'object', properties: { tag: { type: 'string' } }, additionalProperties: true },
      ref: { $ref: '#/$defs/Id' },
    },
    required: ['q'],
    $defs: { Id: { type: 'string' } },
  };

  it('closes every object and lists every property in required, making the optional ones nullable', () => {
    const r = run(closeObjects, schema, 'openai-strict');
    expect(JSON.stringify(r.root)).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          q: { type: 'string', description: 'Query' },
          limit: { type: ['integer', 'null'], enum: [10, 20, null] },
          filter: { anyOf: [{ type: 'object', properties: { tag: { type: ['string', 'null'] } }, additionalProperties: false, required: ['tag'] }, { type: 'null' }] },
          ref: { anyOf: [{ $ref: '#/$defs/Id' }, { type: 'null' }] },
        },
        required: ['q', 'limit', 'filter', 'ref'],
        $defs: { Id: { type: 'string' } },
        additionalProperties: false,
      }),
    );
    expect(errorsOf(schema, 'openai-strict').length).toBeGreaterThan(0);
    expect(errorsOf(r.root, 'openai-strict')).toEqual([]);
    // What the guide says a strict schema means: optional values arrive as null, extra keys are refused.
    const after = compile(r.root);
    expect(after({ q: 'a', limit: null, filter: null, ref: null })).toBe(true);
    expect(after({ q: 'a', limit: 10, filter: { tag: null }, ref: 'x' })).toBe(true);
    expect(after({ q: 'a' })).toBe(false);
    expect(after({ q: 'a', limit: null, filter: null, ref: null, extra: 1 })).toBe(false);
    expect(after({ q: 'a', limit: 15, filter: null, ref: null })).toBe(false);
  });

  it('names what it cannot close: open maps and free-form objects', () => {
    const open = { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } }, body: { type: 'object' }, byPattern: { type: 'object', properties: {}, patternProperties: { '^x': {} } } }, required: ['labels', 'body', 'byPattern'] };
    const r = run(closeObjects, open, 'openai-strict');
    // In document order, where each now sits.
    expect(r.notes).toEqual(['error open-map /properties/labels/additionalProperties', 'error free-form-object /properties/body', 'error open-map /properties/byPattern/patternProperties']);
    expect(r.root).toEqual({ ...open, additionalProperties: false });
  });

  it('is a no-op on a schema that already is strict', () => {
    const strict = { type: 'object', properties: { a: { type: ['string', 'null'] } }, required: ['a'], additionalProperties: false };
    expect(run(closeObjects, strict, 'openai-strict').ops).toEqual([]);
  });
});
