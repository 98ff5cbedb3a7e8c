/**
 * Rewrites that keep every verdict and let a `typescript` reader (harmony's rules, src/render/typescript.ts)
 * see a type it would otherwise render as `any` (or as a bare `object`/`array` word). Pure functions of one
 * schema object, kept below every layer that edits so that reconcile-dialect, the typescript reader's step
 * (normalize-unions) and the tests share one statement of each rule.
 *
 * - **Disjoint `anyOf` → `oneOf`** ({@link anyOfAsOneOf}). `anyOf` passes when at least one branch passes,
 *   `oneOf` when exactly one does (JSON Schema 2020-12 Core §10.2.1.2–3; the same in draft-04 to 2019-09).
 *   When no instance can pass two branches (the branches are pairwise disjoint), "at least one" and
 *   "exactly one" are the same, so the keyword can be renamed. Two branches are provably disjoint when
 *   their type sets do not meet (`integer` is inside `number`; a branch without `type` may be anything,
 *   unless `const`/`enum` pins its values and so its types), or when both pin their values (`const`,
 *   `enum`) and no value of one equals a value of the other (JSON equality). A `false` branch is disjoint
 *   from everything; `true` or a branch with a reference keyword or OpenAPI's `nullable` is never proven
 *   disjoint. Both keywords collect annotations from the passing branches only, and here exactly one
 *   passes under either; the holder must not hold `oneOf` already nor `discriminator` (ajv reads it with
 *   `oneOf`). A bare `{"type": "null"}` branch is written `{"type": ["null"]}` (the same values): harmony
 *   renders a `type` string it does not know, `"null"` included, as `any` (and `X | any` is `any`), but a
 *   `type` array as its names, so `["null"]` reads `null`.
 * - **Nullable object or array → `oneOf` with null** ({@link splitNullableType}). `{"type": [T, "null"],
 *   K…}` with T `object` or `array` becomes `{"oneOf": [{"type": T, K_T…}, {"type": ["null"]}], K_rest…}`:
 *   K_T are the holder's keywords that constrain only some instance types (the keyword table's
 *   `appliesTo`: `properties`, `items`, `required`, `minLength`…), moved into the first branch in their
 *   order; everything else stays (annotations, `enum`, `allOf`, `not`, `if`…). A null instance passes every
 *   K_T vacuously (2020-12 Validation §6–7), so: on null, the original passes its `type` and K_T, the
 *   rewrite its second branch (and not the first: its `type` is T); on a T instance, the original checks
 *   `type` and K_T, the rewrite the first branch (same checks) and not the second; on anything else both
 *   fail `type`. K_rest is checked alike by both. The branches are disjoint (T and `null`), so `oneOf` ≡
 *   `anyOf`. Refused when a sibling-dependent group would be split between the branch and the holder, when
 *   the holder has a reference keyword (draft-07 readers ignore its siblings), `unevaluated*`, `oneOf`,
 *   `nullable` or `discriminator`, or when T's branch would say nothing (no `properties`/`items`: the
 *   reader would show `{}` for "any object").
 * - **String `const` → one-value `enum`** ({@link constAsEnum}). `const: c` ≡ `enum: [c]` (2020-12
 *   Validation §6.1.2–3: both by JSON equality; draft-06 and later). With c a string, `type: "string"`
 *   is added when the holder has no `type`: only a string can equal c. The reader shows `"c"` instead of
 *   `any` (or of `string`, when `type` was there).
 *
 * What the caller must also establish about the document (this module sees one object): no reference may
 * land at or below a keyword that moves or is renamed ({@link findReadableSites} checks it, with the rest).
 */
import { hasOwn, isObject } from '../json/guards.js';
import { jsonEqual } from '../json/equal.js';
import { setOwn } from '../json/cow.js';
import { appendPointer } from '../json/pointer.js';
import { KEYWORD_TABLES, REFERENCE_KEYWORDS, SIBLING_DEPENDENT_GROUPS, type Dialect } from './keywords.js';
import { collectRefTargets, holdsRefTarget, type RefTargets } from './ref-targets.js';
import { walkSchema } from './walk.js';
import { mentionsUnevaluated } from './null-union.js';

/** A rewritten holder, or why it is left alone. */
export type ReadableResult = { readonly ok: true; readonly schema: Record<string, unknown> } | { readonly ok: false; readonly reason: string };

/** The kinds of rewrite, in the order {@link findReadableSites} tries them on one object. */
export type ReadableKind = 'const-enum' | 'nullable-split' | 'disjoint-oneof';

const JSON_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'] as const;

/**
 * The holder with `anyOf` renamed `oneOf` in place, when its branches are provably pairwise disjoint (see
 * the module comment); or why not.
 */
export function anyOfAsOneOf(holder: Record<string, unknown>, dialect: Dialect): ReadableResult {
  if (dialect === 'openapi-3.0') return no('an OpenAPI 3.0 schema object reads `nullable` with `type`');
  const branches = holder.anyOf;
  if (!hasOwn(holder, 'anyOf') || !Array.isArray(branches) || branches.length === 0) return no('`anyOf` is not a non-empty array');
  if (hasOwn(holder, 'oneOf')) return no('the holder has `oneOf` already');
  if (hasOwn(holder, 'discriminator')) return no('`discriminator` beside it reads `oneOf`');
  const facts = branches.map((b) => branchFacts(b, dialect));
  for (let i = 0; i < facts.length; i++) {
    for (let j = i + 1; j < facts.length; j++) if (!disjoint(facts[i]!, facts[j]!)) return no(`branches ${i} and ${j} may both accept one instance`);
  }
  const renamed = renameKey(holder, 'anyOf', 'oneOf');
  renamed.oneOf = branches.map((b) => (isBareNull(b) ? { type: ['null'] } : b));
  return { ok: true, schema: renamed };
}

/** Whether the branches of a union are provably pairwise disjoint (see the module comment). */
export function branchesDisjoint(branches: readonly unknown[], dialect: Dialect): boolean {
  const facts = branches.map((b) => branchFacts(b, dialect));
  for (let i = 0; i < facts.length; i++) for (let j = i + 1; j < facts.length; j++) if (!disjoint(facts[i]!, facts[j]!)) return false;
  return true;
}

/**
 * `{"type": [T, "null"], …}` (T `object` or `array`, either order) as `{"oneOf": [{"type": T, …}, {"type":
 * "null"}], …}`, the `oneOf` where `type` stood; or why not.
 */
export function splitNullableType(holder: Record<string, unknown>, dialect: Dialect): ReadableResult {
  if (dialect === 'openapi-3.0') return no('an OpenAPI 3.0 schema object reads `nullable` with `type`');
  const t = holder.type;
  if (!Array.isArray(t) || t.length !== 2 || !t.includes('null')) return no('`type` is not a pair of a type and `"null"`');
  const other = t[0] === 'null' ? t[1] : t[0];
  if (other !== 'object' && other !== 'array') return no('the type is not `object` or `array`');
  for (const key of ['oneOf', 'nullable', 'discriminator', 'unevaluatedProperties', 'unevaluatedItems', ...REFERENCE_KEYWORDS]) {
    if (hasOwn(holder, key)) return no(`\`${key}\` beside \`type\``);
  }
  const moved = new Set(splitMovedKeys(holder, dialect));
  const shows = other === 'object' ? isObject(holder.properties) && Object.keys(holder.properties).length > 0 : hasOwn(holder, 'items');
  if (!shows) return no(other === 'object' ? 'no `properties`: the branch would read as any object' : 'no `items`: the branch would read as any array');
  for (const group of SIBLING_DEPENDENT_GROUPS) {
    // Loops, not closures: a closure made per call is compiled again after every full GC (json/shapes.ts).
    const present: string[] = [];
    let someMoved = false;
    let someKept = false;
    for (const k of group) {
      if (k === 'type' || !hasOwn(holder, k)) continue;
      present.push(k);
      if (moved.has(k)) someMoved = true;
      else someKept = true;
    }
    if (someMoved && someKept) return no(`\`${present.join('`, `')}\` read each other and would be split`);
  }
  const branch: Record<string, unknown> = { type: other };
  for (const key in holder) if (moved.has(key)) setOwn(branch, key, holder[key]);
  const out: Record<string, unknown> = {};
  for (const key in holder) {
    if (!hasOwn(holder, key) || moved.has(key)) continue;
    if (key === 'type') setOwn(out, 'oneOf', [branch, { type: ['null'] }]);
    else setOwn(out, key, holder[key]);
  }
  return { ok: true, schema: out };
}

/** The keywords {@link splitNullableType} moves into the typed branch: those that constrain only some instance types. */
export function splitMovedKeys(holder: Record<string, unknown>, dialect: Dialect): string[] {
  const table = KEYWORD_TABLES[dialect];
  return Object.keys(holder).filter((key) => key !== 'type' && table.get(key)?.appliesTo !== undefined);
}

/** `const: "c"` as `enum: ["c"]` where it stood, with `type: "string"` first when there was no `type`; or why not. */
export function constAsEnum(holder: Record<string, unknown>, dialect: Dialect): ReadableResult {
  if (!KEYWORD_TABLES[dialect].has('const')) return no(`\`const\` is not a keyword of ${dialect}`);
  const c = holder.const;
  if (!hasOwn(holder, 'const') || typeof c !== 'string') return no('`const` is not a string');
  if (hasOwn(holder, 'enum')) return no('the holder has `enum` already');
  for (const key of REFERENCE_KEYWORDS) if (hasOwn(holder, key)) return no(`\`${key}\` beside \`const\``);
  const t = holder.type;
  if (hasOwn(holder, 'type') && t !== 'string') return no('`type` is not `"string"`');
  const out: Record<string, unknown> = {};
  for (const key in holder) {
    if (!hasOwn(holder, key)) continue;
    if (key !== 'const') {
      setOwn(out, key, holder[key]);
      continue;
    }
    if (!hasOwn(holder, 'type')) setOwn(out, 'type', 'string');
    setOwn(out, 'enum', [c]);
  }
  return { ok: true, schema: out };
}

/** One rewrite site: the holder's pointer (from the document root) and which rewrite. */
export interface ReadableSite {
  readonly path: string;
  readonly kind: ReadableKind;
}

/**
 * Every schema object below the root of a document that one of the rewrites applies to, in postorder
 * (what lies inside a holder first), with the document's conditions checked: none when the document
 * mentions `unevaluatedProperties`/`unevaluatedItems` anywhere (they read annotations across objects) or
 * holds a reference whose target cannot be decided; none where a reference may land at or below a keyword
 * that moves (`anyOf`, `const`, the keywords a split moves). `kinds` narrows the rewrites looked for.
 * The caller rewrites each site, in this order, on the holder as it is by then (each rewrite edits only
 * its holder's own keys, so the pointers of later sites stay valid).
 */
export function findReadableSites(schema: unknown, dialect: Dialect, kinds: readonly ReadableKind[] = ['const-enum', 'nullable-split', 'disjoint-oneof']): ReadableSite[] {
  if (dialect === 'openapi-3.0' || !isObject(schema)) return [];
  const pre: { path: string; node: Record<string, unknown> }[] = [];
  walkSchema(schema, '', {
    table: KEYWORD_TABLES[dialect],
    onSchema(node, path) {
      if (path !== '' && isObject(node) && (hasOwn(node, 'anyOf') || hasOwn(node, 'const') || Array.isArray(node.type))) pre.push({ path, node });
    },
  });
  if (pre.length === 0 || mentionsUnevaluated(schema)) return [];
  const targets = collectRefTargets(schema, dialect);
  if (targets.undecidable !== undefined) return [];
  // Preorder to postorder, as a site's subtree ends.
  const ordered: { path: string; node: Record<string, unknown> }[] = [];
  const open: { path: string; node: Record<string, unknown> }[] = [];
  for (const s of pre) {
    while (open.length > 0 && !s.path.startsWith(open[open.length - 1]!.path + '/')) ordered.push(open.pop()!);
    open.push(s);
  }
  while (open.length > 0) ordered.push(open.pop()!);
  const out: ReadableSite[] = [];
  for (const { path, node } of ordered) {
    for (const kind of kinds) if (applies(kind, node, dialect, path, targets)) out.push({ path, kind });
  }
  return out;
}

/** Applies `kind` to `holder`: the rewritten holder or why not. */
export function rewriteReadable(kind: ReadableKind, holder: Record<string, unknown>, dialect: Dialect): ReadableResult {
  return kind === 'const-enum' ? constAsEnum(holder, dialect) : kind === 'nullable-split' ? splitNullableType(holder, dialect) : anyOfAsOneOf(holder, dialect);
}

function applies(kind: ReadableKind, node: Record<string, unknown>, dialect: Dialect, path: string, targets: RefTargets): boolean {
  // Sites are decided on the original node: a const rewritten in a branch does not change whether the
  // branches are disjoint (`enum: [c]` pins the same value), and a split moves only the holder's own keys.
  if (!rewriteReadable(kind, node, dialect).ok) return false;
  const moving = kind === 'const-enum' ? ['const'] : kind === 'disjoint-oneof' ? ['anyOf'] : splitMovedKeys(node, dialect);
  return !moving.some((k) => holdsRefTarget(targets, appendPointer(path, k)));
}

interface BranchFacts {
  /** The JSON types the branch may accept (`integer` counted inside `number`); undefined: any. */
  readonly types?: ReadonlySet<string>;
  /** The only values it may accept, when `const`/`enum` pin them. */
  readonly values?: readonly unknown[];
  /** A `false` schema: accepts nothing. */
  readonly none?: boolean;
}

function branchFacts(branch: unknown, dialect: Dialect): BranchFacts {
  if (branch === false) return { none: true };
  if (!isObject(branch)) return {};
  if (REFERENCE_KEYWORDS.some((k) => hasOwn(branch, k)) || hasOwn(branch, 'nullable')) return {};
  let types: Set<string> | undefined;
  const t = branch.type;
  if (typeof t === 'string') types = new Set([t]);
  else if (Array.isArray(t) && t.length > 0 && t.every((x) => typeof x === 'string')) types = new Set(t as string[]);
  else if (hasOwn(branch, 'type')) return {};
  if (types !== undefined && [...types].some((x) => !(JSON_TYPES as readonly string[]).includes(x))) return {};
  let values: unknown[] | undefined;
  if (hasOwn(branch, 'const') && KEYWORD_TABLES[dialect].has('const')) values = [branch.const];
  if (hasOwn(branch, 'enum')) {
    if (!Array.isArray(branch.enum)) return {};
    values = values === undefined ? [...branch.enum] : values.filter((v) => (branch.enum as unknown[]).some((e) => jsonEqual(e, v)));
  }
  if (values !== undefined) {
    const valueTypes = new Set(values.map(typeOfValue));
    types = types === undefined ? valueTypes : new Set([...valueTypes].filter((x) => types!.has(x) || (x === 'integer' && types!.has('number'))));
  }
  return { ...(types !== undefined ? { types } : {}), ...(values !== undefined ? { values } : {}) };
}

function disjoint(a: BranchFacts, b: BranchFacts): boolean {
  if (a.none === true || b.none === true) return true;
  if (a.types !== undefined && b.types !== undefined && !typesMeet(a.types, b.types)) return true;
  if (a.values !== undefined && b.values !== undefined) return !a.values.some((x) => b.values!.some((y) => jsonEqual(x, y)));
  return false;
}

/** Whether two type sets share an instance: `integer` lies inside `number`. */
function typesMeet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) {
    if (b.has(x)) return true;
    if ((x === 'integer' && b.has('number')) || (x === 'number' && b.has('integer'))) return true;
  }
  return false;
}

/** A JSON value's type, `integer` for whole numbers (a whole number is also a `number`). */
function typeOfValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** `{"type": "null"}` with nothing else. */
function isBareNull(b: unknown): boolean {
  return isObject(b) && b.type === 'null' && Object.keys(b).length === 1;
}

function renameKey(holder: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in holder) if (hasOwn(holder, key)) setOwn(out, key === from ? to : key, holder[key]);
  return out;
}

function no(reason: string): ReadableResult {
  return { ok: false, reason };
}
