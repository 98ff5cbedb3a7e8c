/** The `whitespace` rule: trimmed ends, collapsed runs of blanks and blank lines, a template's shared indentation. */
import type { TextRule } from '../rule.js';
import { FENCE, isBlank } from '../text.js';

/** The `whitespace` rule (option `whitespace`). */
export const whitespaceRule: TextRule<true> = {
  id: 'whitespace',
  key: 'whitespace',
  option: 'whitespace',
  what: 'extra whitespace',
  setup: (rules) => (rules.whitespace ? true : undefined),
  apply: (text) => collapseWhitespace(text),
  mayApply: (text) => UNTIDY.test(text),
};

/** Anything {@link collapseWhitespace} could change: a line break, a tab, two spaces, or an outer space. */
const UNTIDY = /[\n\t\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}|^ | $/;

/**
 * Trims the text and every line's end, collapses runs of spaces and tabs inside a line (indentation is
 * kept: it nests markdown lists) and runs of blank lines into one. Single newlines stay. Inside code
 * (fenced blocks, `inline spans`) only line ends are trimmed. Indentation that every line after the
 * first shares (a template literal's) goes, as Python's `inspect.cleandoc` does: relative indentation,
 * and so list nesting, stays.
 */
function collapseWhitespace(text: string): string {
  // Most descriptions are one tidy line: nothing to do.
  if (!UNTIDY.test(text)) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  for (const raw of lines) {
    let line = trimBlanksEnd(raw);
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1] === fence) fence = undefined;
      out.push(line);
      continue;
    }
    if (f) fence = f[1];
    else {
      const indent = /^[ \t]*/.exec(line)![0];
      const parts = line.slice(indent.length).split(/(`[^`\n]*`)/);
      for (let j = 0; j < parts.length; j += 2) parts[j] = parts[j]!.replace(/[ \t]{2,}/g, ' ');
      line = indent + parts.join('');
    }
    if (line === '' && out.length > 0 && out[out.length - 1] === '') continue;
    out.push(line);
  }
  return dedentRest(out.join('\n').trim());
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

/** Removes the indentation (the same spaces and tabs) that every non-blank line after the first starts with. */
function dedentRest(text: string): string {
  const lines = text.split('\n');
  let common: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const indent = /^[ \t]*/.exec(line)![0];
    if (common === undefined) common = indent;
    else {
      let n = 0;
      while (n < common.length && n < indent.length && common[n] === indent[n]) n++;
      common = common.slice(0, n);
    }
    if (common === '') return text;
  }
  if (!common) return text;
  for (let i = 1; i < lines.length; i++) if (lines[i] !== '') lines[i] = lines[i]!.slice(common.length);
  return lines.join('\n');
}
