/**
 * OpenAPI 3.0 `nullable: true` on an array or object: reconcile-dialect writes it as a `oneOf` of the typed
 * branch and `{"type": ["null"]}` (the form a TypeScript reader shows as `T[] | null`), which
 * normalize-schema keeps only under `oneOf`. For `gemini` and `openai-strict`, adapt-to-client renamed that
 * `oneOf` to `anyOf`; the next run's normalize-schema then unwrapped the branch and collapsed the union, so
 * `presetForProfile('safe', …)` needed two runs to reach its fixed point (found on @readme/oas-examples 8.2.2,
 * 3.1/json/readme.json `createReference`, and schema-types/response-multiple-mediatypes). Expected outputs
 * are written by hand; ajv (the OpenAPI reading: `nullable` with `type`, which ajv implements) is the oracle
 * for the values accepted.
 */
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { applyPatch, invertPatch, presetForProfile, transformTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const tool = (r: unknown, required = false) => ({ name: 't', description: 'Finds things.', inputSchema: { type: 'object', properties: { r }, ...(required ? { required: ['r'] } : {}) } });

const nullableArray = { type: 'array', items: { type: 'string' }, nullable: true };
const nullableObject = { type: 'object', properties: { u: { type: 'string' } }, required: ['u'], nullable: true };

const cases = [
  { title: 'gemini, optional nullable array', profile: 'gemini', input: tool(nullableArray), r: { type: ['array', 'null'], items: { type: 'string' } } },
  { title: 'gemini, required nullable array', profile: 'gemini', input: tool(nullableArray, true), r: { type: ['array', 'null'], items: { type: 'string' } } },
  // An object stays a union (the form strict clients want), with its null branch as normalize-schema writes it.
  { title: 'gemini, nullable object', profile: 'gemini', input: tool(nullableObject), r: { anyOf: [{ type: 'object', properties: { u: { type: 'string' } }, required: ['u'] }, { type: 'null' }] } },
  { title: 'openai-strict, required nullable array', profile: 'openai-strict', input: tool(nullableArray, true), r: { type: ['array', 'null'], items: { type: 'string' } } },
  { title: 'openai-strict, optional nullable array', profile: 'openai-strict', input: tool(nullableArray), r: { type: ['array', 'null'], items: { type: 'string' } } },
] as const;

const instances = [{}, { r: null }, { r: [] }, { r: ['a'] }, { r: [1] }, { r: 'a' }, { r: {} }, { r: { u: 'x' } }, { r: { u: 1 } }, { r: 0 }];

describe('adapt-to-client settles the null branch of a oneOf it renames', () => {
  for (const c of cases) {
    it(c.title, () => {
      const steps = presetForProfile('safe', c.profile);
      const input = deepFreeze([structuredClone(c.input)]);
      const first = transformTools(input, { transforms: steps, verify: 'verdicts' });
      expect(first.report.skipped).toEqual([]);
      const r = (first.tools[0]!.inputSchema as { properties: { r: unknown } }).properties.r;
      expect(r).toEqual(c.r);
      // One run reaches the fixed point.
      const second = transformTools(first.tools, { transforms: steps });
      expect(second.report.changes).toEqual([]);
      expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
      // The report replays both ways.
      expect(JSON.stringify(applyPatch(input, first.report.changes))).toBe(JSON.stringify(first.tools));
      expect(JSON.stringify(applyPatch(first.tools, invertPatch(first.report.changes)))).toBe(JSON.stringify(input));
      // The nullable property accepts what the OpenAPI schema accepted (ajv reads `nullable` beside `type`).
      const before = new Ajv2020({ strict: false, logger: false }).compile({ type: 'object', properties: { r: structuredClone(c.input.inputSchema.properties.r) } });
      const after = new Ajv2020({ strict: false, logger: false }).compile({ type: 'object', properties: { r: structuredClone(r) } });
      for (const i of instances) expect([i, after(i)]).toEqual([i, before(i)]);
    });
  }
});
