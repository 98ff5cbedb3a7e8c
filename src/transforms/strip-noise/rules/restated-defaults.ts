/**
 * The `restatedDefaults` rule: a sentence, closing clause, bracket or bracket item that only states the
 * schema's own `default` goes, when it states exactly that value. Runs only for a schema with `default`.
 */
import type { TextRule } from '../rule.js';
import { count, editLines, mapSentences } from '../text.js';

/** Where the word can be, so a description without it is passed over at once. */
export const DEFAULT_WORD = /default/i;

/** The restated-default rule (option `restatedDefaults`): on for a description whose schema has a `default`. */
export const restatedDefaultsRule: TextRule<DefaultValue> = {
  id: 'restated-defaults',
  key: 'defaults',
  option: 'restatedDefaults',
  what: 'restated defaults',
  setup: (_rules, facts) => (facts.hasDefault === true ? defaultValue(facts.default) : undefined),
  apply: (text, value) => removeDefaultStatements(text, value),
  mayApply: (text) => DEFAULT_WORD.test(text),
};

/**
 * How a statement of the default begins (any case): `Defaults to`, `If omitted, defaults to`, `Default is`,
 * `The default value is`, `Default:`, `default =`, or `Default` alone; then the value.
 */
const DEFAULT_LEAD = /^(?:if[ \t]+(?:omitted|not[ \t]+(?:specified|provided|set|given)),?[ \t]+defaults?[ \t]+to|defaults?[ \t]+to|(?:the[ \t]+)?default(?:[ \t]+value)?[ \t]+is|default(?:[ \t]+value)?[ \t]*[:=]|default)[ \t]+/i;
/** A bracket holding no other bracket. */
const BRACKET = /\(([^()\n]*)\)/g;
/** Where a closing clause about the default starts, after its comma: `, default is 10`, `, and the default is 10`. */
const CLAUSE_START = /[ \t]+(?:and[ \t]+)?/y;
const QUOTE_PAIRS = new Map([['"', '"'], ["'", "'"], ['“', '”'], ['‘', '’']]);

/**
 * Removes what only states `value` as the default, line by line outside code fences: a sentence
 * (`Defaults to 10.`), a closing clause (`…, default is 10.`), a bracket (`(default: 10)`) or one item of a
 * bracketed list (`(1-100, default 10)` becomes `(1-100)`). The stated value must be `value` exactly: a
 * number, boolean or null as JSON, a string bare or in quotes, either in backticks; a statement that says
 * anything more stays.
 */
export function removeDefaultStatements(text: string, value: DefaultValue): string {
  if (!DEFAULT_WORD.test(text)) return text;
  return editLines(text, removeDefaultsInLine, value);
}

function removeDefaultsInLine(line: string, value: DefaultValue): string {
  if (!DEFAULT_WORD.test(line)) return line;
  return mapSentences(removeDefaultBrackets(line, value), removeDefaultClause, value);
}

function removeDefaultBrackets(line: string, value: DefaultValue): string {
  if (line.indexOf('(') === -1) return line;
  // Where the line's text starts; moved past each opening bracket removed, so a run of them
  // (`(default: 1) (default: 1) x`) goes in one call, not one per pass of the fixed-point loop.
  let firstText = line.search(/\S/);
  let out = '';
  let last = 0;
  let ticks = 0;
  let counted = 0;
  BRACKET.lastIndex = 0;
  for (let m = BRACKET.exec(line); m !== null; m = BRACKET.exec(line)) {
    const start = m.index;
    const end = start + m[0].length;
    ticks += count(line, counted, start, '`');
    counted = start;
    if (ticks % 2 === 1 || !DEFAULT_WORD.test(m[1]!)) continue;
    let after = end;
    while (line[after] === ' ' || line[after] === '\t') after++;
    const opensLine = start === firstText;
    // Only a bracket that closes a sentence, or opens the line: inside a sentence it may qualify a word
    // (`Used for create (defaults to 'Active') and required for update`).
    const closes = after === line.length || (after === end && /[.!?]/.test(line[end]!) && (end + 1 === line.length || line[end + 1] === ' ' || line[end + 1] === '\t'));
    if (!closes && !(opensLine && after > end)) continue;
    const kept = removeDefaultItems(m[1]!, value);
    if (kept === m[1]) continue;
    if (kept !== '') {
      out += line.slice(last, start) + '(' + kept + ')';
      last = end;
    } else if (opensLine) {
      // The bracket opens the line: the space after it goes, and what follows opens the line now.
      out += line.slice(last, start);
      last = after;
      firstText = after;
    } else {
      // The bracket goes with the space before it.
      let before = start;
      while (before > last && (line[before - 1] === ' ' || line[before - 1] === '\t')) before--;
      out += line.slice(last, before);
      last = end;
    }
  }
  return last === 0 ? line : out + line.slice(last);
}

/** A bracket's content without the items that state the default (`''` when every item does). */
function removeDefaultItems(content: string, value: DefaultValue): string {
  if (statesDefault(content.trim(), value)) return '';
  if (content.indexOf(',') === -1) return content;
  const kept = content.split(',').filter((item) => !statesDefault(item.trim(), value));
  if (kept.length === 0) return '';
  if (kept.length === content.split(',').length) return content;
  kept[0] = kept[0]!.trimStart();
  return kept.join(',');
}

/** `''` for a sentence that only states the default; a sentence that closes with such a clause loses it. */
function removeDefaultClause(sentence: string, value: DefaultValue): string {
  if (!DEFAULT_WORD.test(sentence)) return sentence;
  if (statesDefault(sentence, value)) return '';
  for (let i = sentence.length - 1; i > 0; i--) {
    const c = sentence[i];
    if (c !== ',' && c !== ';') continue;
    // A clause follows a comma and a space (`1,000` is a number); the nearest one that is about the default decides.
    CLAUSE_START.lastIndex = i + 1;
    const space = CLAUSE_START.exec(sentence);
    if (space === null || !/^(?:if|defaults?|the|default)[ \t:=]/i.test(sentence.slice(CLAUSE_START.lastIndex, CLAUSE_START.lastIndex + 9))) continue;
    const clause = sentence.slice(CLAUSE_START.lastIndex);
    if (!DEFAULT_LEAD.test(clause)) continue;
    const head = sentence.slice(0, i).trimEnd();
    if (head === '' || !statesDefault(clause, value)) return sentence;
    return head + (sentence.endsWith('.') ? '.' : '');
  }
  return sentence;
}

/** True when `text` is a default statement (see {@link DEFAULT_LEAD}) of exactly `value`. */
function statesDefault(text: string, value: DefaultValue): boolean {
  const lead = DEFAULT_LEAD.exec(text);
  if (lead === null) return false;
  const stated = text.slice(lead[0].length);
  return sameValue(stated.endsWith('.') ? stated.slice(0, -1) : stated, value);
}

function sameValue(stated: string, d: DefaultValue): boolean {
  const value = d.value;
  let s = stated;
  if (s.length > 2 && s[0] === '`' && s.indexOf('`', 1) === s.length - 1) s = s.slice(1, -1);
  if (s === '') return false;
  if (typeof value === 'string') {
    if (s === value || s === jsonOf(d)) return true;
    return s.length >= 2 && QUOTE_PAIRS.get(s[0]!) === s[s.length - 1] && s.slice(1, -1) === value;
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return s === jsonOf(d);
  if (s[0] !== '[' && s[0] !== '{') return false;
  try {
    return JSON.stringify(JSON.parse(s)) === jsonOf(d);
  } catch {
    return false;
  }
}

/**
 * A schema's `default`, with its JSON computed at most once: every sentence of a description may be
 * compared with it, and a large `default` must not be serialised once per sentence.
 */
export interface DefaultValue {
  readonly value: unknown;
  json?: string;
}

export function defaultValue(value: unknown): DefaultValue {
  // Both fields from the start: one object shape, made by this literal, whichever are filled in later (a
  // shape reached by adding `json` afterwards dies with its last object, and the optimised code of every
  // rule that read it with it; see the note in strip-noise/index.ts).
  return { value, json: undefined };
}

function jsonOf(d: DefaultValue): string {
  return (d.json ??= JSON.stringify(d.value));
}
