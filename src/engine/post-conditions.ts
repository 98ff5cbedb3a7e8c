/**
 * What every changed tool must satisfy after every step, whatever the transform: it is still an object,
 * and every local `$ref` that resolved before still resolves.
 */
import { SCHEMA_SLOTS, type McpTool } from '../core/tool.js';
import { isObject } from '../json/guards.js';
import { getDeclaredDialect } from '../schema/dialect.js';
import { refIndexOf } from '../schema/refs.js';

/**
 * Why `after` (a step's output for `before`) is unacceptable, or undefined. Refs that were already broken
 * may stay broken, counted by their text: a transform that fixes one broken ref and breaks another is
 * caught, not excused by an unchanged count. Both versions' `$ref` indexes are the run's shared ones.
 * `refKeys: false` says no object of `after` has a reference keyword as a key (so it has no reference).
 */
export function checkPostConditions(before: McpTool, after: unknown, refKeys = true): string | undefined {
  if (!isObject(after)) return 'the tool is no longer an object';
  // No reference keyword anywhere in the new version (the engine knows, see `RunState.refKeys`): no `$ref` to break.
  if (!refKeys) return undefined;
  for (let s = 0; s < SCHEMA_SLOTS.length; s++) {
    const slot = SCHEMA_SLOTS[s]!;
    const a = (after as Record<string, unknown>)[slot];
    const b = (before as Record<string, unknown>)[slot];
    if (a === b || !isObject(a)) continue;
    const brokenAfter = refIndexOf(a, getDeclaredDialect(a).dialect).unresolved;
    if (brokenAfter.length === 0) continue;
    // Refs that were already broken may stay broken (a transform never rewrites one); any other is new.
    const stillBroken = new Map<string, number>();
    if (isObject(b)) {
      for (const { site } of refIndexOf(b, getDeclaredDialect(b).dialect).unresolved) stillBroken.set(site.ref, (stillBroken.get(site.ref) ?? 0) + 1);
    }
    for (const { site, reason } of brokenAfter) {
      const left = stillBroken.get(site.ref) ?? 0;
      if (left > 0) {
        stillBroken.set(site.ref, left - 1);
        continue;
      }
      return `left \`$ref\` \`${site.ref}\` at \`/${slot}${site.path}\` unresolvable (${reason})`;
    }
  }
  return undefined;
}
