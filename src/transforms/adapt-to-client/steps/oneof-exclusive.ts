/**
 * For close-objects (issue 26 item 13): where closing objects could make a schema accept more. `oneOf`
 * accepts a value that matches exactly one branch; closing an object inside a branch makes that branch
 * match fewer values, so a value that matched two branches (refused) can end up matching one (accepted).
 * That can happen only where the branches overlap. Branches are taken as mutually exclusive when every
 * pair is told apart by one of (each decidable from the schemas alone, a sufficient condition, never a
 * guess):
 * - `type`: both declare one, and no type is in both;
 * - a discriminator: a property both require whose `const`/`enum` values have none in common;
 * - a property one requires that the other forbids (`properties.<name>: false`).
 * Those rules still hold after the conversion (it never touches `type`, a required property, or `false`),
 * so the branches stay mutually exclusive after closing. Elsewhere the branches (and the local definitions
 * a branch `$ref`s) are left open, and the step names the `oneOf`.
 */
import { hasOwn, isObject } from '../../../json/guards.js';
import { appendPointer, getAt, parsePointer } from '../../../json/pointer.js';
import { UNION_KEYWORDS } from '../../../schema/keywords.js';
import { walkSchema } from '../../../schema/walk.js';

/** The `oneOf`s (paths of the schemas holding them) whose branches may overlap, and the subtrees to leave open. */
export function overlappingOneOfs(root: unknown): { oneOfs: string[]; open: ReadonlySet<string>; refs: { def: string; at: string }[] } {
  const oneOfs: string[] = [];
  const open = new Set<string>();
  const refs: { def: string; at: string }[] = [];
  const referred = new Set<string>();
  walkSchema(root, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path) {
      if (!isObject(node) || !Array.isArray(node.oneOf) || node.oneOf.length < 2) return;
      const branches = node.oneOf.map((b) => new Branch(resolveLocal(root, b)));
      if (allExclusive(branches)) return;
      oneOfs.push(path);
      node.oneOf.forEach((b, i) => {
        open.add(appendPointer(appendPointer(path, 'oneOf'), String(i)));
        if (isObject(b) && typeof b.$ref === 'string' && b.$ref.startsWith('#/')) {
          const def = safeDecode(b.$ref.slice(1));
          open.add(def);
          if (!referred.has(def)) {
            referred.add(def);
            refs.push({ def, at: appendPointer(path, 'oneOf') });
          }
        }
      });
    },
  });
  return { oneOfs, open, refs };
}

/**
 * True when `path` is one of `prefixes` or inside one: some prefix of it that ends before a `/` (or the whole
 * path) is in the set, looked up once per `/` of the path rather than tested against every prefix (the
 * branches of a `oneOf` of 10,000 met 10,000 object schemas: 100 million tests).
 */
export function isUnder(path: string, prefixes: ReadonlySet<string>): boolean {
  if (prefixes.size === 0) return false;
  if (prefixes.has(path)) return true;
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) if (prefixes.has(path.slice(0, at))) return true;
  return false;
}

/**
 * Whether every two branches are told apart (the rules above). The branches are split into parts no two of
 * which can overlap (by a property all of them require, with values no two parts share, or by types no two
 * parts share), each part split again the same way, and only a part nothing splits is asked pair by pair,
 * until one pair is not told apart: the same answer as asking every pair (test/attack/strict-oneof.test.ts
 * compares them), without asking them all. A discriminated union (one property whose values no two branches
 * share) splits into single branches at once; one told apart by two properties together (a grid of 16,000
 * branches, each with its own pair of `const`s) took `optimize --profile openai-strict` 16 s asked pair by
 * pair, 0.7 s split. Pairs asked one by one are bounded ({@link PAIRS_ASKED}): past it the branches are taken
 * as possibly overlapping (the `oneOf` is left open and named, as for any it cannot tell apart).
 */
function allExclusive(branches: readonly Branch[]): boolean {
  return partExclusive(branches, { left: PAIRS_ASKED });
}

/**
 * Pairs of branches {@link allExclusive} asks one by one at most per `oneOf` (all of them: 0.25-0.3 s); a part
 * nothing splits into smaller ones and of more pairs than are left is taken as possibly overlapping. No
 * captured server has a `oneOf` of more than 23 branches (253 pairs).
 */
const PAIRS_ASKED = 1 << 22;

function partExclusive(part: readonly Branch[], budget: { left: number }): boolean {
  if (part.length < 2) return true;
  const parts = splitApart(part);
  if (parts !== undefined) {
    for (const p of parts) if (!partExclusive(p, budget)) return false;
    return true;
  }
  const pairs = (part.length * (part.length - 1)) / 2;
  if (pairs > budget.left) return false;
  budget.left -= pairs;
  for (let i = 0; i < part.length; i++) {
    for (let j = i + 1; j < part.length; j++) if (!exclusive(part[i]!, part[j]!)) return false;
  }
  return true;
}

/**
 * `part` in two or more parts (branches in list order) such that any two branches of different parts are told
 * apart: by a property every branch requires, whose `const`/`enum` values two branches share only within a
 * part (the parts are the groups that share values, directly or through others); else by declared types no
 * two parts share (`integer` going with `number`). Undefined when neither splits it, or a branch is not a
 * schema object.
 */
function splitApart(part: readonly Branch[]): Branch[][] | undefined {
  if (part.some((b) => b.schema === undefined)) return undefined;
  for (const p of part[0]!.required) {
    if (!part.every((b) => b.requires.has(p) && b.valuesOf(p) !== undefined)) continue;
    const parts = groupsSharing(part, (b) => b.valuesOf(p)!);
    if (parts !== undefined) return parts;
  }
  if (part.every((b) => b.types !== undefined)) return groupsSharing(part, (b) => b.types!.map((t) => (t === 'integer' ? 'number' : t)));
  return undefined;
}

/** The branches grouped by the keys they share (directly or through others), in list order; undefined when all fall in one group. */
function groupsSharing(part: readonly Branch[], keysOf: (b: Branch) => Iterable<string>): Branch[][] | undefined {
  const parent = part.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const owner = new Map<string, number>();
  for (let i = 0; i < part.length; i++) {
    for (const k of keysOf(part[i]!)) {
      const o = owner.get(k);
      if (o === undefined) owner.set(k, i);
      else {
        const a = find(o);
        const b = find(i);
        if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
      }
    }
  }
  const groups = new Map<number, Branch[]>();
  for (let i = 0; i < part.length; i++) {
    const r = find(i);
    let g = groups.get(r);
    if (g === undefined) groups.set(r, (g = []));
    g.push(part[i]!);
  }
  return groups.size < 2 ? undefined : [...groups.values()];
}

function exclusive(a: Branch, b: Branch): boolean {
  const sa = a.schema;
  const sb = b.schema;
  if (sa === undefined || sb === undefined) return a.value === false || b.value === false;
  const ta = a.types;
  const tb = b.types;
  if (ta && tb && !ta.some((t) => tb.includes(t) || (t === 'number' && tb.includes('integer')) || (t === 'integer' && tb.includes('number')))) return true;
  for (const p of a.required) {
    if (b.requires.has(p)) {
      const va = a.valuesOf(p);
      const vb = b.valuesOf(p);
      if (va && vb && !shareOne(va, vb)) return true;
    }
    if (propertyOf(sb, p) === false) return true;
  }
  for (const p of b.required) if (propertyOf(sa, p) === false) return true;
  return false;
}

/** Whether two sets have a member in common (the smaller one read). */
function shareOne(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const v of small) if (large.has(v)) return true;
  return false;
}

/**
 * One branch (resolved), with what the rules read of it worked out once rather than for every pair: its
 * types, its required properties (in order, and as a set), and each required property's `const`/`enum`
 * values as a set (on first use).
 */
class Branch {
  readonly value: unknown;
  readonly schema: Record<string, unknown> | undefined;
  readonly types: string[] | undefined;
  readonly required: string[];
  readonly requires: ReadonlySet<string>;
  readonly #values = new Map<string, ReadonlySet<string> | undefined>();
  constructor(value: unknown) {
    this.value = value;
    this.schema = isObject(value) ? value : undefined;
    this.types = this.schema ? typesOf(this.schema) : undefined;
    this.required = this.schema ? requiredOf(this.schema) : [];
    this.requires = new Set(this.required);
  }

  valuesOf(p: string): ReadonlySet<string> | undefined {
    if (this.#values.has(p)) return this.#values.get(p);
    const values = valuesOf(propertyOf(this.schema!, p));
    const set = values === undefined ? undefined : new Set(values);
    this.#values.set(p, set);
    return set;
  }
}

function typesOf(s: Record<string, unknown>): string[] | undefined {
  if (typeof s.type === 'string') return [s.type];
  return Array.isArray(s.type) && s.type.every((t) => typeof t === 'string') ? (s.type as string[]) : undefined;
}

function requiredOf(s: Record<string, unknown>): string[] {
  return Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
}

function propertyOf(s: Record<string, unknown>, name: string): unknown {
  return isObject(s.properties) && hasOwn(s.properties, name) ? s.properties[name] : undefined;
}

/** The values a schema allows by `const` or `enum` (as JSON text), or undefined when it does not say. */
function valuesOf(s: unknown): string[] | undefined {
  if (!isObject(s)) return undefined;
  if (hasOwn(s, 'const')) return [JSON.stringify(s.const)];
  return Array.isArray(s.enum) ? s.enum.map((v) => JSON.stringify(v)) : undefined;
}

/** A branch, or the local definition its `$ref` points to (one hop; anything else as it is). */
function resolveLocal(root: unknown, branch: unknown): unknown {
  if (!isObject(branch) || typeof branch.$ref !== 'string' || !branch.$ref.startsWith('#/') || Object.keys(branch).length !== 1) return branch;
  try {
    return getAt(root, parsePointer(safeDecode(branch.$ref.slice(1)))) ?? branch;
  } catch {
    return branch;
  }
}

function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
