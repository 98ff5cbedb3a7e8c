/**
 * The `optionalMarkers` rule: a bare `Optional:` / `(optional)` marker on a property its parent's
 * `required` does not list goes, and a bare `Required.` / `(required)` on one it lists.
 */
import type { TextRule } from '../rule.js';
import { capitalise, editLines, mapSentences } from '../text.js';

/** Where the words can be, so a description without them is passed over at once. */
export const MARKER_WORD = { optional: /optional/i, required: /required/i };
/** Either word: where a marker of either kind can be, before the parent's `required` is read. */
export const MARKER_ANY = /optional|required/i;

/** The marker rule (option `optionalMarkers`): on for a property whose parent has a `required` list. */
export const optionalMarkersRule: TextRule<boolean> = {
  id: 'optional-markers',
  key: 'markers',
  option: 'optionalMarkers',
  what: 'optional/required markers',
  setup: (_rules, facts) => facts.required,
  apply: (text, required) => removeMarkers(text, required),
  mayApply: (text, required) => MARKER_WORD[required ? 'required' : 'optional'].test(text),
};

const LEADING_MARKER = { optional: /^(?:\(optional\)|optional[.:])(?:[ \t]+|[ \t]*\n[ \t]*)/i, required: /^(?:\(required\)|required[.:])(?:[ \t]+|[ \t]*\n[ \t]*)/i };
const MARKER_SENTENCE = { optional: /^optional\.?$/i, required: /^required\.?$/i };
/** `…, optional.` closing a sentence; the words before it must not be a list (`a, b, optional`). */
const MARKER_CLAUSE = { optional: /^([^,]*[^,\s])[ \t]*,[ \t]+optional(\.?)$/i, required: /^([^,]*[^,\s])[ \t]*,[ \t]+required(\.?)$/i };
const LIST_WORD = /(?:^|[\s(])(?:optional|required|mandatory|or|and)$/i;
/** Where a marker can be: at a line or sentence start, or after a comma; then a stop, a space or the line end. */
const MARKER_HINT = { optional: /(?:^|[.!?,][ \t]+)\(?optional\)?[.:]?(?:[ \t]|$)/im, required: /(?:^|[.!?,][ \t]+)\(?required\)?[.:]?(?:[ \t]|$)/im };
/** `Optional` as an adjective (`Optional target tab ID`): only before a word. */
const OPTIONAL_ADJECTIVE = /^Optional[ \t]+(?=[\p{L}`"'])/u;
/** Words after a marker that make it a condition (`Optional when…`, `Required: if…`): then it stays. */
const CONDITIONS = new Set(['when', 'if', 'unless', 'for', 'except', 'only', 'but', 'and', 'or', 'in', 'on', 'as', 'depending', 'since', 'because', 'until', 'otherwise', 'where', 'whether', 'provided', 'though', 'although', 'so', 'then', 'to', 'with', 'without', 'by', 'at', 'per', 'while', 'once', 'after', 'before']);

/**
 * Removes a bare marker that says the property is optional (`required` false) or required (`required`
 * true): at the start `Optional:` / `Optional.` / `(optional)` (or `Optional` as an adjective before a
 * word), at the end ` (optional)`, a sentence `Optional.` anywhere, or a clause `…, optional.` closing a
 * sentence without other commas; the same for `required` (no adjective). A marker followed by a condition (`Optional when…`, `Required: if…`) stays. The next word is
 * capitalised when it is a plain lowercase word.
 */
export function removeMarkers(text: string, required: boolean): string {
  const word = required ? 'required' : 'optional';
  if (!MARKER_WORD[word].test(text)) return text;
  let t = removeTrailingMarker(text, word);
  if (!MARKER_HINT[word].test(t)) return t;
  const lead = LEADING_MARKER[word].exec(t) ?? (required ? null : OPTIONAL_ADJECTIVE.exec(t));
  if (lead !== null) {
    const rest = t.slice(lead[0].length);
    const next = /^\p{L}+/u.exec(rest);
    const period = lead[0][word.length] === '.';
    if (rest !== '' && (period || next === null || !CONDITIONS.has(next[0].toLowerCase()))) t = capitalise(rest);
  }
  return editLines(t, removeMarkersInLine, word);
}

function removeMarkersInLine(line: string, word: 'optional' | 'required'): string {
  return mapSentences(line, removeMarkerSentence, word);
}

/** ` (optional)` or ` (optional).` ending the text goes (the period stays). */
function removeTrailingMarker(text: string, word: 'optional' | 'required'): string {
  const period = text.endsWith('.') ? 1 : 0;
  const close = text.length - 1 - period;
  const open = close - word.length - 1;
  if (open < 1 || text[close] !== ')' || text[open] !== '(' || text.slice(open + 1, close).toLowerCase() !== word) return text;
  let end = open;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  if (end === open || end === 0) return text;
  return text.slice(0, end) + (period ? '.' : '');
}

function removeMarkerSentence(sentence: string, word: 'optional' | 'required'): string {
  if (MARKER_SENTENCE[word].test(sentence)) return '';
  const clause = MARKER_CLAUSE[word].exec(sentence);
  if (clause === null || LIST_WORD.test(clause[1]!)) return sentence;
  return clause[1]! + clause[2]!;
}
