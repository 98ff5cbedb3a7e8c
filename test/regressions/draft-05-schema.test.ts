/**
 * A `$schema` naming `draft-05` (which was never published as a dialect; @readme/oas-examples 8.2.2 ships one
 * in 3.1/json/schema-validation-local.json) used to be read as a dialect with no keyword table: every
 * transform threw a TypeError on that tool, `lintTools` reported `lint-failed` and
 * `findToolsDialectContradictions` threw. It is now a `$schema` toolslim does not know, as a custom
 * meta-schema: left as it is, with the same ajv verdicts (the oracle), and no step crashes.
 */
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { dialectFromUri, findToolsDialectContradictions, lintTools, presetForProfile, transformTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const embedded = {
  name: 'numbers',
  description: 'Numbers.',
  inputSchema: {
    type: 'object',
    properties: {
      a: { $schema: 'https://json-schema.org/draft-05/schema#', type: 'number', minimum: 10, maximum: 20, title: 'A' },
      b: { type: 'number', exclusiveMinimum: 10 },
    },
    required: ['a'],
  },
};
const root = {
  name: 'root',
  description: 'Root.',
  inputSchema: { $schema: 'http://json-schema.org/draft-05/schema#', type: 'object', properties: { a: { type: 'number', minimum: 1, exclusiveMinimum: true } }, definitions: { unused: { type: 'string' } } },
};

describe('a $schema naming draft-05', () => {
  it('is not a dialect', () => {
    expect(dialectFromUri('https://json-schema.org/draft-05/schema#')).toBeUndefined();
    expect(dialectFromUri('http://json-schema.org/draft-04/schema#')).toBe('draft-04');
    expect(dialectFromUri('http://json-schema.org/draft-06/schema#')).toBe('draft-06');
    expect(dialectFromUri('http://json-schema.org/draft-07/schema#')).toBe('draft-07');
  });

  for (const preset of ['lossless', 'safe', 'max'] as const) {
    it(`${preset}: no step throws, and the embedded draft-05 subschema keeps its verdicts`, () => {
      const input = deepFreeze([structuredClone(embedded), structuredClone(root)]);
      const { tools, report } = transformTools(input, { transforms: [preset], verify: 'verdicts' });
      expect(report.skipped.filter((s) => /threw|defect/.test(s.reason))).toEqual([]);
      const ajv = new Ajv2020({ strict: false, logger: false });
      // Hand-picked instances around the bound; ajv reads the unknown dialect's keywords as 2020-12 would.
      const instances = [{ a: 9 }, { a: 10 }, { a: 20 }, { a: 21 }, { a: 11, b: 10 }, { a: 11, b: 11 }, {}, { a: 'x' }];
      const before = ajv.compile(structuredClone(embedded.inputSchema));
      const after = new Ajv2020({ strict: false, logger: false }).compile(structuredClone(tools[0]!.inputSchema));
      for (const i of instances) expect(after(i)).toBe(before(i));
      // A document in a dialect toolslim does not know keeps its stamp and its keywords (the unreachable
      // definition may go, as in any dialect).
      const out = tools[1]!.inputSchema as Record<string, unknown>;
      expect(out.$schema).toBe(root.inputSchema.$schema);
      expect(out.properties).toEqual(root.inputSchema.properties);
    });
  }

  it('lint and the contradiction finder run', () => {
    const input = deepFreeze([structuredClone(embedded), structuredClone(root)]);
    expect(lintTools(input).filter((f) => f.code === 'lint-failed')).toEqual([]);
    expect(() => findToolsDialectContradictions(input)).not.toThrow();
    const { report } = transformTools(input, { transforms: presetForProfile('safe', 'openai') });
    expect(report.skipped.filter((s) => /threw|defect/.test(s.reason))).toEqual([]);
  });
});
