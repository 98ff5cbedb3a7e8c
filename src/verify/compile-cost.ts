/**
 * What makes ajv slow to compile a schema, counted in one walk before it is compiled. ajv's code generation
 * grows faster than the schema for a few shapes, and both the gate and the proxy's argument check compile on
 * one thread. Measured with the proxy's options (`allErrors`, messages; Node 20, December 2026):
 * - a `dependentRequired` (or draft-07 array `dependencies`) list: ajv nests a test per name, so its code
 *   grows with the square of the list (plain code: 1,000 names 0.45 s, 2,500 four seconds and then out of
 *   stack; with `allErrors` and messages, 8,000 names five seconds, 20,000 ran the process out of memory);
 * - one `oneOf` of many branches: 1,000 object branches 2.6 s, 2,000 ten seconds and then out of stack;
 * - many patterns (`pattern` values and `patternProperties` names): 4,000 of them about 4 s either way;
 * - many references: 4,000 properties each a `$ref` to a definition of its own, 4 s;
 * - and size itself: 4,000 `allOf` members 3.8 s; the largest input schema of the captured servers
 *   (bench/corpus, bench/validation, ../shared/corpus) has 627 objects, the largest output schema 1,160.
 *
 * Its own walk, not schema/walk.ts `walkJson`: that one builds a pointer for every value, which these counts
 * never read (every input schema of bench/validation: 0.70 ms this way, 2.23 ms through `walkJson`).
 */
import { hasOwn } from '../json/guards.js';

/** The counts of {@link compileCost}: each over the whole schema, at schema positions or not (counting inside data only makes a caller more careful). */
export interface CompileCost {
  /** Objects (not arrays) in the schema, the root included; counted up to one past `maxObjects`, where the walk stops. */
  readonly objects: number;
  /** Branches of the widest `oneOf`. */
  readonly widestOneOf: number;
  /** `pattern` values that are strings, and names of `patternProperties` members. */
  readonly patterns: number;
  /** `$ref`, `$dynamicRef` and `$recursiveRef` values that are strings. */
  readonly refs: number;
  /** Names in the longest `dependentRequired` or `dependencies` list. */
  readonly dependentNames: number;
}

/**
 * The counts that decide how long ajv takes to compile `schema` (see the file's header). Iterative. The walk
 * stops once it has met more than `maxObjects` objects (the other counts then cover what it met): a caller
 * that refuses such a schema anyway need not read the rest, and a library caller's schema with a cycle (an
 * object that holds itself, which JSON cannot write) or a shared part met again and again ends there too.
 */
export function compileCost(schema: unknown, maxObjects = Infinity): CompileCost {
  let objects = 0;
  let widestOneOf = 0;
  let patterns = 0;
  let refs = 0;
  let dependentNames = 0;
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x !== 'object' || x === null) continue;
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) if (typeof x[i] === 'object' && x[i] !== null) stack.push(x[i]);
      continue;
    }
    if (++objects > maxObjects) break;
    for (const k in x) {
      if (!hasOwn(x, k)) continue;
      const v = (x as Record<string, unknown>)[k];
      if (typeof v !== 'object' || v === null) {
        if (typeof v === 'string' && (k === 'pattern' || k === '$ref' || k === '$dynamicRef' || k === '$recursiveRef')) {
          if (k === 'pattern') patterns++;
          else refs++;
        }
        continue;
      }
      if (Array.isArray(v)) {
        if (k === 'oneOf' && v.length > widestOneOf) widestOneOf = v.length;
      } else if (k === 'dependentRequired' || k === 'dependencies') {
        for (const d in v) {
          const names = hasOwn(v, d) ? (v as Record<string, unknown>)[d] : undefined;
          if (Array.isArray(names) && names.length > dependentNames) dependentNames = names.length;
        }
      } else if (k === 'patternProperties') {
        for (const p in v) if (hasOwn(v, p)) patterns++;
      }
      stack.push(v);
    }
  }
  return { objects, widestOneOf, patterns, refs, dependentNames };
}

/**
 * The longest list of names any `dependentRequired` or `dependencies` member anywhere in `schema` holds (at
 * schema positions or not). Iterative; for a schema without cycles (the gate's, which the engine's input check
 * has found plain JSON).
 */
export function longestDependentList(schema: unknown): number {
  return compileCost(schema).dependentNames;
}

/**
 * How deep the blocks of generated code nest (`{`…`}`, outside its double-quoted string literals, which is
 * how ajv writes every string into its code). ajv nests the code of some keywords one inside the next (the
 * branches of a `oneOf`, and without `allErrors` an object's properties and a `dependentRequired` list's
 * names), and V8 runs out of stack parsing a function nested some 1,500 blocks deep: lazily, at every call, so
 * each call costs the parse (1.5–1.8 s for 1,700 `oneOf` branches) and then throws. One pass over the text.
 */
export function codeNesting(code: string): number {
  let depth = 0;
  let deepest = 0;
  const n = code.length;
  for (let i = 0; i < n; i++) {
    const c = code.charCodeAt(i);
    if (c === 123 /* { */) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 125 /* } */) depth--;
    else if (c === 34 /* " */) {
      // A string literal: to its closing quote, over escapes.
      for (i++; i < n; i++) {
        const d = code.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    }
  }
  return deepest;
}
