/**
 * The input check counts each tool's compact-JSON bytes as it walks (the engine's `before` sizes come from
 * it). The oracle is `Buffer.byteLength(JSON.stringify(tool))`, over every bench/corpus tool and over
 * fast-check JSON (fixed seed) with escapes, non-ASCII and lone surrogates, numbers JSON spells oddly, and
 * members whose value is `undefined`.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInputs, checkJsonTool, numberBytes } from '../../src/engine/input.js';
import { CORPUS_DIR, loadCorpus, VALIDATION_DIR } from '../helpers/corpus.js';

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');
function counted(tool: unknown): number {
  const size = { bytes: -1 };
  expect(checkJsonTool(tool, 1000, [], size)).toBeUndefined();
  return size.bytes;
}

describe('the input check’s byte count', () => {
  it('equals JSON.stringify on every corpus tool', () => {
    const dir = join(import.meta.dirname, '..', '..', 'bench', 'corpus');
    let n = 0;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
      for (const tool of (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { toolsList: { tools: unknown[] } }).toolsList.tools) {
        expect(counted(tool)).toBe(bytes(tool));
        n++;
      }
    }
    expect(n).toBeGreaterThan(1000);
  });

  it.each([
    ['escapes', { d: 'a"b\\c\n\t\u0001\u007f/' }],
    ['non-ASCII and emoji', { d: 'é✓𝄞', 'ключ': 'значение' }],
    ['lone surrogates', { d: '\ud800x\udfff' }],
    ['numbers', { a: -0, b: 1e21, c: 5e-324, d: 0.1, e: -1.5e-7, f: 123456789012345680000 }],
    ['undefined members, first, middle and last', { u: undefined, a: 1, m: undefined, b: [1, null, true], z: undefined }],
    ['only undefined members', { a: { u: undefined } }],
    ['empty containers', { a: {}, b: [], c: [[]], d: [{}] }],
    ['__proto__ as a key', JSON.parse('{"__proto__":{"x":1},"y":2}')],
  ])('%s', (_name, tool) => {
    expect(counted(tool)).toBe(bytes(tool));
  });

  it('counts only own members when a prototype is polluted (an inherited key is neither counted nor a problem)', () => {
    const tool = { name: 't', inputSchema: { type: 'object', properties: { a: { enum: ['x', 'y'] } } } };
    const expected = bytes(tool);
    Object.defineProperty(Object.prototype, 'polluted', { value: 'inherited', enumerable: true, configurable: true, writable: true });
    Object.defineProperty(Array.prototype, 1, { value: 'inherited', enumerable: true, configurable: true, writable: true });
    try {
      expect(counted(tool)).toBe(expected);
      // A hole in an array is not filled in from the prototype.
      const holey = { e: ['a', , 'c'] };
      expect(checkJsonTool(holey, 1000, [], { bytes: -1 })).toEqual({ path: '/e/1', message: 'undefined is not a JSON value' });
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
      delete (Array.prototype as unknown as Record<number, unknown>)[1];
    }
  });

  it('equals JSON.stringify on generated JSON', () => {
    const str = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ maxLength: 6 }), fc.constantFrom('"', '\\', '\u2028', '\ud83d'));
    const leaf = fc.oneof(str, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null));
    const json = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ maxDepth: 4 }, leaf, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(str, fc.oneof(tie('node'), fc.constant(undefined)), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(str, json, { maxKeys: 5 }), (tool) => {
        expect(counted(tool)).toBe(bytes(tool));
      }),
      { seed: 20261202, numRuns: 500 },
    );
  });

  it('equals JSON.stringify for every tool of a list checked together (the key bytes one list shares), past the map’s bound', () => {
    // checkInputs remembers each key's bytes across the tools of one call; a key's bytes depend on the key
    // alone, so sharing must not change any tool's count. Both bench sets, then a list with more distinct
    // keys (escapes and non-ASCII among them) than the map keeps.
    for (const [set, dir] of [['corpus', CORPUS_DIR], ['validation', VALIDATION_DIR]] as const) {
      const tools = loadCorpus(dir).flatMap((c) => c.data.toolsList.tools);
      const check = checkInputs(tools, tools.map(() => ''), 1000, 'report');
      tools.forEach((tool, i) => expect(check.bytes[i], set + ' ' + i).toBe(bytes(tool)));
    }
    const many = Array.from({ length: 40 }, (_, t) => ({ name: `t${t}`, inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 2000 }, (_, k) => [k % 3 === 0 ? `k"${t}\n${k}` : k % 3 === 1 ? `ключ${t}_${k}` : `key${t}_${k}`, { type: 'string' }])) } }));
    const check = checkInputs(many, many.map((t) => t.name), 1000, 'report');
    many.forEach((tool, i) => expect(check.bytes[i]).toBe(bytes(tool)));
  });

  it('counts a number as JSON writes it: integers at every power of ten and its neighbours, both signs, and the rest', () => {
    const values: number[] = [0, -0, 0.5, -0.5, 1e15, -1e15, 1e21, 1e-7, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER];
    for (let p = 1; p <= 1e16; p *= 10) values.push(p, p - 1, p + 1, -p, -(p - 1), -(p + 1), p / 2, p * 3);
    for (const v of values) expect(numberBytes(v), String(v)).toBe(JSON.stringify(v).length);
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true })), (v) => numberBytes(v) === JSON.stringify(v).length),
      { seed: 20261206, numRuns: 3000 },
    );
  });
});
