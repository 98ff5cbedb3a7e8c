/**
 * Hostile descriptions take linear time (issue 12): for each family of bench/lib/hostile-text.ts, the
 * default call `transformTools(tools)` and strip-noise alone are timed on the family's input at size n
 * and 2n in the same run, and the larger may take at most three times as long (linear is two; the
 * backtracking patterns these families were built against took four to eight times as long).
 *
 * Sizes: each input is COPIES tools with the family's description, its length grown from 2k characters
 * until the default call on the larger input takes about TARGET_MS, but never past MAX_CHARS per
 * description. The cap keeps every string below V8's large-object size (128 KB; 32k two-byte characters
 * are 64 KB): a string above it is allocated by its own mapping, a step in cost per character that is
 * not the algorithm's and would make n and 2n incomparable. 1 MB descriptions are timed by
 * bench/hostile.ts, which holds the absolute target. Each time is the best of a few interleaved
 * repetitions of CPU time after a warm-up, and a ratio over the bound is measured again before it fails,
 * so a busy machine does not fail a linear rule.
 */
import { describe, expect, it } from 'vitest';
import { HOSTILE_FAMILIES, requiredProperties } from '../../bench/lib/hostile-text.js';
import { stripNoise, transformTools } from '../../src/index.js';

const BOUND = 3;
const TARGET_MS = 4;
const COPIES = 16;
const START_CHARS = 2048;
const MAX_CHARS = 32_768;
const WARMUP = 3;
const REPS = 4;
const RETRIES = 4;

type Run = (tools: unknown[]) => unknown;
const runs: readonly [string, Run][] = [
  ['default call', (tools) => transformTools(tools)],
  ['strip-noise alone', (tools) => stripNoise(tools)],
];

/**
 * Milliseconds of CPU time (all threads of this process) one run takes: on a machine shared with other
 * work it is far steadier than wall time, as in bench/lib/timing.ts.
 */
function time(run: Run, tools: unknown[]): number {
  const start = process.cpuUsage();
  run(tools);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Best times of `run` on `small` and `large`, interleaved so that a slow moment hits both alike. */
function bestPair(run: Run, small: unknown[], large: unknown[], reps: number, best: [number, number] = [Infinity, Infinity]): [number, number] {
  for (let i = 0; i < reps; i++) {
    best[0] = Math.min(best[0], time(run, small));
    best[1] = Math.min(best[1], time(run, large));
  }
  return best;
}

/** The ratio of the time on `large` to the time on `small`, measured again while over the bound. */
function ratio(run: Run, small: unknown[], large: unknown[]): { ratio: number; small: number; large: number } {
  const best = bestPair(run, small, large, REPS);
  for (let i = 0; i < RETRIES && best[1] / best[0] > BOUND; i++) bestPair(run, small, large, REPS, best);
  return { ratio: best[1] / best[0], small: best[0], large: best[1] };
}

/** COPIES tools with the family's description at length n (in units of the family). */
function copies(build: (n: number) => unknown[], n: number): unknown[] {
  const [tool] = build(n) as [Record<string, unknown>];
  return Array.from({ length: COPIES }, (_, i) => ({ ...tool, name: `t${i}` }));
}

/** The inputs at n and 2n, n grown until the default call on 2n takes about TARGET_MS. */
function sized(build: (n: number) => unknown[], unit: number): { n: number; small: unknown[]; large: unknown[] } {
  let n = Math.max(1, Math.ceil(START_CHARS / unit));
  let large = copies(build, 2 * n);
  time(runs[0]![1], copies(build, n)); // warm up
  while (2 * 2 * n * unit <= MAX_CHARS && Math.min(time(runs[0]![1], large), time(runs[0]![1], large)) < TARGET_MS) {
    n *= 2;
    large = copies(build, 2 * n);
  }
  const small = copies(build, n);
  for (let i = 0; i < WARMUP; i++) for (const [, run] of runs) run(small);
  return { n, small, large };
}

describe('hostile descriptions take linear time (time at 2n ≤ 3 × time at n)', () => {
  for (const family of HOSTILE_FAMILIES) {
    it(`${family.name}: ${family.targets}`, () => {
      const { n, small, large } = sized(family.build, family.unit);
      for (const [label, run] of runs) {
        const r = ratio(run, small, large);
        const detail = `${label} on ${family.name}: ${r.small.toFixed(2)} ms at n = ${n}, ${r.large.toFixed(2)} ms at 2n (× ${r.ratio.toFixed(2)})`;
        expect(r.ratio, detail).toBeLessThanOrEqual(BOUND);
      }
    });
  }

  it('a property’s `required` look-up: 12.5k, 25k and 100k required properties', () => {
    stripNoise(requiredProperties(1_000));
    // strip-noise alone: the rest of the default pipeline is timed on large schemas by bench/run.ts.
    const r = ratio(runs[1]![1], requiredProperties(12_500), requiredProperties(25_000));
    expect(r.ratio, `strip-noise alone: ${r.small.toFixed(0)} ms at 12.5k, ${r.large.toFixed(0)} ms at 25k (× ${r.ratio.toFixed(2)})`).toBeLessThanOrEqual(BOUND);
    // 100k: every property is looked up; every thousandth says `Required.`, and only those lose it.
    const tools = requiredProperties(100_000, (i) => (i % 1000 === 0 ? 'Required. A value.' : 'A value.'));
    const { tools: out, report } = stripNoise(tools);
    const properties = (out[0] as unknown as { inputSchema: { properties: Record<string, { description: string }> } }).inputSchema.properties;
    expect(report.changes.map((c) => c.path)).toEqual(Array.from({ length: 100 }, (_, k) => `/0/inputSchema/properties/p${k * 1000}/description`));
    expect(new Set(report.changes.map((c) => c.code))).toEqual(new Set(['removed-optional-marker']));
    expect(properties.p0!.description).toBe('A value.');
    expect(properties.p1!.description).toBe('A value.');
  });
});
