/**
 * Conversions with a known equivalence: rewrites of one schema object's own keywords (the ones
 * reconcile-dialect makes) that keep every verdict and every compile, stated here as rules the gate checks
 * on the two versions themselves — never on what a step says it did. Where the rewritten object matches a
 * rule exactly, the probe (probe.ts) does not try instances there and the compile proof (implied.ts) pairs
 * the keywords the rule names instead of giving up; anything else about the object is compared as before,
 * and an object that matches no rule is probed and compiled as before.
 *
 * The rules (x: the object in the original, read as `da`; y: in the rewrite, read as `db`; "paired" means
 * the subschemas are then compared by the same walk, recursively):
 *
 * - `nullable` (any dialect pair, no `$ref` in either object): x has `nullable` and a `type` of strings;
 *   y has no `nullable`, and either x's `nullable` is `true`, x's types lack `"null"`, and y's `type` is
 *   x's list followed by `"null"`; or x's `nullable` is `true` and x's types hold `"null"` already, or
 *   x's `nullable` is not `true` and x's types lack `"null"`, and y's `type` is x's `type`; or neither has
 *   `type` (ajv refuses `nullable` without `type` wherever it compiles the object — `getSchemaTypes`
 *   throws — so where the original compiles, this object is never compiled, and y has nothing left that
 *   could refuse). Every ajv
 *   class builds the list of types it checks from `type` plus `"null"` when `nullable === true`
 *   (`getSchemaTypes`), so both objects compile to the same type check; `enum`, `const` and the rest
 *   are compared as usual, so a `null` they reject stays rejected (OpenAPI 3.0.3's reading, and ajv's).
 * - `example` (any pair): x has `example` and no `examples`; y has no `example` and `examples` equal to
 *   `[x.example]`. Neither keyword compiles to anything in any ajv class (annotations), and no `$ref` may
 *   land in either (implied.ts refuses references into keywords it does not pair).
 * - `tuples` (x read by draft-07 or 2019-09, y by 2020-12; no `$ref` in x): x's `items` is an array and
 *   x has no `prefixItems`; y has no `additionalItems`, y's `prefixItems` has as many members (paired in
 *   order), and y's `items` is paired with x's `additionalItems` when x has one, absent otherwise. ajv
 *   compiles array `items` and `prefixItems` with one function (`validateTuple`) and `additionalItems`
 *   beside array `items` and 2020-12 `items` beside `prefixItems` with another (`validateAdditionalItems`).
 * - `inert-additional-items` (x read by draft-07 or 2019-09; no `$ref` in x): x has `additionalItems` and an
 *   `items` that is not an array (or none), y has no `additionalItems`. ajv returns from `additionalItems`
 *   without compiling anything when `items` is not an array.
 * - `dependencies` (x read by draft-07 or 2019-09, y by 2020-12; no `$ref` in x): x's `dependencies` is an
 *   object whose every value is an array or a schema, x has neither `dependentRequired` nor
 *   `dependentSchemas`; y has no `dependencies`, and each name of x's `dependencies` is in exactly one of
 *   y's `dependentRequired` (an array value, equal) or `dependentSchemas` (a schema value, paired), and
 *   nothing else is. ajv's `dependencies` splits its value the same way and calls the two functions
 *   `dependentRequired` and `dependentSchemas` are made of (`validatePropertyDeps`, `validateSchemaDeps`).
 * - `definitions` (the root of the document only, x read by draft-07 or 2020-12, y by 2020-12): x has `definitions`
 *   and no `$defs`; y has `$defs` and no `definitions`, with only names x's `definitions` has (each entry
 *   paired; entries may be gone, as pruning allows). Every `$ref` is then compared through the rename: an
 *   x `$ref` starting `#/definitions/` must be the y `$ref` with `#/$defs/` in its place, so a reference not
 *   retargeted is caught. ajv compiles a definition only when a `$ref` reaches it, by the same pointer walk
 *   through either container.
 *
 * - `null-union` (x and y read by the same JSON Schema draft, or x by draft-07 and y by 2020-12; neither is
 *   the root): x holds `anyOf` or `oneOf` of a branch X and the bare `{"type": "null"}`, and
 *   `collapseNullUnion` (schema/null-union.ts, whose comment holds the equivalence: null passes every keyword
 *   X may hold but `type`/`enum`, which gain it) collapses it; y has no such keyword, and every key X brings
 *   is in y with the collapse's value: `type` and `enum` exactly as the collapse writes them, validation
 *   keywords equal, annotations and `x-*` free (ajv compiles no code for them), and, across the two classes,
 *   each moved keyword one both tables know with the same role and shape. X's subschemas (`items`,
 *   `properties`, … as the collapse allows them) are paired with y's, in the forms both classes read alike
 *   (no array `items` across classes), and only when the rewrite mentions `unevaluatedProperties`/
 *   `unevaluatedItems` nowhere: an ancestor's `unevaluated*` reads what its in-place subschemas evaluated,
 *   which this rule cannot see from one object. References landing under the union fail implied.ts'
 *   reference check (the pointer no longer exists in y), and so do references into a moved keyword of y.
 * - `nullable-split` (same pairs of classes; neither is the root; no `$ref`, `$dynamicRef`, `$recursiveRef`,
 *   `discriminator`, `unevaluated*` in either object; the rewrite mentions `unevaluated*` nowhere): x's
 *   `type` list, with `"null"` added when x's `nullable` is `true` (any other `nullable` refused), is
 *   exactly T and `"null"` with T `object` or `array`; x has no `oneOf`; y has neither `type` nor `nullable`
 *   nor any of the keys K that move: x's keywords other than `type`/`nullable` that constrain only some
 *   instance types (the original's keyword table's `appliesTo`), no sibling-dependent group split between K
 *   and the rest; y's `oneOf` is exactly `[B, {"type": ["null"]}]` (or `"null"`), and B is paired with the
 *   object `{"type": T, K…}` (x's values). Every other key of x is compared with y's as usual. This is
 *   `splitNullableType` (schema/readable-types.ts, whose comment holds the equivalence): on null, x passes
 *   `type` and every K vacuously, y passes the null branch and not B (its `type` is T); on a T instance
 *   x checks `type` and K, y checks B and not the null branch; on anything else both fail. ajv compiles K
 *   in B with the same code as beside x's `type` (no sibling of a group left behind), `oneOf` of two
 *   compiling branches compiles, and a `type` array of `"null"` compiles.
 *
 * The stamp removal itself (draft-07 → 2020-12 read by different classes) needs no rule here: implied.ts
 * accepts it when every keyword left is one both classes compile alike, and these rules name what is not.
 * test/verify/implied.test.ts compiles every pair the gate accepts without ajv and compares verdicts on
 * generated instances, and shows that sabotaged versions of each conversion are refused and would be caught.
 */

import { hasOwn, isObject } from '../json/guards.js';
import { jsonEqual } from '../json/equal.js';
import { type Dialect } from '../schema/keywords.js';
import { isNullUnionShape, mentionsUnevaluated, typeList, type NullUnionKeyword } from '../schema/null-union.js';
import { AJV_NO_CODE, nullUnionMatch, nullableSplitMatch } from './null-conversions.js';
import { PairedSubschema, type ConversionContext } from './conversion-types.js';
import { anchorShape } from '../json/shapes.js';

export { AJV_NO_CODE };
export type { ConversionContext, PairedSubschema };

/** The id of a rule of this module. */
export type ConversionRuleId = 'nullable' | 'example' | 'tuples' | 'inert-additional-items' | 'dependencies' | 'definitions' | 'null-union' | 'nullable-split';

/** What the rules matched on one pair of objects: the keywords they account for, and what they pair. */
export interface ConversionMatch {
  readonly rules: readonly ConversionRuleId[];
  /** Keywords of the original object the rules account for. */
  readonly before: ReadonlySet<string>;
  /** Keywords of the rewritten object the rules account for. */
  readonly after: ReadonlySet<string>;
  readonly pairs: readonly PairedSubschema[];
  /** The `definitions` → `$defs` rename at the root: every `$ref` is compared through it. */
  readonly renamesDefinitions: boolean;
}

const EMPTY: ReadonlySet<string> = new Set();

/** Dialects whose ajv class reads array `items` as a tuple and has `additionalItems` and `dependencies`. */
function readsLegacyArrays(d: Dialect): boolean {
  return d === 'draft-07' || d === '2019-09' || d === 'draft-06' || d === 'draft-04' || d === 'openapi-3.0';
}

const CAUTIOUS: ConversionContext = { readsUnevaluated: () => true };

/** A context for the rewrite `after`: the document scan is done once, on first need. */
export function conversionContext(after: unknown): ConversionContext {
  let found: boolean | undefined;
  return { readsUnevaluated: () => (found ??= mentionsUnevaluated(after)) };
}

/**
 * The rules matching the objects `x` (original, read as `da`) and `y` (rewrite, read as `db`); undefined
 * when none does. `root` says both are the document's root. A rule matches exactly or not at all.
 */
export function matchConversions(x: Record<string, unknown>, y: Record<string, unknown>, da: Dialect, db: Dialect, root: boolean, context: ConversionContext = CAUTIOUS): ConversionMatch | undefined {
  let rules: ConversionRuleId[] | undefined;
  const before = new Set<string>();
  const after = new Set<string>();
  const pairs: PairedSubschema[] = [];
  let renamesDefinitions = false;
  const add = (id: ConversionRuleId, bk: readonly string[], ak: readonly string[]) => {
    (rules ??= []).push(id);
    for (const k of bk) before.add(k);
    for (const k of ak) after.add(k);
  };
  const xRef = hasOwn(x, '$ref');
  const yRef = hasOwn(y, '$ref');
  if (hasOwn(x, 'nullable') && !hasOwn(y, 'nullable') && !xRef && !yRef && nullableMatches(x, y)) add('nullable', ['nullable', 'type'], ['type']);
  if (hasOwn(x, 'example') && !hasOwn(x, 'examples') && !hasOwn(y, 'example') && hasOwn(y, 'examples') && jsonEqual(y.examples, [x.example])) add('example', ['example'], ['examples']);
  const arrays = readsLegacyArrays(da) && !xRef;
  if (arrays && db === '2020-12' && Array.isArray(x.items) && hasOwn(x, 'items') && !hasOwn(x, 'prefixItems')) {
    const t = tupleMatch(x, y, x.items);
    if (t) {
      add('tuples', hasOwn(x, 'additionalItems') ? ['items', 'additionalItems'] : ['items'], hasOwn(y, 'items') ? ['prefixItems', 'items'] : ['prefixItems']);
      pairs.push(...t);
    }
  } else if (arrays && hasOwn(x, 'additionalItems') && !hasOwn(y, 'additionalItems') && !Array.isArray(x.items) && !Array.isArray(y.items)) {
    add('inert-additional-items', ['additionalItems'], []);
  }
  if (arrays && db === '2020-12' && hasOwn(x, 'dependencies') && !hasOwn(y, 'dependencies') && isObject(x.dependencies) && !hasOwn(x, 'dependentRequired') && !hasOwn(x, 'dependentSchemas')) {
    const d = dependenciesMatch(x.dependencies, y);
    if (d) {
      add('dependencies', ['dependencies'], ['dependentRequired', 'dependentSchemas'].filter((k) => hasOwn(y, k)));
      pairs.push(...d);
    }
  }
  if (root && (da === 'draft-07' || da === '2020-12') && db === '2020-12' && hasOwn(x, 'definitions') && !hasOwn(x, '$defs') && hasOwn(y, '$defs') && !hasOwn(y, 'definitions')) {
    const defsX = x.definitions;
    const defsY = y.$defs;
    if (isObject(defsX) && isObject(defsY) && !hasOwn(defsX, '$id') && Object.keys(defsY).every((n) => hasOwn(defsX, n))) {
      add('definitions', ['definitions'], ['$defs']);
      renamesDefinitions = true;
      for (const n of Object.keys(defsY)) pairs.push(new PairedSubschema(defsX[n], defsY[n], ['definitions', n], ['$defs', n]));
    }
  }
  // The null rules hold between readings of one draft, and from draft-07 to 2020-12 (null-conversions.ts).
  const nullRules = !root && (da === db || (da === 'draft-07' && db === '2020-12'));
  if (nullRules) {
    for (const k of NULL_UNION_KEYWORDS) {
      if (hasOwn(x, k) && !hasOwn(y, k) && isNullUnionShape(x[k])) {
        const m = nullUnionMatch(x, y, k, da, db, context);
        if (m) {
          add('null-union', [k], m.moved);
          pairs.push(...m.pairs);
        }
      }
    }
  }
  if (nullRules && !xRef && !yRef && hasOwn(y, 'oneOf') && !hasOwn(x, 'oneOf') && hasOwn(x, 'type') && !hasOwn(y, 'type')) {
    const split = nullableSplitMatch(x, y, da, context);
    if (split) {
      add('nullable-split', split.before, ['oneOf']);
      pairs.push(split.pair);
    }
  }
  return rules ? new Match(rules, before, after, pairs, renamesDefinitions) : undefined;
}

const NULL_UNION_KEYWORDS: readonly NullUnionKeyword[] = ['anyOf', 'oneOf'];

/** A `$ref` of the original as the rewrite must write it, given the root's `definitions` → `$defs` rename. */
export function renamedRef(ref: string): string {
  return ref === '#/definitions' || ref.startsWith('#/definitions/') ? '#/$defs' + ref.slice('#/definitions'.length) : ref;
}

/** A {@link ConversionMatch}: a class with one map kept alive, for the reason given at {@link PairedSubschema}. */
class Match implements ConversionMatch {
  constructor(
    readonly rules: readonly ConversionRuleId[],
    readonly before: ReadonlySet<string>,
    readonly after: ReadonlySet<string>,
    readonly pairs: readonly PairedSubschema[],
    readonly renamesDefinitions: boolean,
  ) {}
}

anchorShape(new Match([], EMPTY, EMPTY, [], false));

/** No match: what callers use for an object no rule touched. */
export const NO_MATCH: ConversionMatch = Object.freeze({ rules: [], before: EMPTY, after: EMPTY, pairs: [], renamesDefinitions: false });

function nullableMatches(x: Record<string, unknown>, y: Record<string, unknown>): boolean {
  // Without `type`: ajv refuses the object wherever it compiles it, so where the original compiles, ajv never
  // compiled this object; without the keyword nothing is left that can refuse.
  if (!hasOwn(x, 'type')) return !hasOwn(y, 'type');
  if (!hasOwn(y, 'type')) return false;
  const tx = typeList(x.type);
  if (tx === undefined || tx.length === 0) return false;
  const hasNull = tx.includes('null');
  if (x.nullable === true && !hasNull) {
    const ty = y.type;
    return Array.isArray(ty) && ty.length === tx.length + 1 && tx.every((t, i) => ty[i] === t) && ty[tx.length] === 'null';
  }
  if (x.nullable === true || !hasNull) return jsonEqual(x.type, y.type);
  return false;
}

function tupleMatch(x: Record<string, unknown>, y: Record<string, unknown>, items: readonly unknown[]): PairedSubschema[] | undefined {
  const prefix = y.prefixItems;
  if (!Array.isArray(prefix) || !hasOwn(y, 'prefixItems') || prefix.length !== items.length || hasOwn(y, 'additionalItems')) return undefined;
  if (hasOwn(x, 'additionalItems') !== hasOwn(y, 'items')) return undefined;
  const pairs: PairedSubschema[] = items.map((s, i) => new PairedSubschema(s, prefix[i], ['items', i], ['prefixItems', i]));
  if (hasOwn(x, 'additionalItems')) {
    if (Array.isArray(y.items)) return undefined;
    pairs.push(new PairedSubschema(x.additionalItems, y.items, ['additionalItems'], ['items']));
  }
  return pairs;
}

function dependenciesMatch(deps: Record<string, unknown>, y: Record<string, unknown>): PairedSubschema[] | undefined {
  const req = hasOwn(y, 'dependentRequired') ? y.dependentRequired : {};
  const sch = hasOwn(y, 'dependentSchemas') ? y.dependentSchemas : {};
  if (!isObject(req) || !isObject(sch)) return undefined;
  const names = Object.keys(deps);
  if (Object.keys(req).length + Object.keys(sch).length !== names.length) return undefined;
  const pairs: PairedSubschema[] = [];
  for (const n of names) {
    const v = deps[n];
    if (Array.isArray(v)) {
      if (!hasOwn(req, n) || !jsonEqual(req[n], v)) return undefined;
    } else if (isObject(v) || typeof v === 'boolean') {
      if (!hasOwn(sch, n)) return undefined;
      pairs.push(new PairedSubschema(v, sch[n], ['dependencies', n], ['dependentSchemas', n]));
    } else return undefined;
  }
  return pairs;
}
