/**
 * Property tests (fast-check): on generated 2020-12 schemas full of what the preset's transforms rewrite
 * (titles, comments, `additionalProperties: true`, empty containers, repeats, references) and of what they
 * must leave alone (`unevaluatedProperties`, data keywords, a property named `title`), every preset keeps
 * ajv's verdict on generated instances, and is idempotent and deterministic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { presetLossless, presetMax, presetSafe, transformTools, type Preset, type TransformStepInput } from '../src/index.js';
import { compile } from './helpers/ajv.js';

const NAMES = ['a', 'b', 'title', 'id', 'description'] as const;
type Schema = boolean | Record<string, unknown>;

const annotations = fc.record(
  { title: fc.constantFrom('Title', 'A title'), $comment: fc.constant('generated'), description: fc.constantFrom('The ID', 'See https://x.example/docs', 'Plain text.  ') },
  { requiredKeys: [] },
);

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.constant(true),
  fc.constant(false),
  fc.record({ type: fc.constantFrom('string', ['string'], ['string', 'null']), minLength: fc.integer({ min: 0, max: 2 }) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constantFrom('integer', ['integer']), minimum: fc.integer({ min: -1, max: 1 }) }, { requiredKeys: ['type'] }),
  fc.record({ const: fc.constantFrom({ title: 'x', additionalProperties: true }, 1, 'title') }),
  fc.record({ enum: fc.constant([{ required: [] }, 'a', 2]) }),
  fc.constant({ $ref: '#/$defs/Shared' }),
);

const schema: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc
      .tuple(
        fc.dictionary(fc.constantFrom(...NAMES), tie('node'), { maxKeys: 3 }),
        fc.constantFrom<string[]>([], [], ['a'], ['title']),
        fc.constantFrom<unknown>(undefined, true, true, false, { type: 'integer' }),
        fc.constantFrom<unknown>(undefined, false, false),
        fc.option(fc.array(tie('node'), { minLength: 1, maxLength: 2 }), { nil: undefined }),
        annotations,
        fc.constantFrom<unknown>(undefined, { title: 'data', additionalProperties: true }),
      )
      .map(([properties, required, additional, unevaluated, allOf, notes, dflt]) => {
        const node: Record<string, unknown> = { ...notes, type: 'object', properties, required };
        if (additional !== undefined) node.additionalProperties = additional;
        if (unevaluated !== undefined) node.unevaluatedProperties = unevaluated;
        if (allOf !== undefined) node.allOf = allOf;
        if (dflt !== undefined) node.default = dflt;
        return node;
      }),
  ),
})).node;

/** A root that sometimes repeats one subschema (for deduplication) and always defines `Shared`. */
const root = fc
  .tuple(schema, schema, fc.boolean(), fc.constantFrom<unknown>(undefined, 'https://json-schema.org/draft/2020-12/schema'), annotations)
  .map(([first, second, repeat, $schema, notes]) => {
    const properties: Record<string, unknown> = { a: first, b: repeat ? first : second, c: repeat ? first : { type: 'string' } };
    const out: Record<string, unknown> = { ...notes, type: 'object', properties, required: [], $defs: { Shared: { type: 'object', title: 'Shared', properties: { id: { type: 'string' } }, additionalProperties: true }, Unused: { title: 'unused' } } };
    if ($schema !== undefined) out.$schema = $schema;
    return out;
  });

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('', 'x', 'title', 0, 1, -1, 2.5, true, null),
    fc.dictionary(fc.constantFrom(...NAMES, 'x'), tie('v'), { maxKeys: 4 }),
    fc.array(tie('v'), { maxLength: 2 }),
  ),
})).v;
/** Objects whose properties hold objects with extra keys: what `unevaluatedProperties` and friends judge. */
const shaped = fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.dictionary(fc.constantFrom('x', 'id', 'title', 'a'), fc.constantFrom<unknown>('', 'v', 1, true, {}), { maxKeys: 2 }), { maxKeys: 3 });
const instances = fc.array(fc.oneof(value, shaped), { minLength: 8, maxLength: 12 });

const PRESETS: readonly (readonly [string, Preset, TransformStepInput])[] = [
  ['lossless', presetLossless, presetLossless],
  ['safe', presetSafe, presetSafe],
  ['max', presetMax, [presetMax, { overrides: { 'dedupe-repeated-subtrees': { minBytes: 16 } } }]],
];

describe.each(PRESETS)('the %s preset on generated schemas', (_name, _preset, step) => {
  it('keeps every verdict, is idempotent and deterministic', () => {
    fc.assert(
      fc.property(root, instances, (inputSchema, data) => {
        const tools = [{ name: 't', inputSchema }];
        const result = transformTools(tools, { transforms: [step], measure: false });
        expect(result.report.skipped).toEqual([]);
        const out = result.tools[0]!.inputSchema;
        const before = compile(inputSchema);
        const after = compile(out);
        for (const d of data) expect(after(d), `${JSON.stringify(d)} against ${JSON.stringify(out)}`).toBe(before(d));
        expect(transformTools(result.tools, { transforms: [step], measure: false }).report.changes).toEqual([]);
        expect(JSON.stringify(transformTools(tools, { transforms: [step], measure: false }).tools)).toBe(JSON.stringify(result.tools));
      }),
      { numRuns: 150, seed: 20261129 },
    );
  });
});
