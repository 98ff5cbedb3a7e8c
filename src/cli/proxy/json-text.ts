/**
 * Reading and editing JSON-RPC envelopes as text, so what the proxy does not change keeps its exact
 * bytes: where a top-level member's value is (`id`, `result`), where each element of a batch is, and a
 * splice of one member. A linear scan over valid JSON text (the caller has parsed it first); nothing is
 * re-serialized.
 */

/** A half-open range `[start, end)` of a string. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** The spans of an object's members: key → the span of its value (the last one, as JSON.parse keeps). */
export function memberSpans(text: string, span: Span = { start: 0, end: text.length }): Map<string, Span> {
  const out = new Map<string, Span>();
  let i = skipBlank(text, span.start);
  if (text.charCodeAt(i) !== 123 /* { */) return out;
  i = skipBlank(text, i + 1);
  if (text.charCodeAt(i) === 125 /* } */) return out;
  for (;;) {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipBlank(text, keyEnd);
    i = skipBlank(text, i + 1); // the colon
    const end = skipValue(text, i);
    out.set(key, { start: i, end });
    i = skipBlank(text, end);
    if (text.charCodeAt(i) !== 44 /* , */ || i >= span.end) return out;
    i = skipBlank(text, i + 1);
  }
}

/** The spans of an array's elements, in order. */
export function elementSpans(text: string, span: Span = { start: 0, end: text.length }): Span[] {
  const out: Span[] = [];
  let i = skipBlank(text, span.start);
  if (text.charCodeAt(i) !== 91 /* [ */) return out;
  i = skipBlank(text, i + 1);
  if (text.charCodeAt(i) === 93 /* ] */) return out;
  for (;;) {
    const end = skipValue(text, i);
    out.push({ start: i, end });
    i = skipBlank(text, end);
    if (text.charCodeAt(i) !== 44 || i >= span.end) return out;
    i = skipBlank(text, i + 1);
  }
}

/**
 * The JSON value at `span` of `text` without the members at `paths` (each a list of tokens from that value
 * down: object keys, array indices). An object or array that loses a member (or holds one that does) is
 * written compactly from its members' own text; every value not on a path keeps its exact bytes.
 */
export function withoutMembers(text: string, span: Span, paths: readonly (readonly string[])[]): string {
  if (paths.length === 0) return text.slice(span.start, span.end);
  const here = new Set<string>();
  const below = new Map<string, (readonly string[])[]>();
  for (const p of paths) {
    if (p.length === 0) continue;
    if (p.length === 1) here.add(p[0]!);
    else {
      let list = below.get(p[0]!);
      if (!list) below.set(p[0]!, (list = []));
      list.push(p.slice(1));
    }
  }
  const open = text.charCodeAt(skipBlank(text, span.start));
  if (open === 123 /* { */) {
    const parts: string[] = [];
    for (const [key, s] of memberSpans(text, span)) {
      if (here.has(key)) continue;
      parts.push(`${JSON.stringify(key)}:${withoutMembers(text, s, below.get(key) ?? [])}`);
    }
    return `{${parts.join(',')}}`;
  }
  if (open === 91 /* [ */) return `[${elementSpans(text, span).map((s, i) => withoutMembers(text, s, below.get(String(i)) ?? [])).join(',')}]`;
  return text.slice(span.start, span.end);
}

/** The text of one member's value, or undefined. */
export function memberText(text: string, key: string): string | undefined {
  const s = memberSpans(text).get(key);
  return s === undefined ? undefined : text.slice(s.start, s.end);
}

/**
 * `objectText` with member `key` set to `valueText`: replaced in place when present, else appended as
 * the last member. Every other byte stays.
 */
export function setMember(objectText: string, key: string, valueText: string): string {
  const s = memberSpans(objectText).get(key);
  if (s !== undefined) return objectText.slice(0, s.start) + valueText + objectText.slice(s.end);
  const close = objectText.lastIndexOf('}');
  const empty = memberSpans(objectText).size === 0;
  return `${objectText.slice(0, close)}${empty ? '' : ','}${JSON.stringify(key)}:${valueText}${objectText.slice(close)}`;
}

/**
 * One line of JSON text: raw line breaks outside strings are the only ones valid JSON can hold, so
 * removing every CR and LF compacts a pretty-printed body into a stdio message and keeps every other byte
 * (number lexemes, escapes, key order).
 */
export function toOneLine(text: string): string {
  return /[\r\n]/.test(text) ? text.replace(/[\r\n]+/g, '') : text;
}

function skipBlank(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) i++;
    else return i;
  }
}

function skipString(text: string, i: number): number {
  // text[i] is the opening quote.
  for (let j = i + 1; ; ) {
    const q = text.indexOf('"', j);
    if (q === -1) return text.length;
    let backslashes = 0;
    for (let k = q - 1; k > i && text.charCodeAt(k) === 92; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** The end of the value starting at `i` (no recursion: nesting is tracked by a counter). */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return skipString(text, i);
  if (c !== 123 && c !== 91) {
    let j = i;
    for (; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 44 || d === 125 || d === 93 || d === 32 || d === 9 || d === 10 || d === 13) break;
    }
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 34) j = skipString(text, j) - 1;
    else if (d === 123 || d === 91) depth++;
    else if (d === 125 || d === 93) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return text.length;
}

/**
 * Like {@link setMember}, but an appended member follows the object's layout: on a line of its own,
 * indented as the member before it, when the object's members are each on a line.
 */
export function setMemberStyled(objectText: string, key: string, valueText: string, colon = ':'): string {
  const spans = memberSpans(objectText);
  if (spans.has(key) || spans.size === 0) return setMember(objectText, key, valueText);
  const close = objectText.lastIndexOf('}');
  let lastEnd = 0;
  for (const s of spans.values()) lastEnd = Math.max(lastEnd, s.end);
  const between = objectText.slice(lastEnd, close);
  const nl = between.lastIndexOf('\n');
  if (nl === -1) return setMember(objectText, key, valueText);
  // The indentation of the last member's line.
  const lineStart = objectText.lastIndexOf('\n', lastEnd - 1) + 1;
  const indent = /^[ \t]*/.exec(objectText.slice(lineStart))![0];
  return `${objectText.slice(0, lastEnd)},\n${indent}${JSON.stringify(key)}${colon}${valueText}${objectText.slice(lastEnd)}`;
}
