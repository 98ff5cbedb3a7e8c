import type { AnyTransform } from '../core/define-transform.js';
import { dedupeRepeatedSubtrees } from './dedupe-repeated-subtrees.js';
import { normalizeSchema } from './normalize-schema.js';
import { promoteCommonParams } from './promote-common-params.js';
import { pruneUnreachableDefs } from './prune-unreachable-defs.js';
import { stripNoise } from './strip-noise.js';

/** Every built-in transform, sorted by name. */
export const builtinTransforms: readonly AnyTransform[] = Object.freeze([dedupeRepeatedSubtrees, normalizeSchema, promoteCommonParams, pruneUnreachableDefs, stripNoise]);

export { dedupeRepeatedSubtrees, normalizeSchema, promoteCommonParams, pruneUnreachableDefs, stripNoise };
