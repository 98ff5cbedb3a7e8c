/**
 * The seeded fuzz harness (issue 12): generated tool lists in every dialect, with the cross-dialect mixes
 * the attack found (see helpers/fuzz-arbitraries.ts), through every preset and every profile pipeline
 * with `verify: false`. For every run:
 * - every output schema whose input ajv compiles in its dialect compiles too (2020-12 and unstamped by
 *   Ajv2020, 2019-09 by Ajv2019, draft-06/07 by Ajv, draft-04 by ajv-draft-04), every local `$ref`
 *   resolving (ajv's MissingRefError is a refusal);
 * - a second run makes zero changes (idempotence);
 * - on generated instances, the output's verdict (read in its dialect as specified: siblings of a
 *   draft-04/06/07 `$ref` ignored, no later keywords in draft-04/06) equals the input's, since every step
 *   of these pipelines is lossless or annotation-level.
 * The oracle is the test's own ajv (helpers/readings.ts), not the gate. Fixed seed; `FUZZ_RUNS` and
 * `FUZZ_SEED` change the size and the sample (`npm run fuzz` runs a larger one and prints the counts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptToClient, dedupeRepeatedSubtrees, presetForProfile, presetLossless, presetMax, presetSafe, promoteCommonParams, stripNoise, transformTools, type TransformStepInput } from '../src/index.js';
import { instancesArb } from './helpers/arbitraries.js';
import { deepFreeze } from './helpers/freeze.js';
import { fuzzToolsArb } from './helpers/fuzz-arbitraries.js';
import { specValidator } from './helpers/readings.js';

/** Tool lists (1–2 tools each: at least 10,000 schemas at the default). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 7_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261212);
/** Verdicts are compared on every `VERDICT_EVERY`-th sample (compiling dominates the cost). */
const VERDICT_EVERY = Number(process.env.FUZZ_VERDICT_EVERY ?? 4);
/** Samples on which the shared-prefix outputs are checked against each pipeline run whole. */
const CHECK_PREFIXES = 50;

const PROFILES = ['mcp', 'claude', 'openai', 'openai-strict', 'gemini', 'kimi', 'ref-free'] as const;
const PIPELINES: readonly (readonly [string, readonly TransformStepInput[]])[] = [
  ['lossless', [presetLossless]],
  ['safe', [presetSafe]],
  ['max', [presetMax]],
  ...PROFILES.map((p) => [`safe+${p}`, presetForProfile('safe', p)] as const),
];

/**
 * The pipelines' outputs, computed along their shared prefixes (each pipeline is its steps in order, so
 * `safe` is `lossless` then strip-noise, `max` is `safe` then dedupe and promote, and `safe` for a profile
 * is `safe` then adapt-to-client): the same tools as running each pipeline whole (checked on the first
 * samples below), at a fraction of the cost.
 */
function pipelineOutputs(input: readonly unknown[], onSkip: (n: number) => void): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const run = (tools: readonly unknown[], steps: readonly TransformStepInput[]) => {
    const r = transformTools(tools, { transforms: steps, verify: false, measure: false });
    onSkip(r.report.skipped.length);
    return r.tools;
  };
  const lossless = run(input, [presetLossless]);
  out.set('lossless', lossless);
  const safe = run(lossless, [stripNoise]);
  out.set('safe', safe);
  out.set('max', run(safe, [dedupeRepeatedSubtrees, promoteCommonParams]));
  for (const p of PROFILES) out.set(`safe+${p}`, run(safe, [[adaptToClient, { profile: p }]]));
  return out;
}

type Validator = ReturnType<typeof specValidator>;

/** Compiled readings by schema text: pipelines often give the same output, and inputs repeat across pipelines. */
const compiled = new Map<string, Validator>();
function reading(schema: unknown): Validator {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (v === undefined) {
    v = specValidator(schema);
    if (compiled.size > 50_000) compiled.clear();
    compiled.set(key, v);
  }
  return v;
}

interface Failure {
  readonly kind: 'refused' | 'not-idempotent' | 'verdict' | 'threw';
  readonly pipeline: string;
  readonly sample: number;
  readonly detail: string;
}

/** Runs the harness; exported shape for the bench's larger run. */
function fuzz(runs: number, seed: number) {
  const tools = fc.sample(fuzzToolsArb(), { seed, numRuns: runs });
  const instances = fc.sample(instancesArb(), { seed: seed + 1, numRuns: runs });
  const failures: Failure[] = [];
  const counts = { runs: 0, schemas: 0, compiledOutputs: 0, verdictsChecked: 0, skipped: 0, ajvStackLimit: 0 };
  for (let s = 0; s < tools.length; s++) {
    const input = deepFreeze(tools[s]!);
    counts.schemas += input.length;
    let outputs: Map<string, unknown[]>;
    try {
      outputs = pipelineOutputs(input, (n) => (counts.skipped += n));
    } catch (e) {
      failures.push({ kind: 'threw', pipeline: '(any)', sample: s, detail: String((e as Error)?.message ?? e) });
      continue;
    }
    if (s < CHECK_PREFIXES) {
      for (const [name, steps] of PIPELINES) {
        const whole = transformTools(input, { transforms: steps, verify: false, measure: false }).tools;
        if (JSON.stringify(whole) !== JSON.stringify(outputs.get(name))) failures.push({ kind: 'threw', pipeline: name, sample: s, detail: 'the shared-prefix output differs from the whole pipeline’s' });
      }
    }
    for (const [name, steps] of PIPELINES) {
      counts.runs++;
      const tools = outputs.get(name)!;
      const again = transformTools(tools, { transforms: steps, verify: false, measure: false });
      if (again.report.changes.length > 0) {
        const c = again.report.changes[0]!;
        failures.push({ kind: 'not-idempotent', pipeline: name, sample: s, detail: `${c.transform}/${c.code} at ${c.path}` });
      }
      for (let i = 0; i < input.length; i++) {
        const a = (input[i] as Record<string, unknown>).inputSchema;
        const b = (tools[i] as Record<string, unknown>).inputSchema;
        if (a === b) continue;
        const va = reading(a);
        if ('error' in va) continue;
        const vb = reading(b);
        counts.compiledOutputs++;
        if ('error' in vb) {
          // ajv cannot compile a `$ref` cycle that consumes nothing once nothing beside the `$ref` stops it
          // inlining (`D: {$ref: D}`, after a draft-07 sibling was dropped as draft-07 says): a limit of
          // ajv's compiler on a schema no instance can pass, counted apart.
          if (/Maximum call stack/.test(vb.error)) counts.ajvStackLimit++;
          else failures.push({ kind: 'refused', pipeline: name, sample: s, detail: `tool ${i}: ${vb.error}` });
          continue;
        }
        if (s % VERDICT_EVERY !== 0) continue;
        for (const data of instances[s]!) {
          // MCP validates only objects against these schemas (`arguments`, `structuredContent`).
          if (typeof data !== 'object' || data === null || Array.isArray(data)) continue;
          counts.verdictsChecked++;
          const x = va(data);
          const y = vb(data);
          if (x !== y) {
            failures.push({ kind: 'verdict', pipeline: name, sample: s, detail: `tool ${i}: ${JSON.stringify(data)} was ${x}, is ${y}` });
            break;
          }
        }
      }
    }
  }
  return { tools, failures, counts };
}

describe('fuzz: every preset and profile pipeline, verify: false', () => {
  it(`${RUNS} generated tool lists (seed ${SEED}): ajv accepts every output, a second run changes nothing, verdicts stay`, { timeout: 600_000 }, () => {
    const { tools, failures, counts } = fuzz(RUNS, SEED);
    const byKind = new Map<string, number>();
    for (const f of failures) byKind.set(`${f.kind} (${f.pipeline})`, (byKind.get(`${f.kind} (${f.pipeline})`) ?? 0) + 1);
    if (process.env.FUZZ_REPORT) {
      console.log(JSON.stringify({ seed: SEED, ...counts, failures: failures.length, byKind: Object.fromEntries(byKind) }));
    }
    const shown = failures.slice(0, 3).map((f) => `${f.kind} in ${f.pipeline}: ${f.detail}\n  input: ${JSON.stringify(tools[f.sample])}`);
    expect(shown, `${failures.length} failures of ${counts.runs} runs: ${JSON.stringify(Object.fromEntries(byKind))}`).toEqual([]);
    expect(counts.runs).toBe(RUNS * PIPELINES.length);
    expect(counts.schemas).toBeGreaterThanOrEqual(Math.min(10_000, RUNS));
  });
});
