/**
 * Proof without compiling: when a rewrite only removes what ajv never compiles, "the original compiles" implies
 * "the rewrite compiles", and the `structural` level (which promises exactly that implication) needs no compile.
 *
 * {@link compileImplied} pairs the two schemas node by node (same pointer in both: nothing is renamed or moved)
 * and accepts only these differences:
 * - keywords no ajv class compiles, changed, added or removed anywhere: ajv's metadata and content
 *   vocabularies (`title`, `description`, `default`, `examples`, `deprecated`, `readOnly`, `writeOnly`,
 *   `contentMediaType`, `contentEncoding`, `contentSchema`), `$comment` (ajv's `$comment` option is off),
 *   vendor extensions `x-…` (unknown to ajv, ignored with `strict: false`) and `$schema` (read by ajv only to
 *   validate the schema against its meta-schema, which the gate turns off: `validateSchema: false`);
 * - whole definitions (`$defs`/`definitions` entries, or the container): ajv compiles a definition only when a
 *   `$ref` reaches it, and every `$ref` of the rewrite must reach a node that is still there (below);
 * - a neutral keyword removed (`required: []`, `properties: {}`, `patternProperties: {}`,
 *   `additionalProperties`/`items`/`propertyNames` `true` or `{}`): what it compiled to accepts everything
 *   and no other keyword reads it in a way that can throw.
 * Every other keyword must be in both nodes with the same value (subschemas paired recursively, data compared
 * as JSON). Then every node ajv compiles in the rewrite is a node it compiled, with the same compiled
 * keywords, in the original: the root; a subschema of a compiled keyword (the same keyword, present in both);
 * a `$ref`'s target (the same `$ref` text resolves to the same pointer, nothing being identified, and
 * the target is checked to be a paired node). Each compiled keyword's compile-time checks (value types,
 * regular expressions, `nullable` beside `type`, reference resolution) see the same values, so each passes in
 * the rewrite where it passed in the original.
 *
 * When the two are read by different ajv classes (a draft-07 stamp removed: the original is read by ajv's
 * draft-07 class with `ignoreKeywordsWithRef`, the rewrite by its 2020-12 class), each compiled keyword of the
 * rewrite must also be one both classes implement with the same code: a keyword both dialects' tables know
 * with the same role and shape (ajv builds both classes from the same keyword modules for these), `items` only
 * in its single-schema form (the array form is a different keyword in each class), or a keyword neither table
 * knows (ajv ignores an unknown keyword in every class; `nullable` and `$async` are read by shared code).
 * Keywords one class has and the other lacks (`prefixItems`, `unevaluated*`, `dependentRequired`,
 * `additionalItems`, `minContains`, …) refuse the proof. The draft-07 class compiles nothing beside a `$ref`
 * (`ignoreKeywordsWithRef`; the gate also drops `type`/`nullable` there): those siblings were never checked,
 * so the 2020-12 rewrite, which compiles them, may keep only keywords no class compiles beside a `$ref`.
 *
 * Conversions with a known equivalence (conversions.ts: OpenAPI `nullable` → a `type` union, `example` →
 * `examples`, tuple `items` → `prefixItems`, inert `additionalItems` removed, `dependencies` split, the root's
 * `definitions` → `$defs` with every `$ref` retargeted, a null union collapsed into `type`, a nullable object
 * or array split into a `oneOf` with null): where an object pair matches a rule exactly, the
 * keywords the rule names are not compared one by one; the subschemas it pairs are, and a `$ref` may not
 * pass through a keyword the rule paired with another one. Each rule says why ajv compiles both sides alike.
 *
 * Refused outright (the gate compiles as before): identifiers and anchors anywhere (`$id`, `$anchor`,
 * `$dynamicAnchor`, `$recursiveAnchor`: they change how references resolve), dynamic references, a `$ref`
 * that is not a plain local JSON Pointer (`#/…` in letters, digits and `_.$~-`; no percent-escapes, so ajv's
 * URI handling and ours read the same tokens), a map holding a `$id` key (ajv's pointer walk reads `$id` on
 * every object it passes), schemas nested deeper than {@link MAX_DEPTH}, draft-04, draft-06 and OpenAPI 3.0
 * (ajv classes with keywords removed), and any value of a schema position that is neither an object nor a
 * boolean (malformed: ajv decides).
 *
 * The argument is backed by an oracle test (test/verify/implied.test.ts): over the bench corpus, the fuzz
 * harness's generated tools and random mutations of both, every pair this function accepts is compiled by
 * the gate's ajv, and the original compiling while the rewrite does not fails the test.
 */

import { DEFINITIONS_KEYWORDS, KEYWORD_TABLES, isExtensionKeyword, type Dialect, type KeywordInfo, type KeywordTable } from '../schema/keywords.js';
import { refInventoryOf } from '../schema/refs.js';
import { hasOwn, isObject } from '../json/guards.js';
import { jsonEqual } from '../json/equal.js';
import { unescapeToken } from '../json/pointer.js';
import { AJV_NO_CODE, conversionContext, matchConversions, renamedRef, type ConversionContext, type ConversionRuleId } from './conversions.js';

/** Deeper pairs are left to ajv (its stack use differs between classes). */
export const MAX_DEPTH = 64;

/** Dialects whose ajv class is a stock one (the gate removes keywords from the draft-04/06 classes). */
const STOCK: ReadonlySet<Dialect> = new Set(['draft-07', '2019-09', '2020-12']);

/** `#` or `#/a/b~1c`: a local JSON Pointer that ajv and toolslim split into the same tokens. */
const SIMPLE_REF = /^#(?:\/(?:[A-Za-z0-9_.$-]|~[01])*)*$/;

interface Mode {
  readonly da: Dialect;
  readonly db: Dialect;
  readonly ta: KeywordTable;
  readonly tb: KeywordTable;
  /** Read by different ajv classes. */
  readonly cross: boolean;
  /** The original's class ignores every sibling of `$ref`. */
  readonly legacyA: boolean;
  readonly legacyB: boolean;
  /** The root's `definitions` became `$defs` (conversions.ts): every `$ref` is compared through the rename. */
  renames: boolean;
  /** Objects of the rewrite where a conversion rule paired keywords, with those keywords (no `$ref` may pass them). */
  readonly converted: WeakMap<object, ReadonlySet<string>>;
  /** The caller's record of the rules the proof used. */
  readonly used: Set<ConversionRuleId> | undefined;
  /** What the rules may ask of the rewrite's document. */
  readonly context: ConversionContext;
}

/**
 * True when ajv compiling `before` (read as `beforeDialect`) implies that it compiles `after` (read as
 * `afterDialect`), proven without compiling either (see the module comment); false when not proven.
 * `used`, when given, gets the ids of the conversion rules (conversions.ts) the proof relied on.
 */
export function compileImplied(before: unknown, after: unknown, beforeDialect: Dialect, afterDialect: Dialect, used?: Set<ConversionRuleId>): boolean {
  if (!STOCK.has(beforeDialect) || !STOCK.has(afterDialect)) return false;
  if (beforeDialect !== afterDialect && !(beforeDialect === 'draft-07' && afterDialect === '2020-12')) return false;
  const mode: Mode = {
    da: beforeDialect,
    db: afterDialect,
    renames: false,
    converted: new WeakMap(),
    used,
    context: conversionContext(after),
    ta: KEYWORD_TABLES[beforeDialect],
    tb: KEYWORD_TABLES[afterDialect],
    cross: beforeDialect !== afterDialect,
    legacyA: beforeDialect === 'draft-07',
    legacyB: afterDialect === 'draft-07',
  };
  if (!pairAll(before, after, mode)) return false;
  return refsLandOnPairs(after, afterDialect, mode);
}

/** The paired walk: every difference is one the module comment allows. */
function pairAll(before: unknown, after: unknown, mode: Mode): boolean {
  const stack: [unknown, unknown, number][] = [[before, after, 0]];
  while (stack.length > 0) {
    const [x, y, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) return false;
    // Shared by copy-on-write and read by the same class: compiled alike (its `$ref`s are checked below).
    if (x === y && !mode.cross && (typeof x === 'boolean' || isObject(x))) continue;
    if (typeof x === 'boolean' || typeof y === 'boolean') {
      if (x !== y) return false;
      continue;
    }
    if (!isObject(x) || !isObject(y)) return false;
    // Conversions with a known equivalence (conversions.ts): the keywords a rule accounts for are not
    // compared one by one; the subschemas it pairs are.
    const match = x === y ? undefined : matchConversions(x, y, mode.da, mode.db, depth === 0, mode.context);
    if (match) {
      if (match.renamesDefinitions) mode.renames = true;
      if (mode.used) for (const r of match.rules) mode.used.add(r);
      mode.converted.set(y, match.after);
      for (const p of match.pairs) stack.push([p.before, p.after, depth + 1]);
    }
    for (const k of Object.keys(y)) if (!AJV_NO_CODE.has(k) && !isExtensionKeyword(k) && !hasOwn(x, k) && !match?.after.has(k)) return false;
    const refNode = typeof x.$ref === 'string' && hasOwn(x, '$ref');
    for (const k of Object.keys(x)) {
      if (AJV_NO_CODE.has(k) || isExtensionKeyword(k) || match?.before.has(k)) continue;
      const vx = x[k];
      const container = DEFINITIONS_KEYWORDS.includes(k);
      // Beside a `$ref`, ajv's draft-07 class compiles nothing: never checked in the original, so it may go,
      // and may stay only where the rewrite's class ignores it too.
      if (refNode && mode.legacyA && !container && k !== '$ref') {
        if (!hasOwn(y, k) || mode.legacyB) continue;
        return false;
      }
      if (!hasOwn(y, k)) {
        if (container || isNeutral(k, vx)) continue;
        return false;
      }
      const vy = y[k];
      if (match?.after.has(k)) return false;
      // Through the root's `definitions` → `$defs` rename, a reference must have followed the move.
      if (k === '$ref' && mode.renames) {
        if (typeof vx !== 'string' || renamedRef(vx) !== vy) return false;
        continue;
      }
      if (container) {
        if (!isObject(vx) || !isObject(vy) || hasOwn(vx, '$id')) return false;
        for (const name of Object.keys(vy)) {
          if (!hasOwn(vx, name)) return false;
          stack.push([vx[name], vy[name], depth + 1]);
        }
        continue;
      }
      const info = keywordOf(k, vx, vy, mode);
      if (info === false) return false;
      const shape = info === undefined ? 'opaque' : info.shape;
      if (shape === 'opaque') {
        if (!jsonEqual(vx, vy)) return false;
      } else if (shape === 'schema' || (shape === 'schemaOrArray' && !Array.isArray(vx) && !Array.isArray(vy))) {
        stack.push([vx, vy, depth + 1]);
      } else if (shape === 'schemaArray' || shape === 'schemaOrArray') {
        if (!Array.isArray(vx) || !Array.isArray(vy) || vx.length !== vy.length) return false;
        for (let i = 0; i < vx.length; i++) stack.push([vx[i], vy[i], depth + 1]);
      } else {
        // schemaMap, schemaOrStrings: the same names, each entry paired (string arrays compared as data)
        if (!isObject(vx) || !isObject(vy) || hasOwn(vx, '$id')) return false;
        const names = Object.keys(vx);
        if (names.length !== Object.keys(vy).length) return false;
        for (const name of names) {
          if (!hasOwn(vy, name)) return false;
          const ex = vx[name];
          const ey = vy[name];
          if (shape === 'schemaOrStrings' && (Array.isArray(ex) || Array.isArray(ey))) {
            if (!jsonEqual(ex, ey)) return false;
          } else stack.push([ex, ey, depth + 1]);
        }
      }
    }
  }
  return true;
}

/**
 * How keyword `k` is read: its table entry (one both classes read alike), undefined for a keyword neither
 * table knows (compared as data), or false when the proof must give up.
 */
function keywordOf(k: string, vx: unknown, vy: unknown, mode: Mode): KeywordInfo | undefined | false {
  const ia = mode.ta.get(k);
  const ib = mode.tb.get(k);
  if (ia === undefined && ib === undefined) return undefined;
  if (ia === undefined || ib === undefined || ia.role !== ib.role) return false;
  // Identifiers, anchors and dynamic references change how references resolve.
  if (ia.role === 'core' && k !== '$ref') return false;
  if (ia.shape === ib.shape) return ia;
  // `items`: one subschema in both classes' reading, or nothing proven.
  if (ia.shape === 'schemaOrArray' && ib.shape === 'schema' && !Array.isArray(vx) && !Array.isArray(vy)) return ib;
  return false;
}

/** A keyword value whose removal removes a check that accepts every instance and that nothing else reads. */
function isNeutral(k: string, v: unknown): boolean {
  if (k === 'required') return Array.isArray(v) && v.length === 0;
  if (k === 'properties' || k === 'patternProperties') return isObject(v) && Object.keys(v).length === 0;
  if (k === 'additionalProperties' || k === 'items' || k === 'propertyNames') return v === true || (isObject(v) && Object.keys(v).length === 0);
  return false;
}

/**
 * Every `$ref` of the rewrite (found by the run's inventory, shared subtrees included) is a plain local
 * pointer to a node the paired walk compared; no identifier or anchor anywhere.
 */
function refsLandOnPairs(after: unknown, dialect: Dialect, mode: Mode): boolean {
  const inventory = refInventoryOf(after, dialect);
  if (inventory.resources.length > 0 || inventory.anchors.length > 0 || inventory.rootUri !== undefined) return false;
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    if (site.keyword !== '$ref' || site.resource !== '' || !SIMPLE_REF.test(site.ref)) return false;
    const tokens = site.ref.length <= 1 ? [] : site.ref.slice(2).split('/').map(unescapeToken);
    if (!isPairedPosition(after, tokens, mode)) return false;
  }
  return true;
}

/** True when `tokens` lead from the root through the positions {@link pairAll} descends into. */
function isPairedPosition(root: unknown, tokens: readonly string[], mode: Mode): boolean {
  let node = root;
  for (let i = 0; i < tokens.length; ) {
    if (!isObject(node)) return false;
    const k = tokens[i]!;
    if (!hasOwn(node, k) || AJV_NO_CODE.has(k) || isExtensionKeyword(k)) return false;
    const value = node[k];
    if (DEFINITIONS_KEYWORDS.includes(k)) {
      if (!isObject(value) || i + 1 >= tokens.length || !hasOwn(value, tokens[i + 1]!)) return false;
      node = value[tokens[i + 1]!];
      i += 2;
      continue;
    }
    if (mode.legacyA && typeof node.$ref === 'string' && hasOwn(node, '$ref')) return false;
    // A keyword a conversion rule paired with another keyword of the original: the same pointer names another node there.
    if (mode.converted.get(node)?.has(k)) return false;
    const info = mode.tb.get(k);
    if (info === undefined || (info.role === 'core' && k !== '$ref')) return false;
    const shape = info.shape;
    if (shape === 'schema' || (shape === 'schemaOrArray' && !Array.isArray(value))) {
      node = value;
      i += 1;
    } else if ((shape === 'schemaArray' || shape === 'schemaOrArray') && Array.isArray(value) && i + 1 < tokens.length && /^(0|[1-9][0-9]*)$/.test(tokens[i + 1]!)) {
      const index = Number(tokens[i + 1]);
      if (index >= value.length) return false;
      node = value[index];
      i += 2;
    } else if ((shape === 'schemaMap' || shape === 'schemaOrStrings') && isObject(value) && i + 1 < tokens.length && hasOwn(value, tokens[i + 1]!)) {
      node = value[tokens[i + 1]!];
      if (Array.isArray(node)) return false;
      i += 2;
    } else return false;
  }
  return isObject(node) || typeof node === 'boolean';
}
