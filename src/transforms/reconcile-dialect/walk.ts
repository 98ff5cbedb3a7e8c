/**
 * The walk over one document's source: top down, each schema object rewritten by the conversions at the
 * place its ancestors' rewrites left it, and every location's move recorded (`job.map`) so that the
 * references can follow afterwards.
 */
import { hasOwn, isObject } from '../../json/guards.js';
import { appendPointer } from '../../json/pointer.js';
import { dialectFromUri } from '../../schema/dialect.js';
import { UNION_KEYWORDS } from '../../schema/keywords.js';
import { CONVERSIONS } from './conversions/index.js';
import type { Job, KeyMoves } from './job.js';
import { writeStamp } from './stamp.js';

/** Walks the source top-down, rewriting each schema object at the place its ancestors' rewrites left it. */
export function walkAndConvert(schema: Record<string, unknown>, job: Job): void {
  // The conversions that run for this source and target, in their order.
  const scope = { source: job.source, target: job.target, openapi: job.openapi, foreign: job.pair.foreign, unconvertible: job.pair.unconvertible };
  // A loop, not a closure: a closure made per call is compiled again after every full GC (src/json/shapes.ts).
  const conversions: (typeof CONVERSIONS)[number][] = [];
  for (const c of CONVERSIONS) if (c.runs(scope)) conversions.push(c);
  const stack: [node: unknown, orig: string, cur: string][] = [[schema, '', '']];
  // One pair of maps for the walk, emptied before each object's conversions: they record that object's moves
  // and are read before the next object's. Two maps made for every schema object walked cost reconcile-dialect
  // 3–8% of its time on the largest OpenAPI-generated server of bench/validation, where nearly every object is
  // walked and few move (bench/ab-cpu.mjs, both orders).
  const moves: KeyMoves = { keys: new Map(), entries: new Map() };
  while (stack.length > 0) {
    const [node, orig, cur] = stack.pop()!;
    if (orig !== cur) job.map.set(orig, cur);
    if (!isObject(node)) continue;
    const editsBefore = job.ctx.changes.length;
    if (orig !== '' && hasOwn(node, '$schema')) {
      const inner = dialectFromUri(node.$schema);
      if (inner !== job.source) {
        job.ctx.report('info', 'embedded-dialect', job.base + orig + '/$schema', { uri: String(node.$schema), dialect: job.source });
        continue;
      }
      writeStamp(node, cur, job, false);
    }
    // Preorder: nothing has edited this node or below it yet, so the working copy holds this very object.
    if (job.ctx.changes.length === editsBefore) job.seen = { cur, edits: editsBefore, node };
    if (moves.keys.size > 0) moves.keys.clear();
    if (moves.entries.size > 0) moves.entries.clear();
    // Each conversion rewrites this object's own keywords (never its children's).
    for (const c of conversions) c.convert(node, orig, cur, job, moves);
    const children: [unknown, string, string][] = [];
    for (const key of Object.keys(node)) {
      const moved = moves.keys.get(key);
      const info = UNION_KEYWORDS.get(key);
      const opaque = !info || info.shape === 'opaque';
      // Data that stayed where it was: no pointer to build, nothing to map.
      if (opaque && moved === undefined && orig === cur) continue;
      const origKey = appendPointer(orig, key);
      const curKey = moved === undefined ? appendPointer(cur, key) : moved;
      if (curKey !== origKey) job.map.set(origKey, curKey);
      if (!info || opaque) continue;
      const value = node[key];
      const entryMoves = moves.entries.get(key);
      if (curKey === null && entryMoves === undefined) continue;
      const entryAt = (entry: string | number) => entryMoves?.get(String(entry)) ?? appendPointer(curKey ?? '', entry);
      if (Array.isArray(value)) {
        if (info.shape === 'schemaArray' || info.shape === 'schemaOrArray') for (let i = 0; i < value.length; i++) children.push([value[i], appendPointer(origKey, i), entryAt(i)]);
      } else if (info.shape === 'schema' || info.shape === 'schemaOrArray') {
        if (curKey !== null) children.push([value, origKey, curKey]);
      } else if ((info.shape === 'schemaMap' || info.shape === 'schemaOrStrings') && isObject(value)) {
        for (const k of Object.keys(value)) {
          const v = value[k];
          const entryOrig = appendPointer(origKey, k);
          if (Array.isArray(v)) {
            const to = entryAt(k);
            if (to !== entryOrig) job.map.set(entryOrig, to);
          } else children.push([v, entryOrig, entryAt(k)]);
        }
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}
