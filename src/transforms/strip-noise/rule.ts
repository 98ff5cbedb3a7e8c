/** The shape of a strip-noise text rule (each lives in rules/<id>.ts) and what it is told about a description. */

/** Which text rules apply. */
export interface NoiseRules {
  readonly urls: boolean;
  readonly examples: boolean;
  readonly whitespace: boolean;
}

/**
 * What the schema around a description says, for the rules that remove only what it says: `hasDefault`
 * and `default` (the schema's own `default` keyword) turn on the restated-default rule; `required` (the
 * property is listed in its parent's `required`, or not) turns on the marker rule.
 */
export interface DescriptionFacts {
  readonly hasDefault?: boolean;
  readonly default?: unknown;
  readonly required?: boolean;
}

/** The short name a rule goes by in {@link CleanedText.applied}. */
export type RuleKey = 'urls' | 'examples' | 'defaults' | 'markers' | 'whitespace';

/** One text rule: what it is called, what turns it on, and the edit it makes to a description's text. */
export interface TextRule<S> {
  /** kebab-case; also the folder of its fixtures. */
  readonly id: string;
  readonly key: RuleKey;
  /** The strip-noise option that turns it on or off. */
  readonly option: string;
  /** What it removes, as the report says it (`URLs`). */
  readonly what: string;
  /** Its state for one description, or undefined when it does not apply to it. */
  readonly setup: (rules: NoiseRules, facts: DescriptionFacts) => S | undefined;
  /** The text without what the rule removes (the same string when there is nothing to remove). */
  readonly apply: (text: string, state: S) => string;
  /**
   * A cheap look: false only when {@link apply} would return `text` as it is (it finds none of the words
   * or characters it starts from), so a description no rule may change is passed over without running any.
   * Absent: the rule may always apply.
   */
  readonly mayApply?: (text: string, state: S) => boolean;
  /**
   * True when {@link apply} given its own output returns it unchanged (`apply(apply(t)) === apply(t)` for
   * every text; a property test holds each rule that says so to it), so a pass that meets the rule's last
   * output again skips it.
   */
  readonly idempotent?: boolean;
}
