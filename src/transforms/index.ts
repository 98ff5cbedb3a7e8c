import type { AnyTransform } from '../core/transform.js';
import { adaptToClient } from './adapt-to-client/index.js';
import { compressColdTools } from './compress-cold-tools.js';
import { dedupeRepeatedSubtrees } from './dedupe-repeated-subtrees.js';
import { hoistNestedDefs } from './hoist-nested-defs.js';
import { inlineSmallRefs } from './inline-small-refs.js';
import { normalizeSchema } from './normalize-schema.js';
import { normalizeUnions } from './normalize-unions.js';
import { promoteCommonParams } from './promote-common-params.js';
import { pruneUnreachableDefs } from './prune-unreachable-defs.js';
import { reconcileDialect } from './reconcile-dialect/index.js';
import { stripNoise } from './strip-noise/index.js';
import { stripVendorExtensions } from './strip-vendor-extensions.js';

/** Every built-in transform, sorted by name. */
export const builtinTransforms: readonly AnyTransform[] = Object.freeze([
  adaptToClient,
  compressColdTools,
  dedupeRepeatedSubtrees,
  hoistNestedDefs,
  inlineSmallRefs,
  normalizeSchema,
  normalizeUnions,
  promoteCommonParams,
  pruneUnreachableDefs,
  reconcileDialect,
  stripNoise,
  stripVendorExtensions,
]);

export {
  adaptToClient,
  compressColdTools,
  dedupeRepeatedSubtrees,
  hoistNestedDefs,
  inlineSmallRefs,
  normalizeSchema,
  normalizeUnions,
  promoteCommonParams,
  pruneUnreachableDefs,
  reconcileDialect,
  stripNoise,
  stripVendorExtensions,
};
