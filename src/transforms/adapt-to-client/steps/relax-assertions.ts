/**
 * relax-assertions (lossy): keywords that assert (validation or applicators) and that the client rejects
 * are rewritten into what it accepts, exactly where that is possible, else dropped:
 * - `const: "x"` → `enum: ["x"]` (the same verdicts; string values, the only kind every such client takes
 *   in `enum`);
 * - `exclusiveMinimum: n` / `exclusiveMaximum: n` on an integer schema → `minimum: ⌊n⌋+1` /
 *   `maximum: ⌈n⌉−1` (the same verdicts); on other numbers → `minimum: n` / `maximum: n` (accepts n too);
 * - `oneOf` → `anyOf` (accepts an instance that matches several branches); a null branch written
 *   `{"type": ["null"]}` (kept so only under `oneOf`, for a TypeScript reader) then reads as normalize-schema
 *   reads it under `anyOf`: unwrapped, and the union collapsed into `type` where that keeps every verdict;
 * - every other rejected assertion that only narrows what is accepted (`additionalProperties`,
 *   `propertyNames`, `patternProperties`, `uniqueItems`, `multipleOf`, `not`, `if`/`then`/`else`, …) is
 *   dropped: the schema then accepts more, never less.
 * Keywords whose removal would change what another keyword means (`allOf` holding whole schemas,
 * `prefixItems` beside `items`) are left and reported by the checker. Each change says what it loses.
 */
import { hasOwn, isObject } from '../../../json/guards.js';
import { appendPointer } from '../../../json/pointer.js';
import { UNION_KEYWORDS, type Dialect } from '../../../schema/keywords.js';
import { collapseNullUnion, findNullUnionSites } from '../../../schema/null-union.js';
import { collectRefInventory, resolveRefSite } from '../../../schema/refs.js';
import { walkSchema } from '../../../schema/walk.js';
import type { AdaptStep, StepEditor } from '../step.js';

/**
 * Rejected assertions whose removal only widens what the schema accepts (each is ANDed with its
 * siblings and no sibling's meaning depends on it), with what the model loses, for the report.
 */
const DROPPABLE: Readonly<Record<string, string>> = Object.freeze({
  additionalProperties: 'other keys are no longer refused',
  propertyNames: 'any key name is accepted',
  patternProperties: 'keys matching its patterns are no longer checked',
  unevaluatedProperties: 'keys nothing else checks are no longer refused',
  unevaluatedItems: 'items nothing else checks are no longer refused',
  dependentRequired: 'properties it made required together are no longer required',
  dependentSchemas: 'what a present property implied is no longer checked',
  dependencies: 'what a present property implied is no longer checked',
  uniqueItems: 'repeated items are accepted',
  multipleOf: 'any number in range is accepted',
  contains: 'no item has to match it',
  minContains: 'any number of matching items is accepted',
  maxContains: 'any number of matching items is accepted',
  not: 'what it excluded is accepted',
  if: 'its condition no longer selects `then`/`else`',
  then: 'what it required under `if` is no longer checked',
  else: 'what it required otherwise is no longer checked',
  minProperties: 'fewer keys are accepted',
  maxProperties: 'more keys are accepted',
  minItems: 'fewer items are accepted',
  maxItems: 'more items are accepted',
  minLength: 'shorter strings are accepted',
  maxLength: 'longer strings are accepted',
  pattern: 'strings not matching it are accepted',
  minimum: 'smaller numbers are accepted',
  maximum: 'larger numbers are accepted',
  contentEncoding: 'the encoding is no longer stated',
  contentMediaType: 'the media type is no longer stated',
});

export const relaxAssertions: AdaptStep = {
  id: 'relax-assertions',
  option: 'relaxAssertions',
  safety: 'lossy',
  applies: (p) => p.rejectedValidation.some((k) => k !== 'format'),
  run(ed, { profile, dialect }) {
    const rejected = new Set(profile.rejectedValidation);
    const all = new Set(profile.rejected);
    const accepts = (k: string) => !all.has(k);
    // A keyword that holds a reference's target is kept; dropping another keyword can drop the last such
    // reference, and the next run would then drop the keyword too. So the pass repeats, reading the
    // references again, while it edited something and held something back (each pass that goes on removed
    // a rejected keyword, so this ends).
    const renamed: string[] = [];
    for (;;) {
      const targets = referencedPlaces(ed.root, dialect);
      let heldBack = 0;
      const holds = (path: string) => {
        const held = targets(path);
        if (held) heldBack++;
        return held;
      };
      const nodes: string[] = [];
      walkSchema(ed.root, '', {
        table: UNION_KEYWORDS,
        onSchema(node, path) {
          if (isObject(node) && Object.keys(node).some((k) => rejected.has(k))) nodes.push(path);
        },
      });
      const before = ed.edits;
      // Deepest last in preorder: walking back, every node is edited before its ancestors (a rename of
      // `oneOf` moves the paths below it, none above it). A repeat edits nodes the pass before may have put
      // inside a recorded value (a renamed `const`), so each pass runs at a fresh copy-on-write level.
      ed.group(() => {
        for (let i = nodes.length - 1; i >= 0; i--) relaxNode(ed, nodes[i]!, rejected, accepts, holds, profile.name, renamed);
      });
      if (heldBack === 0 || ed.edits === before) break;
    }
    if (renamed.length > 0) ed.group(() => settleNullBranches(ed, renamed, dialect, profile.name));
  },
};

/**
 * The `oneOf`s renamed to `anyOf` (`renamed`: their holders' pointers as the document now is) whose null branch is
 * `{"type": ["null"]}` (the form reconcile-dialect's nullable split and normalize-unions write for a
 * TypeScript reader, which normalize-schema keeps only under `oneOf`) are written as normalize-schema writes
 * them under `anyOf`: the branch unwrapped, then the union collapsed into `type` where that keeps every
 * verdict (schema/null-union.ts). Left as they were, the next run's normalize-schema would do it, and one run
 * must reach the fixed point (found converting OpenAPI 3.0 `nullable` arrays for `gemini` and `openai-strict`).
 */
function settleNullBranches(ed: StepEditor, renamed: readonly string[], dialect: Dialect, profile: string): void {
  const sites = new Set(renamed);
  for (const path of renamed) {
    // A holder inside a keyword dropped later (`not`, `if`…) is gone.
    const holder = ed.get(path);
    const union = isObject(holder) ? holder.anyOf : undefined;
    if (!Array.isArray(union)) continue;
    for (let i = 0; i < union.length; i++) {
      if (isArrayNullBranch(union[i])) ed.replace(appendPointer(appendPointer(path, 'anyOf'), String(i)), { type: 'null' }, 'unwrapped-null-branch', { profile });
    }
  }
  for (const { path, keyword } of findNullUnionSites(ed.root, dialect)) {
    if (keyword !== 'anyOf' || !sites.has(path)) continue;
    const holder = ed.get(path);
    if (!isObject(holder)) continue;
    const result = collapseNullUnion(holder, keyword, dialect);
    if (result.ok) ed.replace(path, result.schema, 'collapsed-null-union', { keyword, type: result.type });
  }
}

/** `{"type": ["null"]}` and nothing else. */
function isArrayNullBranch(branch: unknown): boolean {
  if (!isObject(branch)) return false;
  const keys = Object.keys(branch);
  return keys.length === 1 && keys[0] === 'type' && Array.isArray(branch.type) && branch.type.length === 1 && branch.type[0] === 'null';
}

/** Whether a place holds (or is) the target of a reference that resolves: such a keyword is never dropped or renamed. */
function referencedPlaces(root: unknown, dialect: Dialect): (path: string) => boolean {
  const inventory = collectRefInventory(root, dialect);
  const targets: string[] = [];
  for (const site of inventory.refs) {
    const r = resolveRefSite(root, inventory, site);
    if (r.status === 'resolved') targets.push(r.path);
  }
  return (path) => targets.some((t) => t === path || t.startsWith(path + '/'));
}

function relaxNode(ed: StepEditor, path: string, rejected: ReadonlySet<string>, accepts: (k: string) => boolean, holds: (path: string) => boolean, profile: string, renamed: string[]): void {
  const node = ed.get(path) as Record<string, unknown>;
  const at = (k: string) => appendPointer(path, k);
  const isInteger = node.type === 'integer';
  for (const key of Object.keys(node)) {
    if (!rejected.has(key) || key === 'format' || holds(at(key))) continue;
    const value = node[key];
    const data = { keyword: key, profile };
    if (key === 'const' && accepts('enum') && typeof value === 'string' && !hasOwn(node, 'enum')) {
      ed.replace(path, renameKey(ed.get(path) as Record<string, unknown>, 'const', 'enum', [value]), 'const-to-enum', { ...data, value: JSON.stringify(value) });
    } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'number' && Number.isFinite(value)) {
      const lower = key === 'exclusiveMinimum';
      const target = lower ? 'minimum' : 'maximum';
      if (!accepts(target)) dropKeyword(ed, at(key), data, 'its bound is no longer checked');
      else {
        const current = ed.get(path) as Record<string, unknown>;
        const exact = isInteger ? (lower ? Math.floor(value) + 1 : Math.ceil(value) - 1) : value;
        const other = current[target];
        // An inclusive bound already there that is at least as tight wins; otherwise the new one replaces it.
        const keepOther = typeof other === 'number' && (lower ? other >= exact : other <= exact);
        if (keepOther) ed.remove(at(key), 'dropped-redundant-bound', { ...data, bound: target, value: other as number });
        else if (hasOwn(current, target)) {
          ed.remove(at(key), isInteger ? 'exclusive-to-inclusive' : 'exclusive-to-inclusive-lossy', { ...data, bound: target, value: exact });
          ed.replace(at(target), exact, isInteger ? 'exclusive-to-inclusive' : 'exclusive-to-inclusive-lossy', { ...data, bound: target, value: exact });
        } else ed.replace(path, renameKey(current, key, target, exact), isInteger ? 'exclusive-to-inclusive' : 'exclusive-to-inclusive-lossy', { ...data, bound: target, value: exact });
      }
    } else if (key === 'oneOf' && accepts('anyOf') && !hasOwn(node, 'anyOf') && Array.isArray(value)) {
      ed.rename(at('oneOf'), 'anyOf', 'oneof-to-anyof', data);
      // Descendants are renamed first: their recorded pointers pass through this `oneOf`, now `anyOf`.
      const below = at('oneOf') + '/';
      for (let i = 0; i < renamed.length; i++) if (renamed[i]!.startsWith(below)) renamed[i] = at('anyOf') + '/' + renamed[i]!.slice(below.length);
      renamed.push(path);
    } else if (key === 'const' && accepts('description')) {
      // Not a string (an enum of strings is all such clients take): the value goes into the description.
      describeConst(ed, path, value, data);
    } else if (Object.prototype.hasOwnProperty.call(DROPPABLE, key)) {
      dropKeyword(ed, at(key), data, DROPPABLE[key]!);
    }
  }
}

function describeConst(ed: StepEditor, path: string, value: unknown, data: { keyword: string; profile: string }): void {
  const node = ed.get(path) as Record<string, unknown>;
  const text = `(always ${JSON.stringify(value)})`;
  const at = appendPointer(path, 'description');
  if (!hasOwn(node, 'description')) ed.add(at, text, 'described-const', { ...data, value: JSON.stringify(value) });
  else if (typeof node.description === 'string') ed.replace(at, node.description.trim() === '' ? text : `${node.description.trimEnd()} ${text}`, 'described-const', { ...data, value: JSON.stringify(value) });
  ed.remove(appendPointer(path, 'const'), 'dropped-assertion', { ...data, loses: `any value is accepted where only ${JSON.stringify(value)} was` });
}

function dropKeyword(ed: StepEditor, path: string, data: { keyword: string; profile: string }, loses: string): void {
  ed.remove(path, 'dropped-assertion', { ...data, loses });
}

/** `node` with `from` renamed to `to` in its place and given `value`. */
function renameKey(node: Record<string, unknown>, from: string, to: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(node)) {
    const key = k === from ? to : k;
    const v = k === from ? value : node[k];
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}
