/**
 * CopyOnWrite starts each edit's walk where its path leaves the last one (json/cow.ts, `#chain`): the containers
 * the two paths share are taken as owned and in place. What can go wrong is an edit that lands in a stale
 * container (one replaced, renamed away, rolled back or copied by a checkpoint since), so that the working copy
 * loses it, or in a container the input shares, so that the input changes. The oracle is a plain mutable
 * document (a deep copy) edited with JavaScript's own operations and snapshots for the transactions; after every
 * operation of fast-check sequences (fixed seed) the context's working copy must read as the oracle does, key
 * order included, and the frozen input must be as it was; at the end the recorded changes, replayed on the input
 * and inverted on the result, must give the working copy and the input again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPatch, EditContext, invertPatch } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const CODES = { e: 'edited' };

const key = fc.constantFrom('a', 'b', 'c', '1', 'x/y', 't~');
const leaf = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('s', 'é'), fc.constant(null), fc.boolean());
const doc = fc.letrec<{ node: Json }>((tie) => ({
  node: fc.oneof({ maxDepth: 4, depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
})).node;
const op = fc.record({
  kind: fc.constantFrom('remove', 'replace', 'replace-container', 'add', 'rename', 'move', 'begin', 'commit', 'rollback'),
  a: fc.nat(),
  b: fc.nat(),
  k: key,
  v: leaf,
});

const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
const unesc = (t: string) => t.replace(/~1/g, '/').replace(/~0/g, '~');
const tokensOf = (path: string) => (path === '' ? [] : path.slice(1).split('/').map(unesc));

/** Every pointer in `root` (containers and leaves), document order. */
function pointers(root: Json, path = '', out: { path: string; container: boolean; array: boolean }[] = []) {
  const container = typeof root === 'object' && root !== null;
  out.push({ path, container, array: Array.isArray(root) });
  if (container) for (const k of Object.keys(root)) pointers((root as Record<string, Json>)[k]!, path + '/' + esc(k), out);
  return out;
}

/** The oracle's edits: plain mutation of a plain document. */
function parentOf(root: Json, path: string): [Record<string, Json> | Json[], string] {
  const tokens = tokensOf(path);
  let cur = root as Record<string, Json> | Json[];
  for (const t of tokens.slice(0, -1)) cur = (cur as Record<string, Json>)[t] as Record<string, Json> | Json[];
  return [cur, tokens[tokens.length - 1]!];
}
function take(root: Json, path: string): Json {
  const [p, k] = parentOf(root, path);
  if (Array.isArray(p)) return p.splice(Number(k), 1)[0]!;
  const v = p[k]!;
  const rest = Object.entries(p).filter(([kk]) => kk !== k);
  for (const kk of Object.keys(p)) delete p[kk];
  for (const [kk, vv] of rest) p[kk] = vv;
  return v;
}
function put(root: Json, path: string, value: Json, replace: boolean): void {
  const [p, k] = parentOf(root, path);
  if (Array.isArray(p)) {
    if (replace) p[Number(k)] = value;
    else p.splice(k === '-' ? p.length : Number(k), 0, value);
  } else p[k] = value;
}
function rename(root: Json, path: string, to: string): void {
  const [p, k] = parentOf(root, path);
  const entries = Object.entries(p as Record<string, Json>).map(([kk, vv]) => [kk === k ? to : kk, vv] as const);
  for (const kk of Object.keys(p)) delete (p as Record<string, Json>)[kk];
  for (const [kk, vv] of entries) (p as Record<string, Json>)[kk] = vv;
}

describe('copy-on-write: each walk starts where the last path leaves off', () => {
  it('edits land where a plain mutable document says, through transactions, and the input never changes', () => {
    let applied = 0;
    fc.assert(
      fc.property(fc.dictionary(key, doc, { minKeys: 1, maxKeys: 4 }), fc.array(op, { maxLength: 14 }), (input, ops) => {
        const frozen = deepFreeze(structuredClone(input));
        const before = JSON.stringify(frozen);
        const ctx = new EditContext(frozen, CODES);
        let oracle: Json = structuredClone(input);
        // Open transactions: each holds the edits made inside it, run (as EditContext.transaction runs them)
        // when it ends; the oracle snapshots itself when the transaction runs and goes back to it on a rollback.
        const levels: (() => void)[][] = [];
        const now = (f: () => void) => (levels.length === 0 ? f() : levels[levels.length - 1]!.push(f));
        for (const o of ops) {
          if (o.kind === 'begin') {
            levels.push([]);
            continue;
          }
          if (o.kind === 'commit' || o.kind === 'rollback') {
            const level = levels.pop();
            if (level === undefined) continue;
            const keep = o.kind === 'commit';
            now(() => {
              const snapshot = structuredClone(oracle);
              ctx.transaction(() => {
                for (const f of level) f();
                return keep;
              });
              if (!keep) oracle = snapshot;
            });
          } else {
            // Chosen from the document as it is now; an edit inside a transaction runs later, and may find its
            // path gone by then: the context refuses it before changing anything, and the oracle skips it too.
            const all = pointers(oracle);
            const at = all[o.a % all.length]!;
            const containers = all.filter((p) => p.container);
            const into = containers[o.b % containers.length];
            // (The root replaced by a value that is no container: nothing to add to or move into.)
            if (into === undefined && (o.kind === 'add' || o.kind === 'move')) continue;
            const deferred = levels.length > 0;
            now(() => {
              try {
                if (edit(ctx, oracle, o, at.path, into!)) applied++;
                if (o.kind === 'replace' || o.kind === 'replace-container') if (at.path === '') oracle = structuredClone(ctx.root as Json);
              } catch (e) {
                // Refused: now, only an edit the oracle also says is impossible (an existing key, a move into itself).
                if (!deferred && !impossible(oracle, o, at.path, into!)) throw e;
              }
            });
          }
          if (levels.length === 0) expect(JSON.stringify(ctx.root)).toBe(JSON.stringify(oracle));
        }
        expect(JSON.stringify(frozen)).toBe(before);
        // The recorded changes say the same: replayed on the input they make the working copy, and inverted
        // (each removed member put back at its recorded position) they make the input again, key order included.
        expect(JSON.stringify(applyPatch(frozen, ctx.changes))).toBe(JSON.stringify(ctx.root));
        expect(JSON.stringify(applyPatch(ctx.root, invertPatch(ctx.changes)))).toBe(before);
      }),
      { seed: 20261206, numRuns: 600 },
    );
    expect(applied).toBeGreaterThan(1000);
  });
});

/** One edit on both sides (the context first: when it refuses, the oracle is left as it is); false when skipped. */
function edit(ctx: EditContext, oracle: Json, o: { kind: string; k: string; v: Json }, at: string, into: { path: string; array: boolean }): boolean {
  if (o.kind === 'remove' && at !== '') {
    ctx.remove(at, 'e');
    take(oracle, at);
  } else if (o.kind === 'replace' || o.kind === 'replace-container') {
    const value: Json = o.kind === 'replace' ? o.v : { k: [o.v, { n: o.v }] };
    ctx.replace(at, value, 'e');
    if (at !== '') put(oracle, at, structuredClone(value), true);
  } else if (o.kind === 'add') {
    const path = into.path + '/' + (into.array ? '-' : esc(o.k));
    ctx.add(path, o.v, 'e');
    put(oracle, path, o.v, false);
  } else if (o.kind === 'rename' && at !== '') {
    ctx.rename(at, o.k, 'e');
    rename(oracle, at, o.k);
  } else if (o.kind === 'move' && at !== '') {
    const to = into.path + '/' + (into.array ? '0' : 'm');
    ctx.move(at, to, 'e');
    put(oracle, to, take(oracle, at), false);
  } else return false;
  return true;
}

/** Whether the context must refuse the edit (see {@link edit}), by the oracle's reading. */
function impossible(oracle: Json, o: { kind: string; k: string }, at: string, into: { path: string; array: boolean }): boolean {
  const has = (path: string, k: string) => Object.prototype.hasOwnProperty.call(parentValue(oracle, path), k);
  if (o.kind === 'add') return !into.array && has(into.path, o.k);
  if (o.kind === 'rename') {
    const parent = at.slice(0, at.lastIndexOf('/'));
    return Array.isArray(parentValue(oracle, parent)) || has(parent, o.k);
  }
  if (o.kind === 'move') {
    // RFC 6902: the destination is read after the removal (an array shifts), so try it on a copy.
    const to = into.path + '/' + (into.array ? '0' : 'm');
    if (to === at || to.startsWith(at + '/')) return true;
    try {
      const trial = structuredClone(oracle);
      take(trial, at);
      const [p, k] = parentOf(trial, to);
      return typeof p !== 'object' || p === null || (Array.isArray(p) ? Number(k) > p.length : Object.prototype.hasOwnProperty.call(p, k));
    } catch {
      return true;
    }
  }
  return false;
}

function parentValue(root: Json, path: string): Json {
  let cur = root;
  for (const t of tokensOf(path)) cur = (cur as Record<string, Json>)[t]!;
  return cur;
}
