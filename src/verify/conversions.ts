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
import { setOwn } from '../json/cow.js';
import { KEYWORD_TABLES, SIBLING_DEPENDENT_GROUPS, isExtensionKeyword, type Dialect } from '../schema/keywords.js';
import { collapseNullUnion, isNullUnionShape, type NullUnionKeyword } from '../schema/null-union.js';

/** The id of a rule of this module. */
export type ConversionRuleId = 'nullable' | 'example' | 'tuples' | 'inert-additional-items' | 'dependencies' | 'definitions' | 'null-union' | 'nullable-split';

/** Two subschemas a rule pairs, with the keyword path that leads to each from its object. */
export interface PairedSubschema {
  readonly before: unknown;
  readonly after: unknown;
  readonly beforePath: readonly (string | number)[];
  readonly afterPath: readonly (string | number)[];
}

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

/**
 * What a rule may need to know of the rewrite's whole document (asked only when an object could match it).
 * Without one, the answer is the cautious one.
 */
export interface ConversionContext {
  /** Whether the rewrite mentions `unevaluatedProperties`/`unevaluatedItems` anywhere. */
  readonly readsUnevaluated: () => boolean;
}

const CAUTIOUS: ConversionContext = { readsUnevaluated: () => true };

/** A context for the rewrite `after`: the document scan is done once, on first need. */
export function conversionContext(after: unknown): ConversionContext {
  let found: boolean | undefined;
  // As findReadableSites decides it (schema/readable-types.ts): the key anywhere in the text.
  return { readsUnevaluated: () => (found ??= /"unevaluated(?:Properties|Items)"/.test(JSON.stringify(after) ?? '')) };
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
      for (const n of Object.keys(defsY)) pairs.push({ before: defsX[n], after: defsY[n], beforePath: ['definitions', n], afterPath: ['$defs', n] });
    }
  }
  if (!root && (da === db || (da === 'draft-07' && db === '2020-12'))) {
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
  if (!root && !xRef && !yRef && hasOwn(y, 'oneOf') && !hasOwn(x, 'oneOf') && hasOwn(x, 'type') && !hasOwn(y, 'type') && (da === db || (da === 'draft-07' && db === '2020-12'))) {
    const split = nullableSplitMatch(x, y, da, context);
    if (split) {
      add('nullable-split', split.before, ['oneOf']);
      pairs.push(split.pair);
    }
  }
  return rules ? { rules, before, after, pairs, renamesDefinitions } : undefined;
}

/** Keywords no ajv class compiles (its metadata and content vocabularies, and `$comment` with the option off). */
export const AJV_NO_CODE: ReadonlySet<string> = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'contentMediaType', 'contentEncoding', 'contentSchema', '$comment', '$schema']);

const NULL_UNION_KEYWORDS: readonly NullUnionKeyword[] = ['anyOf', 'oneOf'];

/**
 * What the `null-union` rule accounts for in y (X's keys) and the subschemas of X it pairs with y's, or
 * undefined when y is not x collapsed. Read by two classes (`da` draft-07, `db` 2020-12), each key moved
 * must be one both read alike. X's subschemas (`items`, `properties`, …) are paired only where the rewrite
 * mentions no `unevaluated*` (an ancestor's could read them across objects).
 */
function nullUnionMatch(x: Record<string, unknown>, y: Record<string, unknown>, k: NullUnionKeyword, da: Dialect, db: Dialect, context: ConversionContext): { moved: string[]; pairs: PairedSubschema[] } | undefined {
  const c = collapseNullUnion(x, k, da);
  if (!c.ok) return undefined;
  const table = KEYWORD_TABLES[da];
  const other = KEYWORD_TABLES[db];
  const branches = x[k] as unknown[];
  const index = isNullOnly(branches[1]) ? 0 : 1;
  const moved: string[] = [];
  const pairs: PairedSubschema[] = [];
  for (const key of Object.keys(c.schema)) {
    if (hasOwn(x, key)) continue; // the holder's own keys: compared by the walk as usual
    const info = table.get(key);
    const free = isExtensionKeyword(key) || AJV_NO_CODE.has(key);
    if (!hasOwn(y, key)) {
      if (free) continue;
      return undefined;
    }
    if (!free) {
      const read = other.get(key);
      if (info === undefined || read === undefined || read.role !== info.role) return undefined;
      if (info.shape === 'opaque' && read.shape === 'opaque') {
        if (!jsonEqual(c.schema[key], y[key])) return undefined;
      } else {
        const sub = context.readsUnevaluated() ? undefined : pairValues(key, c.schema[key], y[key], info.shape, read.shape, [k, index, key]);
        if (sub === undefined) return undefined;
        pairs.push(...sub);
      }
    }
    moved.push(key);
  }
  return { moved, pairs };
}

/**
 * The subschemas of keyword `key` paired between x's value (shape `sa`, found at `beforePath`) and y's, in
 * the forms both classes read alike (as implied.ts pairs them); undefined when the forms differ.
 */
function pairValues(key: string, vx: unknown, vy: unknown, sa: string, sb: string, beforePath: readonly (string | number)[]): PairedSubschema[] | undefined {
  const single = (s: string, v: unknown) => !Array.isArray(v) && (s === 'schema' || s === 'schemaOrArray');
  if (single(sa, vx) && single(sb, vy)) return [{ before: vx, after: vy, beforePath, afterPath: [key] }];
  if (sa !== sb) return undefined;
  if ((sa === 'schemaArray' || sa === 'schemaOrArray') && Array.isArray(vx) && Array.isArray(vy) && vx.length === vy.length) {
    return vx.map((v, i) => ({ before: v, after: vy[i], beforePath: [...beforePath, i], afterPath: [key, i] }));
  }
  if (sa === 'schemaMap' && isObject(vx) && isObject(vy) && !hasOwn(vx, '$id') && !hasOwn(vy, '$id')) {
    const names = Object.keys(vx);
    if (names.length !== Object.keys(vy).length || !names.every((n) => hasOwn(vy, n))) return undefined;
    return names.map((n) => ({ before: vx[n], after: vy[n], beforePath: [...beforePath, n], afterPath: [key, n] }));
  }
  return undefined;
}

/** Keywords beside which the `nullable-split` rule does not hold (they read `oneOf`, siblings or other objects). */
const SPLIT_REFUSED: readonly string[] = ['discriminator', 'unevaluatedProperties', 'unevaluatedItems', '$ref', '$dynamicRef', '$recursiveRef'];

/**
 * The `nullable-split` rule (see the module comment): the keys of x it accounts for, and the branch it pairs
 * with the object made of x's `type` T and the keys that move; or undefined.
 */
function nullableSplitMatch(x: Record<string, unknown>, y: Record<string, unknown>, da: Dialect, context: ConversionContext): { before: string[]; pair: PairedSubschema } | undefined {
  const branches = y.oneOf;
  if (!Array.isArray(branches) || branches.length !== 2 || !isObject(branches[0]) || !isNullOnly(branches[1])) return undefined;
  if (hasOwn(y, 'nullable') || (hasOwn(x, 'nullable') && x.nullable !== true)) return undefined;
  const types = typeList(x.type);
  if (types === undefined) return undefined;
  const all = new Set(types);
  if (x.nullable === true) all.add('null');
  if (all.size !== 2 || !all.has('null')) return undefined;
  const t = types.find((v) => v !== 'null');
  if (t !== 'object' && t !== 'array') return undefined;
  for (const k of SPLIT_REFUSED) if (hasOwn(x, k) || hasOwn(y, k)) return undefined;
  const table = KEYWORD_TABLES[da];
  const moved = Object.keys(x).filter((k) => k !== 'type' && k !== 'nullable' && table.get(k)?.appliesTo !== undefined);
  for (const k of moved) if (hasOwn(y, k)) return undefined;
  const movedSet = new Set(moved);
  for (const group of SIBLING_DEPENDENT_GROUPS) {
    const present = group.filter((k) => k !== 'type' && k !== 'nullable' && hasOwn(x, k));
    if (present.some((k) => movedSet.has(k)) && present.some((k) => !movedSet.has(k))) return undefined;
  }
  if (context.readsUnevaluated()) return undefined;
  const typed: Record<string, unknown> = { type: t };
  for (const k of moved) setOwn(typed, k, x[k]);
  return { before: hasOwn(x, 'nullable') ? ['type', 'nullable', ...moved] : ['type', ...moved], pair: { before: typed, after: branches[0], beforePath: [], afterPath: ['oneOf', 0] } };
}

/** `{"type": "null"}` or `{"type": ["null"]}`, nothing else. */
function isNullOnly(v: unknown): boolean {
  if (!isObject(v)) return false;
  const keys = Object.keys(v);
  if (keys.length !== 1 || keys[0] !== 'type') return false;
  return v.type === 'null' || (Array.isArray(v.type) && v.type.length === 1 && v.type[0] === 'null');
}

/** A `$ref` of the original as the rewrite must write it, given the root's `definitions` → `$defs` rename. */
export function renamedRef(ref: string): string {
  return ref === '#/definitions' || ref.startsWith('#/definitions/') ? '#/$defs' + ref.slice('#/definitions'.length) : ref;
}

/** No match: what callers use for an object no rule touched. */
export const NO_MATCH: ConversionMatch = Object.freeze({ rules: [], before: EMPTY, after: EMPTY, pairs: [], renamesDefinitions: false });

function typeList(t: unknown): string[] | undefined {
  if (typeof t === 'string') return [t];
  return Array.isArray(t) && t.every((e) => typeof e === 'string') ? (t as string[]) : undefined;
}

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
  const pairs: PairedSubschema[] = items.map((s, i) => ({ before: s, after: prefix[i], beforePath: ['items', i], afterPath: ['prefixItems', i] }));
  if (hasOwn(x, 'additionalItems')) {
    if (Array.isArray(y.items)) return undefined;
    pairs.push({ before: x.additionalItems, after: y.items, beforePath: ['additionalItems'], afterPath: ['items'] });
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
      pairs.push({ before: v, after: sch[n], beforePath: ['dependencies', n], afterPath: ['dependentSchemas', n] });
    } else return undefined;
  }
  return pairs;
}
