/**
 * The built-in presets: what they hold, how they are tuned, and what they do to every bundled real
 * server (bench/corpus): nothing skipped, no tool removed, renamed or reordered, every schema still
 * compiling, idempotent, deterministic, and the report replays to the output.
 */
import { describe, expect, it } from 'vitest';
import { applyPatch, builtinPresets, dedupeRepeatedSubtrees, lookup, normalizeSchema, presetLossless, presetMax, presetSafe, promoteCommonParams, pruneUnreachableDefs, stripNoise, stripVendorExtensions, transformTools, type Preset } from '../src/index.js';
import { compile } from './helpers/ajv.js';
import { loadCorpus } from './helpers/corpus.js';
import { deepFreeze, jsonClone } from './helpers/freeze.js';

describe('preset contents', () => {
  it('lossless ends with prune-unreachable-defs then normalize-schema', () => {
    expect(presetLossless.steps.slice(-2)).toEqual([pruneUnreachableDefs, normalizeSchema]);
  });
  it('safe is lossless plus strip-noise and strip-vendor-extensions', () => {
    expect(presetSafe.steps).toEqual([...presetLossless.steps, stripNoise, stripVendorExtensions]);
  });
  it('max is safe plus dedupe-repeated-subtrees and promote-common-params', () => {
    expect(presetMax.steps).toEqual([...presetSafe.steps, dedupeRepeatedSubtrees, promoteCommonParams]);
  });
  it('the opt-in transforms stay out of the default preset', () => {
    expect(presetSafe.steps).not.toContain(dedupeRepeatedSubtrees);
    expect(presetSafe.steps).not.toContain(promoteCommonParams);
  });
  it('presets are frozen and found by name', () => {
    for (const p of [presetLossless, presetSafe, presetMax]) {
      expect(Object.isFrozen(p)).toBe(true);
      expect(Object.isFrozen(p.steps)).toBe(true);
      expect(lookup(p.name)).toBe(p);
      expect(builtinPresets).toContain(p);
    }
  });
});

describe('tuning a preset', () => {
  const tools = deepFreeze([
    { name: 't', description: 'Do it.  See https://x.example/docs', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', title: 'T', properties: {} } },
  ]);
  const ran = (result: ReturnType<typeof transformTools>) => result.report.stats.transforms.map((t) => t.name);

  it('runs the safe preset by default', () => {
    expect(ran(transformTools(tools))).toEqual(presetSafe.steps.map((t) => t.name));
  });
  it('leaves a transform out with `false`', () => {
    const result = transformTools(tools, { transforms: [[presetSafe, { overrides: { 'strip-noise': false } }]] });
    expect(ran(result)).toEqual([...presetLossless.steps, stripVendorExtensions].map((t) => t.name));
    expect(result.tools[0]!.description).toBe(tools[0]!.description);
  });
  it('passes options to a transform', () => {
    // Without reconcile-dialect (which rewrites the stamp), normalize-schema drops a `$schema` only when it
    // names the dialect it is told readers assume.
    const noReconcile = { 'reconcile-dialect': false as const };
    const result = transformTools(tools, { transforms: [[presetSafe, { overrides: { ...noReconcile, 'normalize-schema': { assume: 'draft-07' } } }]] });
    expect(result.tools[0]!.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(transformTools(tools, { transforms: [[presetSafe, { overrides: noReconcile }]] }).tools[0]!.inputSchema).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} });
  });
  it('rejects a transform the preset does not hold', () => {
    expect(() => transformTools(tools, { transforms: [[presetSafe, { overrides: { 'promote-common-params': false } }]] })).toThrow(/has no transform `promote-common-params`/);
  });
  it('rejects an unknown option', () => {
    expect(() => transformTools(tools, { transforms: [[presetSafe, { overrides: { 'strip-noise': { link: false } } }]] })).toThrow(/unknown option `link`/);
  });
  it('rejects an option of the preset itself other than `overrides`, by name or object', () => {
    // A transform's options put where the preset's go would otherwise be accepted and change nothing.
    expect(() => transformTools(tools, { transforms: [['max', { bogus: 1 }]] })).toThrow('preset max: unknown option `bogus` (known: overrides');
    expect(() => transformTools(tools, { transforms: [[presetMax, { 'promote-common-params': { minTools: 2 } } as never]] })).toThrow(/preset max: unknown option `promote-common-params`/);
    expect(() => transformTools(tools, { transforms: [['safe', { overrides: { 'strip-noise': true } }]] })).toThrow(/override `strip-noise` must be false \(leave it out\) or an options object, not boolean/);
    expect(() => transformTools(tools, { transforms: [['safe', { overrides: [] }]] })).toThrow(/`overrides` must be an object/);
    expect(() => transformTools(tools, { transforms: [['safe', { overrides: { 'strip-noise': false } }]] })).not.toThrow();
  });
});

const corpus = loadCorpus();

describe.each([presetLossless, presetSafe, presetMax].map((p) => [p.name, p] as const))('the %s preset over bench/corpus', (_name, preset: Preset) => {
  it.each(corpus.map((c) => [c.file, c] as const))('%s', (_file, c) => {
    const input = deepFreeze(jsonClone(c.data.toolsList.tools));
    const result = transformTools(input, { transforms: [preset] });
    expect(result.report.skipped).toEqual([]);
    // Tools are never removed, merged, renamed or reordered, and every tool keeps its inputSchema.
    expect(result.tools.map((t) => t.name)).toEqual(input.map((t) => t.name));
    for (const [i, t] of result.tools.entries()) expect('inputSchema' in t, `tool ${i}`).toBe('inputSchema' in input[i]!);
    // Deterministic, idempotent, and the report is the patch from input to output.
    expect(JSON.stringify(transformTools(input, { transforms: [preset] }).tools)).toBe(JSON.stringify(result.tools));
    expect(transformTools(result.tools, { transforms: [preset] }).report.changes).toEqual([]);
    expect(applyPatch(input, result.report.changes)).toEqual(result.tools);
    // Every rewritten schema that ajv could compile still compiles. (Compiling is the slow part: the
    // lossless preset rewrites schemas exactly as safe does, strip-noise only touching descriptions, so
    // safe and max are compiled.)
    if (preset === presetLossless) return;
    for (const [i, t] of result.tools.entries()) {
      for (const slot of ['inputSchema', 'outputSchema'] as const) {
        const before = (input[i] as Record<string, unknown>)[slot];
        const after = (t as Record<string, unknown>)[slot];
        if (before === after || after === undefined) continue;
        if (originalCompiles(c.file, i, slot, before)) expect(() => compile(after), `${t.name} ${slot}`).not.toThrow();
      }
    }
  });
});

const compiledOriginals = new Map<string, boolean>();

/** Whether ajv compiles a corpus schema as captured (cached across presets). */
function originalCompiles(file: string, index: number, slot: string, schema: unknown): boolean {
  const key = `${file}\u0000${index}\u0000${slot}`;
  let ok = compiledOriginals.get(key);
  if (ok === undefined) {
    try {
      compile(schema);
      ok = true;
    } catch {
      ok = false;
    }
    compiledOriginals.set(key, ok);
  }
  return ok;
}
