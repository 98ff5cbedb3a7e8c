/**
 * strip-noise's linear scanners (issue 12) against the patterns they replace. Each scanner must remove
 * exactly what its leftmost-first regex (written out here, as it was in the transform) removes; the regexes
 * backtrack on long runs, but on these short generated strings they are a fast, independent oracle.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LINK_LEAD,
  LINK_TAIL,
  LINK_TEXT_LEAD,
  markBareUrls,
  nextSentence,
  removeMarksBeforeStops,
  removeSeeClauses,
  removeUrlBrackets,
  replaceMarkdownLinks,
  trimBlanksEnd,
} from '../../src/transforms/strip-noise/index.js';

const SEED = 1212;
const RUNS = 3000;
const MARK = '\u0000';
const LINK_MARK = '\u0001';

/** Pieces the patterns care about: blanks of every kind, stops, brackets, marks, lead-in words, URLs. */
const PIECES = [
  ' ', ' ', ' ', '  ', '\t', '\u00a0', '\u3000', '\n', '\u2028', '\u2029', '\r',
  '.', '. ', '!', '?', ',', ';', ':', '(', ')', '[', ']', '![', '](', '<', '>', '"', "'", '`', '#', '/', './', '-', '_', '*',
  MARK, MARK, MARK, LINK_MARK,
  'see', 'See', 'SEE', 'visit', 'check', 'Check', 'xsee', 'ſee', 'also', 'i.e.', 'e.g.', 'cf.', 'doc', 'docs', 'at', 'via',
  'for', 'for more', ' for details', ' for more details', ' for info', ' for information', ' for more', 'read more', 'refer to', 'details', 'API reference',
  'http://', 'https://a.b', 'http://a', 'http://a(b)', 'www.a', 'mailto:a', '{x}', 'a', 'b', 'x1', 'é', 'K',
];
const text = (maxPieces = 16) => fc.array(fc.constantFrom(...PIECES), { maxLength: maxPieces }).map((a) => a.join(''));
const check = <T extends unknown[]>(property: fc.IProperty<T>) => fc.assert(property, { seed: SEED, numRuns: RUNS });
/** `scanner(t)` equals `oracle(t)` on every generated text. */
const same = (scanner: (t: string) => string, oracle: (t: string) => string, texts = text()) =>
  check(
    fc.property(texts, (t) => {
      expect(scanner(t)).toBe(oracle(t));
    }),
  );

describe('each scanner removes what its pattern removes', () => {
  it('`; see <url> for details` clauses', () => {
    const pattern = /[ \t]*[,;]?[ \t]*\b(?:see|visit|check)[ \t]+\u0000(?:[ \t]+for (?:more )?(?:details|information|info|more))?/gi;
    same(removeSeeClauses, (t) => t.replace(pattern, ''));
  });

  it('brackets around nothing but a URL', () => {
    const round = /[ \t]*\((?:[ \t]*(?:see(?: also)?|i\.e\.|e\.g\.|cf\.|docs?|at|via))?[ \t,:;]*\u0000[ \t]*\)/gi;
    const square = /[ \t]*\[[ \t]*\u0000[ \t]*\]/g;
    same(removeUrlBrackets, (t) => t.replace(round, '').replace(square, ''));
  });

  it('a URL before a stop or a line end takes the blanks before it', () => {
    const pattern = /[ \t]*\u0000(?=[.,;:!?)\]]|\n|$)/g;
    same(removeMarksBeforeStops, (t) => t.replace(pattern, ''));
  });

  it('markdown links keep their text and a link mark', () => {
    const pattern = new RegExp(String.raw`!?\[([^\]\n]*)` + LINK_TAIL.source, 'gi');
    // Mostly well-formed links (each part sometimes left out or broken) between stray brackets.
    const part = (...options: string[]) => fc.constantFrom(...options);
    const link = fc
      .tuple(part('', '!', '!', 'x!'), part('[', '[', '[[', '!['), part('', 'a', 'a b', '[a', 'a[b', '\n'), part(']', ']', ']]', ''), part('(', '(', ' (', '(('), part('', ' ', '\t'), part('http://a', '#', './a', '../a', 'www.a', 'mailto:a', '<http://a b>', '<#', 'x', 'http://a(b)c', 'http://a(b'), part('', '', ' "t"', " 't'", ' "t', '"t"'), part('', ' ', '\u2028'), part(')', ')', '))', ''))
      .map((a) => a.join(''));
    const linkText = fc.array(fc.oneof(link, part('[', ']', '](', '(', ')', '!', ' ', 'x', '\n')), { maxLength: 6 }).map((a) => a.join(''));
    same(replaceMarkdownLinks, (t) => t.replace(pattern, (_m, label: string) => label + LINK_MARK));
    same(replaceMarkdownLinks, (t) => t.replace(pattern, (_m, label: string) => label + LINK_MARK), linkText);
  });

  it('pointer sentences: taking a stop’s blanks whole changes no match', () => {
    for (const lead of [LINK_LEAD, LINK_TEXT_LEAD]) {
      const backtracking = new RegExp(lead.source.replace('(?![ \\t])', ''), lead.flags);
      expect(backtracking.source).not.toBe(lead.source);
      same(
        (t) => t.replace(lead, '[$1]'),
        (t) => t.replace(backtracking, '[$1]'),
      );
    }
  });

  it('the line-end trim', () => {
    same(trimBlanksEnd, (t) => t.replace(/[ \t]+$/, ''));
  });

  it('sentences are what /\\S.*?(?:[.!?](?=[ \\t]|$)|$)/g finds, from any start', () => {
    const pattern = /\S.*?(?:[.!?](?=[ \t]|$)|$)/g;
    check(
      fc.property(text(), fc.nat(4), (t, from) => {
        const expected: [number, number][] = [];
        pattern.lastIndex = Math.min(from, t.length);
        for (let m = pattern.exec(t); m !== null; m = pattern.exec(t)) expected.push([m.index, m.index + m[0].length]);
        const found: [number, number][] = [];
        for (let s = nextSentence(t, Math.min(from, t.length)); s !== undefined; s = nextSentence(t, s[1])) found.push(s);
        expect(found).toEqual(expected);
      }),
    );
  });

  it('bare URLs lose trailing punctuation and only unbalanced closing brackets', () => {
    // The rule as first written: recount the brackets of the URL for every character trimmed.
    const url = /\bhttps?:\/\/[\p{L}\p{N}[][^\s<>"'`]*/giu;
    const count = (s: string, c: string) => s.split(c).length - 1;
    const oracle = (t: string) => {
      let out = '';
      let last = 0;
      url.lastIndex = 0;
      for (let m = url.exec(t); m !== null; m = url.exec(t)) {
        let end = m.index + m[0].length;
        for (;;) {
          const u = t.slice(m.index, end);
          const c = t[end - 1]!;
          if ('.,;:!?\'"*_'.includes(c) || (c === ')' && count(u, '(') < count(u, ')')) || (c === ']' && count(u, '[') < count(u, ']'))) end--;
          else break;
        }
        url.lastIndex = end;
        if (t.slice(m.index, end).includes('{') || /(?:\be\.g\.|\beg\.|\bfor example|\bsuch as|\blike|\bformat)[\s,:]*$|['"“‘]$/i.test(t.slice(Math.max(0, m.index - 24), m.index))) continue;
        out += t.slice(last, m.index) + MARK;
        last = end;
      }
      return out + t.slice(last);
    };
    // The scanner starts from each `://` (issue 31): schemes in every case and split apart, word characters before
    // them (`ſ` and `K` are word characters to a `u`+`i` pattern), and `://` without a scheme or without a host.
    const urlText = fc
      .array(
        fc.constantFrom('http://a', 'https://', 'b', '(', ')', '[', ']', '.', ',', '!', '?', '"', "'", '_', '*', ' ', 'e.g. ', 'like ', '{', '}', 'HTTP://a', 'HtTpS://é', 'http', 'https', 's', 'S', 'ſ', 'K', 'x', '1', '://', '//', ':', 'é', '\n'),
        { maxLength: 14 },
      )
      .map((a) => a.join(''));
    same(markBareUrls, oracle, urlText);
  });
});
