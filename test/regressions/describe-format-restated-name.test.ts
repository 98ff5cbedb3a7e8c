/**
 * describe-formats wrote a `format` the client rejects into an absent description as `format: date`. For a
 * property whose name says the same words (`date_format`; @readme/oas-examples 8.2.2 3.0/json/schema-types.json
 * has `unknown-format` with `format: unknown-format`), strip-noise on the next run removed that description
 * as one that only restates the name, and the hint was lost: `presetForProfile('safe', 'gemini')` was not
 * idempotent. Such a property now gets `(format: date)`. Expected outputs are written by hand.
 */
import { describe, expect, it } from 'vitest';
import { presetForProfile, transformTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const tool = (properties: Record<string, unknown>) => ({ name: 't', description: 'Formats a date.', inputSchema: { type: 'object', properties } });

const cases = [
  { profile: 'gemini', name: 'date_format', format: 'date', description: '(format: date)' },
  { profile: 'gemini', name: 'unknown-format', format: 'unknown-format', description: '(format: unknown-format)' },
  { profile: 'openai-strict', name: 'uriFormat', format: 'uri', description: '(format: uri)' },
  // A name the hint does not restate keeps the plain form, as before.
  { profile: 'gemini', name: 'when', format: 'date', description: 'format: date' },
  { profile: 'gemini', name: 'date', format: 'date', description: 'format: date' },
] as const;

describe('describe-formats keeps the hint on a property named like it', () => {
  for (const c of cases) {
    it(`${c.profile}: ${c.name} with format ${c.format}`, () => {
      const steps = presetForProfile('safe', c.profile);
      const input = deepFreeze([tool({ [c.name]: { type: 'string', format: c.format } })]);
      const first = transformTools(input, { transforms: steps });
      const prop = (first.tools[0]!.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties[c.name]!;
      expect(prop.format).toBeUndefined();
      expect(prop.description).toBe(c.description);
      const second = transformTools(first.tools, { transforms: steps });
      expect(second.report.changes).toEqual([]);
      expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
    });
  }
});
