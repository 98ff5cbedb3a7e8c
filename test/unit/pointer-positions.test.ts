/**
 * Where `check --format sarif` / `--format github` point into a file: `pointerPositions` finds every finding's
 * pointer in one scan of the text (each finding scanned the text from its start before: 190 s for 20,000
 * findings). The oracle is a serializer written here that writes `JSON.stringify(value, null, indent)`'s text
 * (checked equal to it) and notes, as it writes, where each value starts (for a member, where its name
 * starts); lines and columns are then counted character by character.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pointerPosition, pointerPositions } from '../../src/cli/sarif.js';

/** `JSON.stringify(value, null, indent)`, with each pointer's offset noted (a member: its name's). */
function writeNoting(value: unknown, indent: string): { text: string; at: Map<string, number> } {
  const at = new Map<string, number>();
  let text = '';
  const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  const write = (v: unknown, pointer: string, depth: number): void => {
    if (Array.isArray(v)) {
      if (v.length === 0) {
        text += '[]';
        return;
      }
      text += '[';
      v.forEach((item, i) => {
        if (i > 0) text += ',';
        if (indent !== '') text += '\n' + indent.repeat(depth + 1);
        at.set(`${pointer}/${i}`, text.length);
        write(item, `${pointer}/${i}`, depth + 1);
      });
      if (indent !== '') text += '\n' + indent.repeat(depth);
      text += ']';
      return;
    }
    if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v);
      if (keys.length === 0) {
        text += '{}';
        return;
      }
      text += '{';
      keys.forEach((k, i) => {
        if (i > 0) text += ',';
        if (indent !== '') text += '\n' + indent.repeat(depth + 1);
        at.set(`${pointer}/${esc(k)}`, text.length);
        text += JSON.stringify(k) + (indent !== '' ? ': ' : ':');
        write((v as Record<string, unknown>)[k], `${pointer}/${esc(k)}`, depth + 1);
      });
      if (indent !== '') text += '\n' + indent.repeat(depth);
      text += '}';
      return;
    }
    text += JSON.stringify(v);
  };
  at.set('', 0);
  write(value, '', 0);
  return { text, at };
}

/** Line and column of an offset, counted one character at a time. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset; i++) {
    if (text[i] === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column };
}

describe('pointerPositions', () => {
  it('finds every value of random JSON, in one scan, where the serializer put it (fixed seed)', () => {
    const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('a/b', '~', '~1', '__proto__x', '"q"', 'é\n'));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, fc.constantFrom(null, true, false, 0, -1.5, 1e21), fc.string({ maxLength: 8 }), fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(key, tie('v'), { maxKeys: 4 })),
    })).v;
    fc.assert(
      fc.property(value, fc.constantFrom('', '  ', '\t'), fc.array(fc.constantFrom('/nope', '/0/zz', '/a~1b/9', '/x'), { maxLength: 3 }), (v, indent, missing) => {
        const { text, at } = writeNoting(v, indent);
        expect(text).toBe(JSON.stringify(v, null, indent));
        const asked = [...at.keys(), ...missing];
        const got = pointerPositions(text, asked);
        for (const p of asked) {
          const want = at.has(p) ? lineColumn(text, at.get(p)!) : undefined;
          expect(got.get(p), p).toEqual(want);
          // One pointer at a time reads the same.
          expect(pointerPosition(text, p), p).toEqual(want);
        }
        expect(got.size).toBe(at.size);
      }),
      { seed: 2929, numRuns: 300 },
    );
  });

  it('hand-written cases: a byte-order mark, a repeated key (the first), escapes in keys, a scalar root', () => {
    const text = '\ufeff{\n "a": 1, "a": 2,\n "b\\/c": {"x~y": [true, {"k": "v"}]}\n}';
    const got = pointerPositions(text, ['', '/a', '/b~1c', '/b~1c/x~0y/1/k', '/b~1c/x~0y/2']);
    // The BOM is no column (as an editor shows the line, and as a parse error counts it): `{` is column 1.
    expect(got.get('')).toEqual({ line: 1, column: 1 });
    expect(pointerPositions('\ufeff[{"name": "x"}]', ['/0', '/0/name'])).toEqual(new Map([['/0', { line: 1, column: 2 }], ['/0/name', { line: 1, column: 3 }]]));
    expect(got.get('/a')).toEqual({ line: 2, column: 2 });
    expect(got.get('/b~1c')).toEqual({ line: 3, column: 2 });
    expect(got.get('/b~1c/x~0y/1/k')).toEqual({ line: 3, column: 26 });
    expect(got.has('/b~1c/x~0y/2')).toBe(false);
    expect(pointerPositions('  42', ['', '/0'])).toEqual(new Map([['', { line: 1, column: 3 }]]));
    expect(pointerPositions('   ', [''])).toEqual(new Map());
  });
});
