/**
 * The gate's targeted verdict probe: which places of a schema a rewrite touched in a way that can change
 * a verdict, so that even the `structural` level tries instances there (see `generateProbeInstances`).
 *
 * Found by comparing the two versions, never by trusting what a step says it did:
 * - walking both in step and skipping every subtree the rewrite shares with the original (copy-on-write
 *   keeps unchanged subtrees identical), a schema object where a keyword that can change a verdict was
 *   added, removed or given another value (`type`, `enum`, `const`, `nullable`, bounds, applicators, a
 *   `$ref` appearing or going, `$id`/`$anchor`) is a site, in both versions; the values of its `enum` and
 *   `const`, before and after, are tried there;
 * - when the dialect changed (a stamp removed or rewritten), every schema object of the rewrite holding a
 *   keyword the two dialects read differently (`unevaluatedProperties` in a former draft-07 document,
 *   `prefixItems` in a former 2019-09 one, `$id` in a former draft-04 one), and, between a dialect that
 *   ignores the siblings of `$ref` and one that applies them, every `$ref` with validating siblings.
 * Not sites: a `$ref` whose text changed (references rewritten to follow a move; the structural check
 * resolves them), definitions added or removed, annotations, neutral values (`additionalProperties: true`,
 * `required: []`, empty `properties`), a one-element `type` array written as a string, and the keywords a
 * conversion with a known equivalence accounts for where an object matches its rule exactly (conversions.ts:
 * `nullable` → a `type` union, tuples, `dependencies` split, …), also when the dialect changed.
 */

import { isLegacyDialect, keywordFit } from '../schema/dialect.js';
import { ANCHOR_KEYWORDS, KEYWORD_TABLES, REFERENCE_KEYWORDS, UNION_KEYWORDS, type Dialect, type KeywordInfo } from '../schema/keywords.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { jsonEqual } from '../json/equal.js';
import type { ProbeSite } from './instances.js';
import { conversionContext, matchConversions, type ConversionContext, type ConversionMatch } from './conversions.js';
import { anchorShape } from '../json/shapes.js';
import { placePointer, visitSchemaObjects, type SchemaPlace } from '../schema/walk.js';

/** Sites in the original (`before`) and in the rewrite (`after`). */
export interface RewriteSites {
  readonly before: readonly ProbeSite[];
  readonly after: readonly ProbeSite[];
}

/** Sites per version, at most this many (the first ones in document order). */
const MAX_SITES = 32;
/** `enum` members taken from each side of a changed schema object. */
const MAX_VALUES = 16;

/** The places where `after` may judge an instance differently from `before` (empty when none). */
export function findRewriteSites(before: unknown, after: unknown, beforeDialect: Dialect, afterDialect: Dialect): RewriteSites {
  const sites = new SiteList();
  const converted = new Set<string>();
  diffInStep(before, after, beforeDialect, afterDialect, sites, converted, conversionContext(after));
  if (beforeDialect !== afterDialect) rereadSites(after, beforeDialect, afterDialect, sites, converted);
  return { before: sites.list('before'), after: sites.list('after') };
}

class SiteList {
  readonly #before = new Map<string, unknown[]>();
  readonly #after = new Map<string, unknown[]>();

  get full(): boolean {
    return this.#before.size >= MAX_SITES && this.#after.size >= MAX_SITES;
  }

  add(side: 'before' | 'after', path: string, values: readonly unknown[] = []): void {
    const map = side === 'before' ? this.#before : this.#after;
    let list = map.get(path);
    if (list === undefined) {
      if (map.size >= MAX_SITES) return;
      map.set(path, (list = []));
    }
    for (const v of values) if (list.length < 2 * MAX_VALUES && !list.some((x) => jsonEqual(x, v))) list.push(v);
  }

  list(side: 'before' | 'after'): ProbeSite[] {
    return [...(side === 'before' ? this.#before : this.#after)].map(([path, values]) => ({ path, values }));
  }
}

/** Keywords that can change a verdict where they are read in `dialect` (and `nullable`, which ajv reads everywhere). */
function isVerdictKeyword(dialect: Dialect, key: string, value: unknown): boolean {
  if (key === 'nullable') return true;
  if (keywordFit(dialect, key, value) !== 'fits') return false;
  const info = KEYWORD_TABLES[dialect].get(key)!;
  if (info.role === 'validation' || info.role === 'applicator') return true;
  return REFERENCE_KEYWORDS.includes(key) || ANCHOR_KEYWORDS.includes(key) || info.id === 'id' || info.id === 'recursive-anchor';
}

/** What a keyword's value holds, for descending: one subschema, a list, a map (definitions included). */
function shapeOf(dialect: Dialect, key: string): KeywordInfo['shape'] {
  return KEYWORD_TABLES[dialect].get(key)?.shape ?? UNION_KEYWORDS.get(key)?.shape ?? 'opaque';
}

/** `schemaOrArray` (draft-07 `items`) holding one subschema reads as `schema`. */
function singleSchema(shape: KeywordInfo['shape'], value: unknown): KeywordInfo['shape'] {
  return shape === 'schemaOrArray' && !Array.isArray(value) ? 'schema' : shape;
}

/** The values worth trying where `node`'s `enum`/`const` changed. */
function dataValues(node: unknown): unknown[] {
  if (!isObject(node)) return [];
  const out: unknown[] = [];
  if (hasOwn(node, 'const')) out.push(node.const);
  if (hasOwn(node, 'enum') && Array.isArray(node.enum)) out.push(...node.enum.slice(0, MAX_VALUES));
  return out;
}

/** A value with the same verdicts as the keyword being absent. */
function isNeutral(key: string, value: unknown): boolean {
  if (key === 'required') return Array.isArray(value) && value.length === 0;
  if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions') return isObject(value) && Object.keys(value).length === 0;
  if (key === 'additionalProperties' || key === 'items' || key === 'additionalItems' || key === 'unevaluatedProperties' || key === 'unevaluatedItems' || key === 'propertyNames') {
    return value === true || (isObject(value) && Object.keys(value).length === 0);
  }
  return false;
}

/** Two values of `key` that judge alike (`type: ["x"]` and `type: "x"`; arrays of types in any order). */
function sameValue(key: string, x: unknown, y: unknown): boolean {
  if (key === 'type') {
    const list = (t: unknown) => (typeof t === 'string' ? [t] : Array.isArray(t) ? [...t].map(String).sort() : undefined);
    const a = list(x);
    const b = list(y);
    if (a && b) return a.length === b.length && a.every((t, i) => t === b[i]);
  }
  return jsonEqual(x, y);
}

/** Definitions containers renamed by a dialect rewrite are compared entry by entry. */
function pairedKey(key: string, other: Record<string, unknown>): string | undefined {
  if (hasOwn(other, key)) return key;
  if (key === 'definitions' && hasOwn(other, '$defs') && !hasOwn(other, 'definitions')) return '$defs';
  if (key === '$defs' && hasOwn(other, 'definitions') && !hasOwn(other, '$defs')) return 'definitions';
  return undefined;
}

/**
 * The paired walk. `converted` gets `path + NUL + keyword` for each keyword of the rewrite that a
 * conversion rule (conversions.ts) accounts for: the rule says how it reads, so it is no site, here or in
 * {@link rereadSites}.
 */
function diffInStep(before: unknown, after: unknown, da: Dialect, db: Dialect, sites: SiteList, converted: Set<string>, context: ConversionContext): void {
  const stack: [unknown, unknown, string, string][] = [[before, after, '', '']];
  const pair = new PairVisit(da, db);
  let root = true;
  while (stack.length > 0 && !sites.full) {
    const [x, y, px, py] = stack.pop()!;
    const atRoot = root;
    root = false;
    if (x === y) continue;
    if (!isObject(x) || !isObject(y)) {
      if (!jsonEqual(x, y)) {
        sites.add('before', px);
        sites.add('after', py);
      }
      continue;
    }
    const match = matchConversions(x, y, da, db, atRoot, context);
    pair.start(x, y, px, py, match);
    if (match) {
      for (const k of match.after) converted.add(py + '\u0000' + k);
      for (const p of match.pairs) pair.children.push([p.before, p.after, p.beforePath.reduce<string>(appendPointer, px), p.afterPath.reduce<string>(appendPointer, py)]);
    }
    for (const kx of Object.keys(x)) pair.visit(kx, pairedKey(kx, y));
    for (const ky of Object.keys(y)) if (pairedKey(ky, x) === undefined) pair.visit(undefined, ky);
    if (pair.changed) {
      const values = [...dataValues(x), ...dataValues(y)];
      sites.add('before', px, values);
      sites.add('after', py, values);
    }
    const children = pair.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/**
 * One object pair of {@link diffInStep}'s walk: its keys compared one by one, the subschema pairs to walk
 * next, and whether a verdict keyword changed. A class with methods, reused for every pair, not a closure
 * made per pair: V8 keeps a function's optimised code only while one of its closures lives, so a per-pair
 * closure was recompiled after every full GC (src/json/shapes.ts).
 */
class PairVisit {
  x: Record<string, unknown> = {};
  y: Record<string, unknown> = {};
  px = '';
  py = '';
  match: ConversionMatch | undefined = undefined;
  changed = false;
  children: [unknown, unknown, string, string][] = [];

  constructor(
    readonly da: Dialect,
    readonly db: Dialect,
  ) {}

  start(x: Record<string, unknown>, y: Record<string, unknown>, px: string, py: string, match: ConversionMatch | undefined): void {
    this.x = x;
    this.y = y;
    this.px = px;
    this.py = py;
    this.match = match;
    this.changed = false;
    this.children = [];
  }

  visit(kx: string | undefined, ky: string | undefined): void {
    const { x, y, px, py, match, da, db, children } = this;
    if ((kx !== undefined && match?.before.has(kx)) || (ky !== undefined && match?.after.has(ky))) {
      // A keyword one side of a rule accounts for, next to one the rule does not name: compared as usual.
      if (kx !== undefined && ky !== undefined && match!.before.has(kx) === match!.after.has(ky)) return;
      if (kx === undefined || ky === undefined) return;
    }
    const vx = kx === undefined ? undefined : x[kx];
    const vy = ky === undefined ? undefined : y[ky];
    if (kx !== undefined && ky !== undefined && vx === vy) return;
    const key = (kx ?? ky)!;
    // draft-07 `items` holding one subschema is 2020-12's `items`: compared as one subschema, in step.
    const shapeX = kx === undefined ? undefined : singleSchema(shapeOf(da, kx), vx);
    const shapeY = ky === undefined ? undefined : singleSchema(shapeOf(db, ky), vy);
    const defs = (kx === undefined || UNION_KEYWORDS.get(kx)?.role === 'definitions') && (ky === undefined || UNION_KEYWORDS.get(ky)?.role === 'definitions');
    if (defs) {
      // Definitions matter only through the references into them: compare what both sides still hold.
      if (isObject(vx) && isObject(vy)) {
        for (const name of Object.keys(vx)) if (hasOwn(vy, name)) children.push([vx[name], vy[name], appendPointer(appendPointer(px, kx!), name), appendPointer(appendPointer(py, ky!), name)]);
      }
      return;
    }
    const relevant = (kx !== undefined && isVerdictKeyword(da, kx, vx)) || (ky !== undefined && isVerdictKeyword(db, ky, vy));
    if (!relevant) return;
    if (kx === undefined || ky === undefined) {
      if (!isNeutral(key, kx === undefined ? vy : vx)) this.changed = true;
      return;
    }
    if (key === '$ref' || key === '$dynamicRef' || key === '$recursiveRef') return;
    if (shapeX === shapeY && shapeX !== 'opaque') {
      const qx = appendPointer(px, key);
      const qy = appendPointer(py, key);
      if ((shapeX === 'schema' || (shapeX === 'schemaOrArray' && !Array.isArray(vx) && !Array.isArray(vy))) && !Array.isArray(vx) && !Array.isArray(vy)) {
        children.push([vx, vy, qx, qy]);
        return;
      }
      if ((shapeX === 'schemaArray' || shapeX === 'schemaOrArray') && Array.isArray(vx) && Array.isArray(vy)) {
        if (vx.length !== vy.length) this.changed = true;
        for (let i = 0; i < Math.min(vx.length, vy.length); i++) children.push([vx[i], vy[i], appendPointer(qx, i), appendPointer(qy, i)]);
        return;
      }
      if ((shapeX === 'schemaMap' || shapeX === 'schemaOrStrings') && isObject(vx) && isObject(vy)) {
        for (const name of Object.keys(vx)) {
          if (!hasOwn(vy, name)) this.changed = true;
          else if (Array.isArray(vx[name]) || Array.isArray(vy[name])) {
            if (!jsonEqual(vx[name], vy[name])) this.changed = true;
          } else children.push([vx[name], vy[name], appendPointer(qx, name), appendPointer(qy, name)]);
        }
        for (const name of Object.keys(vy)) if (!hasOwn(vx, name)) this.changed = true;
        return;
      }
    }
    if (!sameValue(key, vx, vy)) this.changed = true;
  }
}

/** After a dialect change: every schema object of the rewrite holding something the two dialects read differently. */
function rereadSites(after: unknown, da: Dialect, db: Dialect, sites: SiteList, converted: ReadonlySet<string>): void {
  // Every schema object of the rewrite is visited (a stamp removal makes most tools take this walk), and
  // most hold nothing read differently: a pointer is spelled out only for a site, or to look a key up
  // among the converted ones when there are any.
  visitSchemaObjects(after, UNION_KEYWORDS, rereadNode, new Reread(da, db, sites, converted));
}

/** What {@link rereadSites} reads each schema object with (a class and a module visitor: see src/json/shapes.ts). */
class Reread {
  readonly refSiblingsDiffer: boolean;
  readonly anyConverted: boolean;
  constructor(
    readonly da: Dialect,
    readonly db: Dialect,
    readonly sites: SiteList,
    readonly converted: ReadonlySet<string>,
  ) {
    this.refSiblingsDiffer = isLegacyDialect(da) !== isLegacyDialect(db);
    this.anyConverted = converted.size > 0;
  }
}

function rereadNode(node: Record<string, unknown>, place: SchemaPlace | undefined, r: Reread): boolean {
  // Once both lists are full nothing more is added: the rest of the walk only visits.
  if (r.sites.full) return false;
  const { da, db } = r;
  const hasRef = typeof node.$ref === 'string' && hasOwn(node, '$ref');
  let path: string | undefined;
  for (const key of Object.keys(node)) {
    if (r.anyConverted && r.converted.has((path ??= placePointer(place)) + '\u0000' + key)) continue;
    const value = node[key];
    if (isVerdictKeyword(da, key, value) !== isVerdictKeyword(db, key, value) || (r.refSiblingsDiffer && hasRef && key !== '$ref' && isVerdictKeyword(db, key, value))) {
      r.sites.add('after', path ?? placePointer(place), dataValues(node));
      break;
    }
  }
  return true;
}

// One instance kept, so its map outlives a full GC between runs (src/json/shapes.ts).
anchorShape([new SiteList(), new PairVisit('draft-07', 'draft-07'), new Reread('draft-07', 'draft-07', new SiteList(), new Set())]);
