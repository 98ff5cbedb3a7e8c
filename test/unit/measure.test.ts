import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineTransform, measureJson, presetSafe, transformTools, utf8Length, type Tokenizer } from '../../src/index.js';
import { AFTER_TEXT, BEFORE_TEXT } from '../../src/core/measure.js';
import { deepFreeze } from '../helpers/freeze.js';

describe('utf8Length', () => {
  it('matches Buffer.byteLength on hand-picked strings (ASCII, 2-, 3-, 4-byte, lone surrogates)', () => {
    const cases = ['', 'abc', 'é', '€', '😀', 'a😀b', '\ud800', '\udc00', 'x\ud800', '\ud800x', '\udc00\ud800', '\ud83d\ude00\ud83d', '\u007f\u0080\u07ff\u0800\uffff'];
    for (const s of cases) expect(utf8Length(s), JSON.stringify(s)).toBe(Buffer.byteLength(s, 'utf8'));
  });

  it('matches Buffer.byteLength on random strings of any UTF-16 code units', () => {
    const units = fc.array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })), { maxLength: 40 });
    fc.assert(
      fc.property(units, (codes) => {
        const s = String.fromCharCode(...codes);
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'));
      }),
      { numRuns: 2000, seed: 13 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'));
      }),
      { seed: 20 },
    );
  });
});

describe('measureJson', () => {
  it('counts the bytes of compact JSON', () => {
    const v = { a: 'é😀', b: [1, null, true], '\ud800': '\\"' };
    expect(measureJson(v)).toEqual({ bytes: Buffer.byteLength(JSON.stringify(v), 'utf8') });
    expect(measureJson(undefined)).toEqual({ bytes: 0 });
  });

  it('asks a tokenizer only when given one', () => {
    const seen: string[] = [];
    const size = measureJson({ a: 1 }, { name: 'fake', count: (t) => (seen.push(t), 42) });
    expect(size).toEqual({ bytes: 7, tokens: 42 });
    expect(seen).toEqual(['{"a":1}']);
  });
});

describe('jsonStringBytes (counted without writing the string out)', () => {
  // The oracle is what it stands for: the UTF-8 length of JSON.stringify's text.
  const oracle = (s: string) => Buffer.byteLength(JSON.stringify(s), 'utf8');

  it('matches JSON.stringify on hand-picked strings, short and long (escapes, pairs, lone surrogates)', async () => {
    const { jsonStringBytes } = await import('../../src/core/measure.js');
    const pieces = ['', 'abc', '"', '\\', '\n', '\r\n', '\t', '\b', '\f', '\u0000', '\u0001', '\u001f', '\u007f', 'é', '€', '—', '😀', '\ud800', '\udc00', '\udc00\ud800', '\ud83d\ude00\ud83d', '\ud83d\ud83d\ude00'];
    const long = 'Returns the list of items for the given query, one per line';
    for (const p of pieces) {
      // Alone (the short path), and inside a long plain text (the long path), at its start, middle and end.
      for (const s of [p, p + long, long + p, long.slice(0, 20) + p + long.slice(20), p + long + p]) {
        expect(jsonStringBytes(s), JSON.stringify(s)).toBe(oracle(s));
      }
    }
  });

  it('matches JSON.stringify on random strings of any UTF-16 code units (fixed seed)', async () => {
    const { jsonStringBytes } = await import('../../src/core/measure.js');
    // Weighted towards what JSON escapes (quotes, backslashes, control characters) and surrogates.
    const unit = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constantFrom(0x22, 0x5c, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x00, 0x1f), fc.integer({ min: 0x80, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff }));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 80 }), (codes) => {
        const s = String.fromCharCode(...codes);
        expect(jsonStringBytes(s)).toBe(oracle(s));
      }),
      { seed: 20261205, numRuns: 4000 },
    );
  });
});

describe('BEFORE_TEXT: the run hands every tool text to the tokenizer that counted it', () => {
  it('once per tool, in order, the text JSON.stringify gives, with the same figures as without it', () => {
    const dir = join(import.meta.dirname, '..', '..', 'bench', 'corpus');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().slice(0, 6);
    const chars: Tokenizer = { name: 'chars', count: (t) => t.length };
    let lists = 0;
    for (const f of files) {
      const tools = deepFreeze((JSON.parse(readFileSync(join(dir, f), 'utf8')) as { toolsList: { tools: unknown[] } }).toolsList.tools);
      const handed: [number, string][] = [];
      const tapped = Object.create(chars, { [BEFORE_TEXT]: { value: (i: number, text: string) => handed.push([i, text]) } }) as Tokenizer;
      const withTap = transformTools(tools, { tokenizer: tapped });
      expect(handed, f).toEqual(tools.map((t, i) => [i, JSON.stringify(t)]));
      const without = transformTools(tools, { tokenizer: chars });
      // Everything but the times.
      const figures = (r: typeof without) => JSON.stringify({ tools: r.tools, report: r.report }, (k, v: unknown) => (k === 'timeMs' ? 0 : v));
      expect(figures(withTap)).toBe(figures(without));
      lists++;
    }
    expect(lists).toBe(6);
  });
});

describe('AFTER_TEXT: the run hands each changed tool text over after every step that changed it', () => {
  // A test-only step the gate must send back: it drops `required` (instances it rejected are then accepted).
  const dropRequired = defineTransform({
    name: 'drop-required',
    description: 'test-only: drops required',
    safety: 'lossless',
    defaultOptions: {},
    messages: { edited: 'dropped' },
    apply(doc, ctx) {
      const s = doc.tool.inputSchema as Record<string, unknown> | undefined;
      if (s && Array.isArray(s.required)) ctx.remove('/inputSchema/required', 'edited');
    },
  });

  it('with the tool it is the text of; the last one handed is the tool the run ends with, unless the gate sent it back', () => {
    const dir = join(import.meta.dirname, '..', '..', 'bench', 'corpus');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().slice(0, 10);
    const chars: Tokenizer = { name: 'chars', count: (t) => t.length };
    let changed = 0;
    let reverted = 0;
    let handedTwice = 0;
    for (const f of files) {
      const tools = deepFreeze((JSON.parse(readFileSync(join(dir, f), 'utf8')) as { toolsList: { tools: unknown[] } }).toolsList.tools);
      const last = new Map<number, unknown>();
      const times = new Map<number, number>();
      const tapped = Object.create(chars, {
        [AFTER_TEXT]: {
          value: (i: number, text: string, tool: unknown) => {
            // The very text the run counted for that tool.
            expect(text).toBe(JSON.stringify(tool));
            last.set(i, tool);
            times.set(i, (times.get(i) ?? 0) + 1);
          },
        },
      }) as Tokenizer;
      const steps = [...presetSafe.steps, dropRequired];
      const withTap = transformTools(tools, { tokenizer: tapped, transforms: steps });
      for (let i = 0; i < tools.length; i++) {
        if (withTap.tools[i] === tools[i]) {
          if (last.has(i)) reverted++;
          continue;
        }
        changed++;
        expect(last.get(i), `${f} #${i}`).toBe(withTap.tools[i]);
        if ((times.get(i) ?? 0) > 1) handedTwice++;
      }
      const without = transformTools(tools, { tokenizer: chars, transforms: steps });
      const figures = (r: typeof without) => JSON.stringify({ tools: r.tools, report: r.report }, (k, v: unknown) => (k === 'timeMs' ? 0 : v));
      expect(figures(withTap)).toBe(figures(without));
    }
    // The lists exercise all three cases: a tool changed once, one changed by several steps, one sent back.
    expect(changed).toBeGreaterThan(20);
    expect(handedTwice).toBeGreaterThan(5);
    expect(reverted).toBeGreaterThan(5);
  });
});
