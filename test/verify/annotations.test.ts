/**
 * The cheap path of the gate's "a lossless rewrite writes no annotation" check (`annotationsKept`, which
 * skips what a rewrite shares with its original) against the full check (`firstWrittenAnnotation`, every
 * annotation of the rewrite looked up in the original's whole set): wherever the cheap path says "kept",
 * the full check must find nothing written. Pairs: every version the `safe` and `max` steps make of the
 * bench corpus and of the fuzz harness's tools (against the original and the version before), and the
 * same with an annotation rewritten, added or moved by hand, which the cheap path must not let through.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { presetMax, presetSafe, type McpTool } from '../../src/index.js';
import { annotationsKept, AnnotationSets, firstWrittenAnnotation, noAnnotationWritten } from '../../src/verify/annotations.js';
import { loadCorpus } from '../helpers/corpus.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';
import { fuzzToolsArb } from '../helpers/fuzz-arbitraries.js';
import { objectsOf, schemaVersions } from '../helpers/histories.js';

type Schema = Record<string, unknown>;

interface Tally {
  kept: number;
  written: number;
  notShown: number;
}

function check(a: unknown, b: unknown, tally: Tally, where: string): void {
  const sets = new AnnotationSets();
  const full = firstWrittenAnnotation(a, b, sets);
  const kept = annotationsKept(a, b, () => sets.of(a).values);
  if (kept) {
    tally.kept++;
    expect(full, `${where}: the cheap path says kept, the full check finds ${JSON.stringify(full)}\nbefore: ${JSON.stringify(a)}\nafter: ${JSON.stringify(b)}`).toBeUndefined();
  } else if (full) tally.written++;
  else tally.notShown++;
  // Whatever path decides, the gate's answer is the full check's.
  expect(noAnnotationWritten(a, b, new AnnotationSets())).toEqual(full);
}

/** The rewrite with one annotation edited: every schema object of `b` in turn gets `edit`. */
function edited(b: unknown, pick: number, edit: (node: Schema) => void): unknown {
  const copy = jsonClone(b);
  const nodes = objectsOf(copy);
  if (nodes.length > 0) edit(nodes[pick % nodes.length]!);
  return copy;
}

const EDITS: readonly ((node: Schema) => void)[] = [
  (n) => (n.description = 'Something nobody wrote'),
  (n) => (n.title = typeof n.title === 'string' ? n.title + '!' : 'New title'),
  (n) => (n.default = { made: 'up' }),
  (n) => (n.examples = [...(Array.isArray(n.examples) ? n.examples : []), 'extra']),
  (n) => (n.$comment = 'new comment'),
  (n) => (n.deprecated = true),
];

function checkAll(tools: readonly McpTool[], tally: Tally, where: string, s: number, withMax: boolean): void {
  for (const steps of withMax ? [[presetSafe], [presetMax]] : [[presetSafe]]) {
    schemaVersions(tools, steps).forEach((list, i) => {
      for (let k = 1; k < list.length; k++) {
        check(list[k - 1], list[k], tally, `${where} tool ${i} step to ${k}`);
        check(list[0], list[k], tally, `${where} tool ${i} version ${k}`);
        check(list[0], edited(list[k], s + k, EDITS[(s + k) % EDITS.length]!), tally, `${where} tool ${i} version ${k}, edited`);
      }
    });
  }
}

describe('annotationsKept against the full check', () => {
  it('bench corpus, every version of safe and max, and each with an annotation edited', { timeout: 120_000 }, () => {
    const tally: Tally = { kept: 0, written: 0, notShown: 0 };
    // `max` (a superset of the default steps) on every third server, to keep the suite's time.
    loadCorpus().forEach(({ file, data }, s) => checkAll(deepFreeze(data.toolsList.tools) as McpTool[], tally, file, s, s % 3 === 1));
    expect(tally.kept).toBeGreaterThan(1000);
    expect(tally.written).toBeGreaterThan(100);
  });

  it('fuzz harness tools (seeded)', { timeout: 120_000 }, () => {
    const tally: Tally = { kept: 0, written: 0, notShown: 0 };
    fc.sample(fuzzToolsArb(), { seed: 20261213, numRuns: 200 }).forEach((tools, s) => checkAll(deepFreeze(tools) as McpTool[], tally, `fuzz sample ${s}`, s, s % 2 === 0));
    expect(tally.kept).toBeGreaterThan(100);
    expect(tally.written).toBeGreaterThan(50);
  });

  it('hand cases: a moved annotation is kept, an edited or new one is not, a shared subtree is skipped', () => {
    const a = { type: 'object', description: 'Top', properties: { p: { type: 'string', description: 'P' }, q: { $ref: '#/$defs/Q' } }, $defs: { Q: { title: 'Q', type: 'integer' } } };
    // Moved into a definition: found in the original's set.
    const moved = { type: 'object', description: 'Top', properties: { p: { $ref: '#/$defs/P' }, q: { $ref: '#/$defs/Q' } }, $defs: { P: { type: 'string', description: 'P' }, Q: a.$defs.Q } };
    expect(annotationsKept(a, moved, () => new AnnotationSets().of(a).values)).toBe(true);
    expect(firstWrittenAnnotation(a, moved, new AnnotationSets())).toBeUndefined();
    const reworded = { ...a, properties: { ...a.properties, p: { type: 'string', description: 'Not P' } } };
    expect(annotationsKept(a, reworded, () => new AnnotationSets().of(a).values)).toBe(false);
    expect(noAnnotationWritten(a, reworded, new AnnotationSets())).toEqual({ path: '/properties/p/description', message: 'a lossless rewrite wrote an annotation the original does not have: `description` at `/properties/p/description`' });
    // A shared subtree is not walked: `have` is never built when nothing else changed.
    let built = false;
    const shared = { ...a, required: ['p'] };
    expect(
      annotationsKept(a, shared, () => {
        built = true;
        return new Set<string>();
      }),
    ).toBe(true);
    expect(built).toBe(false);
  });
});
