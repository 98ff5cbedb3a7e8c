/**
 * The seeded fuzz harness (issue 12), run by test/fuzz-1.test.ts and test/fuzz-2.test.ts: generated tool lists in every dialect, with the cross-dialect mixes
 * the attack found (see helpers/fuzz-arbitraries.ts), through every preset and every profile pipeline
 * with `verify: false`. For every run:
 * - every output schema whose input ajv compiles in its dialect compiles too (2020-12 and unstamped by
 *   Ajv2020, 2019-09 by Ajv2019, draft-06/07 by Ajv, draft-04 by ajv-draft-04), every local `$ref`
 *   resolving (ajv's MissingRefError is a refusal);
 * - a second run makes zero changes (idempotence), in every pipeline: no known exception (a run whose
 *   pipeline is `safe` then more steps that left `safe`'s output as it was is idempotent once `safe` is on
 *   that output, and is not run again: see `SAFE_THEN_MORE`);
 * - every run's report replays byte for byte: `applyPatch(input, report.changes)` is the output and
 *   `applyPatch(output, invertPatch(report.changes))` the input, compared as `JSON.stringify` text (key order
 *   included), for each run of the shared-prefix chain below (together they are every pipeline's steps);
 * - on generated instances, the output's verdict (read in its dialect as specified: siblings of a
 *   draft-04/06/07 `$ref` ignored, no later keywords in draft-04/06) equals the input's, since every step
 *   of these pipelines is lossless or annotation-level, except in the lossy rotation below.
 * The lossy rotation (`safe+<profile>+lossy`): each profile-tuned preset as users get it
 * (`presetForProfile('safe', p)`, lossy steps on, as the proxy and `optimize --profile` run it), checked
 * like the others (ajv compiles every output, a second run changes nothing and gives the same bytes, the
 * report replays byte for byte both ways) except for verdicts: its lossy steps change them on purpose
 * (documented, and checked against hand-written expectations in test/profiles/adapt-lossy-steps.test.ts
 * and test/fixtures/adapt-to-client/rules/*).
 * The oracle is the test's own ajv (helpers/readings.ts), not the gate. Fixed seed; `FUZZ_RUNS` and
 * `FUZZ_SEED` change the size and the sample (`npm run fuzz` runs a larger one and prints the counts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPatch, invertPatch, presetForProfile, presetLossless, presetMax, presetSafe, transformTools, type TransformStepInput } from '../../src/index.js';
import { instancesArb } from './arbitraries.js';
import { deepFreeze } from './freeze.js';
import { fuzzToolsArb } from './fuzz-arbitraries.js';
import { specValidator } from './readings.js';

/**
 * Tool lists (1–2 tools each). `npm test` samples 3,000 (about 4,300 schemas) to stay within its time budget
 * (issue 31: ≤ 10 min on 2 cores); `npm run bench:fuzz` runs the full 7,000 (at least 10,000 schemas) and
 * more with `--runs`. Same seed, so the suite's samples are the first 3,000 of the bench's.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261212);
/** Verdicts are compared on every `VERDICT_EVERY`-th sample (compiling dominates the cost). */
const VERDICT_EVERY = Number(process.env.FUZZ_VERDICT_EVERY ?? 8);
/**
 * `FUZZ_ALL=1` runs every pipeline on every sample (the bench-sized run). By default, to keep the suite's
 * fuzz part near 40 s on a loaded 2-core machine, each sample goes through `safe` and one profile
 * pipeline in turn (each profile sees every 7th sample), through `max` on every 2nd and `lossless` on every 3rd.
 */
const ALL = process.env.FUZZ_ALL === '1';
/** In the suite, every `LOSSY_EVERY`-th sample of each profile runs its lossy preset (see `pipelinesFor`). */
const LOSSY_EVERY = Number(process.env.FUZZ_LOSSY_EVERY ?? 2);
/** Samples on which the shared-prefix outputs are checked against each pipeline run whole. */
const CHECK_PREFIXES = 20;

const PROFILES = ['mcp', 'claude', 'openai', 'openai-strict', 'gemini', 'kimi', 'ref-free'] as const;
const PIPELINES: readonly (readonly [string, readonly TransformStepInput[]])[] = [
  ['lossless', [presetLossless]],
  ['safe', [presetSafe]],
  ['max', [presetMax]],
  // The verdict-keeping profile pipelines (`lossy: false`): the profile-tuned preset's lossy steps change
  // verdicts on purpose and are checked against hand-written expectations instead
  // (test/profiles/adapt-lossy-steps.test.ts, test/fixtures/adapt-to-client/rules/*).
  ...PROFILES.map((p) => [`safe+${p}`, presetForProfile('safe', p, { lossy: false })] as const),
  // The profile-tuned presets as users get them (lossy steps on): every check but the verdicts (see `LOSSY`).
  ...PROFILES.map((p) => [`safe+${p}+lossy`, presetForProfile('safe', p)] as const),
];

/** The pipelines whose steps change verdicts on purpose (the profile-tuned presets' lossy steps). */
const LOSSY: ReadonlySet<string> = new Set(PROFILES.map((p) => `safe+${p}+lossy`));

/**
 * The pipelines that are `safe`'s steps, as `safe` runs them, followed by more (checked on the presets
 * themselves, not assumed): `max`, and each profile's when presetForProfile kept `safe` whole.
 */
const SAFE_THEN_MORE: ReadonlySet<string> = new Set(
  PIPELINES.filter(([name, steps]) => {
    if (name === 'safe') return false;
    const first = steps[0];
    const safeNames = new Set(presetSafe.steps.map((t) => t.name));
    if (first === presetMax) return presetSafe.steps.every((t, i) => presetMax.steps[i] === t) && Object.keys(presetMax.options ?? {}).every((k) => !safeNames.has(k));
    return Array.isArray(first) && first[0] === presetSafe && Object.keys((first[1] as { overrides?: object }).overrides ?? {}).length === 0;
  }).map(([name]) => name),
);

/**
 * The pipelines' outputs, computed along their shared prefixes (each pipeline is its steps in order, so
 * `safe` is `lossless` then its annotation steps, `max` is `safe` then its own, and `safe` for a profile
 * is `safe` then adapt-to-client): the same tools as running each pipeline whole (checked on the first
 * samples below), at a fraction of the cost.
 */
function pipelineOutputs(input: readonly unknown[], wanted: ReadonlySet<string>, onRun: (name: string, n: number, replay: string | undefined) => void): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const run = (tools: readonly unknown[], steps: readonly TransformStepInput[], name: string) => {
    const r = transformTools(tools, { transforms: steps, verify: false, measure: false });
    onRun(name, r.report.skipped.length, replayProblem(tools, r.tools, r.report.changes, name));
    return r.tools;
  };
  const lossless = run(input, [presetLossless], 'lossless');
  out.set('lossless', lossless);
  const safe = run(lossless, presetSafe.steps.slice(presetLossless.steps.length), 'safe');
  out.set('safe', safe);
  out.set('max', run(safe, presetMax.steps.slice(presetSafe.steps.length), 'max'));
  // Every step after the base preset (a typescript reader's plan may hold more than adapt-to-client).
  for (const p of PROFILES) if (wanted.has(`safe+${p}`)) out.set(`safe+${p}`, run(safe, presetForProfile('safe', p, { lossy: false }).slice(1), `safe+${p}`));
  for (const p of PROFILES) if (wanted.has(`safe+${p}+lossy`)) out.set(`safe+${p}+lossy`, run(safe, presetForProfile('safe', p).slice(1), `safe+${p}+lossy`));
  return out;
}

/**
 * Byte-exact replay of one run's report (issue 12 item 5): the patch applied to the run's input gives its
 * output, and the inverted patch applied to the output gives the input, as the same `JSON.stringify` text
 * (key order included). Undefined when both hold; otherwise what differs.
 */
function replayProblem(input: readonly unknown[], output: readonly unknown[], changes: Parameters<typeof applyPatch>[1], name: string): string | undefined {
  const t = performance.now();
  try {
    return replayDiff(input, output, changes, name);
  } finally {
    replayMs += performance.now() - t;
  }
}

/** Milliseconds spent checking replays (part of the `transform` phase; printed apart with FUZZ_REPORT). */
let replayMs = 0;

function replayDiff(input: readonly unknown[], output: readonly unknown[], changes: Parameters<typeof applyPatch>[1], name: string): string | undefined {
  const inText = textOf(input);
  const outText = textOf(output);
  if (changes.length === 0) return outText === inText ? undefined : `${name}: no changes reported, yet the output differs from the input at byte ${firstDifference(outText, inText)}`;
  const forward = JSON.stringify(applyPatch(input, changes));
  if (forward !== outText) return `${name}: applyPatch(input, changes) differs from the output at byte ${firstDifference(forward, outText)}`;
  const back = JSON.stringify(applyPatch(output, invertPatch(changes)));
  if (back !== inText) return `${name}: applyPatch(output, invertPatch(changes)) differs from the input at byte ${firstDifference(back, inText)}`;
  return undefined;
}

/**
 * `JSON.stringify` of a tool list, once per list: each run's output is the next run's input and is
 * compared again in the idempotence check. Weak, so a sample's lists are dropped with it.
 */
const texts = new WeakMap<object, string>();
function textOf(tools: readonly unknown[]): string {
  let t = texts.get(tools);
  if (t === undefined) {
    t = JSON.stringify(tools);
    texts.set(tools, t);
  }
  return t;
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The pipelines sample `s` goes through (see `ALL`). In the suite, the lossy rotation takes every
 * `LOSSY_EVERY`-th (default every other) of each profile's samples: that sample goes through the profile's
 * preset with the lossy steps on instead of off (each profile sees every 7th sample, as before, half of them
 * lossy), which keeps the suite's time as it was; the bench (`FUZZ_ALL=1`) runs both on every sample.
 */
function pipelinesFor(s: number): readonly (readonly [string, readonly TransformStepInput[]])[] {
  if (ALL) return PIPELINES;
  const p = PROFILES[s % PROFILES.length];
  // By pairs of rotations (`s / 14`), so that each shard (`s % 2`) gets both kinds of each profile's runs.
  const profile = Math.floor(s / (PROFILES.length * 2)) % LOSSY_EVERY === 0 ? `safe+${p}+lossy` : `safe+${p}`;
  return PIPELINES.filter(([name]) => name === 'safe' || name === profile || (name === 'max' && (s >> 1) % 2 === 0) || (name === 'lossless' && s % 3 === 1));
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
  readonly kind: 'refused' | 'not-idempotent' | 'replay' | 'verdict' | 'threw';
  readonly pipeline: string;
  readonly sample: number;
  readonly detail: string;
}

/** Runs the harness on the samples `s` with `s % shards === shard`. */
export function fuzz(runs: number, seed: number, shard = 0, shards = 1) {
  const tools = fc.sample(fuzzToolsArb(), { seed, numRuns: runs });
  const instances = fc.sample(instancesArb(), { seed: seed + 1, numRuns: runs });
  const failures: Failure[] = [];
  const counts = { runs: 0, schemas: 0, compiledOutputs: 0, verdictsChecked: 0, skipped: 0, ajvStackLimit: 0, notIdempotent: 0, idempotentByPrefix: 0, replaysChecked: 0 };
  /** Per pipeline (bench/fuzz.ts prints a row each): runs, second runs that changed something, failures; replays per chain run. */
  const byPipeline: Record<string, { runs: number; notIdempotent: number; failures: number; replays: number }> = {};
  const row = (name: string) => (byPipeline[name] ??= { runs: 0, notIdempotent: 0, failures: 0, replays: 0 });
  const fail = (f: Failure) => {
    failures.push(f);
    row(f.pipeline).failures++;
  };
  /** Milliseconds per phase (printed with FUZZ_REPORT, to keep the size within the time budget). */
  const ms = { transform: 0, again: 0, compile: 0, verdicts: 0, replay: 0 };
  replayMs = 0;
  let t0 = performance.now();
  const lap = (k: keyof typeof ms) => {
    const t = performance.now();
    ms[k] += t - t0;
    t0 = t;
  };
  for (let s = shard; s < tools.length; s += shards) {
    const input = deepFreeze(tools[s]!);
    const inputText = textOf(input);
    const pipelines = pipelinesFor(s);
    counts.schemas += input.length;
    let outputs: Map<string, unknown[]>;
    t0 = performance.now();
    try {
      const wanted = new Set((s < CHECK_PREFIXES ? PIPELINES : pipelines).map(([name]) => name));
      outputs = pipelineOutputs(input, wanted, (name, n, replay) => {
        counts.skipped += n;
        row(name).replays++;
        counts.replaysChecked++;
        if (replay !== undefined) fail({ kind: 'replay', pipeline: replay.slice(0, replay.indexOf(':')), sample: s, detail: replay });
      });
    } catch (e) {
      fail({ kind: 'threw', pipeline: '(any)', sample: s, detail: String((e as Error)?.message ?? e) });
      continue;
    }
    lap('transform');
    if (s < CHECK_PREFIXES) {
      for (const [name, steps] of PIPELINES) {
        const whole = transformTools(input, { transforms: steps, verify: false, measure: false }).tools;
        if (JSON.stringify(whole) !== textOf(outputs.get(name)!)) fail({ kind: 'threw', pipeline: name, sample: s, detail: 'the shared-prefix output differs from the whole pipeline’s' });
      }
    }
    /** Set once `safe`'s second run changed nothing on its output (`safe` runs on every sample, before `max` and the profiles). */
    let safeFixed: string | undefined;
    for (const [name, steps] of pipelines) {
      counts.runs++;
      row(name).runs++;
      const tools = outputs.get(name)!;
      t0 = performance.now();
      const text = textOf(tools);
      // A pipeline that changed nothing is idempotent on this input: it is pure and deterministic. So is
      // one that is `safe` then more steps (`max`, each profile's) whose extra steps left `safe`'s output
      // as it was, once `safe` is idempotent on that output: its second run is `safe` (no change) then the
      // same extra steps on the same tools (no change, as in the first run).
      const byPrefix = SAFE_THEN_MORE.has(name) && safeFixed !== undefined && text === safeFixed;
      if (byPrefix) counts.idempotentByPrefix++;
      // (On the first samples, check the shortcut: the second run it stands for changes nothing either.)
      if (byPrefix && s < CHECK_PREFIXES && transformTools(tools, { transforms: steps, verify: false, measure: false }).report.changes.length > 0) fail({ kind: 'not-idempotent', pipeline: name, sample: s, detail: 'the run the prefix shortcut stood for changed something' });
      const again = text === inputText || byPrefix ? undefined : transformTools(tools, { transforms: steps, verify: false, measure: false });
      if (name === 'safe' && (again === undefined || again.report.changes.length === 0)) safeFixed = text;
      lap('again');
      if (again !== undefined && again.report.changes.length > 0) {
        const c = again.report.changes[0]!;
        const key = `${name}: ${c.transform}/${c.code}`;
        counts.notIdempotent++;
        row(name).notIdempotent++;
        fail({ kind: 'not-idempotent', pipeline: name, sample: s, detail: `${key} at ${c.path}` });
      } else if (again !== undefined && JSON.stringify(again.tools) !== text) {
        // No change reported, yet other bytes (the replay check's counterpart for the second run).
        counts.notIdempotent++;
        row(name).notIdempotent++;
        fail({ kind: 'not-idempotent', pipeline: name, sample: s, detail: `${name}: a second run reported no change, yet its output differs at byte ${firstDifference(JSON.stringify(again.tools), text)}` });
      }
      for (let i = 0; i < input.length; i++) {
        const a = (input[i] as Record<string, unknown>).inputSchema;
        const b = (tools[i] as Record<string, unknown>).inputSchema;
        if (a === b) continue;
        const va = reading(a);
        if ('error' in va) continue;
        const vb = reading(b);
        lap('compile');
        counts.compiledOutputs++;
        if ('error' in vb) {
          // ajv cannot compile a `$ref` cycle that consumes nothing once nothing beside the `$ref` stops it
          // inlining (`D: {$ref: D}`, after a draft-07 sibling was dropped as draft-07 says): a limit of
          // ajv's compiler on a schema no instance can pass, counted apart.
          if (/Maximum call stack/.test(vb.error)) counts.ajvStackLimit++;
          else fail({ kind: 'refused', pipeline: name, sample: s, detail: `tool ${i}: ${vb.error}` });
          continue;
        }
        // Every `VERDICT_EVERY`-th sample of this shard. Not for the lossy rotation: its lossy steps are
        // documented to change verdicts (relax-assertions accepts more, close-objects refuses unlisted keys,
        // …), so only this check is skipped for it; every other check above and below applies.
        if (LOSSY.has(name)) continue;
        if (Math.floor(s / shards) % VERDICT_EVERY !== 0) continue;
        for (const data of instances[s]!) {
          // MCP validates only objects against these schemas (`arguments`, `structuredContent`).
          if (typeof data !== 'object' || data === null || Array.isArray(data)) continue;
          counts.verdictsChecked++;
          const x = va(data);
          const y = vb(data);
          // ajv overflowing its stack while validating (a `$ref` cycle that consumes nothing, such as
          // `D: {anyOf: [true, {$ref: D}]}`, which Ajv2020 explores fully to collect annotations): the
          // same limit as above, counted with it.
          if (x !== y && y === 'throws') {
            counts.ajvStackLimit++;
            break;
          }
          if (x !== y) {
            fail({ kind: 'verdict', pipeline: name, sample: s, detail: `tool ${i}: ${JSON.stringify(data)} was ${x}, is ${y}` });
            break;
          }
        }
        lap('verdicts');
      }
    }
  }
  ms.replay = replayMs;
  return { tools, failures, counts, byPipeline, ms };
}

/**
 * The suite's fuzz test for one shard of the samples: test/fuzz-<n>.test.ts each run one, so that vitest
 * spreads them over its workers (together they cover every sample).
 */
export function describeFuzz(shard: number, shards: number): void {
  describe(`fuzz (shard ${shard + 1} of ${shards}): every preset and profile pipeline, verify: false`, () => {
    it(`${RUNS} generated tool lists (seed ${SEED}), ${shards === 1 ? 'all' : `every ${shards}th from #${shard}`}: ajv accepts every output, a second run changes nothing, reports replay byte for byte, verdicts stay (but for the lossy rotation)`, { timeout: 600_000 }, () => {
      const { tools, failures, counts, byPipeline, ms } = fuzz(RUNS, SEED, shard, shards);
      const byKind = new Map<string, number>();
      for (const f of failures) byKind.set(`${f.kind} (${f.pipeline})`, (byKind.get(`${f.kind} (${f.pipeline})`) ?? 0) + 1);
      if (process.env.FUZZ_REPORT) {
        console.log(JSON.stringify({ seed: SEED, shard, shards, ...counts, failures: failures.length, byKind: Object.fromEntries(byKind), byPipeline, ms: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, Math.round(v)])) }));
      }
      const shown = failures.slice(0, 3).map((f) => `${f.kind} in ${f.pipeline}: ${f.detail}\n  input: ${JSON.stringify(tools[f.sample])}`);
      expect(shown, `${failures.length} failures of ${counts.runs} runs: ${JSON.stringify(Object.fromEntries(byKind))}`).toEqual([]);
      const mine = Array.from({ length: RUNS }, (_, s) => s).filter((s) => s % shards === shard);
      expect(counts.runs).toBe(mine.reduce((n, s) => n + pipelinesFor(s).length, 0));
      // At least one schema per sample over the shards (the 7,000-sample bench run: at least 10,000).
      expect(counts.schemas).toBeGreaterThanOrEqual(Math.floor(Math.min(10_000, RUNS) / shards));
    });
  });
}
