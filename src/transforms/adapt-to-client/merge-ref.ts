/** What replaces `{ "$ref": …, ...siblings }` once the target is known (inline-refs uses it). */
import { hasOwn, isObject } from '../../json/guards.js';
import { isModernDialect } from '../../schema/dialect.js';
import { DEFINITIONS_KEYWORDS, type Dialect } from '../../schema/keywords.js';
import { isAnnotation, setOwnKey } from './nodes.js';

const INTERACTING: readonly (readonly string[])[] = [
  ['properties', 'patternProperties', 'additionalProperties'],
  ['prefixItems', 'items', 'additionalItems'],
  ['contains', 'minContains', 'maxContains'],
  ['if', 'then', 'else'],
  ['contentMediaType', 'contentEncoding', 'contentSchema'],
];
const UNEVALUATED = ['unevaluatedProperties', 'unevaluatedItems'];
const IDENTITY = ['$id', 'id', '$schema', '$anchor', '$dynamicAnchor', '$recursiveAnchor', '$ref', '$dynamicRef', '$recursiveRef'];

/**
 * What replaces `{ "$ref": …, ...siblings }` once the target is known. Without siblings: the target. With
 * siblings that cannot interact with the target's keywords (annotations, or independent assertions with no
 * shared key): one merged object (an annotation both have keeps the sibling's value, the one written at
 * the use site). Otherwise: `allOf: [target]` in the place of `$ref` (2019-09 and later evaluate `$ref`
 * beside its siblings exactly like that). Fails, naming the keys, for assertions beside `$ref` in an older
 * dialect, where readers disagree on whether they apply.
 */
export function mergeRef(node: Record<string, unknown>, target: unknown, dialect: Dialect): { value: unknown } | { fail: string } {
  const siblings = Object.keys(node).filter((k) => k !== '$ref');
  if (siblings.length === 0) return { value: target };
  const asserting = siblings.filter((k) => !isAnnotation(k) && !DEFINITIONS_KEYWORDS.includes(k) && k !== '$schema' && k !== '$comment');
  if (!isModernDialect(dialect) && asserting.length > 0) return { fail: asserting.map((k) => `\`${k}\``).join(', ') };
  if (target === true) return { value: withoutRef(node) };
  if (isObject(target) && canMerge(siblings, target)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(node)) {
      if (k === '$ref') {
        for (const tk of Object.keys(target)) if (!hasOwn(node, tk)) setOwnKey(out, tk, target[tk]);
      } else setOwnKey(out, k, node[k]);
    }
    return { value: out };
  }
  const out: Record<string, unknown> = {};
  const existing = Array.isArray(node.allOf) ? node.allOf : undefined;
  for (const k of Object.keys(node)) {
    if (k === '$ref') {
      if (!existing) setOwnKey(out, 'allOf', [target]);
    } else if (k === 'allOf' && existing) setOwnKey(out, 'allOf', [...existing, target]);
    else setOwnKey(out, k, node[k]);
  }
  return { value: out };
}

function canMerge(siblings: readonly string[], target: Record<string, unknown>): boolean {
  const targetKeys = Object.keys(target);
  if (targetKeys.some((k) => IDENTITY.includes(k) || DEFINITIONS_KEYWORDS.includes(k))) return false;
  if (siblings.some((k) => IDENTITY.includes(k) && k !== '$schema')) return false;
  for (const k of siblings) if (hasOwn(target, k) && !isAnnotation(k)) return false;
  const side = (keys: readonly string[]) => new Set(keys);
  const a = side(siblings.filter((k) => !DEFINITIONS_KEYWORDS.includes(k)));
  const b = side(targetKeys);
  for (const group of INTERACTING) if (group.some((k) => a.has(k)) && group.some((k) => b.has(k))) return false;
  const assertsOn = (s: Set<string>) => [...s].some((k) => !isAnnotation(k) && k !== '$schema' && k !== '$comment');
  if (UNEVALUATED.some((k) => a.has(k)) && assertsOn(b)) return false;
  if (UNEVALUATED.some((k) => b.has(k)) && assertsOn(a)) return false;
  return true;
}


function withoutRef(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(node)) if (k !== '$ref') setOwnKey(out, k, node[k]);
  return out;
}

