/**
 * The text rules of strip-noise as rule objects, and the loop that runs them: each rule is a module of
 * its own under rules/ (with its own fixtures under test/fixtures/strip-noise/rules/<id>/), declaring the
 * option that turns it on, what the report calls what it removes, and when it applies to a description.
 */
import type { EditContext } from '../../core/context.js';
import { EXAMPLE_LINE, exampleBlocksRule } from './rules/example-blocks.js';
import { optionalMarkersRule } from './rules/optional-markers.js';
import { restatedDefaultsRule } from './rules/restated-defaults.js';
import { urlsRule } from './rules/urls.js';
import { isWhiteSpace } from '../../core/chars.js';
import { UNTIDY_INSIDE, whitespaceRule } from './rules/whitespace.js';
import type { DescriptionFacts, NoiseRules, RuleKey, TextRule } from './rule.js';

export type { DescriptionFacts, NoiseRules, RuleKey, TextRule } from './rule.js';

/** The text rules, in the order every pass runs them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const TEXT_RULES: readonly TextRule<any>[] = Object.freeze([urlsRule, exampleBlocksRule, restatedDefaultsRule, optionalMarkersRule, whitespaceRule]);

/** What `cleanDescription` (strip-noise's text rules over one description) did. */
export interface CleanedText {
  readonly text: string;
  /** Rules that changed something, in a fixed order. */
  readonly applied: readonly RuleKey[];
}

const MAX_PASSES = 8;
const NONE: readonly RuleKey[] = Object.freeze([]);

/**
 * Cleans one description. Passes repeat until nothing changes (removing a URL can expose another
 * link), so the result is a fixed point; text that does not settle within a few passes is returned
 * unchanged. The result may be empty: callers decide what to do then. `facts` turns on the rules that
 * depend on the schema (see {@link DescriptionFacts}).
 */
export function cleanDescription(text: string, rules: NoiseRules, facts?: DescriptionFacts): CleanedText {
  const states = facts === undefined ? statesWithoutFacts(rules) : statesWith(rules, facts);
  // Most descriptions hold nothing any rule starts from: one cheap look per rule, and they are done.
  if (text.indexOf('\r') === -1 && !mayApplyAny(text, states)) return { text, applied: NONE };
  let applied = 0;
  // Each rule's output in the pass before: an idempotent rule given it again returns it as it is, so the
  // pass that only confirms the fixed point does not run it (the whitespace rule, last, on its own output).
  const outputs: (string | undefined)[] = [];
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let next = current.indexOf('\r') === -1 ? current : current.replace(/\r\n?/g, '\n');
    for (let i = 0; i < TEXT_RULES.length; i++) {
      if (states[i] === undefined) continue;
      const rule = TEXT_RULES[i]!;
      const t = rule.idempotent === true && next === outputs[i] ? next : rule.apply(next, states[i]);
      if (t !== next) applied |= 1 << i;
      outputs[i] = next = t;
    }
    if (next === current) return { text: current, applied: appliedList(applied) };
    current = next;
  }
  return { text, applied: [] };
}

/** Whether some rule that is on (its state defined) may change `text` (see {@link TextRule.mayApply}). */
function mayApplyAny(text: string, states: readonly unknown[]): boolean {
  for (let i = 0; i < TEXT_RULES.length; i++) {
    if (states[i] === undefined) continue;
    const rule = TEXT_RULES[i]!;
    if (rule.mayApply === undefined || rule.mayApply(text, states[i])) return true;
  }
  return false;
}

/**
 * The rules' states for a description without facts, one list per combination of `rules` (made on first
 * use): without facts a rule's state depends on the three switches alone, and none of those states is written.
 */
function statesWithoutFacts(rules: NoiseRules): readonly unknown[] {
  const key = (rules.urls ? 1 : 0) | (rules.examples ? 2 : 0) | (rules.whitespace ? 4 : 0);
  return (NO_FACT_STATES[key] ??= Object.freeze(TEXT_RULES.map((rule) => rule.setup({ urls: rules.urls, examples: rules.examples, whitespace: rules.whitespace }, {}))));
}

const NO_FACT_STATES: (readonly unknown[] | undefined)[] = [];

/** The rules' states for one description with facts (a loop: no closure made per description). */
function statesWith(rules: NoiseRules, facts: DescriptionFacts): unknown[] {
  const states: unknown[] = new Array(TEXT_RULES.length);
  for (let i = 0; i < states.length; i++) states[i] = TEXT_RULES[i]!.setup(rules, facts);
  return states;
}

/** The keys of the rules in `mask` (bit i: `TEXT_RULES[i]`), in rule order; one frozen list per mask, made on first use. */
function appliedList(mask: number): readonly RuleKey[] {
  return (APPLIED[mask] ??= Object.freeze(TEXT_RULES.filter((_, i) => (mask & (1 << i)) !== 0).map((r) => r.key)));
}

const APPLIED: (readonly RuleKey[] | undefined)[] = [];

/** What the report calls what a rule removed. */
export function whatOf(key: RuleKey): string {
  return WHAT.get(key)!;
}

const WHAT: ReadonlyMap<RuleKey, string> = new Map(TEXT_RULES.map((r) => [r.key, r.what]));

/**
 * False when no text rule can change `text`, whichever of them are on: it holds nothing any rule's
 * {@link TextRule.mayApply} starts from (what the whitespace rule tidies, see `mayBeUntidy`; a line that
 * starts an `Example:` block; `http(s)://`; `](`) and no `\r`. A true answer only means a rule may apply.
 *
 * Two scans where one would do, measured: the outer whitespace is two character tests, and a pattern without
 * the case-insensitive flag and with rarer first characters (`xample` for `example`, `://` for a URL's scheme)
 * passes over most descriptions faster than {@link MAY_CHANGE}, which then confirms the few it finds something
 * in (every description of both bench sets, against the one pattern with `^\s|\s$` in it: 2.2 -> 2.0 ms on the
 * validation set, 4.5 -> 3.4 ms on the corpus).
 */
export function mayClean(text: string): boolean {
  const n = text.length;
  if (n > 0 && (isWhiteSpace(text.charCodeAt(0)) || isWhiteSpace(text.charCodeAt(n - 1)))) return true;
  return MAY_CHANGE_WIDER.test(text) && MAY_CHANGE.test(text);
}

/**
 * What every {@link TextRule.mayApply} of {@link TEXT_RULES} (with no facts) looks for inside a text, and `\r`,
 * as one pattern, made from the rules' own: the whitespace rule's (`\r` among them), the example rule's line,
 * and the URL rule's scheme and markdown link.
 */
const MAY_CHANGE = new RegExp(`${UNTIDY_INSIDE.source}|${EXAMPLE_LINE.source}|https?:\\/\\/|\\]\\(`, 'i');

/** Matches wherever {@link MAY_CHANGE} does (`xample` for an `Example:` line, `://` for a URL's scheme), and some more. */
const MAY_CHANGE_WIDER = new RegExp(`${UNTIDY_INSIDE.source}|\\]\\(|[xX][aA][mM][pP][lL][eE]|:\\/\\/`);

/**
 * The cleaned text of a description and what was removed, or undefined when it stays as it is (nothing
 * to clean, or cleaning would leave nothing: then the URLs or examples were the information). `memo`
 * remembers {@link cleanDescription}'s result by text, for one set of `rules` (a list repeats many
 * descriptions across its tools).
 */
export function cleanText(ctx: EditContext, path: string, text: string, rules: NoiseRules, memo?: Map<string, CleanedText>): { text: string; what: string } | undefined {
  return mayClean(text) ? cleanMayChange(ctx, path, text, rules, memo) : undefined;
}

/** {@link cleanText} for a text {@link mayClean} found something in (only those are worth a memo entry). */
export function cleanMayChange(ctx: EditContext, path: string, text: string, rules: NoiseRules, memo?: Map<string, CleanedText>): { text: string; what: string } | undefined {
  let result = memo?.get(text);
  if (result === undefined) {
    result = cleanDescription(text, rules);
    memo?.set(text, result);
  }
  const { text: cleaned, applied } = result;
  if (cleaned === text) return undefined;
  if (cleaned === '') {
    const removed = applied.filter((r) => r !== 'whitespace');
    if (removed.length > 0) ctx.report('info', 'kept-description', path, { what: listOf(removed.map(whatOf)) });
    return undefined;
  }
  return { text: cleaned, what: listOf(applied.map(whatOf)) };
}

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + ' and ' + items[items.length - 1];
}
