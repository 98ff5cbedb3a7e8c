/**
 * nullable (any source): OpenAPI 3.0's `nullable`, which no JSON Schema dialect knows, becomes `"null"` in
 * `type` where it allows something (OpenAPI 3.0.3's reading, and ajv's), and is removed where it has no
 * effect.
 */
import { hasOwn, isObject } from '../../../json/guards.js';
import type { Dialect } from '../../../schema/keywords.js';
import { findReadableSites, splitNullableType } from '../../../schema/readable-types.js';
import { at, current, removeKey, type Job, type KeyMoves } from '../job.js';
import type { Conversion } from '../rule.js';

export const nullable: Conversion = {
  id: 'nullable',
  codes: ['converted-nullable', 'inert-nullable', 'removed-nullable'],
  runs: () => true,
  keywords: () => ['nullable'],
  convert(_node, _orig, cur, job, moves) {
    if (hasOwn(current(job, cur), 'nullable')) convertNullable(cur, job, moves);
  },
};

/**
 * OpenAPI 3.0.3 `nullable: true`: "A true value adds `"null"` to the allowed types specified by the type
 * keyword, only if type is explicitly defined within the same Schema Object. Other Schema Object
 * constraints retain their defined behavior, and therefore may disallow the use of null as a value." So
 * `"null"` joins `type`; `enum`, `const`, `$ref` and the rest keep rejecting `null` where they did (ajv's
 * `nullable` reads it the same way); without `type` it has no effect.
 */
function convertNullable(cur: string, job: Job, moves: KeyMoves): void {
  const node = current(job, cur);
  const flag = node.nullable;
  if (flag !== true) {
    removeKey(job, cur, 'nullable', moves, 'removed-nullable', { value: JSON.stringify(flag) });
    return;
  }
  const type = node.type;
  if (!hasOwn(node, 'type') || !(typeof type === 'string' || (Array.isArray(type) && type.every((t) => typeof t === 'string')))) {
    removeKey(job, cur, 'nullable', moves, 'inert-nullable');
    return;
  }
  const list = typeof type === 'string' ? [type] : type;
  if (list.includes('null')) {
    removeKey(job, cur, 'nullable', moves, 'converted-nullable', { how: 'nothing: `type` already allowed `null`' });
    return;
  }
  const how = '`"null"` in `type`';
  job.ctx.replace(at(job, cur, 'type'), [...list, 'null'], 'converted-nullable', { how });
  removeKey(job, cur, 'nullable', moves, 'converted-nullable', { how });
  // An object or array with properties/items read `{ … } | null` / `T[] | null` by a typescript reader
  // (harmony adds ` | null` for `nullable`), but `["object", "null"]` reads `object | null`: once the walk
  // is done, such a node becomes a `oneOf` of the typed branch and null instead (splitNullables), which
  // that reader shows as before.
  if (list.length === 1 && (list[0] === 'object' || list[0] === 'array')) (job.nullableSplits ??= []).push(cur);
}

/**
 * Rewrites each node the `nullable` conversion marked as `splitNullableType` does (schema/readable-types.ts
 * holds why it keeps every verdict), where the document's conditions allow it (`findReadableSites`: no
 * reference lands in what moves, no `unevaluated*`), innermost first. Run after the walk and the reference
 * rewrites, on the document as it then is, in the dialect it is written in.
 */
export function splitNullables(job: Job, dialect: Dialect): void {
  const marked = job.nullableSplits;
  if (marked === undefined || marked.length === 0) return;
  const wanted = new Set(marked);
  for (const site of findReadableSites(job.ctx.get(job.base), dialect, ['nullable-split'])) {
    if (!wanted.has(site.path)) continue;
    const holder = job.ctx.get(job.base + site.path);
    if (!isObject(holder)) continue;
    const result = splitNullableType(holder, dialect);
    const t = (holder.type as string[]).find((x) => x !== 'null');
    const how = `a \`oneOf\` of \`{"type": "${t}", …}\` and \`{"type": ["null"]}\` (a TypeScript reader reads \`["${t}", "null"]\` as \`${t} | null\`, what it holds hidden)`;
    if (result.ok) job.ctx.replace(job.base + site.path, result.schema, 'converted-nullable', { how });
  }
}
