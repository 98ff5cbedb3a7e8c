// Why one file: one linear scanner of the input text and the renderer that writes it back; both must agree on
// the same lexemes and layout, so they sit together.
/**
 * The JSON text a tools list came in, kept so that what toolslim writes is what it read: where each tool
 * of the tools array sits in the text, how the text is laid out (indentation, separators), and, per tool,
 * the numbers whose text `JSON.stringify(JSON.parse(text))` would not reproduce (`1.0`, `1e2`, `-0`,
 * `9223372036854775807`, …).
 *
 * A renderer then writes the output as the input text with only the rewritten tools replaced: every other
 * byte — the envelope, the whitespace, every unchanged tool — is copied. A rewritten tool is serialized in
 * the input's layout with its numbers' original text restored.
 *
 * Everything here is one linear scan of a text that is already known to be valid JSON (the caller parsed
 * it); a tool holding odd numbers gets a second scan of its own span. No imports: this is the lowest layer.
 */

/** How a JSON text is laid out. */
export interface JsonStyle {
  /** The indentation unit (`"  "`, `"\t"`, …), or `""` when the text is on one line. */
  readonly indent: string;
  /** The line break of indented text (`"\n"` or `"\r\n"`); `""` when the text is on one line. */
  readonly newline: string;
  /** Between a member name and its value: `":"` or `": "`. */
  readonly colon: string;
  /** Between members or elements on one line: `","` or `", "` (indented text breaks the line instead). */
  readonly comma: string;
}

/** The layout of `JSON.stringify(value)`. */
export const COMPACT_STYLE: JsonStyle = Object.freeze({ indent: '', newline: '', colon: ':', comma: ',' });

/** The layout of `JSON.stringify(value, null, n)` (n spaces, 1 to 10; 0 gives {@link COMPACT_STYLE}). */
export function indentedStyle(n: number): JsonStyle {
  if (n <= 0) return COMPACT_STYLE;
  return Object.freeze({ indent: ' '.repeat(Math.min(10, n)), newline: '\n', colon: ': ', comma: ',' });
}

/** What a rewritten tool's numbers need, or why it cannot be rewritten without changing one. */
export interface ToolNumbers {
  /**
   * Canonical text (`String(value)`, what `JSON.stringify` writes) → the text the input used, for every
   * number of the tool whose input text differs from the canonical one. Undefined when there is none.
   */
  readonly lexemes?: ReadonlyMap<string, string>;
  /** Set when a rewrite would change a number's text in a way the renderer cannot restore. */
  readonly problem?: NumberProblem;
}

/** A number that keeps its tool from being rewritten. */
export interface NumberProblem {
  /** The number's text. */
  readonly lexeme: string;
  /** JSON Pointer inside the tool. */
  readonly path: string;
  /** Why it cannot be restored (`reads as 0 in JavaScript …`); absent for a clash. */
  readonly lost?: string;
  /** For a clash: another text of the same JavaScript value in the same tool, and where. */
  readonly other?: { readonly lexeme: string; readonly path: string };
  /** The value as JavaScript writes it. */
  readonly value: string;
}

/**
 * One sentence for a report: what the number is, where (`prefix` + its pointer, e.g. `/3` for the fourth
 * tool) and why its tool is left unchanged.
 */
export function describeNumberProblem(problem: NumberProblem, prefix = ''): string {
  const at = (path: string) => `\`${prefix}${path}\``;
  if (problem.other) {
    return (
      `the numbers \`${problem.other.lexeme}\` at ${at(problem.other.path)} and \`${problem.lexeme}\` at ${at(problem.path)} are the same ` +
      `JavaScript value (${problem.value}), so a rewritten tool could not tell which text goes where; the tool is left unchanged so that both are kept`
    );
  }
  return `the number \`${problem.lexeme}\` at ${at(problem.path)} ${problem.lost}; the tool is left unchanged so that its text is kept`;
}

/** One element of the tools array in the text. */
export interface ToolSpan {
  /** Offset (UTF-16 code units) of the tool's first character. */
  readonly start: number;
  /** Offset just after the tool's last character. */
  readonly end: number;
  /** Numbers whose text differs from what `JSON.stringify` would write (absent when every number is canonical). */
  readonly numbers?: ToolNumbers;
}

/** A member of the object that holds the tools array (`tools`, `nextCursor`, `_meta`, …), in text order. */
export interface HolderMember {
  /** The member's name, decoded. */
  readonly key: string;
  /** Offset of the opening quote of the name. */
  readonly start: number;
  /** Offset just after the member's value. */
  readonly end: number;
}

/** Where the tools array and its tools sit in a JSON text. */
export interface ToolsSource {
  readonly text: string;
  /** JSON Pointer of the tools array (`""`, `/tools`, `/result/tools`, `/toolsList/tools`, …). */
  readonly pointer: string;
  /** Offset of the array's `[`. */
  readonly arrayStart: number;
  /** Offset just after the array's `]`. */
  readonly arrayEnd: number;
  /** Nesting level of each tool (1 for a bare array, 2 for `{ "tools": [...] }`, …). */
  readonly toolLevel: number;
  readonly tools: readonly ToolSpan[];
  /** The layout of the text (from its first line break and first separators). */
  readonly style: JsonStyle;
  /**
   * The layout inside the tools: {@link style}, except when the text breaks lines only between tools (one
   * tool per line, `[\n{…},\n{…}\n]`): then each tool is on one line, and a rewritten tool stays on one.
   */
  readonly toolStyle: JsonStyle;
  /** The object holding the tools array, when the pointer is not `""`: its span and its members. */
  readonly holder?: { readonly start: number; readonly end: number; readonly members: readonly HolderMember[] };
}

/** The pointer does not lead to an array in the text. */
export class SourceError extends Error {}

const MAX_PLAIN_DIGITS = 15;

/**
 * Scans a valid JSON text for the array at `pointer` (a JSON Pointer of object members only, as
 * `locateTools` returns) and the span of each of its elements. Duplicate member names are read as
 * `JSON.parse` reads them: the last one wins. Throws {@link SourceError} when there is no array there.
 */
export function scanToolsSource(text: string, pointer: string): ToolsSource {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const target = segments.length;
  const n = text.length;
  // Per open container (index = level): 0 object, 1 array; whether it lies on the pointer's path.
  const kinds: number[] = [];
  const onPath: boolean[] = [];
  // For on-path objects: whether the member being read is the path's next segment.
  let keyOnPath = false;
  let expectKey = false;
  let tools: { start: number; end: number; odd: boolean }[] = [];
  let found = false;
  let arrayStart = -1;
  let arrayEnd = -1;
  let toolStart = -1;
  let toolOdd = false;
  let holderStart = -1;
  let holderEnd = -1;
  let members: { key: string; start: number; end: number }[] = [];
  let memberStart = -1;
  let memberKey = '';
  // Layout: the first line break inside a container, and the first `:` and `,`.
  let nlAt = -1;
  let nlDepth = 0;
  let colonAt = -1;
  let commaAt = -1;

  const inTools = () => kinds.length === target + 1 && onPath[target] === true && kinds[target] === 1;
  let i = 0;
  // Called after each complete value at the current level (the stack as it is after the value closed).
  const valueEnded = (end: number) => {
    const depth = kinds.length;
    if (toolStart >= 0 && depth === target + 1 && inTools()) {
      tools.push({ start: toolStart, end, odd: toolOdd });
      toolStart = -1;
      toolOdd = false;
    }
    if (memberStart >= 0 && depth === target && onPath[target - 1] === true && kinds[target - 1] === 0) {
      members.push({ key: memberKey, start: memberStart, end });
      memberStart = -1;
    }
  };

  while (i < n) {
    let c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      if (c === 10 && nlAt < 0 && kinds.length > 0) {
        let j = i + 1;
        while (j < n && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
        const next = text.charCodeAt(j);
        if (next !== 93 && next !== 125 && next !== 10 && next !== 13) {
          nlAt = i;
          nlDepth = kinds.length;
        }
      }
      i++;
      continue;
    }
    const depth = kinds.length;
    if (c === 44 /* , */) {
      if (commaAt < 0) commaAt = i;
      expectKey = kinds[depth - 1] === 0;
      i++;
      continue;
    }
    if (c === 58 /* : */) {
      if (colonAt < 0) colonAt = i;
      i++;
      continue;
    }
    if (c === 125 /* } */ || c === 93 /* ] */) {
      const level = depth - 1;
      if (c === 93 && level === target && onPath[level] === true) {
        arrayEnd = i + 1;
        found = true;
      }
      if (c === 125 && target > 0 && level === target - 1 && onPath[level] === true) holderEnd = i + 1;
      kinds.pop();
      onPath.pop();
      expectKey = false;
      i++;
      valueEnded(i);
      continue;
    }
    // A key or a value starts here.
    if (c === 34 /* " */ && expectKey) {
      const end = stringEnd(text, i);
      expectKey = false;
      const level = depth - 1;
      if (onPath[level] === true && level < target) {
        const key = decodeKey(text, i, end);
        keyOnPath = key === segments[level];
        // A later member of the same name replaces the earlier one, as in JSON.parse.
        if (keyOnPath) {
          found = false;
          tools = [];
        }
        if (level === target - 1) {
          memberStart = i;
          memberKey = key;
        }
      } else keyOnPath = false;
      i = end;
      continue;
    }
    if (depth === target + 1 && inTools()) {
      toolStart = i;
      toolOdd = false;
    }
    if (c === 123 /* { */ || c === 91 /* [ */) {
      const isArray = c === 91;
      const level = depth;
      let path: boolean;
      if (level === 0) path = target === 0 ? isArray : !isArray;
      else path = onPath[level - 1] === true && kinds[level - 1] === 0 && level <= target && keyOnPath && (level === target ? isArray : !isArray);
      kinds.push(isArray ? 1 : 0);
      onPath.push(path);
      keyOnPath = false;
      expectKey = !isArray;
      if (path && level === target) {
        arrayStart = i;
        tools = [];
        found = false;
      }
      if (path && target > 0 && level === target - 1) {
        holderStart = i;
        members = [];
      }
      i++;
      continue;
    }
    let end: number;
    if (c === 34) end = stringEnd(text, i);
    else if (c === 45 || (c >= 48 && c <= 57)) {
      end = i + 1;
      while (end < n) {
        c = text.charCodeAt(end);
        if ((c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45) end++;
        else break;
      }
      if (toolStart >= 0 && !toolOdd && !isPlainNumber(text, i, end)) toolOdd = true;
    } else if (c === 116 /* t */ || c === 110 /* n */) end = i + 4;
    else if (c === 102 /* f */) end = i + 5;
    else throw new SourceError(`unexpected ${JSON.stringify(text.charAt(i))} at offset ${i}: not valid JSON`);
    keyOnPath = false;
    i = end;
    valueEnded(i);
  }
  if (!found || arrayStart < 0) throw new SourceError(`no array at \`${pointer}\` in the text`);

  const style = detectStyle(text, nlAt, nlDepth, colonAt, commaAt);
  const spans: ToolSpan[] = tools.map((t) => (t.odd ? { start: t.start, end: t.end, numbers: analyzeToolNumbers(text, t.start, t.end) } : { start: t.start, end: t.end }));
  const source: ToolsSource = { text, pointer, arrayStart, arrayEnd, toolLevel: target + 1, tools: spans, style, toolStyle: toolStyleOf(text, spans, style) };
  return target > 0 && holderStart >= 0 ? { ...source, holder: { start: holderStart, end: holderEnd, members } } : source;
}

/**
 * The numbers of the tool at `text[start, end)` whose text is not what `JSON.stringify` writes, and whether
 * a rewrite could restore them: a number JavaScript cannot hold (an integer beyond 2^53 it rounds, more
 * digits than a double keeps, `-0`, an underflow to 0) or one value written two ways (`1` and `1.0`) is a
 * problem; every other odd number maps its canonical text back to its own.
 */
export function analyzeToolNumbers(text: string, start: number, end: number): ToolNumbers {
  const lexemes = new Map<string, { text: string; path: string }>();
  const plain = new Map<string, string>(); // canonical lexemes seen, → first pointer
  // Path tracking: per open container, its kind and the current key (raw span) or index.
  const kinds: number[] = [];
  const keys: string[] = [];
  const index: number[] = [];
  let expectKey = false;
  let pendingKey = '';
  let problem: NumberProblem | undefined;
  const pointerHere = (): string => {
    let p = '';
    for (let k = 0; k < kinds.length; k++) p += '/' + (kinds[k] === 1 ? String(index[k]) : escapePointer(keys[k]!));
    return p;
  };
  let i = start;
  while (i < end && problem === undefined) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 58) {
      i++;
      continue;
    }
    const depth = kinds.length;
    if (c === 44) {
      if (kinds[depth - 1] === 1) index[depth - 1]!++;
      else expectKey = true;
      i++;
      continue;
    }
    if (c === 125 || c === 93) {
      kinds.pop();
      keys.pop();
      index.pop();
      i++;
      continue;
    }
    if (c === 34 && expectKey) {
      const e = stringEnd(text, i);
      pendingKey = decodeKey(text, i, e);
      if (depth > 0) keys[depth - 1] = pendingKey;
      expectKey = false;
      i = e;
      continue;
    }
    if (c === 123 || c === 91) {
      kinds.push(c === 91 ? 1 : 0);
      keys.push('');
      index.push(0);
      expectKey = c === 123;
      i++;
      continue;
    }
    if (c === 34) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      const e = numberEnd(text, i, end);
      const lexeme = text.slice(i, e);
      i = e;
      // A plain lexeme, or one JSON.stringify writes back as it is, needs no keeping.
      const plainText = isPlainNumber(text, i - lexeme.length, e);
      const value = plainText ? 0 : Number(lexeme);
      const canonical = plainText ? lexeme : JSON.stringify(value);
      if (canonical === lexeme) {
        if (!plain.has(lexeme)) {
          const path = pointerHere();
          plain.set(lexeme, path);
          const odd = lexemes.get(lexeme);
          if (odd) problem = clash(odd.text, odd.path, lexeme, path, lexeme);
        }
        continue;
      }
      const path = pointerHere();
      const lost = holdProblem(lexeme, value);
      if (lost) {
        problem = { lexeme, path, lost, value: canonical };
        break;
      }
      const seen = lexemes.get(canonical);
      if (seen && seen.text !== lexeme) problem = clash(seen.text, seen.path, lexeme, path, canonical);
      else if (plain.has(canonical)) problem = clash(canonical, plain.get(canonical)!, lexeme, path, canonical);
      else if (!seen) lexemes.set(canonical, { text: lexeme, path });
      continue;
    }
    // true, false, null
    i += c === 102 ? 5 : 4;
  }
  if (problem) return { problem };
  if (lexemes.size === 0) return {};
  const map = new Map<string, string>();
  for (const [canonical, { text: lexeme }] of lexemes) map.set(canonical, lexeme);
  return { lexemes: map };
}

function clash(a: string, aPath: string, b: string, bPath: string, canonical: string): NumberProblem {
  return { lexeme: b, path: bPath, other: { lexeme: a, path: aPath }, value: canonical };
}

/**
 * Why a number's text cannot survive as a JavaScript number (undefined when it can: the double reads back
 * as the same decimal value, only written another way, as `1.0`, `1e2` or `0.50` are).
 */
function holdProblem(lexeme: string, value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined; // the input check reports it
  const a = decimal(lexeme);
  if (a.digits === '') return a.negative ? 'reads as 0 in JavaScript (the sign of `-0` is lost)' : undefined;
  const b = decimal(JSON.stringify(value));
  if (b.digits === '') return `underflows to 0 in JavaScript`;
  if (a.digits === b.digits && a.exponent === b.exponent) return undefined;
  return Number.isInteger(value) && !Number.isSafeInteger(value)
    ? `is an integer beyond 2^53 that JavaScript cannot hold exactly (it reads as ${JSON.stringify(value)})`
    : `has more digits than a JavaScript number holds (it reads as ${JSON.stringify(value)})`;
}

/** A decimal number's value as significant digits (no leading or trailing zeros) × 10^exponent. */
function decimal(lexeme: string): { negative: boolean; digits: string; exponent: number } {
  let s = lexeme;
  const negative = s.charCodeAt(0) === 45;
  if (negative) s = s.slice(1);
  let exponent = 0;
  const e = s.search(/[eE]/);
  if (e >= 0) {
    exponent = Number(s.slice(e + 1));
    s = s.slice(0, e);
  }
  const dot = s.indexOf('.');
  if (dot >= 0) {
    exponent -= s.length - dot - 1;
    s = s.slice(0, dot) + s.slice(dot + 1);
  }
  let first = 0;
  while (first < s.length && s.charCodeAt(first) === 48) first++;
  let last = s.length;
  while (last > first && s.charCodeAt(last - 1) === 48) last--;
  exponent += s.length - last;
  const digits = s.slice(first, last);
  return { negative, digits, exponent: digits === '' ? 0 : exponent };
}

/** A number text `JSON.stringify` reproduces and that needs no look: up to 15 digits, no fraction, exponent or `-0`. */
function isPlainNumber(text: string, start: number, end: number): boolean {
  let i = start;
  if (text.charCodeAt(i) === 45) {
    i++;
    if (end - i === 1 && text.charCodeAt(i) === 48) return false; // -0
  }
  if (end - i > MAX_PLAIN_DIGITS) return false;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Offset just after the string starting at `start` (its opening quote). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) throw new SourceError(`unterminated string at offset ${start}`);
    let b = q - 1;
    while (b > start && text.charCodeAt(b) === 92) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    i = q + 1;
  }
}

function decodeKey(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function detectStyle(text: string, nlAt: number, nlDepth: number, colonAt: number, commaAt: number): JsonStyle {
  const colon = colonAt >= 0 && text.charCodeAt(colonAt + 1) === 32 ? ': ' : ':';
  if (nlAt < 0) {
    const comma = commaAt >= 0 && text.charCodeAt(commaAt + 1) === 32 ? ', ' : ',';
    return colon === ':' && comma === ',' ? COMPACT_STYLE : Object.freeze({ indent: '', newline: '', colon, comma });
  }
  const newline = nlAt > 0 && text.charCodeAt(nlAt - 1) === 13 ? '\r\n' : '\n';
  let j = nlAt + 1;
  while (j < text.length && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
  const ws = text.slice(nlAt + 1, j);
  let indent = '  ';
  if (ws.length > 0 && ws.length % nlDepth === 0) {
    const unit = ws.slice(0, ws.length / nlDepth);
    if (unit.repeat(nlDepth) === ws) indent = unit;
  }
  return Object.freeze({ indent, newline, colon, comma: ',' });
}

/**
 * The layout inside the tools: when the text breaks lines but no tool holds a line break, one line with
 * the separators the first tool uses; else `style`.
 */
function toolStyleOf(text: string, spans: readonly { start: number; end: number }[], style: JsonStyle): JsonStyle {
  if (style.newline === '' || spans.length === 0) return style;
  for (const s of spans) {
    const nl = text.indexOf('\n', s.start);
    if (nl >= 0 && nl < s.end) return style;
  }
  // The first `:` and `,` of the first tool outside strings.
  const { start, end } = spans[0]!;
  let colon = ':';
  let comma = ',';
  let seenColon = false;
  let seenComma = false;
  for (let i = start; i < end && !(seenColon && seenComma); ) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 58 && !seenColon) {
      seenColon = true;
      colon = text.charCodeAt(i + 1) === 32 ? ': ' : ':';
    } else if (c === 44 && !seenComma) {
      seenComma = true;
      comma = text.charCodeAt(i + 1) === 32 ? ', ' : ',';
    }
    i++;
  }
  return colon === ':' && comma === ',' ? COMPACT_STYLE : Object.freeze({ indent: '', newline: '', colon, comma });
}

/** Whether two layouts are the same. */
export function sameStyle(a: JsonStyle, b: JsonStyle): boolean {
  return a.indent === b.indent && a.newline === b.newline && a.colon === b.colon && a.comma === b.comma;
}

/**
 * Writes valid JSON text again in `style`, token by token: strings and numbers keep their exact text
 * (numbers found in `lexemes` get the text it maps them to), only the whitespace between tokens changes.
 * `level` is the nesting level the text starts at (its lines are indented by that many units).
 * Empty objects and arrays are written `{}` and `[]`, as `JSON.stringify` does.
 */
export function restyleJson(text: string, style: JsonStyle, level = 0, lexemes?: ReadonlyMap<string, string>): string {
  const out: string[] = [];
  const n = text.length;
  const { indent, newline, colon, comma } = style;
  const breakAt = (lvl: number) => (newline === '' ? '' : newline + indent.repeat(lvl));
  let lvl = level;
  let i = 0;
  let runStart = 0; // copied verbatim up to i when nothing changes in between
  const flush = (upTo: number) => {
    if (upTo > runStart) out.push(text.slice(runStart, upTo));
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) {
      flush(i);
      i++;
      while (i < n && isBlank(text.charCodeAt(i))) i++;
      runStart = i;
      continue;
    }
    if (c === 34) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === 123 || c === 91) {
      let j = i + 1;
      while (j < n && isBlank(text.charCodeAt(j))) j++;
      const close = c === 123 ? 125 : 93;
      flush(i);
      if (text.charCodeAt(j) === close) {
        out.push(c === 123 ? '{}' : '[]');
        i = j + 1;
      } else {
        lvl++;
        out.push(c === 123 ? '{' : '[', breakAt(lvl));
        i = j;
      }
      runStart = i;
      continue;
    }
    if (c === 125 || c === 93) {
      flush(i);
      lvl--;
      out.push(breakAt(lvl), c === 125 ? '}' : ']');
      i++;
      runStart = i;
      continue;
    }
    if (c === 44 || c === 58) {
      flush(i);
      out.push(c === 58 ? colon : newline === '' ? comma : ',' + breakAt(lvl));
      i++;
      runStart = i;
      continue;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      const e = numberEnd(text, i, n);
      if (lexemes !== undefined && lexemes.size > 0) {
        const original = lexemes.get(text.slice(i, e));
        if (original !== undefined) {
          flush(i);
          out.push(original);
          runStart = e;
        }
      }
      i = e;
      continue;
    }
    i++;
  }
  flush(n);
  return out.join('');
}

function isBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Serializes a value as `JSON.stringify` would, for values too deep for it. */
export type Stringify = (value: unknown, indent?: number | string) => string;

const defaultStringify: Stringify = (value, indent) => JSON.stringify(value, null, indent) ?? 'null';

/**
 * A rewritten tool's text for its place in the source: in the source's layout, indented for its level,
 * its numbers' original text restored from `numbers`.
 */
export function renderTool(value: unknown, style: JsonStyle, level: number, lexemes?: ReadonlyMap<string, string>, stringify: Stringify = defaultStringify): string {
  const restore = lexemes !== undefined && lexemes.size > 0;
  if (style.newline === '') {
    const compact = stringify(value);
    return restore || style.colon !== ':' || style.comma !== ',' ? restyleJson(compact, style, level, lexemes) : compact;
  }
  if (!restore && style.newline === '\n' && style.colon === ': ' && /^ {1,10}$|^\t{1,10}$/.test(style.indent)) {
    const text = stringify(value, style.indent);
    return level === 0 ? text : text.replace(/\n/g, '\n' + style.indent.repeat(level));
  }
  return restyleJson(stringify(value), style, level, lexemes);
}

/**
 * The source text with some tools replaced: `replacement(i)` is the new text of tool `i`, or undefined to
 * keep the tool's original bytes. Everything outside the replaced spans is copied as it was.
 */
export function spliceTools(source: ToolsSource, replacement: (index: number) => string | undefined): string {
  const out: string[] = [];
  let at = 0;
  source.tools.forEach((span, i) => {
    const text = replacement(i);
    if (text === undefined) return;
    out.push(source.text.slice(at, span.start), text);
    at = span.end;
  });
  if (at === 0) return source.text;
  out.push(source.text.slice(at));
  return out.join('');
}

/** Where the number lexeme starting at `start` (a `-` or a digit) ends: digits, `.`, `e`/`E`, signs, before `end`. */
function numberEnd(text: string, start: number, end: number): number {
  let e = start + 1;
  while (e < end) {
    const d = text.charCodeAt(e);
    if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) e++;
    else break;
  }
  return e;
}
