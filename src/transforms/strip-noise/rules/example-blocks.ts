/** The `examples` rule: `Example:` / `Examples:` blocks go, up to the next blank line. */
import type { TextRule } from '../rule.js';
import { FENCE } from '../text.js';

/** The `examples` rule (option `examples`). */
export const exampleBlocksRule: TextRule<true> = {
  id: 'example-blocks',
  key: 'examples',
  option: 'examples',
  what: 'example blocks',
  setup: (rules) => (rules.examples ? true : undefined),
  apply: (text) => removeExampleBlocks(text),
  mayApply: (text) => mayHaveExampleLine(text),
};

/** What a line that starts a block begins with: `Example:` or `Examples:`, maybe in emphasis, after blanks. */
const EXAMPLE_HEAD = String.raw`[ \t]*(?:\*\*|__|\*|_)?examples?(?:\*\*|__|\*|_)?[ \t]*:`;

/**
 * A line that starts a block ({@link EXAMPLE_START} at the start of the text or after a line break): a
 * description without one is passed over at once, one that only says "for example" in a sentence too
 * (strip-noise's first look is built from it).
 * @internal
 */
export const EXAMPLE_LINE = new RegExp(`(?:^|\\n)${EXAMPLE_HEAD}`, 'i');

const EXAMPLE_START = new RegExp(`^${EXAMPLE_HEAD}`, 'i');

/**
 * `xample` in any case, which every match of {@link EXAMPLE_LINE} holds (`i` without `u` folds no other
 * character to these letters). A pattern that starts at a line break or the text's start is tried at every
 * position; this one, without `i` and with a rare first letter, skips most of a text at once (the pattern
 * alone was an eighth of cleaning the tool descriptions of bench/validation).
 */
const XAMPLE = /[xX][aA][mM][pP][lL][eE]/;

/** Whether `text` has a line that starts a block ({@link EXAMPLE_LINE}), looked for only where `xample` is. */
export function mayHaveExampleLine(text: string): boolean {
  return XAMPLE.test(text) && EXAMPLE_LINE.test(text);
}

/**
 * A block starts at a line whose text begins with `Example:` or `Examples:` (case-insensitive, optionally
 * in `*`/`_` emphasis; list items do not start one) and ends before the next blank line, or at the end of
 * the text. A fenced code block that opens inside it is part of it up to its closing fence, blank lines
 * included.
 */
function removeExampleBlocks(text: string): string {
  if (!mayHaveExampleLine(text)) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  let fence: string | undefined;
  let inBlock = false;
  for (const line of lines) {
    const f = FENCE.exec(line);
    if (fence !== undefined) {
      if (f && f[1] === fence) fence = undefined;
      if (!inBlock) kept.push(line);
      continue;
    }
    if (f) {
      fence = f[1];
      if (!inBlock) kept.push(line);
      continue;
    }
    if (inBlock) {
      if (line.trim() === '') {
        inBlock = false;
        kept.push(line);
      }
      continue;
    }
    if (EXAMPLE_START.test(line)) {
      inBlock = true;
      continue;
    }
    kept.push(line);
  }
  return kept.join('\n');
}
