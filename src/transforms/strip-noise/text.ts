/** Line and sentence helpers the text rules share: code fences, blanks, sentences, capitals. */

/** A line that opens or closes a code fence. */
export const FENCE = /^[ \t]*(```|~~~)/;

export function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

/** `\w` without the `u` flag: what `\b` looks at. */
export function isAsciiWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

export function count(text: string, from: number, to: number, c: string): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text[i] === c) n++;
  return n;
}


/**
 * Applies `edit` (given `arg`) to every line outside code fences. (An argument passed through rather than a
 * closure made per call: the rules' edits stay module functions whose optimised code outlives a full GC.) A line the edit leaves blank goes, and so does a
 * blank line that would then double another blank line or stand at the start or end.
 */
export function editLines<A>(text: string, edit: (line: string, arg: A) => string, arg: A): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let dropped = false;
  let changed = false;
  for (const line of lines) {
    const f = FENCE.exec(line);
    let edited = line;
    if (fence !== undefined) {
      if (f && f[1] === fence) fence = undefined;
    } else if (f) fence = f[1];
    else edited = edit(line, arg);
    if (edited !== line) changed = true;
    const blank = line.trim() === '';
    if (!blank && edited.trim() === '') {
      dropped = true;
      continue;
    }
    if (dropped && blank && (out.length === 0 || out[out.length - 1]!.trim() === '')) continue;
    out.push(edited);
    dropped = false;
  }
  if (!changed) return text;
  while (dropped && out.length > 0 && out[out.length - 1]!.trim() === '') out.pop();
  return out.join('\n');
}

/**
 * Replaces each sentence of one line by `map(sentence, arg)`: `''` removes it with the space that separated it
 * from the sentence before (or, for the first, after). Sentences inside an `inline code` span stay.
 */
export function mapSentences<A>(line: string, map: (sentence: string, arg: A) => string, arg: A): string {
  const indent = /^[ \t]*/.exec(line)![0];
  let out = indent;
  let pos = indent.length;
  let kept = false;
  let changed = false;
  let ticks = 0;
  for (let found = nextSentence(line, pos); found !== undefined; found = nextSentence(line, pos)) {
    const [start, end] = found;
    const space = line.slice(pos, start);
    const sentence = line.slice(start, end);
    pos = end;
    const inside = count(line, start, end, '`');
    const mapped = ticks % 2 === 1 || inside % 2 === 1 ? sentence : map(sentence, arg);
    ticks += inside;
    if (mapped !== sentence) changed = true;
    if (mapped === '') continue;
    out += (kept ? space : '') + mapped;
    kept = true;
  }
  if (!changed) return line;
  return kept ? out + line.slice(pos) : '';
}

/**
 * The next sentence of `line` from `pos` (start and end), as /\S.*?(?:[.!?](?=[ \t]|$)|$)/g finds it: a
 * character other than whitespace, then up to a `.`, `!` or `?` before a space, a tab or the line end, or
 * to the line end. `.` does not cross a line separator (U+2028, U+2029, `\r`), so a stretch that meets one
 * first matches from none of its positions: the scan skips it whole instead of retrying from each.
 * @internal
 */
export function nextSentence(line: string, pos: number): [number, number] | undefined {
  let start = pos;
  for (;;) {
    while (start < line.length && isWhitespace(line.charCodeAt(start))) start++;
    if (start >= line.length) return undefined;
    let i = start + 1;
    for (; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) break;
      if ((c === 0x2e || c === 0x21 || c === 0x3f) && (i + 1 === line.length || line[i + 1] === ' ' || line[i + 1] === '\t')) return [start, i + 1];
    }
    if (i === line.length) return [start, i];
    start = i + 1;
  }
}

/** What `\s` matches (ECMAScript WhiteSpace and LineTerminator). */
function isWhitespace(c: number): boolean {
  return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}


/** A plain lowercase word (`filter`, `sheet/tab`) gets a capital; `iPhone`, `snake_case`, `e.g.` do not. */
export function capitalise(text: string): string {
  if (!/^\p{Ll}+(?:-\p{Ll}+)*(?=$|[\s,;:!?)/]|\.(?:\s|$))/u.test(text)) return text;
  const first = String.fromCodePoint(text.codePointAt(0)!);
  return first.toUpperCase() + text.slice(first.length);
}
