/**
 * ref-siblings (a draft-04/06/07 or OpenAPI 3.0 source, a 2020-12 target): those dialects ignore every
 * keyword beside `$ref`, 2020-12 applies them. A sibling that can change a verdict is dropped, unless the
 * `$ref` target says the same, a `$ref` points into it (the tool is left unchanged), or it is the root's
 * `type: "object"` or identifier; with `refSiblings: apply` they are kept and reported.
 */
import { jsonEqual } from '../../../json/equal.js';
import { hasOwn, isObject } from '../../../json/guards.js';
import { appendPointer, getAt, parsePointer } from '../../../json/pointer.js';
import { isLegacyDialect, keywordFit } from '../../../schema/dialect.js';
import { idKeyword } from '../../../schema/refs.js';
import { usedAsAnchor } from '../anchors.js';
import { affectsVerdicts, at, current, isTargetedLive, removeKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const refSiblings: Conversion = {
  id: 'ref-siblings',
  codes: ['dropped-ref-sibling', 'ref-sibling-applies', 'referenced-ref-sibling', 'kept-root-id', 'kept-root-type'],
  runs: (s) => isLegacyDialect(s.source) && !isLegacyDialect(s.target),
  keywords: () => ['$ref'],
  convert(node, orig, cur, job, moves) {
    if (typeof node.$ref === 'string' && hasOwn(node, '$ref')) dropRefSiblings(orig, cur, job, moves);
  },
};

/** Draft-04/06/07 and OpenAPI 3.0 ignore every keyword beside `$ref`; 2020-12 applies them. */
function dropRefSiblings(orig: string, cur: string, job: Job, moves: KeyMoves): void {
  const node = current(job, cur);
  const targetPath = job.refTargetOf.get(orig);
  const target = targetPath === undefined ? undefined : getAt(job.schema, parsePointer(targetPath));
  for (const key of Object.keys(node)) {
    if (key === '$ref' || key === '$schema') continue;
    // The source's identifier (`$id` in draft-04 is no keyword at all: dropForeignId handles it).
    const isId = key === idKeyword(job.source) && job.source !== 'openapi-3.0' && typeof node[key] === 'string';
    if (isId && usedAsAnchor(job, node[key] as string)) continue; // a `$ref` lands here by it: converted to `$anchor` below
    if (!isId && !affectsVerdicts(job.source, key) && !affectsVerdicts(job.target, key)) continue;
    // The target says the same thing itself, and will still say it after this pass: applying it twice
    // changes nothing.
    if (!isId && saysTheSame(job, target, node, key)) continue;
    const data = { keyword: key, dialect: job.source, target: job.target };
    if (isId && orig === '' && !String(node[key]).startsWith('#')) {
      // The root's identifier names the document: its local references resolve against it in either
      // reading, and relative ones (`item.json`) need it to stay external rather than undecidable.
      job.ctx.report('info', 'kept-root-id', at(job, orig, key), data);
      continue;
    }
    if (orig === '' && key === 'type' && node.type === 'object') {
      // MCP requires `type: "object"` at the root, and tool arguments and structured results are objects.
      job.ctx.report('info', 'kept-root-type', at(job, orig, key), data);
      continue;
    }
    if (job.options.refSiblings === 'apply') job.ctx.report('info', 'ref-sibling-applies', at(job, orig, key), data);
    else if (isTargetedLive(job, appendPointer(orig, key))) {
      // Dropping it would break the `$ref` that points into it, and keeping it would make it apply.
      job.unconvertible++;
      job.ctx.report('error', 'referenced-ref-sibling', at(job, orig, key), data);
    } else removeKey(job, cur, key, moves, 'dropped-ref-sibling', data);
  }
}

/**
 * Keywords rewritten together: a sibling of `$ref` is only "said by the target" when the target holds the
 * whole group the same way (`type` with `nullable`, a bound with its draft-04 boolean exclusive flag, a
 * tuple with `additionalItems`), so the conversions this pass makes to the group give both the same result.
 */
const SIBLING_GROUPS: Readonly<Record<string, readonly string[]>> = {
  type: ['type', 'nullable'],
  nullable: ['type', 'nullable'],
  minimum: ['minimum', 'exclusiveMinimum'],
  exclusiveMinimum: ['minimum', 'exclusiveMinimum'],
  maximum: ['maximum', 'exclusiveMaximum'],
  exclusiveMaximum: ['maximum', 'exclusiveMaximum'],
  items: ['items', 'additionalItems'],
  additionalItems: ['items', 'additionalItems'],
};

/**
 * True when the `$ref` target of a draft-04/06/07 schema says `key` exactly as its referrer does, as the
 * target will read after this pass: a target that is itself a `$ref` says nothing besides it (its own
 * siblings are ignored by the source and dropped here), and a keyword the source does not know (dropped
 * as foreign) is not said either.
 */
function saysTheSame(job: Job, target: unknown, node: Record<string, unknown>, key: string): boolean {
  if (!isObject(target) || (typeof target.$ref === 'string' && hasOwn(target, '$ref'))) return false;
  if (hasOwn(target, '$schema')) return false;
  for (const k of SIBLING_GROUPS[key] ?? [key]) {
    const inNode = hasOwn(node, k);
    if (inNode !== hasOwn(target, k)) return false;
    if (!inNode) continue;
    if (!jsonEqual(node[k], target[k])) return false;
    if (k !== 'nullable' && keywordFit(job.source, k, node[k]) !== 'fits') return false;
  }
  return true;
}
