/** Every conversion of reconcile-dialect, in the order the walk applies them to each schema object. */
import type { Conversion } from '../rule.js';
import { definitions } from './definitions.js';
import { dependencies } from './dependencies.js';
import { draft04Id } from './draft-04-id.js';
import { emptyEnum } from './empty-enum.js';
import { example } from './example.js';
import { exclusiveBounds } from './exclusive-bounds.js';
import { foreignId } from './foreign-id.js';
import { foreignKeywords } from './foreign-keywords.js';
import { identifiers } from './identifiers.js';
import { nullable } from './nullable.js';
import { refSiblings } from './ref-siblings.js';
import { tuples } from './tuples.js';
import { unconvertible } from './unconvertible.js';
import { wrapRef } from './wrap-ref.js';

/**
 * The order matters where two conversions meet in one object: the `$ref` siblings are settled first (on the
 * source's keywords), then the keywords no dialect pair shares (`nullable`, foreign keywords and
 * identifiers, draft-04 bounds), then the renames between the pair (tuples, dependencies, identifiers, the
 * `allOf` wrap, the definitions container), OpenAPI's `example`, and last the findings about what is left.
 */
export const CONVERSIONS: readonly Conversion[] = Object.freeze([
  refSiblings,
  nullable,
  foreignKeywords,
  foreignId,
  draft04Id,
  exclusiveBounds,
  tuples,
  dependencies,
  identifiers,
  wrapRef,
  definitions,
  example,
  emptyEnum,
  unconvertible,
]);
