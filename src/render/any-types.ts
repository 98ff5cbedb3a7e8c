/** Where the `typescript` reader cannot see a parameter's type. */
import { renderParameters } from './typescript.js';
import type { AnyType } from './types.js';

/**
 * Every place the `typescript` reader renders `any` (or a bare `object`/`array` word) for a parameter's
 * type, with why, in the order the text shows them. A missing (or `null`) `inputSchema` has none: the tool
 * renders as `() => any`. `Array<any>` for an array without `items` is not listed (the schema says any).
 *
 * ```ts
 * findAnyTypes({ type: 'object', properties: { a: { $ref: '#/$defs/A' } } });
 * // [{ path: '/properties/a', reason: 'ref' }]
 * ```
 */
export function findAnyTypes(inputSchema: unknown): AnyType[] {
  const found: AnyType[] = [];
  if (inputSchema === undefined || inputSchema === null) return found;
  renderParameters(inputSchema, (path, reason) => found.push({ path, reason }));
  return found;
}
