/**
 * The gate's `email` check, read in one pass, against the expression it replaces (written here as it
 * stood): the same answer on 50,000 seeded strings of the characters that matter (`@`, `.`, whitespace of
 * several kinds, a lone surrogate), and a server's 100 kB default with a dot every other character judged
 * at once (the expression took seconds; the test's timeout is the guard).
 */
import { expect, it } from 'vitest';
import { FORMATS } from '../../src/verify/formats.js';
import { rng } from '../helpers/rng.js';

const EXPRESSION = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ALPHABET = ['a', 'b', 'c', 'd', '@', '.', ' ', '\t', '\n', '\u00a0', '\u2028', '\ufeff', '\uD83D', '-'];

it('answers as the expression on 50,000 seeded strings', () => {
  const next = rng(31);
  let accepted = 0;
  for (let i = 0; i < 50_000; i++) {
    // Mostly letters in the shaped half's pieces, every character of the alphabet now and then.
    const char = (letters: number) => (next() < letters ? 'abcd'[Math.floor(next() * 4)]! : ALPHABET[Math.floor(next() * ALPHABET.length)]!);
    const part = (n: number, letters = 0) => Array.from({ length: Math.floor(next() * n) }, () => char(letters)).join('');
    // Half of them shaped like an address (pieces around an `@` and a `.`), so that both answers are common.
    const s = i % 2 === 0 ? part(10) : `${part(4, 0.85)}${next() < 0.9 ? '@' : ''}${part(4, 0.85)}${next() < 0.9 ? '.' : ''}${part(4, 0.85)}`;
    const expected = EXPRESSION.test(s);
    if (expected) accepted++;
    expect(FORMATS.email!.check(s), JSON.stringify(s)).toBe(expected);
  }
  expect(accepted).toBeGreaterThan(2_000);
  for (const s of ['user@example.com', 'a@b.c', 'a@.b.c', 'a@b.', '@b.c', 'a@b.c@d', 'a b@c.d', 'a@b..c', 'a@bc']) expect(FORMATS.email!.check(s), s).toBe(EXPRESSION.test(s));
});

it('judges a long domain full of dots at once', () => {
  expect(FORMATS.email!.check('a@' + 'b.'.repeat(50_000) + '@')).toBe(false);
  expect(FORMATS.email!.check('a@' + 'b.'.repeat(50_000) + 'c')).toBe(true);
});
