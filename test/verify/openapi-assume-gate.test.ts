/**
 * With `reconcile-dialect` told to `assume: 'openapi-3.0'` (as an OpenAPI → MCP converter would), the gate
 * used to read the original as 2020-12: a validation keyword beside `$ref`, which OpenAPI 3.0 ignores and the
 * step therefore drops, was applied in that reading, so every such tool came back unchanged with a
 * "toolslim defect … please report this as a bug" skip. The original is now read as the step read it. The
 * oracle is ajv itself: ajv-draft-04 (OpenAPI 3.0's reading: keywords beside `$ref` ignored) on the input,
 * Ajv2020 on the output. A real defect after the reconciling step is still caught.
 */
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04Module from 'ajv-draft-04';
import { defineTransform, presetSafe, transformTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

// ajv-draft-04 is CommonJS with a `default` property; under NodeNext the default import is the module.
const AjvDraft04 = ((AjvDraft04Module as unknown as { default?: unknown }).default ?? AjvDraft04Module) as typeof Ajv2020;

const tool = {
  name: 'create_pet',
  description: 'Creates a pet.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { $ref: '#/$defs/Name', maxLength: 3, description: 'What owners call the pet, shown on its tag.' },
      age: { type: 'integer', minimum: 0, nullable: true },
      tag: { $ref: '#/$defs/Tag', unevaluatedProperties: false },
    },
    required: ['name'],
    $defs: { Name: { type: 'string', minLength: 1 }, Tag: { type: 'object', properties: { id: { type: 'integer' } } } },
  },
};

const instances = [{}, { name: '' }, { name: 'a' }, { name: 'abcdef' }, { name: 1 }, { name: 'a', age: 0 }, { name: 'a', age: 1 }, { name: 'a', age: null }, { name: 'a', age: -1 }, { name: 'a', tag: { id: 1, other: 2 } }, { name: 'a', tag: { id: 'x' } }];

function verdicts(schema: unknown, Cls: typeof Ajv2020, ignoreKeywordsWithRef = false): boolean[] {
  // `ignoreKeywordsWithRef`: ajv applies keywords beside `$ref` unless told to read them as draft-04 says.
  const validate = new Cls({ strict: false, logger: false, validateSchema: false, ignoreKeywordsWithRef } as object).compile(structuredClone(schema) as object);
  return instances.map((i) => validate(i) as boolean);
}

const assume = [presetSafe, { overrides: { 'reconcile-dialect': { assume: 'openapi-3.0' } } }] as const;

describe('the gate reads an assumed OpenAPI 3.0 original as OpenAPI 3.0', () => {
  for (const verify of ['structural', 'verdicts'] as const) {
    it(`converts and keeps the OpenAPI verdicts (verify: ${verify})`, () => {
      const { tools, report } = transformTools(deepFreeze([structuredClone(tool)]), { transforms: [assume], verify });
      expect(report.skipped).toEqual([]);
      const out = tools[0]!.inputSchema as { properties: Record<string, Record<string, unknown>> };
      expect(out.properties.name).toEqual({ $ref: '#/$defs/Name', description: 'What owners call the pet, shown on its tag.' });
      expect(out.properties.age).toEqual({ type: ['integer', 'null'], minimum: 0 });
      expect(verdicts(out, Ajv2020)).toEqual(verdicts(tool.inputSchema, AjvDraft04, true));
      // The oracle tells the readings apart on this tool: 2020-12 would have refused `abcdef`.
      expect(verdicts(tool.inputSchema, AjvDraft04, true)).not.toEqual(verdicts(tool.inputSchema, AjvDraft04));
    });
  }

  // A boolean `exclusiveMinimum` (OpenAPI 3.0's form) made the original uncompilable as 2020-12, so the gate
  // used to check nothing at all on such a tool, not even a later step's real defect.
  const withBoolean = { ...tool, inputSchema: { ...tool.inputSchema, properties: { ...tool.inputSchema.properties, age: { type: 'integer', minimum: 0, exclusiveMinimum: true, nullable: true } } } };

  it('still reverts a step after it that changes a verdict', () => {
    const widen = defineTransform({
      name: 'widen-name',
      description: 'Drops minLength from Name (wrongly declared lossless)',
      safety: 'lossless',
      defaultOptions: {},
      messages: { dropped: 'Dropped' },
      apply: (doc, ctx) => {
        if (doc.tool.name === 'create_pet') ctx.remove('/inputSchema/$defs/Name/minLength', 'dropped');
      },
    });
    for (const input of [tool, withBoolean]) {
      const { tools, report } = transformTools(deepFreeze([structuredClone(input)]), { transforms: [assume, widen], verify: 'verdicts' });
      expect(report.skipped.map((s) => s.transform)).toEqual(['verify']);
      expect(report.skipped[0]!.reason).toMatch(/`widen-name`/);
      expect(tools[0]).toEqual(input);
    }
    // Without the faulty step the boolean bound converts and passes the gate.
    const { tools, report } = transformTools(deepFreeze([structuredClone(withBoolean)]), { transforms: [assume], verify: 'verdicts' });
    expect(report.skipped).toEqual([]);
    expect((tools[0]!.inputSchema as { properties: { age: unknown } }).properties.age).toEqual({ type: ['integer', 'null'], exclusiveMinimum: 0 });
    expect(verdicts(tools[0]!.inputSchema, Ajv2020)).toEqual(verdicts(withBoolean.inputSchema, AjvDraft04, true));
  });

  it('without assume, the 2020-12 reading is unchanged: keywords beside $ref apply and stay', () => {
    const { tools, report } = transformTools(deepFreeze([{ ...structuredClone(tool), inputSchema: { ...structuredClone(tool.inputSchema), properties: { name: { $ref: '#/$defs/Name', maxLength: 3 } } } }]), { transforms: ['safe'], verify: 'verdicts' });
    expect(report.skipped).toEqual([]);
    expect((tools[0]!.inputSchema as { properties: { name: unknown } }).properties.name).toEqual({ $ref: '#/$defs/Name', maxLength: 3 });
  });
});
