/**
 * src/core/token-edit.ts `editWindows(a, b)`: the windows where two texts differ, each starting and ending at
 * a cut point both texts share. The oracles are independent of it: a cut predicate written here from the
 * rule (an ASCII letter or digit, then ASCII punctuation other than `'`), string equality of what lies
 * between windows, and gpt-tokenizer's own counts of the whole texts and of the windows (the count of `b` is
 * that of `a` less its windows plus `b`'s). The pairs: tools of both bench sets before and after each step of
 * the default preset that changed them (as the run hands them over), and seeded random edits of tool texts
 * with hostile characters (contractions, marks, surrogates, whitespace kinds).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { editWindows } from '../../src/core/token-edit.js';
import { transformTools, type Tokenizer } from '../../src/index.js';
import { cl100k, o200k } from '../../src/tokens.js';
import { rng } from '../helpers/rng.js';

const PLAIN = { disallowedSpecial: new Set<string>() };
const COUNT_EDITED = Symbol.for('toolslim.tokenizer.countEdited');

/** The cut rule, written out: `text[i - 1]` an ASCII letter or digit, `text[i]` ASCII punctuation but `'`. */
function cutHere(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return false;
  return /[A-Za-z0-9]/.test(text[i - 1]!) && /[!-&(-/:-@[-`{-~]/.test(text[i]!);
}

const ATOMS = ['a', 'Z', '0', '42', "'s", "'ll", '"', ',', ':', '{', '}', '.', '/', '-', ' ', '  ', '\n', '\t', '\u00a0', 'é', 'e\u0301', '中文', '😀', '\ud83d', '\ude00', '<|endoftext|>', '](https://x.io/a)', '[Link]', '\\"'];

function toolTexts(): string[] {
  const out: string[] = [];
  for (const set of ['corpus', 'validation']) {
    const dir = join(import.meta.dirname, '..', '..', 'bench', set);
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
      const tools = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { toolsList?: { tools?: unknown[] } }).toolsList?.tools ?? [];
      out.push(...tools.map((t) => JSON.stringify(t)));
    }
  }
  return out;
}

/** Tools before and after each step of the default preset that changed them, as the run hands them to COUNT_EDITED. */
function stepPairs(): [string, string][] {
  const pairs: [string, string][] = [];
  const count = (t: string) => t.length;
  const tokenizer = { name: 'pairs', count, [COUNT_EDITED]: { count, countEdited: (a: string, _n: number, b: string) => (pairs.push([a, b]), b.length) } } as Tokenizer;
  for (const set of ['corpus', 'validation']) {
    const dir = join(import.meta.dirname, '..', '..', 'bench', set);
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) transformTools(JSON.parse(readFileSync(join(dir, f), 'utf8')), { tokenizer });
  }
  return pairs;
}

/** `text` with `edits` seeded edits: a stretch deleted, replaced or inserted (hostile atoms, or a piece of another text). */
function edited(text: string, others: readonly string[], r: () => number, edits: number): string {
  let out = text;
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(r() * (out.length + 1));
    const del = r() < 0.3 ? 0 : Math.floor(r() * Math.min(200, out.length - at + 1));
    let ins = '';
    if (r() < 0.5) for (let k = Math.floor(r() * 6); k > 0; k--) ins += ATOMS[Math.floor(r() * ATOMS.length)]!;
    else {
      const o = others[Math.floor(r() * others.length)]!;
      const from = Math.floor(r() * o.length);
      ins = o.slice(from, from + Math.floor(r() * 120));
    }
    out = out.slice(0, at) + ins + out.slice(at + del);
  }
  return out;
}

/** Checks the windows of (a, b) against the oracles; returns how many characters of `b` they hold. */
function checkWindows(a: string, b: string, label: string, counts = true): number {
  const w = editWindows(a, b);
  expect(w.length % 4, label).toBe(0);
  if (a === b) {
    expect(w, label).toEqual([]);
    return 0;
  }
  let aAt = 0;
  let bAt = 0;
  let o200kDelta = 0;
  let cl100kDelta = 0;
  let held = 0;
  for (let k = 0; k < w.length; k += 4) {
    const [as, ae, bs, be] = [w[k]!, w[k + 1]!, w[k + 2]!, w[k + 3]!];
    // In order, inside the texts, and what lies before the window is the same in both.
    expect(as >= aAt && ae >= as && ae <= a.length && bs >= bAt && be >= bs && be <= b.length, label).toBe(true);
    expect(a.slice(aAt, as) === b.slice(bAt, bs), label).toBe(true);
    // Each end is a text's start or end, or a cut point of both texts.
    for (const [x, y] of [[as, bs], [ae, be]] as const) {
      const edge = (x === 0 && y === 0) || (x === a.length && y === b.length);
      expect(edge || (cutHere(a, x) && cutHere(b, y)), `${label}: window end ${x}/${y}`).toBe(true);
    }
    if (counts) {
      o200kDelta += countO200k(b.slice(bs, be), PLAIN) - countO200k(a.slice(as, ae), PLAIN);
      cl100kDelta += countCl100k(b.slice(bs, be), PLAIN) - countCl100k(a.slice(as, ae), PLAIN);
    }
    held += be - bs;
    aAt = ae;
    bAt = be;
  }
  expect(a.slice(aAt) === b.slice(bAt), label).toBe(true);
  if (!counts) return held;
  expect(countO200k(a, PLAIN) + o200kDelta, `${label}: o200k_base`).toBe(countO200k(b, PLAIN));
  expect(countCl100k(a, PLAIN) + cl100kDelta, `${label}: cl100k_base`).toBe(countCl100k(b, PLAIN));
  return held;
}

describe('editWindows', () => {
  it('finds windows that add up, on every tool the default preset changes in both bench sets', () => {
    const pairs = stepPairs();
    expect(pairs.length).toBeGreaterThan(200);
    let held = 0;
    let total = 0;
    for (const [i, [a, b]] of pairs.entries()) {
      held += checkWindows(a, b, `pair ${i}`);
      total += b.length;
    }
    // Steps change a few places of a tool: the windows hold a small part of what changed tools are.
    expect(held / total).toBeLessThan(0.25);
  });

  it('finds windows that add up, on seeded random edits of tool texts with hostile characters', () => {
    const texts = toolTexts();
    const r = rng(20261206);
    for (let n = 0; n < 400; n++) {
      const a = texts[Math.floor(r() * texts.length)]!;
      const b = edited(a, texts, r, 1 + Math.floor(r() * 8));
      checkWindows(a, b, `edit ${n}`);
      checkWindows(b, a, `edit ${n}, reversed`);
    }
  });

  it('finds a one-character change at every offset of a long text, forwards and backwards', () => {
    // The compare runs in slices that double and halve: a change at any offset inside one must be found.
    const text = toolTexts().find((t) => t.length > 20_000)!;
    expect(text).toBeDefined();
    const at = [...Array.from({ length: 700 }, (_, i) => i), ...Array.from({ length: 700 }, (_, i) => text.length - 1 - i), ...Array.from({ length: 300 }, (_, i) => 8000 + i * 37)];
    const changed = (t: string, p: number) => t.slice(0, p) + String.fromCharCode(t.charCodeAt(p) === 0x61 ? 0x62 : 0x61) + t.slice(p + 1);
    for (const [n, p] of at.entries()) {
      checkWindows(text, changed(text, p), `offset ${p}`, n % 60 === 0);
      // With a second change near the start, the one at p is found from the end (the common tail).
      if (p > 40) checkWindows(text, changed(changed(text, 20), p), `offsets 20 and ${p}`, n % 60 === 0);
    }
  });

  it('handles texts without a cut point, one empty text, a text that is a prefix of the other, and unrelated texts', () => {
    const cases: [string, string][] = [
      ['', 'abc'],
      ['abc', ''],
      ['   ', '  \n '],
      ['{"a":1}', '{"a":1,"b":2}'],
      ['{"a":1,"b":2}', '{"b":2}'],
      ['x'.repeat(5000) + '.', 'y'.repeat(5000) + '.'],
      [JSON.stringify({ q: 'one two three'.repeat(400) }), JSON.stringify({ z: 'four five'.repeat(700) })],
    ];
    for (const [i, [a, b]] of cases.entries()) checkWindows(a, b, `case ${i}`);
    // A stretch that repeats inside the text (an anchor found at the wrong place) still adds up.
    const unit = '{"type":"string","description":"The id."},';
    const a = `{"p":[${unit.repeat(50)}1]}`;
    const b = `{"p":[${unit.repeat(20)}${unit.replace('id', 'ID')}${unit.repeat(29)}2]}`;
    checkWindows(a, b, 'repeats');
  });

  it('is not used for a copy of the tokenizer with a count of its own (the copy counts its own way)', () => {
    // `{ ...o200k, count }` copies the symbol-keyed capability too; the run must see it is not this count's.
    const halves = { ...o200k, name: 'halves', count: (t: string) => Math.ceil(countO200k(t, PLAIN) / 2) } as Tokenizer;
    const dir = join(import.meta.dirname, '..', '..', 'bench', 'corpus');
    let changed = 0;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort().slice(0, 8)) {
      const { tools, report } = transformTools(JSON.parse(readFileSync(join(dir, f), 'utf8')), { tokenizer: halves });
      report.stats.tools.forEach((t, k) => {
        if (t.after.bytes !== t.before.bytes) changed++;
        expect(t.after.tokens, `${f} tool ${k}`).toBe(halves.count(JSON.stringify(tools[k])));
      });
    }
    expect(changed).toBeGreaterThan(10);
  });

  it('is what the run counts with: per-tool counts after the run equal gpt-tokenizer', () => {
    for (const set of ['corpus', 'validation']) {
      const dir = join(import.meta.dirname, '..', '..', 'bench', set);
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort().slice(0, 20)) {
        for (const [tokenizer, oracle] of [[o200k, countO200k], [cl100k, countCl100k]] as const) {
          const { tools, report } = transformTools(JSON.parse(readFileSync(join(dir, f), 'utf8')), { tokenizer });
          report.stats.tools.forEach((t, k) => expect(t.after.tokens, `${f} ${tokenizer.name} tool ${k}`).toBe(oracle(JSON.stringify(tools[k]), PLAIN)));
        }
      }
    }
  });
});
