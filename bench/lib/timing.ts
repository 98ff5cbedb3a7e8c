/** Clock, garbage collection and heap readings for the benchmark (the only impure helpers besides I/O). */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs a full garbage collection and waits until its helper threads are done (so heap readings and timings
 * start from the same state). The collector goes on sweeping and freeing on other threads after `gc()`
 * returns, and the CPU clock counts every thread: without the wait, that work lands in the next timed pass,
 * about the same amount in every pass, and deflates every ratio to the floor (measured with 170 MB live: a
 * corpus floor pass read 52 ms instead of 23, `safe` 3.0× the floor instead of 4.9×). Done when a 10 ms sleep
 * costs the process (almost) no CPU, at most a second.
 */
export function gc(): void {
  collect();
  for (let i = 0; i < 100; i++) {
    const u0 = process.cpuUsage();
    Atomics.wait(pause, 0, 0, 10);
    const u = process.cpuUsage(u0);
    if (u.user + u.system < 500) break;
  }
}

/** Bytes of JS heap in use right now. */
export function heapUsed(): number {
  return process.memoryUsage().heapUsed;
}

/** Wall-clock milliseconds (for progress and budgets). */
export function now(): number {
  return performance.now();
}

/**
 * What measurements count: `cpu` (default) is the CPU time of this process, all its threads — on a
 * machine shared with other work it is far steadier than wall time, and floor and pipeline are measured
 * alike; `wall` (`BENCH_CLOCK=wall`) is elapsed time.
 */
export const CLOCK: 'cpu' | 'wall' = process.env.BENCH_CLOCK === 'wall' ? 'wall' : 'cpu';

/** The measuring clock in milliseconds (see {@link CLOCK}). */
export function tick(): number {
  if (CLOCK === 'wall') return performance.now();
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Milliseconds one call of `fn` takes on the measuring clock. */
export function timeOnce(fn: () => unknown): number {
  const t0 = tick();
  fn();
  return tick() - t0;
}

/** How many times to run a measurement. */
export interface SampleOptions {
  /** Untimed runs first (default 1). */
  readonly warmup?: number;
  /** Stop after this many timed runs (default 7). */
  readonly maxRuns?: number;
  /** At least this many timed runs, whatever the budget (default 1). */
  readonly minRuns?: number;
  /** Stop once the timed runs add up to this many milliseconds (default 2000). */
  readonly budgetMs?: number;
  /** Collect garbage before each timed run (default false; worth it for large inputs). */
  readonly gcEach?: boolean;
}

/** Timed runs of `fn` (milliseconds each), within a count and a time budget. */
export function sample(fn: () => unknown, options: SampleOptions = {}): number[] {
  const { warmup = 1, maxRuns = 7, minRuns = 1, budgetMs = 2000, gcEach = false } = options;
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  let spent = 0;
  while (samples.length < maxRuns && (samples.length < minRuns || spent < budgetMs)) {
    if (gcEach) gc();
    const ms = timeOnce(fn);
    samples.push(ms);
    spent += ms;
  }
  return samples;
}
