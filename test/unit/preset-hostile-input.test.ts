/** The preset's transforms on hostile input: `__proto__` keys are data, deep nesting costs no stack. */
import { describe, expect, it } from 'vitest';
import { applyPatch, dedupeRepeatedSubtrees, normalizeSchema, presetMax, stripNoise, transformTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const ADDRESS = '{"type":"object","title":"Address","properties":{"street":{"type":"string","description":"The street"},"city":{"type":"string"},"zip":{"type":"string","pattern":"^[0-9]{5}$"}},"additionalProperties":false}';

describe('__proto__ as a key', () => {
  const text = `[{"name":"p","description":"Proto  https://x.example","inputSchema":{"type":"object","properties":{"__proto__":${ADDRESS},"constructor":${ADDRESS}},"required":[]}}]`;

  it('is an ordinary property through every transform of the max preset', () => {
    const input = deepFreeze(JSON.parse(text));
    const result = transformTools(input, { transforms: [presetMax] });
    expect(result.report.skipped).toEqual([]);
    const schema = result.tools[0]!.inputSchema as Record<string, Record<string, unknown>>;
    expect(Object.keys(schema.properties!)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).street).toBeUndefined();
    expect(applyPatch(input, result.report.changes)).toEqual(result.tools);
    // Both repeats went into one definition named after the first property (underscores trimmed).
    expect(JSON.stringify(result.tools)).toBe(
      '[{"name":"p","description":"Proto","inputSchema":{"type":"object","properties":{"__proto__":{"$ref":"#/$defs/proto"},"constructor":{"$ref":"#/$defs/proto"}},' +
        '"$defs":{"proto":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"},"zip":{"type":"string","pattern":"^[0-9]{5}$"}},"additionalProperties":false}}}}]',
    );
  });
});

describe('deep nesting', () => {
  function nested(depth: number): Record<string, unknown> {
    let node: Record<string, unknown> = { type: 'string', title: 'leaf', description: 'The  leaf' };
    for (let i = 0; i < depth; i++) node = { type: 'object', title: `level ${i}`, description: `Level  ${i}`, properties: { a: node }, required: [] };
    return node;
  }

  it('normalize-schema and strip-noise walk 400 levels without recursion', () => {
    // 400 levels of schema are 1,600 levels of JSON, past the engine's default limit of 1,000.
    const input = deepFreeze([{ name: 'deep', inputSchema: nested(400) }]);
    const run = { maxDepth: 5000 };
    const n = normalizeSchema(input, {}, run);
    expect(n.report.skipped).toEqual([]);
    expect(n.report.changes.filter((c) => c.code === 'removed-title')).toHaveLength(401);
    expect(n.report.changes.filter((c) => c.code === 'removed-empty-required')).toHaveLength(400);
    const s = stripNoise(input, {}, run);
    expect(s.report.changes.filter((c) => c.code === 'cleaned-description')).toHaveLength(401);
  });

  it('dedupe-repeated-subtrees measures a deep document once', () => {
    const deep = nested(300);
    const input = deepFreeze([{ name: 'deep', inputSchema: { type: 'object', properties: { x: deep, y: deep } } }]);
    const result = dedupeRepeatedSubtrees(input, {}, { maxDepth: 5000 });
    expect(result.report.skipped).toEqual([]);
    expect(result.report.changes.map((c) => c.code)).toEqual(['added-definition', 'replaced-subtree', 'replaced-subtree']);
  });
});
