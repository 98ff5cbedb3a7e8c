/**
 * The null-union collapse: `{"anyOf": [X, {"type": "null"}]}` (or `oneOf`, either order) written as X with
 * `"null"` added to its `type`, merged into the schema object that held the union. A rule of
 * normalize-schema; kept here, below every layer that edits, so the verify gate can recognise the same
 * rewrite without compiling (see {@link collapseNullUnion}).
 *
 * Why it is exact. A schema object's keywords are a conjunction, except where a keyword reads a sibling
 * (`SIBLING_DEPENDENT_GROUPS`, `$ref` in draft-07 and earlier, `unevaluated*`). Take the holder P with the
 * union U = `anyOf`/`oneOf` of X and N = `{"type": "null"}`, and P' = P without U, plus X's keywords:
 * - X's keywords are each `type`, a keyword that constrains only other instance types (`minLength`,
 *   `properties`, `items`, `format`… — the keyword table's `appliesTo`), an annotation, an `x-*` extension,
 *   or (for `anyOf` only) `enum`. A null instance passes every one of them vacuously (JSON Schema 2020-12
 *   Validation §6–7; draft-04 §5 says the same for each type-specific keyword), except `type`, which gets
 *   `"null"` (Validation §6.1.1: an instance is valid if its type "matches any of the listed types"), and
 *   `enum`, which gets `null` appended.
 * - So on null: U passes (N does), and X-with-null passes; on any other instance N fails, and `"null"` in
 *   `type` or `null` in `enum` admits nothing else, so U ≡ X ≡ X-with-null. For `oneOf`, X must reject
 *   null (no `"null"` in its `type`): then exactly one branch passes wherever one does, as with `anyOf`.
 * - Moving X's keywords into P changes nothing else: no key of X is already in P (no clash), no key of X
 *   (nor the union keyword removed) shares a sibling-dependent group with a key of P, P holds no
 *   `$ref`/`$dynamicRef`/`$recursiveRef` (draft-07 readers ignore a `$ref`'s siblings), no `unevaluated*`,
 *   and X holds no identifier or anchor (only the keywords listed above), so nothing X's keywords read or
 *   name changes. ajv reads `type` arrays exactly so (`"null"` is one of its seven JSON types).
 *
 * What the caller must also establish about the document (this module sees one object only): the holder
 * is not the document's root (MCP wants a root `"type": "object"`); no reference may land at or below the
 * union keyword (its subschemas move); the document uses `unevaluatedProperties`/`unevaluatedItems`
 * nowhere (conservatively: those read annotations across objects); the dialect is a JSON Schema draft
 * (`openapi-3.0` is refused here: its `nullable` is read with `type`).
 */
import { hasOwn, isObject } from '../json/guards.js';
import { setOwn } from '../json/cow.js';
import { appendPointer } from '../json/pointer.js';
import { KEYWORD_TABLES, REFERENCE_KEYWORDS, SIBLING_DEPENDENT_GROUPS, isExtensionKeyword, type Dialect } from './keywords.js';
import { collectRefTargets, holdsRefTarget } from './ref-targets.js';
import { walkSchema } from './walk.js';

/** The union keywords the collapse applies to. */
export type NullUnionKeyword = 'anyOf' | 'oneOf';

/** What {@link collapseNullUnion} found: the rewritten holder, or why it is left alone. */
export type NullUnionResult = { readonly ok: true; readonly schema: Record<string, unknown>; readonly type: string } | { readonly ok: false; readonly reason: string };

/**
 * A cheap test of a union keyword's value (for a look ahead of the walk): two branches, one of them the
 * bare null schema (`{"type": "null"}` or `{"type": ["null"]}`, nothing else). A superset of what collapses.
 */
export function isNullUnionShape(value: unknown): boolean {
  return Array.isArray(value) && value.length === 2 && (isBareNull(value[0]) || isBareNull(value[1]));
}

/**
 * Whether `holder[keyword]` is a null union that {@link collapseNullUnion} rewrites: true exactly when the
 * collapse keeps every verdict, under the document conditions stated in this module's comment.
 */
export function isNullUnionCollapsible(holder: Record<string, unknown>, keyword: NullUnionKeyword, dialect: Dialect): boolean {
  return collapseNullUnion(holder, keyword, dialect).ok;
}

/**
 * The holder with `holder[keyword]` (an `anyOf`/`oneOf` of X and the bare null schema, in either order)
 * replaced by X's keywords, in X's order, where the union stood: `type` with `"null"` appended (unless it
 * is there), `enum` with `null` appended (unless it is there). Every other key of the holder keeps its
 * place. Or, when that would not be exact, why. Neither argument is changed.
 */
export function collapseNullUnion(holder: Record<string, unknown>, keyword: NullUnionKeyword, dialect: Dialect): NullUnionResult {
  if (dialect === 'openapi-3.0') return no('an OpenAPI 3.0 schema object reads `nullable` with `type`');
  const union = holder[keyword];
  if (!hasOwn(holder, keyword) || !isNullUnionShape(union)) return no(`\`${keyword}\` is not two branches, one of them \`{"type": "null"}\``);
  const branches = union as unknown[];
  // When both are the bare null schema, X is the first (its `type` already holds "null").
  const x = isBareNull(branches[1]) ? branches[0] : branches[1];
  if (!isObject(x)) return no('the other branch is not a schema object');
  const types = typeList(x.type);
  if (types === undefined) return no('the other branch has no `type` (a string or an array of strings)');
  // OpenAI's strict-mode guide writes a nullable object as this very union (adapt-to-client writes it so),
  // and the typescript reader renders `["object", "null"]` as `object | null`, the properties hidden: no gain.
  if (types.includes('object')) return no('the other branch may be an object (kept as a union: the form strict clients want)');
  // `oneOf` of an array and null is what a typescript reader reads as `T[] | null` (normalize-unions and
  // reconcile-dialect's nullable split write it so); `["array", "null"]` reads `array | null`, items hidden.
  if (keyword === 'oneOf' && types.length === 1 && types[0] === 'array' && hasOwn(x, 'items')) return no('the other branch is an array with `items` (a `oneOf` with null reads as `T[] | null` in TypeScript)');
  const hasNull = types.includes('null');
  if (keyword === 'oneOf' && hasNull) return no('the other branch accepts null too, so `oneOf` rejects null');
  const table = KEYWORD_TABLES[dialect];
  for (const key in x) {
    if (!hasOwn(x, key) || key === 'type' || isExtensionKeyword(key)) continue;
    if (key === 'enum') {
      // `oneOf` keeps its enum: a typescript reader renders `oneOf` as a union of the enum's literals, and
      // a `type` array as `string | null` alone.
      if (keyword === 'oneOf') return no('`enum` beside `oneOf`');
      if (!Array.isArray(x.enum) || x.enum.length === 0) return no('`enum` is not a non-empty array');
      continue;
    }
    const info = table.get(key);
    if (info === undefined) return no(`\`${key}\` is not a keyword of ${dialect}`);
    if (key === 'unevaluatedProperties' || key === 'unevaluatedItems') return no(`\`${key}\` reads every sibling`);
    if (info.appliesTo === undefined && info.role !== 'annotation') return no(`\`${key}\` may reject null`);
  }
  for (const key in holder) {
    if (!hasOwn(holder, key) || key === keyword) continue;
    if (hasOwn(x, key)) return no(`\`${key}\` is in both the holder and the branch`);
    if (REFERENCE_KEYWORDS.includes(key)) return no(`\`${key}\` beside the union (draft-07 readers ignore its siblings)`);
    if (key === 'unevaluatedProperties' || key === 'unevaluatedItems') return no(`\`${key}\` reads every sibling`);
    const group = SIBLING_DEPENDENT_GROUPS.find((g) => g.includes(key));
    if (group !== undefined && (group.includes(keyword) || group.some((k) => hasOwn(x, k)))) return no(`\`${key}\` reads a keyword the branch or the union brings`);
  }
  const out: Record<string, unknown> = {};
  for (const key in holder) {
    if (!hasOwn(holder, key)) continue;
    if (key !== keyword) {
      setOwn(out, key, holder[key]);
      continue;
    }
    for (const k in x) {
      if (!hasOwn(x, k)) continue;
      if (k === 'type') setOwn(out, k, hasNull ? x.type : [...types, 'null']);
      else if (k === 'enum' && !(x.enum as unknown[]).includes(null)) setOwn(out, k, [...(x.enum as unknown[]), null]);
      else setOwn(out, k, x[k]);
    }
  }
  return { ok: true, schema: out, type: types.filter((t) => t !== 'null').join(', ') || 'null' };
}

function no(reason: string): NullUnionResult {
  return { ok: false, reason };
}

/** `{"type": "null"}` or `{"type": ["null"]}`, with no other key. */
export function isBareNull(branch: unknown): boolean {
  if (!isObject(branch)) return false;
  // The one own key read where `for…in` finds it, not as `branch.type`: a named read made the optimised code
  // check for the map of a parsed `{"type": …}`, which dies with the input at a full GC, so the code was
  // deoptimised ('wrong map') and compiled again on every other pass of the corpus; and it read an inherited
  // `type` (a polluted prototype) as the object's own.
  let t: unknown;
  let keys = 0;
  for (const key in branch) {
    if (!hasOwn(branch, key)) continue;
    if (++keys > 1 || key !== 'type') return false;
    t = branch[key];
  }
  return keys === 1 && (t === 'null' || (Array.isArray(t) && t.length === 1 && t[0] === 'null'));
}

/** `type` as a list: a string, or a non-empty array of strings; undefined otherwise. */
export function typeList(type: unknown): readonly string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string')) return type as string[];
  return undefined;
}

/**
 * Whether `unevaluatedProperties`/`unevaluatedItems` appears anywhere in `schema`'s text, data included: the
 * document condition of this module's collapse, of readable-types.ts' rewrites and of the verify gate's rules
 * that move subschemas (those keywords read annotations across objects). Conservative by design.
 */
export function mentionsUnevaluated(schema: unknown): boolean {
  return /"unevaluated(?:Properties|Items)"/.test(JSON.stringify(schema) ?? '');
}

/** A null union in a document: its holder's pointer and its keyword. */
export interface NullUnionSite {
  readonly path: string;
  readonly keyword: NullUnionKeyword;
}

/**
 * The null unions of a whole document that may collapse, in postorder (a union inside another's branch
 * first), with the document conditions of this module's comment checked: none when the document mentions
 * `unevaluatedProperties`/`unevaluatedItems` anywhere (its text, data included) or holds a reference whose
 * target cannot be decided; none at the root; none with a reference target at or below the union. Each
 * site is then rewritten with {@link collapseNullUnion} on the holder as it is by then. For a step that
 * builds new structure after normalize-schema ran (adapt-to-client's inlined copies can bring a null branch
 * in), so that the pipeline stays idempotent.
 */
export function findNullUnionSites(schema: unknown, dialect: Dialect): NullUnionSite[] {
  const found: NullUnionSite[] = [];
  walkSchema(schema, '', {
    table: KEYWORD_TABLES[dialect],
    onSchema(node, path) {
      if (path === '' || !isObject(node)) return;
      for (const keyword of ['anyOf', 'oneOf'] as const) if (hasOwn(node, keyword) && isNullUnionShape(node[keyword])) found.push({ path, keyword });
    },
  });
  if (found.length === 0 || mentionsUnevaluated(schema)) return [];
  const targets = collectRefTargets(schema, dialect);
  if (targets.undecidable !== undefined) return [];
  const live = found.filter((s) => !holdsRefTarget(targets, appendPointer(s.path, s.keyword)));
  // Preorder to postorder: a site leaves the stack once the walk is past everything below it.
  const out: NullUnionSite[] = [];
  const open: NullUnionSite[] = [];
  for (const site of live) {
    while (open.length > 0 && !site.path.startsWith(open[open.length - 1]!.path + '/')) out.push(open.pop()!);
    open.push(site);
  }
  while (open.length > 0) out.push(open.pop()!);
  return out;
}
