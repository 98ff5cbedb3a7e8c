/** Types shared by conversions.ts and null-conversions.ts (one place, so neither imports the other's types). */

/** Two subschemas a rule pairs, with the keyword path that leads to each from its object. */
export interface PairedSubschema {
  readonly before: unknown;
  readonly after: unknown;
  readonly beforePath: readonly (string | number)[];
  readonly afterPath: readonly (string | number)[];
}

/**
 * What a rule may need to know of the rewrite's whole document (asked only when an object could match it).
 * Without one, the answer is the cautious one.
 */
export interface ConversionContext {
  /** Whether the rewrite mentions `unevaluatedProperties`/`unevaluatedItems` anywhere. */
  readonly readsUnevaluated: () => boolean;
}
