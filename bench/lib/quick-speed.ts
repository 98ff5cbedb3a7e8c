/**
 * `npx tsx bench/lib/quick-speed.ts [variant…]`: a fast look at the three user-facing ratios (a few passes,
 * no GC control), for profiling sessions; `bench/run.ts` is the measurement of record. Times the built package
 * (dist/, rebuilt when stale), as the bench does; `SRC=1` times the TypeScript sources instead. With `GC=1`, a full
 * GC runs before every timed pass and is waited for, as in the bench's rows of record. `SET=validation` times
 * bench/validation (the set the engine is not tuned on) instead of bench/corpus.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TransformToolsOptions } from '../../src/index.js';
import * as sources from '../../src/index.js';
import { built } from './built.js';
import { gc as settledGc } from './timing.js';

const { builtinTransforms, transformTools } = process.env.SRC === '1' ? sources : built;

const CORPUS = join(import.meta.dirname, '..', process.env.SET === 'validation' ? 'validation' : 'corpus');
const texts = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.stringify((JSON.parse(readFileSync(join(CORPUS, f), 'utf8')) as { toolsList: { tools: unknown[] } }).toolsList.tools));
const prune = builtinTransforms.find((t) => t.name === 'prune-unreachable-defs')!;
const VARIANTS: Record<string, TransformToolsOptions | undefined> = {
  default: {},
  'safe-noverify': { verify: false },
  'prune-noverify': { transforms: [prune], verify: false },
  'default-nomeasure': { measure: false },
  'safe-noverify-nomeasure': { verify: false, measure: false },
  'prune-noverify-nomeasure': { transforms: [prune], verify: false, measure: false },
  parse: undefined,
  verdicts: { verify: 'verdicts' },
};
const pick = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = pick.length > 0 ? pick : ['default', 'safe-noverify', 'prune-noverify'];
const passes = Number(process.env.PASSES ?? 7);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const gcEach = process.env.GC === '1';
const time = (fn: () => void) => {
  if (gcEach) settledGc();
  const t0 = cpu();
  fn();
  return cpu() - t0;
};
const floorPass = () => {
  for (const t of texts) JSON.stringify(JSON.parse(t));
};
const runs = names.map((n) =>
  n === 'parse'
    ? () => {
        for (const t of texts) JSON.parse(t);
      }
    : () => {
        for (const t of texts) transformTools(JSON.parse(t), VARIANTS[n]);
      },
);
floorPass();
runs.forEach((r) => r());
const floor: number[] = [];
const samples: number[][] = names.map(() => []);
for (let i = 0; i < passes; i++) {
  floor.push(time(floorPass));
  runs.forEach((r, k) => samples[k]!.push(time(r)));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f = median(floor);
process.stdout.write(`floor ${f.toFixed(1)} ms\n`);
names.forEach((n, k) => process.stdout.write(`${n.padEnd(20)} ${median(samples[k]!).toFixed(1).padStart(8)} ms  ${(median(samples[k]!) / f).toFixed(2)}x\n`));
