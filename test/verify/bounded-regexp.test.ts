/**
 * Patterns checked in bounded time (src/session/bounded-regexp.ts): the answer must be exactly the `u`
 * expression's, on every pattern and text — checked against `new RegExp(pattern, 'u')` itself over seeded
 * random patterns (classes, negations, escapes, groups, lookarounds, backreferences, characters at and
 * above U+E000) and texts (characters outside the plane, lone surrogates, U+E000 itself). And the attack:
 * a nested quantifier met with a long text ends at once in the argument check, with and without a
 * character outside the plane in the text.
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { ArgumentValidator, verifyTool } from '../../src/index.js';
import { boundedRegExp, REGEXP_FALLBACK_FLAG } from '../../src/verify/bounded-regexp.js';
import { rng } from '../helpers/rng.js';

const ATOMS = ['a', 'b', 'é', '1', ' ', '_', '.', '\\d', '\\w', '\\s', '\\D', '\\W', '\\S', '[a-c]', '[^ab]', '[^\\s]', '[\\u00e0-\\u00ff]', '[^\\x00-\\x7f]', '\\b', '\\B', '\uE000', '\\uE000', '[\\u0000-\\uFFFF]', '[^\\uE000]', '😀', '\\u{1F600}', '\\p{L}', '\\P{L}', '\\uD83D', '[\\uD800-\\uDFFF]', '[^]', '\\0', '\\x41', '\\cJ', '[\\d\\s]', '[^\\W]', '(?<n>.)\\k<n>', '\\n', '[😀-😂]', '\\u0041'];
const TEXT = ['a', 'b', 'é', '1', ' ', '_', 'x', 'A', '\n', '\0', '\uE000', '😀', '😁', '𝒜', '\uD83D', '\uDE00', 'ß'];

function pattern(next: () => number, depth = 0): string {
  const n = 1 + Math.floor(next() * 4);
  let out = '';
  for (let i = 0; i < n; i++) {
    const r = next();
    let atom: string;
    if (r < 0.15 && depth < 2) {
      const inner = pattern(next, depth + 1);
      const kind = next();
      atom = kind < 0.5 ? `(${inner})` : kind < 0.65 ? `(?:${inner}|${pattern(next, depth + 1)})` : kind < 0.8 ? `(?=${inner})` : kind < 0.9 ? `(?!${inner})` : `(?<=${inner})`;
    } else if (r < 0.2) atom = '\\1';
    else atom = ATOMS[Math.floor(next() * ATOMS.length)]!;
    const q = next();
    out += atom + (q < 0.15 ? '*' : q < 0.3 ? '+' : q < 0.4 ? '?' : q < 0.45 ? '{1,2}' : '');
  }
  const anchor = next();
  return anchor < 0.3 ? `^${out}$` : anchor < 0.4 ? `^${out}` : out;
}

describe('boundedRegExp answers as the u expression does', () => {
  it('on 20,000 seeded pattern and text pairs', () => {
    // BRX / BRS: more pairs and other seeds, for a longer search by hand (the test runs 4,000 at one seed).
    const next = rng(Number(process.env.BRS ?? 20261206));
    let compared = 0;
    let plainPath = 0;
    for (let c = 0; c < Number(process.env.BRX ?? 4000); c++) {
      const p = pattern(next);
      let expected: RegExp;
      try {
        expected = new RegExp(p, 'u');
      } catch {
        expect(() => boundedRegExp(p, 'u')).toThrow();
        continue;
      }
      const rx = boundedRegExp(p, 'u');
      if (!(rx instanceof RegExp)) plainPath++;
      expect(rx.toString()).toBe(expected.toString());
      for (let k = 0; k < 5; k++) {
        const text = Array.from({ length: Math.floor(next() * 7) }, () => TEXT[Math.floor(next() * TEXT.length)]!).join('');
        expect(rx.test(text), `${JSON.stringify(p)} on ${JSON.stringify(text)}`).toBe(expected.test(text));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    expect(plainPath).toBeGreaterThan(1000);
  });

  it('by hand: what tells characters outside the plane apart, and what does not', () => {
    const cases: [string, string][] = [
      ['^(.)\\1$', '😀𝒜'], // a backreference compares two of them: not stood in for
      ['^(.)\\1$', '😀😀'],
      ['^(?<c>.)\\k<c>$', '😀𝒜'],
      ['^.$', '😀'], // one character with u, two without
      ['^.{2}$', '😀'],
      ['^[^a]$', '\uD83D'], // a lone surrogate is one character with u
      ['^[\\uE000-\\uF8FF]$', '😀'], // a range reaching U+E000: not stood in for
      ['^\\S\\W\\D$', '😀\uE000𝒜'],
      ['^\\p{L}+$', 'é𝒜'],
      // V8's u expression also starts a match inside a surrogate pair: found by 100,000 seeded pairs.
      ['\\B', 'x😁_'],
      ['(?<=\\W)\\W', 'x😁_'],
      ['\\b.', '😁'],
    ];
    for (const [p, text] of cases) expect(boundedRegExp(p, 'u').test(text), `${p} on ${text}`).toBe(new RegExp(p, 'u').test(text));
    expect(new RegExp('^(.)\\1$', 'u').test('😀𝒜')).toBe(false);
    expect(/\B/u.exec('x😁_')?.index).toBe(2);
  });

  it('without u it is the expression itself', () => {
    expect(boundedRegExp('^a+$', '')).toEqual(/^a+$/);
  });
});

describe('a server pattern with nested quantifiers meets a long argument (the timeout is the guard)', () => {
  it('ends at once, with the verdict ajv gives', () => {
    setFlagsFromString(REGEXP_FALLBACK_FLAG);
    const v = new ArgumentValidator();
    const tool = { inputSchema: { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } }, patternProperties: { '^(x+)+$': { type: 'integer' } } } };
    // Before: 28 characters took 1.4 s, 40 would take hours.
    expect(v.check(tool, { s: 'a'.repeat(5000) + '!' }).status).toBe('invalid');
    expect(v.check(tool, { s: 'a'.repeat(5000) + '😀' }).status).toBe('invalid');
    expect(v.check(tool, { s: 'a'.repeat(5000) }).status).toBe('valid');
    expect(v.check(tool, { ['x'.repeat(5000) + 'y']: 'not an integer' }).status).toBe('valid');
    expect(v.check(tool, { ['x'.repeat(5000)]: 'not an integer' }).status).toBe('invalid');
  });
});

describe('the gate meets a server\'s own default with its own pattern (the timeout is the guard)', () => {
  it('judges the verdicts at once, and still catches a changed one', () => {
    setFlagsFromString(REGEXP_FALLBACK_FLAG);
    // The instances the gate generates hold the schema's default: 5,000 a's and a "!" against ^(a+)+$.
    const S = { type: 'string', pattern: '^(a+)+$', default: 'a'.repeat(5000) + '!' };
    const before = { name: 'r', inputSchema: { type: 'object', properties: { s: { $ref: '#/$defs/S' } }, $defs: { S } } };
    const inlined = { name: 'r', inputSchema: { type: 'object', properties: { s: S } } };
    expect(verifyTool(before, inlined, { level: 'verdicts' })).toBeUndefined();
    const changed = { name: 'r', inputSchema: { type: 'object', properties: { s: { ...S, pattern: '^(a+)+!?$' } } } };
    expect(verifyTool(before, changed, { level: 'verdicts' })).toMatchObject({ check: expect.any(String) });
  });
});

describe('the gate\'s probes meet a server\'s pattern (the timeout is the guard)', () => {
  it('judge the verdicts at once, and still catch a changed one', () => {
    setFlagsFromString(REGEXP_FALLBACK_FLAG);
    // The generator tries its own probe strings on each pattern, a 36-character UUID among them; with `u` this
    // pattern backtracked exponentially on it (58 s for one schema; `optimize --verify structural` of such a
    // 170-byte list, 118 s).
    const S = { type: 'string', pattern: '^([0-9a-f]|[0-9a-z-])+!$' };
    const before = { name: 'u', inputSchema: { type: 'object', properties: { s: { $ref: '#/$defs/S' } }, $defs: { S } } };
    const inlined = { name: 'u', inputSchema: { type: 'object', properties: { s: S } } };
    expect(verifyTool(before, inlined, { level: 'structural' })).toBeUndefined();
    const changed = { name: 'u', inputSchema: { type: 'object', properties: { s: { ...S, pattern: '^([0-9a-f]|[0-9a-z-])+!?$' } } } };
    expect(verifyTool(before, changed, { level: 'verdicts' })).toMatchObject({ check: expect.any(String) });
  });
});
