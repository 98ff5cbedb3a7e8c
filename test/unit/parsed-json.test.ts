/**
 * A value the CLI parsed is marked as `JSON.parse`'s own (src/json/parsed.ts), and the input checks read its
 * members without property descriptors. The oracle for what the checks find is the same check on an
 * unmarked copy (the descriptor path, itself tested against `JSON.stringify` in input-size.test.ts), over
 * every bench/corpus and bench/validation server, and hand-made texts: deep nesting, `__proto__` keys.
 * That the marked path reads no descriptor is seen by counting `Object.getOwnPropertyDescriptor` calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { checkInputs, checkJsonTool } from '../../src/engine/input.js';
import { isParsedJson, parseJson } from '../../src/json/parsed.js';
import { lintTools } from '../../src/lint/lint.js';
import { transformTools } from '../../src/api.js';

const BENCH = join(import.meta.dirname, '..', '..', 'bench');
const texts = ['corpus', 'validation'].flatMap((set) =>
  readdirSync(join(BENCH, set))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [`${set}/${f}`, readFileSync(join(BENCH, set, f), 'utf8')] as const),
);

describe('parseJson marks what it parses', () => {
  it('marks an object or array it made, nothing else', () => {
    expect(isParsedJson(parseJson('{"tools":[]}'))).toBe(true);
    expect(isParsedJson(parseJson('[1,2]'))).toBe(true);
    expect(isParsedJson(JSON.parse('{"tools":[]}'))).toBe(false);
    expect(isParsedJson(parseJson('"text"'))).toBe(false);
    expect(isParsedJson(parseJson('null'))).toBe(false);
    // Only the root is marked: a part handed on alone is not vouched for.
    const root = parseJson('{"tools":[{"name":"a"}]}') as { tools: unknown[] };
    expect(isParsedJson(root.tools)).toBe(false);
  });

  it('does not vouch while a prototype has an enumerable key (for…in would list it)', () => {
    const value = parseJson('{"tools":[]}');
    for (const proto of [Object.prototype, Array.prototype]) {
      Object.defineProperty(proto, 'polluted', { value: 1, enumerable: true, configurable: true, writable: true });
      try {
        expect(isParsedJson(value)).toBe(false);
      } finally {
        delete (proto as Record<string, unknown>).polluted;
      }
      expect(isParsedJson(value)).toBe(true);
    }
  });
});

describe('the input check on a parsed value', () => {
  it('finds what the descriptor path finds, on every bench server (sizes, key facts, skips)', () => {
    for (const [name, text] of texts) {
      const marked = parseJson(text) as { toolsList: { tools: unknown[] } };
      const plain = JSON.parse(text) as { toolsList: { tools: unknown[] } };
      const names = plain.toolsList.tools.map((_, i) => `t${i}`);
      expect(checkInputs(marked.toolsList.tools, names, 1000, 'report', undefined, true), name).toEqual(checkInputs(plain.toolsList.tools, names, 1000, 'report'));
    }
    expect(texts.length).toBeGreaterThan(40);
  });

  it('reads no property descriptor on the common path, and one per member without the mark', () => {
    const tool = parseJson('{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}');
    const spy = vi.spyOn(Object, 'getOwnPropertyDescriptor');
    try {
      expect(checkJsonTool(tool, 1000, [], { bytes: 0 }, new Map(), true)).toBeUndefined();
      expect(spy).not.toHaveBeenCalled();
      expect(checkJsonTool(tool, 1000, [], { bytes: 0 }, new Map(), false)).toBeUndefined();
      expect(spy).toHaveBeenCalledTimes(6);
    } finally {
      spy.mockRestore();
    }
  });

  it('still stops at the depth limit, and keeps `__proto__` keys as members', () => {
    const deep = parseJson(`[${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}]`) as unknown[];
    const facts = { bytes: 0 };
    expect(checkJsonTool(deep[0], 1000, [], facts, new Map(), true)).toEqual(checkJsonTool(JSON.parse(JSON.stringify(deep[0])), 1000, [], { bytes: 0 }));
    expect(checkJsonTool(deep[0], 1000, [], facts, new Map(), true)?.message).toBe('nesting deeper than 1000 levels');
    const proto = parseJson('[{"name":"p","__proto__":{"x":1},"inputSchema":{"type":"object"}}]') as unknown[];
    const size = { bytes: 0 };
    expect(checkJsonTool(proto[0], 1000, [], size, new Map(), true)).toBeUndefined();
    expect(size.bytes).toBe(Buffer.byteLength(JSON.stringify(proto[0])));
  });

  it('a run and the lint on a marked input give what they give on an unmarked one', () => {
    for (const [name, text] of texts.slice(0, 12)) {
      const a = transformTools(parseJson(text));
      const b = transformTools(JSON.parse(text));
      expect(JSON.stringify(a.output), name).toBe(JSON.stringify(b.output));
      expect(a.report.stats.before, name).toEqual(b.report.stats.before);
      expect(a.report.skipped, name).toEqual(b.report.skipped);
      expect(lintTools(parseJson(text)), name).toEqual(lintTools(JSON.parse(text)));
    }
  });
});
