/**
 * Every renderer is deterministic, leaves its input alone and never throws, on every corpus tool, on
 * fuzzed schemas (fast-check, fixed seeds) and on the hostile inputs. Where an independent oracle exists
 * the text is checked against it: JSON.stringify for `json` and `json-indent4`, JSON.parse round trips for
 * `json-spaced`; for `typescript`, every pointer findAnyTypes names exists in the schema.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_FAMILIES } from '../../bench/lib/hostile-text.js';
import { existsAt, parsePointer } from '../../src/json/pointer.js';
import { findAnyTypes, getRenderer, RENDERER_NAMES, type ForwardedTool } from '../../src/index.js';
import { loadCorpus } from '../helpers/corpus.js';
import { fuzzDocumentArb } from '../helpers/fuzz-arbitraries.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

/** What a client forwards (the oracle's view: name, description, inputSchema in that order). */
const forwarded = (t: Record<string, unknown>) => {
  const out: Record<string, unknown> = { name: t.name };
  if (t.description !== undefined) out.description = t.description;
  if (t.inputSchema !== undefined) out.inputSchema = t.inputSchema;
  return out;
};
const openAi = (t: Record<string, unknown>) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } });

/** Asserts the properties on one tool; returns nothing, throws on a failure. */
function check(tool: Record<string, unknown>): void {
  const frozen = deepFreeze(jsonClone(tool));
  const copy = jsonClone(tool);
  for (const name of RENDERER_NAMES) {
    const r = getRenderer(name);
    const once = r.renderTool(frozen as unknown as ForwardedTool);
    expect(r.renderTool(frozen as unknown as ForwardedTool)).toBe(once);
    expect(r.renderTool(copy as unknown as ForwardedTool)).toBe(once);
    expect(r.renderTools([frozen, frozen] as unknown as ForwardedTool[])).toBe(r.renderTools([copy, copy] as unknown as ForwardedTool[]));
  }
  expect(getRenderer('json').renderTool(frozen as unknown as ForwardedTool)).toBe(JSON.stringify(forwarded(frozen)));
  expect(getRenderer('json-indent4').renderTool(frozen as unknown as ForwardedTool)).toBe(JSON.stringify(openAi(frozen), null, 4));
  expect(JSON.parse(getRenderer('json-spaced').renderTool(frozen as unknown as ForwardedTool))).toEqual(jsonClone(openAi(frozen)));
  const schema = frozen.inputSchema;
  for (const a of findAnyTypes(schema)) expect(existsAt(schema, parsePointer(a.path)), a.path).toBe(true);
  expect(findAnyTypes(schema)).toEqual(findAnyTypes(copy.inputSchema));
}

describe('renderer properties', () => {
  it('on every corpus tool', () => {
    let n = 0;
    for (const { data } of loadCorpus()) {
      for (const tool of data.toolsList.tools) {
        check(tool);
        n++;
      }
    }
    expect(n).toBeGreaterThan(2000);
  });

  it('on fuzzed tools (the transform fuzzer’s schemas)', () => {
    fc.assert(
      fc.property(fuzzDocumentArb(), fc.constantFrom(undefined, '', 'Get a thing.\r\nSecond line\n'), (inputSchema, description) => check({ name: 'fuzzed', description, inputSchema })),
      { seed: 27_001, numRuns: 300 },
    );
  });

  it('on random JSON anywhere a schema or keyword value goes', () => {
    const key = fc.constantFrom('type', 'properties', 'items', 'oneOf', 'anyOf', 'allOf', '$ref', 'enum', 'const', 'default', 'description', 'title', 'examples', 'required', 'nullable', '__proto__', 'x-a');
    const { node } = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 2 }),
        fc.constantFrom('string', 'number', 'integer', 'boolean', 'object', 'array', 'null', ['object', 'null'], ['string', 'null']).map((type) => ({ type })),
        fc.dictionary(key, tie('node'), { maxKeys: 5 }),
        fc.dictionary(fc.string({ maxLength: 3 }), tie('node'), { maxKeys: 3 }).map((properties) => ({ type: 'object', properties })),
        fc.array(tie('node'), { maxLength: 3 }).map((oneOf) => ({ oneOf })),
      ),
    }));
    fc.assert(
      fc.property(node, fc.jsonValue({ maxDepth: 1 }), (inputSchema, description) => check({ name: 'random', description, inputSchema: JSON.parse(JSON.stringify(inputSchema ?? null)) as unknown })),
      { seed: 27_002, numRuns: 500 },
    );
  });

  it('on the hostile inputs (bench/lib/hostile-text.ts)', () => {
    for (const family of HOSTILE_FAMILIES) {
      for (const tool of family.build(2000) as Record<string, unknown>[]) check(tool);
    }
  });
});
