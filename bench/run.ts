/**
 * `npm run bench`: the corpus benchmark.
 *
 * For every capture in bench/corpus it runs the default pipeline, every built-in transform alone and every
 * built-in preset (all read from `builtinTransforms` / `builtinPresets`, so new ones show up without
 * changes here), measures bytes and o200k_base tokens before and after, groups skips and diagnostics by
 * `transform/code`, times everything as a ratio to the floor (`JSON.parse` + `JSON.stringify` of the same
 * text in the same run), runs a scaling series, and measures the import cost of the built package. Every speed
 * row is measured again over bench/validation (real servers the engine is not tuned on, issue 31) and reported
 * beside the corpus's; the targets hold on both sets.
 *
 * Hostile descriptions at 1 MB are measured by bench/hostile.ts and appended as their own section.
 *
 * Writes bench/results.md, bench/results.json, appends to bench/history.jsonl and rewrites the
 * `<!-- bench:start -->…<!-- bench:end -->` block of README.md.
 *
 * Flags: `--quick` (smaller series, fewer runs; writes nothing), `--no-write`.
 * Env: `BENCH_BUDGET_S` (default 600, CPU seconds): sizes of the scaling series that would not fit are skipped.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from './lib/build.js';
import type { AnyTransform, Report, TransformStepInput, TransformToolsOptions } from '../src/index.js';
import { built as toolslim, builtTokens } from './lib/built.js';
import { summarizeRun } from './lib/aggregate.js';
import { addCompositions, composition } from './lib/composition.js';
import { hostileBlock, measureHostile } from './hostile.js';
import { measureImport, packagesImportedBy } from './lib/import-cost.js';
import { renderConsole, renderMarkdown, renderReadmeBlock, historyEntry } from './lib/render.js';
import { countBy, floorRatio, linearFit, pairedRatio, median, megabytesPerSecond, percentSaved, perSecond, replaceMarkedBlock, serverLabel } from './lib/stats.js';
import { largeSchemaTool, orderPool, syntheticToolList, type PoolEntry } from './lib/synthetic.js';
import { CLOCK, gc, heapUsed, now, sample, timeOnce } from './lib/timing.js';
import type { BenchResults, Fit, ImportRow, RunInfo, RunResult, RunSummary, ScalingPoint, ServerResult, SizePair, SpeedRow, Target } from './lib/types.js';

const ROOT = join(import.meta.dirname, '..');
const BENCH = join(ROOT, 'bench');
const CORPUS = join(BENCH, 'corpus');
/** Real servers the engine is not tuned on (issue 31): every speed row is measured on them too. */
const VALIDATION = join(BENCH, 'validation');
const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
const WRITE = !QUICK && !process.argv.includes('--no-write');
const BUDGET_MS = Number(process.env.BENCH_BUDGET_S ?? 600) * 1000;
const RESERVE_MS = 30_000;
// 32k corpus tools make a tools/list of about 53 MB, 100k of about 165 MB (issue 8 asks for both sizes).
const TOOL_COUNTS = QUICK ? [10, 100, 1_000, 10_000] : [10, 100, 1_000, 10_000, 32_000, 100_000];
const SCHEMA_MB = QUICK ? [1, 2] : [1, 2, 5, 10];
const PUBLISHED = { text: 'a published optimizer: median 12% per server, range 1–38% (35 public servers)', median: 12, min: 1, max: 38, servers: 35 };
const NOTION = { text: 'Notion MCP server: 76,259 → 23,749 bytes in the upstream PR that first tried per-tool pruning', before: 76_259, after: 23_749 };
const VERIFY_LEVELS = [false, 'structural', 'verdicts'] as const;

// Every figure from the built package, as users get it (bench/lib/built.ts says why).
const { builtinPresets, builtinTransforms, collectRefInventory, getDeclaredDialect, transformTools } = toolslim;
const { o200k } = builtTokens;

const started = now();
const warnings: string[] = [];
const log = (line: string) => process.stderr.write(`[bench ${((now() - started) / 1000).toFixed(1)} s, ${(cpuMs() / 1000).toFixed(1)} s CPU] ${line}\n`);

// ---------------------------------------------------------------------------------------------------------
// Corpus

interface Capture {
  readonly file: string;
  readonly label: string;
  readonly package: string;
  readonly version: string;
  readonly capturedAt: string;
  readonly tools: readonly Record<string, unknown>[];
  /** Compact JSON of the tools array: the text the floor parses and serializes. */
  readonly text: string;
  readonly before: SizePair;
}

const tokenCache = new Map<string, number>();
function tokens(text: string): number {
  let n = tokenCache.get(text);
  if (n === undefined) {
    n = o200k.count(text);
    tokenCache.set(text, n);
  }
  return n;
}
const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');
const sizeOf = (text: string): SizePair => ({ bytes: bytesOf(text), tokens: tokens(text) });

function loadCorpus(dir = CORPUS): Capture[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { server: { package: string; version: string; capturedAt: string }; toolsList: { tools: Record<string, unknown>[] } };
      const { package: pkg, version, capturedAt } = data.server;
      const tools = data.toolsList.tools;
      const text = JSON.stringify(tools);
      return { file, label: serverLabel(file, pkg, version), package: pkg, version, capturedAt, tools, text, before: sizeOf(text) };
    });
}

// ---------------------------------------------------------------------------------------------------------
// Which pipelines to run: the default, every transform alone, every preset.

function planRuns(sample: readonly unknown[]): RunInfo[] {
  const defaultSteps = transformTools(sample).report.stats.transforms.map((t) => t.name);
  // The default's steps, and the presets that have exactly those steps (several while presets coincide).
  const same = builtinPresets.filter((p) => p.steps.map((t) => t.name).join() === defaultSteps.join()).map((p) => p.name);
  return [
    { key: 'default', kind: 'default', name: 'default pipeline', steps: defaultSteps, sameAs: same },
    ...builtinTransforms.map((t): RunInfo => ({ key: `transform:${t.name}`, kind: 'transform', name: t.name, steps: [t.name], safety: t.safety })),
    // A transform alone also with the options a preset gives it, so a rule only a preset turns on shows.
    ...builtinPresets.flatMap((p) =>
      Object.entries(p.options ?? {}).map(([name, options]): RunInfo => ({ key: `transform:${name}:${p.name}`, kind: 'transform', name, steps: [name], safety: builtinTransforms.find((t) => t.name === name)!.safety, options })),
    ),
    ...builtinPresets.map((p): RunInfo => ({ key: `preset:${p.name}`, kind: 'preset', name: p.name, steps: p.steps.map((t) => t.name) })),
  ];
}

function stepsFor(info: RunInfo): TransformStepInput[] | undefined {
  if (info.kind === 'transform') {
    const t = builtinTransforms.find((x) => x.name === info.name)!;
    return [info.options ? [t, info.options] : t];
  }
  if (info.kind === 'preset') return [builtinPresets.find((p) => p.name === info.name)!];
  return undefined;
}

function runOne(capture: Capture, info: RunInfo): RunResult {
  const transforms = stepsFor(info);
  let result: ReturnType<typeof transformTools>;
  try {
    result = transformTools(capture.tools, transforms ? { transforms } : {});
  } catch (e) {
    const failed = (e as Error)?.message ?? String(e);
    warnings.push(`${info.key} threw on ${capture.file}: ${failed}`);
    return { key: info.key, failed };
  }
  const text = JSON.stringify(result.tools);
  const after = sizeOf(text);
  const report: Report = result.report;
  if (report.stats.after.bytes !== 0 && report.stats.after.bytes !== after.bytes) {
    warnings.push(`${info.key} on ${capture.file}: report says ${report.stats.after.bytes} bytes after, the output has ${after.bytes}`);
  }
  const instructions = typeof result.instructions === 'string' && result.instructions !== '' ? sizeOf(result.instructions) : undefined;
  const netBytes = after.bytes + (instructions?.bytes ?? 0);
  const netTokens = after.tokens + (instructions?.tokens ?? 0);
  return {
    key: info.key,
    after,
    ...(instructions ? { instructions } : {}),
    pctBytes: percentSaved(capture.before.bytes, netBytes),
    pctTokens: percentSaved(capture.before.tokens, netTokens),
    bytesSaved: capture.before.bytes - netBytes,
    tokensSaved: capture.before.tokens - netTokens,
    changes: report.changes.length,
    toolsChanged: result.tools.reduce((n: number, t, i) => (t === capture.tools[i] ? n : n + 1), 0),
    skipped: countBy(report.skipped, (s) => s.transform),
    diagnostics: countBy(report.diagnostics, (d) => `${d.transform}/${d.code}`),
    errors: report.diagnostics.filter((d) => d.severity === 'error').length,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Speed over the corpus, as ratios to the floor

/** Whether `transformTools` knows a `verify` option (the equivalence gate). */
function detectGate(): boolean {
  if (Object.keys(toolslim).some((k) => /^verify/i.test(k))) return true;
  try {
    transformTools([{ name: 'probe', inputSchema: { type: 'object' } }], { verify: '__bench_probe__' } as unknown as TransformToolsOptions);
    return false;
  } catch {
    return true;
  }
}

interface Variant {
  readonly key: string;
  readonly label: string;
  readonly group: SpeedRow['group'];
  readonly options: TransformToolsOptions;
  /** Whether to run an untimed warm-up pass first (default true; the tokenizer is warm from the sizes). */
  readonly warm?: boolean;
}

/**
 * What a user gets (issue 14): `transformTools(JSON.parse(text), options)` with the defaults, `safe` with the
 * gate off, prune alone with the gate off, and the default at every gate level. These rows get at least
 * {@link USER_PASSES} passes each, with and without a forced full GC before each pass.
 */
function userVariants(gate: boolean): Variant[] {
  const prune = builtinTransforms.find((t) => t.name === 'prune-unreachable-defs');
  const off = (gate ? { verify: false } : {}) as TransformToolsOptions;
  return [
    { key: 'user:default', label: 'the default call: `transformTools(tools)`', group: 'user', options: {} },
    { key: 'user:safe:verify=false', label: '`safe` (the default steps), verify: false', group: 'user', options: { ...off } },
    ...(prune ? [{ key: 'user:prune:verify=false', label: '`prune-unreachable-defs` alone, verify: false', group: 'user' as const, options: { transforms: [prune], ...off } }] : []),
    ...(gate
      ? (['structural', 'verdicts'] as const).map((verify): Variant => ({ key: `user:verify=${verify}`, label: `the default steps, verify: '${verify}'`, group: 'user', options: { verify } as unknown as TransformToolsOptions }))
      : []),
  ];
}

/** Cheaper configurations (measure off, each transform and preset alone, tokens), reported beside the default. */
function speedVariants(gate: boolean, defaultStepsLabel: string): Variant[] {
  const out: Variant[] = [];
  // The transform's own cost (measure: false, and with the gate verify: false), then with the run's
  // defaults (measure: true, the gate at its default level).
  const own = (measure: boolean) => (gate && !measure ? ({ verify: false } as unknown as TransformToolsOptions) : {});
  const v = (measure: boolean) => (gate ? (measure ? ', verify: default' : ', verify: false') : '');
  for (const t of builtinTransforms) {
    for (const measure of [false, true]) out.push({ key: `transform:${t.name}:measure=${measure}`, label: `${t.name} alone, measure: ${measure}${v(measure)}`, group: 'transform', options: { transforms: [t], measure, ...own(measure) } });
  }
  for (const p of builtinPresets) {
    for (const measure of [false, true]) out.push({ key: `preset:${p.name}:measure=${measure}`, label: `preset ${p.name}, measure: ${measure}${v(measure)}`, group: 'preset', options: { transforms: [p], measure, ...own(measure) } });
  }
  out.push({ key: 'default:tokens', label: `${defaultStepsLabel}, measure: true + o200k tokens`, group: 'tokens', options: { tokenizer: o200k }, warm: false });
  if (gate) {
    for (const verify of VERIFY_LEVELS) {
      out.push({ key: `default:verify=${verify}`, label: `${defaultStepsLabel}, measure: false, verify: ${JSON.stringify(verify)}`, group: 'verify', options: { measure: false, verify } as unknown as TransformToolsOptions });
    }
  }
  return out;
}

/** Passes of every user-facing row (the issue asks for the median of at least 7). */
const USER_PASSES = QUICK ? 3 : 9;

interface Timed {
  readonly floor: number[];
  readonly samples: number[][];
  /** For each sample, the floor pass timed right before it. */
  readonly floorBefore: number[][];
  readonly iterations: number;
}

/**
 * Interleaved passes: floor, every variant, floor, every variant, … Every timed region parses the text
 * first, as a user must (`transformTools(JSON.parse(text), options)`; the floor is
 * `JSON.stringify(JSON.parse(text))`). `gcEach`: a forced full GC before every timed pass.
 */
function timeInterleaved(corpus: readonly Capture[], variants: readonly Variant[], gcEach: boolean, minPasses: (v: Variant) => number, maxIterations: number, budgetMs: number): Timed {
  const floorPass = () => {
    for (const c of corpus) JSON.stringify(JSON.parse(c.text));
  };
  const passes = variants.map((v) => () => {
    for (const c of corpus) transformTools(JSON.parse(c.text), v.options);
  });
  floorPass();
  passes.forEach((p, i) => variants[i]!.warm !== false && p());
  const floor: number[] = [];
  const samples: number[][] = variants.map(() => []);
  const floorBefore: number[][] = variants.map(() => []);
  const spent = variants.map(() => 0);
  let iterations = 0;
  for (let i = 0; i < maxIterations; i++) {
    iterations++;
    for (let v = 0; v < variants.length; v++) {
      // Enough passes for a median, unless one pass alone is slow (tokenizing): then the budget rules.
      const min = (samples[v]![0] ?? 0) > budgetMs / 4 && variants[v]!.group !== 'user' ? 1 : minPasses(variants[v]!);
      if (samples[v]!.length >= min && spent[v]! >= budgetMs) continue;
      // A floor pass right before every timed pass, in the same conditions: the floor is the shortest pass,
      // so the machine's noise weighs most on it (one pass an iteration spread 20–52 ms on the validation
      // set). Each timed pass is divided by the floor pass right before it (pairedRatio): the machine's clock
      // moves between speeds within a run, and one pair is timed at one speed.
      if (gcEach) gc();
      const floorMs = timeOnce(floorPass);
      floor.push(floorMs);
      if (gcEach) gc();
      const ms = timeOnce(passes[v]!);
      samples[v]!.push(ms);
      floorBefore[v]!.push(floorMs);
      spent[v]! += ms;
    }
  }
  return { floor, samples, floorBefore, iterations };
}

function measureSpeed(corpus: readonly Capture[], user: readonly Variant[], cheaper: readonly Variant[], gate: boolean): BenchResults['speed'] {
  // A variant that throws (an option a transform rejects, say) is reported and left out, not fatal.
  const usable = (v: Variant) => {
    try {
      transformTools(corpus[0]?.tools ?? [], v.options);
      return true;
    } catch (e) {
      warnings.push(`speed: \`${v.label}\` left out, it threw: ${(e as Error)?.message ?? String(e)}`);
      return false;
    }
  };
  const variants = [...user, ...cheaper].filter(usable);
  const userVariants = variants.filter((v) => v.group === 'user');
  const corpusBytes = corpus.reduce((a, c) => a + c.before.bytes, 0);
  const corpusTools = corpus.reduce((a, c) => a + c.tools.length, 0);
  const maxIterations = QUICK ? 3 : Math.max(9, USER_PASSES);
  const perVariantBudget = QUICK ? 1500 : 4000;
  const minPasses = (v: Variant) => (v.group === 'user' ? USER_PASSES : 3);
  // The rows of record: a forced full GC before each pass, so no pass pays for garbage another left.
  const withGc = timeInterleaved(corpus, variants, true, minPasses, maxIterations, perVariantBudget);
  // The user-facing rows again without it: the collector runs when it wants, as in an application.
  const noGc = timeInterleaved(corpus, userVariants, false, () => USER_PASSES, USER_PASSES, Infinity);
  const rowsOf = (timed: Timed, list: readonly Variant[]): SpeedRow[] => {
    const floorMs = median(timed.floor);
    return [
      { key: 'floor', label: 'floor: JSON.parse + JSON.stringify', group: 'floor', options: {}, samplesMs: timed.floor.map(round3), medianMs: round3(floorMs), ratio: 1, ratioOfMedians: 1, mbPerS: megabytesPerSecond(corpusBytes, floorMs), toolsPerS: perSecond(corpusTools, floorMs) },
      ...list.map((v, i): SpeedRow => {
        const m = median(timed.samples[i]!);
        return { key: v.key, label: v.label, group: v.group, options: describeOptions(v.options), samplesMs: timed.samples[i]!.map(round3), medianMs: round3(m), ratio: pairedRatio(timed.samples[i]!, timed.floorBefore[i]!), ratioOfMedians: floorRatio(timed.samples[i]!, timed.floor), mbPerS: megabytesPerSecond(corpusBytes, m), toolsPerS: perSecond(corpusTools, m) };
      }),
    ];
  };
  const rows = rowsOf(withGc, variants);
  const rowsNoGc = rowsOf(noGc, userVariants);
  const ratioOf = (list: readonly SpeedRow[], key: string) => list.find((r) => r.key === key)?.ratio;
  // Each gate level's own cost: the default steps at that level minus the same steps with the gate off.
  const verifyCosts = (['structural', 'verdicts'] as const).flatMap((level) => {
    const at = ratioOf(rows, level === 'structural' ? 'user:default' : 'user:verify=verdicts');
    const off = ratioOf(rows, 'user:safe:verify=false');
    const atNoGc = ratioOf(rowsNoGc, level === 'structural' ? 'user:default' : 'user:verify=verdicts');
    const offNoGc = ratioOf(rowsNoGc, 'user:safe:verify=false');
    return at === undefined || off === undefined ? [] : [{ level, ratio: at - off, ratioNoGc: atNoGc !== undefined && offNoGc !== undefined ? atNoGc - offNoGc : NaN }];
  });
  const targets: Target[] = [];
  const target = (key: string, what: string, limit: number) => {
    const value = ratioOf(rows, key);
    if (value !== undefined) targets.push({ what, limit, value, met: value <= limit, ...(ratioOf(rowsNoGc, key) !== undefined ? { valueNoGc: ratioOf(rowsNoGc, key)! } : {}) });
  };
  target('user:default', 'the default call `transformTools(tools)` (parse included) ≤ 8× floor', 8);
  if (gate) target('user:safe:verify=false', '`safe` with `verify: false` (parse included) ≤ 4× floor', 4);
  target('user:prune:verify=false', `\`prune-unreachable-defs\` alone${gate ? ' with `verify: false`' : ''} (parse included) ≤ 1.5× floor`, 1.5);
  return { corpusBytes, corpusTools, iterations: withGc.iterations, floorMs: round3(median(withGc.floor)), gateDetected: gate, rows, rowsNoGc, verifyCosts, targetsUse: 'gc', targets };
}

function describeOptions(o: TransformToolsOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === 'transforms') out[k] = (v as readonly (AnyTransform | { name: string })[]).map((t) => t.name);
    else if (k === 'tokenizer') out[k] = (v as { name: string }).name;
    else out[k] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Per-server timing (the "time" column)

function timeServers(corpus: readonly Capture[]): { timeMs: number; floorMs: number }[] {
  // Warm every code path on the whole corpus first, so the first server is not timed cold.
  for (let i = 0; i < 2; i++) for (const c of corpus) transformTools(c.tools), JSON.stringify(JSON.parse(c.text));
  gc();
  return corpus.map((c) => {
    const runs = QUICK ? 3 : 11;
    const pipeline: number[] = [];
    const floor: number[] = [];
    transformTools(c.tools);
    JSON.stringify(JSON.parse(c.text));
    for (let i = 0; i < runs; i++) {
      floor.push(timeOnce(() => JSON.stringify(JSON.parse(c.text))));
      pipeline.push(timeOnce(() => transformTools(c.tools)));
    }
    return { timeMs: round3(median(pipeline)), floorMs: round3(median(floor)) };
  });
}

// ---------------------------------------------------------------------------------------------------------
// Scaling series

interface ScaleVariant {
  readonly key: string;
  readonly label: string;
  readonly run: (input: unknown, text: string) => unknown;
}

function scaleVariants(gate: boolean): ScaleVariant[] {
  const prune = builtinTransforms.find((t) => t.name === 'prune-unreachable-defs');
  // The gate is measured on the corpus (speed section); here verification stays off so the series
  // shows the transforms' own growth.
  const off = gate ? ({ verify: false } as unknown as TransformToolsOptions) : {};
  const suffix = gate ? ', verify: false' : '';
  return [
    { key: 'floor', label: 'floor', run: (_input, text) => JSON.stringify(JSON.parse(text)) },
    ...(prune ? [{ key: 'prune', label: `prune-unreachable-defs, measure: false${suffix}`, run: (input: unknown) => transformTools(input, { ...off, transforms: [prune], measure: false }) }] : []),
    { key: 'default', label: `default pipeline, measure: false${suffix}`, run: (input) => transformTools(input, { ...off, measure: false }) },
    { key: 'default:measure', label: `default pipeline, measure: true${suffix}`, run: (input) => transformTools(input, { ...off }) },
  ];
}

/** How often to time one size: many runs when small, one run (already warm) when huge. */
function samplingFor(count: number, bytes: number) {
  if (count >= 100_000 || bytes >= 50e6) return { warmup: 0, maxRuns: 1, minRuns: 1, budgetMs: 0, gcEach: true };
  if (count >= 10_000 || bytes >= 1e6) return { warmup: bytes >= 5e6 ? 0 : 1, maxRuns: 3, minRuns: 1, budgetMs: 2000, gcEach: true };
  return { warmup: 2, maxRuns: QUICK ? 3 : 11, minRuns: 1, budgetMs: 1000, gcEach: count >= 1000 };
}

function scalePoint(size: string, build: () => unknown[], variants: readonly ScaleVariant[], count: number, single = false): ScalingPoint {
  let list: unknown[] | undefined = build();
  const text = JSON.stringify(list);
  list = undefined;
  const bytes = bytesOf(text);
  gc();
  const h0 = heapUsed();
  const input = JSON.parse(text) as unknown[];
  gc();
  const inputHeapBytes = heapUsed() - h0;
  const opts = samplingFor(count, bytes);
  const measured = variants.flatMap((v) => {
    try {
      return [{ v, samples: sample(() => v.run(input, text), opts) }];
    } catch (e) {
      warnings.push(`scaling ${size}: \`${v.label}\` left out, it threw: ${(e as Error)?.message ?? String(e)}`);
      return [];
    }
  });
  const floorSamples = measured[0]!.samples;
  gc();
  const h1 = heapUsed();
  let kept: unknown = measured.find((m) => m.v.key === 'default')?.v.run(input, text);
  gc();
  const resultHeapBytes = heapUsed() - h1;
  let defsRemoved: number | undefined;
  const prune = builtinTransforms.find((t) => t.name === 'prune-unreachable-defs');
  if (single && prune) {
    const r = transformTools(input, { transforms: [prune], measure: false });
    defsRemoved = r.report.changes.filter((c) => c.op === 'remove').length;
  }
  kept = undefined;
  void kept;
  const first = input[0] as { inputSchema?: { $defs?: object } } | undefined;
  const defs = single ? Object.keys(first?.inputSchema?.$defs ?? {}).length : undefined;
  return {
    size,
    tools: count,
    bytes,
    inputHeapBytes,
    resultHeapBytes,
    rows: measured.map(({ v, samples }) => {
      const m = median(samples);
      return { key: v.key, label: v.label, medianMs: round3(m), samples: samples.length, ratio: floorRatio(samples, floorSamples), usPerTool: (1000 * m) / count, mbPerS: megabytesPerSecond(bytes, m) };
    }),
    ...(defsRemoved !== undefined ? { defsRemoved, defs } : {}),
  };
}

function scaling(corpus: readonly Capture[], gate: boolean): BenchResults['scaling'] {
  const variants = scaleVariants(gate);
  const pool = orderPool(corpus.flatMap((c) => c.tools.map((tool, i): PoolEntry => ({ key: `${c.file}#${i}`, tool }))));
  const toolLists: ScalingPoint[] = [];
  let last: { count: number; passMs: number; bytes: number } | undefined;
  for (const count of TOOL_COUNTS) {
    const label = count >= 1000 ? `${count / 1000}k tools` : `${count} tools`;
    // The budget counts CPU time, so a machine shared with other work still runs the whole series (a
    // quiet 2-core machine spends about as much CPU as wall time). Estimate: one pass of every variant
    // at the last size, scaled linearly, times the runs planned here, plus building, parsing and
    // collecting (≈ two more passes), converted to CPU time at the rate seen so far when timing wall time.
    const elapsed = cpuMs();
    const cpuPerWall = CLOCK === 'cpu' ? 1 : Math.min(1.5, Math.max(0.05, elapsed / (now() - started)));
    const plan = samplingFor(count, last ? (last.bytes * count) / last.count : 0);
    const estimate = last ? ((last.passMs * count) / last.count) * (plan.warmup + plan.maxRuns + 2) * cpuPerWall : 0;
    // Keep room for the schema series and the import cost that follow.
    if (elapsed + estimate + RESERVE_MS > BUDGET_MS) {
      toolLists.push({ size: label, tools: count, bytes: 0, inputHeapBytes: 0, resultHeapBytes: 0, rows: [], skipped: `over the time budget (estimated ${Math.round(estimate / 1000)} s of CPU, ${Math.round((BUDGET_MS - RESERVE_MS - elapsed) / 1000)} s left; raise BENCH_BUDGET_S)` });
      log(`scaling: skipped ${label} (budget)`);
      continue;
    }
    const t0 = now();
    const point = scalePoint(label, () => syntheticToolList(pool, count), variants, count);
    toolLists.push(point);
    last = { count, passMs: point.rows.reduce((a, r) => a + r.medianMs, 0), bytes: point.bytes };
    log(`scaling: ${label} in ${((now() - t0) / 1000).toFixed(1)} s`);
  }
  const fits: Fit[] = variants.map((v) => {
    const pts = toolLists.filter((p) => p.rows.some((r) => r.key === v.key));
    const f = linearFit(
      pts.map((p) => p.tools),
      pts.map((p) => p.rows.find((r) => r.key === v.key)!.medianMs),
    );
    return { key: v.key, label: v.label, usPerTool: f.slope * 1000, interceptMs: f.intercept, r2: f.r2 };
  });

  const schemaPool = orderPool(
    corpus.flatMap((c) =>
      c.tools.flatMap((tool, i): PoolEntry[] => {
        const s = tool.inputSchema;
        if (typeof s !== 'object' || s === null || Array.isArray(s)) return [];
        const inv = collectRefInventory(s, getDeclaredDialect(s).dialect);
        return inv.refs.length === 0 && inv.anchors.length === 0 && inv.resources.length === 0 ? [{ key: `${c.file}#${i}`, tool: s as Record<string, unknown> }] : [];
      }),
    ),
  ).map((e) => e.tool);
  const schemas: ScalingPoint[] = [];
  for (const mb of SCHEMA_MB) {
    const t0 = now();
    schemas.push(scalePoint(`${mb} MB schema`, () => [largeSchemaTool(schemaPool, mb * 1e6, `${mb}MB`)], variants, 1, true));
    log(`scaling: ${mb} MB schema in ${((now() - t0) / 1000).toFixed(1)} s`);
  }
  return { toolLists, fits, schemas };
}

// ---------------------------------------------------------------------------------------------------------
// Import cost


function importCost(): BenchResults['importCost'] {
  try {
    ensureBuilt(join(ROOT, 'dist', 'index.js'), log);
    const runs = QUICK ? 3 : 7;
    // The tokenizer entry is shown for scale only (it is slow to load): fewer runs.
    const specs: [string, string, number][] = [
      ['`toolslim` (dist/index.js)', join(ROOT, 'dist', 'index.js'), runs],
      ['`ajv` alone', 'ajv', runs],
      ['`toolslim/tokens` (dist/tokens.js)', join(ROOT, 'dist', 'tokens.js'), 3],
    ];
    // Interleave the children so drift hits every row alike.
    const samples = specs.map(() => [] as { ms: number; heapBytes: number }[]);
    for (let i = 0; i < runs; i++) specs.forEach(([, spec, n], j) => i < n && samples[j]!.push(...measureImport(spec, ROOT, 1, CLOCK)));
    const rows: ImportRow[] = specs.map(([what, spec], j) => ({
      what,
      spec: spec.startsWith('/') ? spec.slice(ROOT.length + 1) : spec,
      runs: samples[j]!.length,
      medianMs: round3(median(samples[j]!.map((s) => s.ms))),
      medianHeapBytes: Math.round(median(samples[j]!.map((s) => s.heapBytes))),
    }));
    const packagesImported = packagesImportedBy(join(ROOT, 'dist', 'index.js'));
    return {
      rows,
      timeRatio: rows[0]!.medianMs / rows[1]!.medianMs,
      heapRatio: rows[0]!.medianHeapBytes / rows[1]!.medianHeapBytes,
      packagesImported,
      tokenizerImported: packagesImported.includes('gpt-tokenizer'),
    };
  } catch (e) {
    const error = (e as Error)?.message ?? String(e);
    warnings.push(`import cost not measured: ${error}`);
    return { rows: [], timeRatio: NaN, heapRatio: NaN, packagesImported: [], tokenizerImported: false, error };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Environment

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

function environment(): BenchResults['environment'] {
  const generated = ['bench/results.md', 'bench/results.json', 'bench/history.jsonl', 'README.md'];
  const dirty = git(['status', '--porcelain'])
    .split('\n')
    .filter((l) => l.trim() !== '' && !generated.includes(l.slice(3)) && !l.slice(3).startsWith('node_modules')).length > 0;
  return {
    date: new Date().toISOString(),
    node: process.version,
    v8: process.versions.v8,
    platform: process.platform,
    arch: process.arch,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGB: Math.round(totalmem() / 2 ** 30),
    commit: git(['rev-parse', '--short=12', 'HEAD']) || 'unknown',
    dirty,
    quick: QUICK,
    clock: CLOCK,
  };
}

/** CPU milliseconds this process has used (all threads). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

// ---------------------------------------------------------------------------------------------------------
// Main

function main(): void {
  const env = environment();
  const corpus = loadCorpus();
  log(`corpus: ${corpus.length} servers, ${corpus.reduce((a, c) => a + c.tools.length, 0)} tools`);
  const runs = planRuns(corpus[0]?.tools ?? []);

  const timings = timeServers(corpus);
  const servers: ServerResult[] = corpus.map((c, i) => {
    const results: Record<string, RunResult> = {};
    for (const info of runs) results[info.key] = runOne(c, info);
    return { file: c.file, label: c.label, package: c.package, version: c.version, capturedAt: c.capturedAt, tools: c.tools.length, before: c.before, timeMs: timings[i]!.timeMs, floorMs: timings[i]!.floorMs, runs: results };
  });
  log(`sizes: ${runs.length} pipelines × ${servers.length} servers`);
  const summaries: Record<string, RunSummary> = {};
  for (const info of runs) summaries[info.key] = summarizeRun(servers, info.key);

  const parts = {
    before: addCompositions(corpus.map((c) => composition(c.tools))),
    after: addCompositions(corpus.map((c) => composition(transformTools(c.tools, { measure: false }).tools))),
  };
  tokenCache.clear();
  const gate = detectGate();
  const speed = measureSpeed(corpus, userVariants(gate), speedVariants(gate, 'default pipeline'), gate);
  log(`speed: ${speed.rows.length} rows, ${speed.iterations} iterations`);
  // The same rows over the validation set (issue 31): the targets hold on both.
  const validation = loadCorpus(VALIDATION);
  const validationSpeed = validation.length > 0 ? { ...measureSpeed(validation, userVariants(gate), speedVariants(gate, 'default pipeline'), gate), servers: validation.length } : undefined;
  if (validationSpeed) log(`validation speed: ${validation.length} servers, ${validationSpeed.rows.length} rows`);
  const scale = scaling(corpus, gate);
  const imports = importCost();
  log('import cost measured');
  // Hostile descriptions at 1 MB (issue 12): a self-contained section, bench/hostile.ts.
  const hostile = measureHostile({ quick: QUICK, log });

  const notion = corpus.find((c) => c.package === '@notionhq/notion-mcp-server' && c.version === '2.5.2');
  const results: BenchResults = {
    version: 1,
    environment: env,
    corpus: { servers: corpus.length, tools: corpus.reduce((a, c) => a + c.tools.length, 0), before: { bytes: corpus.reduce((a, c) => a + c.before.bytes, 0), tokens: corpus.reduce((a, c) => a + c.before.tokens, 0) } },
    transforms: builtinTransforms.map((t) => ({ name: t.name, safety: t.safety, description: t.description })),
    presets: builtinPresets.map((p) => ({ name: p.name, steps: p.steps.map((t) => t.name) })),
    runs,
    servers,
    summaries,
    anchors: { publishedOptimizer: PUBLISHED, notion: { ...NOTION, ...(notion ? { file: notion.file, label: notion.label } : {}) } },
    speed,
    ...(validationSpeed ? { validationSpeed } : {}),
    scaling: scale,
    importCost: imports,
    composition: parts,
    warnings,
    durationS: Math.round((now() - started) / 100) / 10,
  };

  process.stdout.write(renderConsole(results));
  if (!WRITE) {
    log('not writing results (--quick or --no-write)');
    return;
  }
  writeFileSync(join(BENCH, 'results.json'), JSON.stringify({ ...results, hostile }, null, 2) + '\n');
  // The fuzz section is written by `npm run bench:fuzz` (minutes of its own, not part of this run): kept as it was.
  const previousMd = existsSync(join(BENCH, 'results.md')) ? readFileSync(join(BENCH, 'results.md'), 'utf8') : '';
  const fuzzAt = previousMd.indexOf('<!-- fuzz:start -->');
  const fuzzEnd = previousMd.indexOf('<!-- fuzz:end -->', fuzzAt);
  const fuzzBlock = fuzzAt >= 0 && fuzzEnd >= 0 ? '\n' + previousMd.slice(fuzzAt, fuzzEnd + '<!-- fuzz:end -->'.length) + '\n' : '';
  // The readers' section is written by bench/rendered.ts (`npm run bench` runs it after this): kept as it was.
  const renderedAt = previousMd.indexOf('<!-- rendered:start -->');
  const renderedEnd = previousMd.indexOf('<!-- rendered:end -->', renderedAt);
  const renderedBlock = renderedAt >= 0 && renderedEnd >= 0 ? '\n' + previousMd.slice(renderedAt, renderedEnd + '<!-- rendered:end -->'.length) + '\n' : '';
  writeFileSync(join(BENCH, 'results.md'), renderMarkdown(results).replace(/\n*$/, '\n\n') + hostileBlock(hostile) + fuzzBlock + renderedBlock);
  appendFileSync(join(BENCH, 'history.jsonl'), JSON.stringify(historyEntry(results)) + '\n');
  const readmePath = join(ROOT, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const updated = replaceMarkedBlock(readme, 'bench', renderReadmeBlock(results));
  if (updated === undefined) log('README.md has no <!-- bench:start --> … <!-- bench:end --> block; left unchanged');
  else if (updated !== readme) writeFileSync(readmePath, updated);
  log('wrote bench/results.md, bench/results.json, bench/history.jsonl, README.md');
}

main();
