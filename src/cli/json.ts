import { CliError } from './errors.js';
import { parseJson } from '../json/parsed.js';

/**
 * Parses JSON text for the CLI: a leading BOM is accepted; an error names the source and the line and
 * column where parsing failed (found by a small scanner of our own, since the engine's messages do not
 * always carry a position). The value is marked as `JSON.parse`'s own (src/json/parsed.ts): the input checks
 * read its members without property descriptors.
 */
export function parseJsonText(text: string, source: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return parseJson(body);
  } catch (e) {
    const found = findJsonError(body);
    if (!found) throw new CliError(`${source}: not valid JSON: ${(e as Error).message}`);
    const { line, column } = lineColumn(body, found.offset);
    throw new CliError(`${source}: not valid JSON at line ${line}, column ${column}: ${found.reason}`);
  }
}

/** Where a JSON text first goes wrong: an offset (the text's length for a truncated text) and why. */
export interface JsonErrorLocation {
  readonly offset: number;
  readonly reason: string;
}

type State = 'value' | 'first-value' | 'first-key' | 'key' | 'colon' | 'after';

/** Scans a JSON text (RFC 8259) iteratively; undefined when it is valid. */
export function findJsonError(text: string): JsonErrorLocation | undefined {
  const n = text.length;
  const stack: number[] = []; // 123 `{` or 91 `[`
  let state: State = 'value';
  let i = 0;
  const fail = (offset: number, expected: string): JsonErrorLocation => ({
    offset,
    reason: offset >= n ? `unexpected end of input (expected ${expected})` : `unexpected ${show(text, offset)} (expected ${expected})`,
  });
  for (;;) {
    while (i < n && isWhitespace(text.charCodeAt(i))) i++;
    const c = i < n ? text.charCodeAt(i) : -1;
    switch (state) {
      case 'first-key':
        if (c === 125 /* } */) {
          stack.pop();
          i++;
          state = 'after';
          break;
        }
      // falls through
      case 'key': {
        if (c !== 34) return fail(i, state === 'first-key' ? 'a property name or `}`' : 'a property name');
        const end = scanString(text, i);
        if (typeof end !== 'number') return end;
        i = end;
        state = 'colon';
        break;
      }
      case 'colon':
        if (c !== 58 /* : */) return fail(i, '`:`');
        i++;
        state = 'value';
        break;
      case 'first-value':
        if (c === 93 /* ] */) {
          stack.pop();
          i++;
          state = 'after';
          break;
        }
      // falls through
      case 'value': {
        if (c === 123 || c === 91) {
          stack.push(c);
          i++;
          state = c === 123 ? 'first-key' : 'first-value';
          break;
        }
        let end: number | JsonErrorLocation;
        if (c === 34) end = scanString(text, i);
        else if (c === 45 || (c >= 48 && c <= 57)) end = scanNumber(text, i);
        else if (text.startsWith('true', i)) end = i + 4;
        else if (text.startsWith('false', i)) end = i + 5;
        else if (text.startsWith('null', i)) end = i + 4;
        else return fail(i, 'a value');
        if (typeof end !== 'number') return end;
        i = end;
        state = 'after';
        break;
      }
      case 'after': {
        const top = stack[stack.length - 1];
        if (top === undefined) return c === -1 ? undefined : fail(i, 'the end of input');
        const close = top === 123 ? 125 : 93;
        if (c === 44 /* , */) {
          i++;
          state = top === 123 ? 'key' : 'value';
        } else if (c === close) {
          stack.pop();
          i++;
        } else return fail(i, top === 123 ? '`,` or `}`' : '`,` or `]`');
        break;
      }
    }
  }
}

function scanString(text: string, start: number): number | JsonErrorLocation {
  let i = start + 1;
  for (;;) {
    if (i >= text.length) return { offset: text.length, reason: 'unexpected end of input (unterminated string)' };
    const c = text.charCodeAt(i);
    if (c === 34) return i + 1;
    if (c < 0x20) return { offset: i, reason: `unexpected ${show(text, i)} inside a string (control characters must be escaped)` };
    if (c === 92 /* \ */) {
      const e = text.charAt(i + 1);
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { offset: i, reason: 'invalid `\\u` escape (expected four hex digits)' };
        i += 6;
      } else if ('"\\/bfnrt'.includes(e) && e !== '') i += 2;
      else return { offset: i, reason: `invalid escape \`\\${e}\`` };
    } else i++;
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function scanNumber(text: string, start: number): number | JsonErrorLocation {
  NUMBER.lastIndex = start;
  const m = NUMBER.exec(text);
  if (!m || m[0] === '-' || m[0].length === 0) return { offset: start, reason: `invalid number at ${show(text, start)}` };
  const end = start + m[0].length;
  const next = text.charCodeAt(end);
  if (next === 46 /* . */ || next === 101 || next === 69 || (next >= 48 && next <= 57)) return { offset: end, reason: `invalid number (unexpected ${show(text, end)})` };
  return end;
}

function isWhitespace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function show(text: string, offset: number): string {
  const ch = String.fromCodePoint(text.codePointAt(offset)!);
  return /[\s\u0000-\u001f]/.test(ch) ? JSON.stringify(ch) : `\`${ch}\``;
}

/** 1-based line and column (in characters) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
