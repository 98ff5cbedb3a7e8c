/**
 * `exampleChanges` (core/context.ts) makes one recorded change of every shape a context records, so that the
 * process keeps each shape's hidden class (and the optimised code of every function reading changes) alive
 * between runs (json/shapes.ts). A shape it misses is not an error, only a recompilation after each full GC,
 * so what can go wrong is silent: a new kind of change, or an old one in a form the examples never make. The
 * oracle here is what real runs record: every change each step's context records, in every built-in pipeline
 * over both bench sets (each step wrapped to read its context's changes), reduced to its list of keys, must be
 * a list the examples make.
 */
import { describe, expect, it } from 'vitest';
import { builtinPresets, defineTransform, presetForProfile, resolveSteps, transformTools, type AnyTransform, type TransformResult, type TransformStepInput } from '../../src/index.js';
import { exampleRuns } from '../../src/api.js';
import { exampleChanges } from '../../src/core/context.js';
import { CORPUS_DIR, loadCorpus, VALIDATION_DIR } from '../helpers/corpus.js';

const shapeOf = (change: object): string => Object.keys(change).join(',');

/** `steps` with each transform wrapped to hand `seen` the shape of every change its context recorded, and where. */
function recording(steps: readonly TransformStepInput[], seen: Map<string, string>, where: string): TransformStepInput[] {
  return resolveSteps(steps).map(([t, options]) => {
    const wrapped = defineTransform({
      ...(t as unknown as Parameters<typeof defineTransform>[0]),
      name: t.name,
      apply(doc, ctx, o) {
        (t as AnyTransform).apply(doc, ctx, o);
        for (const c of ctx.changes) if (!seen.has(shapeOf(c))) seen.set(shapeOf(c), `${t.name} ${c.op} in ${where}`);
      },
    });
    return [wrapped, options] as TransformStepInput;
  });
}

describe('exampleChanges', () => {
  const examples = new Set(exampleChanges().map(shapeOf));

  it('makes each of the nine shapes, written out by hand', () => {
    expect([...examples].sort()).toEqual(
      [
        'op,path,value,code,message',
        'op,path,value,index,code,message',
        'op,path,oldValue,code,message',
        'op,path,oldValue,index,code,message',
        'op,path,value,oldValue,code,message',
        'op,from,path,code,message',
        'op,from,path,index,code,message',
        'op,from,path,fromIndex,code,message',
        'op,from,path,index,fromIndex,code,message',
      ].sort(),
    );
  });

  it('gives value and oldValue values of every JSON kind in each shape that has them', () => {
    const kinds = new Map<string, Set<string>>();
    for (const c of exampleChanges() as unknown as readonly Record<string, unknown>[]) {
      for (const field of ['value', 'oldValue']) {
        if (!(field in c)) continue;
        const v = c[field];
        const kind = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'double') : typeof v;
        const key = `${shapeOf(c)}:${field}`;
        kinds.set(key, (kinds.get(key) ?? new Set()).add(kind));
      }
    }
    expect(kinds.size).toBe(6);
    for (const [key, seen] of kinds) expect([key, [...seen].sort()]).toEqual([key, ['array', 'boolean', 'double', 'integer', 'null', 'object', 'string']]);
  });

  it('covers every shape the built-in pipelines record over both bench sets', () => {
    const pipelines: TransformStepInput[][] = [...builtinPresets.map((p) => [p]), presetForProfile('safe', 'openai'), presetForProfile('max', 'gemini')];
    const seen = new Map<string, string>();
    for (const dir of [CORPUS_DIR, VALIDATION_DIR]) {
      for (const file of loadCorpus(dir)) {
        for (const transforms of pipelines) {
          transformTools(file.data.toolsList.tools, { transforms: recording(transforms, seen, file.file), verify: false, measure: false });
        }
      }
    }
    // Real runs record several shapes (a sanity check of the oracle), and each one is an example's.
    expect(seen.size).toBeGreaterThanOrEqual(5);
    for (const [shape, where] of seen) expect([shape, where, examples.has(shape)]).toEqual([shape, where, true]);
  });
});

/**
 * The report's other objects (findings, skips, per-tool sizes, per-step stats, the stats themselves) are kept
 * alive the same way, by the report of two example runs made on the first call (api.ts). The oracle is again
 * what real runs make: the default call, and the default steps with the gate off, over both bench sets.
 */
describe('exampleRuns', () => {
  const shapesOf = (r: TransformResult): Map<string, string> => {
    const out = new Map<string, string>();
    const add = (what: string, objects: readonly object[]) => {
      for (const o of objects) out.set(`${what}: ${shapeOf(o)}`, what);
    };
    add('change', r.report.changes);
    add('diagnostic', r.report.diagnostics);
    add('skip', r.report.skipped);
    add('tool stats', r.report.stats.tools);
    add('size', r.report.stats.tools.flatMap((t) => [t.before, t.after]));
    add('step stats', r.report.stats.transforms);
    add('stats', [r.report.stats, r.report.stats.before, ...(r.report.stats.verify ? [r.report.stats.verify] : [])]);
    add('report', [r.report]);
    add('result', [r]);
    return out;
  };
  const examples = new Set(exampleRuns().flatMap((r) => [...shapesOf(r).keys()]));

  it('find something of every kind: a change and a finding for the default steps, a skip, the gate', () => {
    const [gated, off] = exampleRuns();
    const steps = new Set(gated!.report.changes.map((c) => c.transform));
    expect([...steps].sort()).toEqual(['normalize-schema', 'prune-unreachable-defs', 'reconcile-dialect', 'strip-noise', 'strip-vendor-extensions']);
    expect(gated!.report.diagnostics.map((d) => d.transform)).toEqual(expect.arrayContaining(['input', 'reconcile-dialect', 'strip-noise']));
    expect(gated!.report.skipped).toHaveLength(1);
    expect(gated!.report.stats.verify?.tools).toBeGreaterThan(0);
    expect(off!.report.stats.verify).toBeUndefined();
  });

  it('cover every report shape the default call and the gate-off steps make over both bench sets', () => {
    const seen = new Map<string, string>();
    for (const dir of [CORPUS_DIR, VALIDATION_DIR]) {
      for (const file of loadCorpus(dir)) {
        for (const options of [{}, { verify: false as const }]) {
          for (const [shape] of shapesOf(transformTools(file.data.toolsList.tools, options))) if (!seen.has(shape)) seen.set(shape, file.file);
        }
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(12);
    for (const [shape, where] of seen) expect([shape, where, examples.has(shape)]).toEqual([shape, where, true]);
  });
});
