/** The `whitespace` rule: trimmed ends, collapsed runs of blanks and blank lines, a template's shared indentation. */
import type { TextRule } from '../rule.js';
import { FENCE, isBlank } from '../text.js';
import { isWhiteSpace } from '../../../core/chars.js';

/** The `whitespace` rule (option `whitespace`). */
export const whitespaceRule: TextRule<true> = {
  id: 'whitespace',
  key: 'whitespace',
  option: 'whitespace',
  what: 'extra whitespace',
  setup: (rules) => (rules.whitespace ? true : undefined),
  apply: (text) => collapseWhitespace(text),
  mayApply: (text) => mayBeUntidy(text),
  // Its output is trimmed, has no run of blanks or blank lines left and no indentation shared by the lines
  // after the first, and keeps every fence line and code span: a second run finds nothing.
  idempotent: true,
};

/**
 * Whether {@link collapseWhitespace} could change `text`: whitespace at either end (what `trim` takes), or
 * inside it a tab or any whitespace but a space and a line break (\r included), two spaces (a run to
 * collapse), a space before a line break (a line's trailing blank), a line break before a space (an indent
 * that the lines after the first may share) or three line breaks in a row (two blank lines). Single line breaks
 * between tidy lines change nothing: a description of several tidy lines (most long ones) is passed over. The
 * ends are two character tests (a pattern's `$` is tried at every position).
 * @internal
 */
export function mayBeUntidy(text: string): boolean {
  const n = text.length;
  return n > 0 && (isWhiteSpace(text.charCodeAt(0)) || isWhiteSpace(text.charCodeAt(n - 1)) || UNTIDY_INSIDE.test(text));
}

/** What {@link mayBeUntidy} looks for inside a text (strip-noise's first look is built from it). @internal */
export const UNTIDY_INSIDE = /[\t\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}| \n|\n |\n\n\n/;

/**
 * Trims the text and every line's end, collapses runs of spaces and tabs inside a line (indentation is
 * kept: it nests markdown lists) and runs of blank lines into one. Single newlines stay. Inside code
 * (fenced blocks, `inline spans`) only line ends are trimmed. Indentation that every line after the
 * first shares (a template literal's) goes, as Python's `inspect.cleandoc` does: relative indentation,
 * and so list nesting, stays.
 */
function collapseWhitespace(text: string): string {
  // Most descriptions are tidy, on one line or several: nothing to do.
  if (!mayBeUntidy(text)) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  // Whether `out` differs from `lines` (otherwise joining it again would give back `text`).
  let changed = false;
  for (const raw of lines) {
    let line = trimBlanksEnd(raw);
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1] === fence) fence = undefined;
      if (line !== raw) changed = true;
      out.push(line);
      continue;
    }
    if (f) fence = f[1];
    else line = collapseRuns(line);
    if (line !== raw) changed = true;
    if (line === '' && out.length > 0 && out[out.length - 1] === '') {
      changed = true;
      continue;
    }
    out.push(line);
  }
  const joined = changed ? out.join('\n') : text;
  const trimmed = joined.trim();
  // When the trim took nothing, the trimmed text's lines are `out`: they are not split again.
  return trimmed === joined ? dedentRest(trimmed, out) : dedentRest(trimmed);
}

/**
 * The line with each run of two or more spaces and tabs after its indentation, outside `inline code`,
 * made one space. A line without two spaces or a tab after its indentation (most lines) is returned as it
 * is, without splitting it.
 */
function collapseRuns(line: string): string {
  const from = indentLength(line);
  if (!mayHaveBlankRun(line, from)) return line;
  const parts = line.slice(from).split(/(`[^`\n]*`)/);
  for (let j = 0; j < parts.length; j += 2) parts[j] = parts[j]!.replace(/[ \t]{2,}/g, ' ');
  return line.slice(0, from) + parts.join('');
}

/** How many spaces and tabs `line` starts with (its indentation). */
function indentLength(line: string): number {
  let n = 0;
  while (n < line.length && isBlank(line[n])) n++;
  return n;
}

/**
 * False when no two spaces or tabs follow each other in `line` at or after `from`: it has neither two
 * spaces nor a tab there (a tab may be alone; then the caller looks closer).
 */
function mayHaveBlankRun(line: string, from: number): boolean {
  return line.indexOf('  ', from) !== -1 || line.indexOf('\t', from) !== -1;
}

/**
 * The line without the spaces and tabs that end it: what /[ \t]+$/ removes, without rescanning each inner run.
 * @internal
 */
export function trimBlanksEnd(line: string): string {
  let end = line.length;
  while (end > 0 && isBlank(line[end - 1])) end--;
  return end === line.length ? line : line.slice(0, end);
}

/**
 * Removes the indentation (the same spaces and tabs) that every non-blank line after the first starts with.
 * `split`: `text.split('\n')` when the caller has it (it may be written to).
 */
function dedentRest(text: string, split?: string[]): string {
  // One line: nothing after the first.
  if (text.indexOf('\n') === -1) return text;
  const lines = split ?? text.split('\n');
  // The common indentation is a prefix of the first non-blank line's (after the first line): that line and a length.
  let ref: string | undefined;
  let common = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const indent = indentLength(line);
    if (ref === undefined) {
      ref = line;
      common = indent;
    } else {
      let n = 0;
      while (n < common && n < indent && ref[n] === line[n]) n++;
      common = n;
    }
    if (common === 0) return text;
  }
  if (ref === undefined) return text;
  for (let i = 1; i < lines.length; i++) if (lines[i] !== '') lines[i] = lines[i]!.slice(common);
  return lines.join('\n');
}
