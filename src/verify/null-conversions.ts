/**
 * The two rules of conversions.ts about null (see its module comment for the equivalences): `null-union`
 * (a union of a branch and `{"type": "null"}` collapsed into the holder) and `nullable-split` (a nullable
 * object or array written as a `oneOf` with null). Matchers of one pair of objects; conversions.ts calls them.
 */
import { hasOwn, isObject } from '../json/guards.js';
import { jsonEqual } from '../json/equal.js';
import { setOwn } from '../json/cow.js';
import { KEYWORD_TABLES, SIBLING_DEPENDENT_GROUPS, isExtensionKeyword, type Dialect } from '../schema/keywords.js';
import { collapseNullUnion, isBareNull, typeList, type NullUnionKeyword } from '../schema/null-union.js';
import { PairedSubschema, type ConversionContext } from './conversion-types.js';

/** Keywords no ajv class compiles (its metadata and content vocabularies, and `$comment` with the option off). */
export const AJV_NO_CODE: ReadonlySet<string> = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'contentMediaType', 'contentEncoding', 'contentSchema', '$comment', '$schema']);

/**
 * What the `null-union` rule accounts for in y (X's keys) and the subschemas of X it pairs with y's, or
 * undefined when y is not x collapsed. Read by two classes (`da` draft-07, `db` 2020-12), each key moved
 * must be one both read alike. X's subschemas (`items`, `properties`, …) are paired only where the rewrite
 * mentions no `unevaluated*` (an ancestor's could read them across objects).
 */
export function nullUnionMatch(x: Record<string, unknown>, y: Record<string, unknown>, k: NullUnionKeyword, da: Dialect, db: Dialect, context: ConversionContext): { moved: string[]; pairs: PairedSubschema[] } | undefined {
  const c = collapseNullUnion(x, k, da);
  if (!c.ok) return undefined;
  const table = KEYWORD_TABLES[da];
  const other = KEYWORD_TABLES[db];
  const branches = x[k] as unknown[];
  const index = isBareNull(branches[1]) ? 0 : 1;
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
  if (single(sa, vx) && single(sb, vy)) return [new PairedSubschema(vx, vy, beforePath, [key])];
  if (sa !== sb) return undefined;
  if ((sa === 'schemaArray' || sa === 'schemaOrArray') && Array.isArray(vx) && Array.isArray(vy) && vx.length === vy.length) {
    return vx.map((v, i) => new PairedSubschema(v, vy[i], [...beforePath, i], [key, i]));
  }
  if (sa === 'schemaMap' && isObject(vx) && isObject(vy) && !hasOwn(vx, '$id') && !hasOwn(vy, '$id')) {
    const names = Object.keys(vx);
    if (names.length !== Object.keys(vy).length || !names.every((n) => hasOwn(vy, n))) return undefined;
    return names.map((n) => new PairedSubschema(vx[n], vy[n], [...beforePath, n], [key, n]));
  }
  return undefined;
}

/** Keywords beside which the `nullable-split` rule does not hold (they read `oneOf`, siblings or other objects). */
const SPLIT_REFUSED: readonly string[] = ['discriminator', 'unevaluatedProperties', 'unevaluatedItems', '$ref', '$dynamicRef', '$recursiveRef'];

/**
 * The `nullable-split` rule (see the module comment): the keys of x it accounts for, and the branch it pairs
 * with the object made of x's `type` T and the keys that move; or undefined.
 */
export function nullableSplitMatch(x: Record<string, unknown>, y: Record<string, unknown>, da: Dialect, context: ConversionContext): { before: string[]; pair: PairedSubschema } | undefined {
  const branches = y.oneOf;
  if (!Array.isArray(branches) || branches.length !== 2 || !isObject(branches[0]) || !isBareNull(branches[1])) return undefined;
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
  return { before: hasOwn(x, 'nullable') ? ['type', 'nullable', ...moved] : ['type', ...moved], pair: new PairedSubschema(typed, branches[0], [], ['oneOf', 0]) };
}
