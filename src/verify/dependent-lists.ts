/**
 * How long a schema's longest `dependentRequired` (or draft-07 array `dependencies`) list is: ajv nests a test
 * per name of such a list in its code, and generating that code grows with the square of the list (its plain
 * code: 1,000 names 0.45 s, 2,500 four seconds and then out of stack; with `allErrors` and messages, 4,000
 * names 1.3 s, 8,000 five seconds, 20,000 ran the process out of memory). The gate and the proxy's argument
 * check ask before they compile.
 *
 * Its own walk, not schema/walk.ts `walkJson`: that one builds a pointer for every value, which this count
 * never reads (every input schema of bench/validation: 0.70 ms this way, 2.23 ms through `walkJson`), and the
 * gate asks before each schema it compiles.
 */
import { hasOwn } from '../json/guards.js';

/**
 * The longest list of names any `dependentRequired` or `dependencies` member anywhere in `schema` holds (at
 * schema positions or not: counting one inside data only makes a caller more careful). Iterative.
 */
export function longestDependentList(schema: unknown): number {
  let longest = 0;
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x !== 'object' || x === null) continue;
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) if (typeof x[i] === 'object' && x[i] !== null) stack.push(x[i]);
      continue;
    }
    for (const k in x) {
      if (!hasOwn(x, k)) continue;
      const v = (x as Record<string, unknown>)[k];
      if (typeof v !== 'object' || v === null) continue;
      if ((k === 'dependentRequired' || k === 'dependencies') && !Array.isArray(v)) {
        for (const d in v) {
          const names = hasOwn(v, d) ? (v as Record<string, unknown>)[d] : undefined;
          if (Array.isArray(names) && names.length > longest) longest = names.length;
        }
      }
      stack.push(v);
    }
  }
  return longest;
}
