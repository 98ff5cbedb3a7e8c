/** What conversions.ts and null-conversions.ts share (one place, so neither imports the other). */

import { anchorShape } from '../json/shapes.js';

/**
 * Two subschemas a rule pairs, with the keyword path that leads to each from its object. A class (one map,
 * kept alive by its anchor), not object literals: the walks read these rarely, and the literals' maps died at
 * every full GC, so the walks' optimised code lost the loads' type feedback and deoptimised once per run
 * (src/json/shapes.ts).
 */
export class PairedSubschema {
  constructor(
    readonly before: unknown,
    readonly after: unknown,
    readonly beforePath: readonly (string | number)[],
    readonly afterPath: readonly (string | number)[],
  ) {}
}

anchorShape(new PairedSubschema(undefined, undefined, [], []));

/**
 * What a rule may need to know of the rewrite's whole document (asked only when an object could match it).
 * Without one, the answer is the cautious one.
 */
export interface ConversionContext {
  /** Whether the rewrite mentions `unevaluatedProperties`/`unevaluatedItems` anywhere. */
  readonly readsUnevaluated: () => boolean;
}
