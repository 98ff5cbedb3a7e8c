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
export function overlappingOneOfs(root: unknown): { oneOfs: string[]; open: string[]; refs: { def: string; at: string }[] } {
  const oneOfs: string[] = [];
  const open: string[] = [];
  const refs: { def: string; at: string }[] = [];
  walkSchema(root, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path) {
      if (!isObject(node) || !Array.isArray(node.oneOf) || node.oneOf.length < 2) return;
      const branches = node.oneOf.map((b) => resolveLocal(root, b));
      if (allExclusive(branches)) return;
      oneOfs.push(path);
      node.oneOf.forEach((b, i) => {
        open.push(appendPointer(appendPointer(path, 'oneOf'), String(i)));
        if (isObject(b) && typeof b.$ref === 'string' && b.$ref.startsWith('#/')) {
          const def = safeDecode(b.$ref.slice(1));
          open.push(def);
          if (!refs.some((r) => r.def === def)) refs.push({ def, at: appendPointer(path, 'oneOf') });
        }
      });
    },
  });
  return { oneOfs, open, refs };
}

/** True when `path` is one of `prefixes` or inside one. */
export function isUnder(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => path === p || path.startsWith(p + '/'));
}

function allExclusive(branches: readonly unknown[]): boolean {
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) if (!exclusive(branches[i], branches[j])) return false;
  }
  return true;
}

function exclusive(a: unknown, b: unknown): boolean {
  if (!isObject(a) || !isObject(b)) return a === false || b === false;
  const ta = typesOf(a);
  const tb = typesOf(b);
  if (ta && tb && !ta.some((t) => tb.includes(t) || (t === 'number' && tb.includes('integer')) || (t === 'integer' && tb.includes('number')))) return true;
  const ra = requiredOf(a);
  const rb = requiredOf(b);
  for (const p of ra) {
    if (rb.includes(p)) {
      const va = valuesOf(propertyOf(a, p));
      const vb = valuesOf(propertyOf(b, p));
      if (va && vb && !va.some((v) => vb.includes(v))) return true;
    }
    if (propertyOf(b, p) === false) return true;
  }
  for (const p of rb) if (propertyOf(a, p) === false) return true;
  return false;
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
