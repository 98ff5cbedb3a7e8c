// The bench's user rows (the default call, `safe` with the gate off, prune alone with the gate off) as
// `npm run bench` measures them, in seconds instead of the whole bench's minutes: every server's
// tools parsed and kept (as bench/run.ts keeps its captures), passes interleaved with the floor, a full GC
// before every timed pass waited out until the collector's threads are idle, CPU time of the process, and
// each pass divided by the floor pass timed right before it (the median of those is the paired ratio of
// record). For trying a change against the figure the issue's targets read.
//
//   npx tsx bench/user-rows.ts [dist] [corpus|validation|both] [passes] [--all]
//   e.g. npx tsx bench/user-rows.ts dist validation 9
//
// `--all`: the rows run in the company bench/run.ts times them in: every transform and preset alone (measure
// on and off), the tokens row and the gate levels, one warm-up pass each, interleaved with the user rows (the
// extra rows are timed for three passes, then only run, as there). Where Linux gives a thread's own CPU time
// (/proc/thread-self/schedstat), each row also shows the main thread's share of its pass: the rest is V8's
// helper threads, its collector and its optimizing compiler, which the CPU clock counts too.
//
// Why both. A process that runs only these rows is still compiling after its first passes: functions called
// once per run or per tool (`runWithAnalysis`, reconcile's `reconcileDocument`, `collectRefInventory`) reach
// TurboFan only after many runs, each compile 20-30 ms on a helper thread, and those compiles land in timed
// passes. Measured on bench/validation (December 2026), `safe` with the gate off, one warm-up pass: alone in
// its process 70 ms a pass of which 51 ms on the main thread; beside the default call 55 ms, 49.5 ms on the
// main thread; with `--all` 52.6 ms, 51.0 ms on the main thread. Ten warm-up passes moved the corpus row
// 4.21× -> 3.86× and validation 4.68× -> 4.54× (the compiles had already landed in the corpus passes). The bench of
// record runs every row once before timing, which is what `--all` reproduces.
//
// Why the parsed tools are kept: the maps and internalized keys `JSON.parse` builds stay alive while some
// object holds them, so a process holding the set parses it again faster. Measured on bench/validation
// (December 2026): the floor pass 12.9 ms in a process holding only the texts, 9.7 ms holding the parsed
// tools too, and `safe` with the gate off 49.3 → 44.4 ms; the paired ratio 3.9× → 4.6×, which is what the
// bench reads. The same build run in fresh processes one after another read `safe` on the corpus at 3.76×,
// 3.84×, 3.87× and 4.31×: count a change only when it shows beyond that spread (bench/ab-cpu.mjs pairs two
// builds in one process).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Toolslim from '../src/index.js';
import { median } from './lib/stats.js';
import { gc, timeOnce } from './lib/timing.js';

const args = process.argv.slice(2);
const all = args.includes('--all');
const [dist = 'dist', which = 'both', passArg = '9'] = args.filter((a) => a !== '--all');
const passes = Number(passArg);

/** The main thread's CPU time in ms (Linux: the first field of schedstat, in ns), or undefined elsewhere. */
function mainThreadMs(): number | undefined {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

const m = (await import(pathToFileURL(join(resolve(dist), 'index.js')).href)) as typeof Toolslim;
const prune = m.builtinTransforms.find((t) => t.name === 'prune-unreachable-defs')!;
const rows: { label: string; options: Toolslim.TransformToolsOptions }[] = [
  { label: 'the default call', options: {} },
  { label: '`safe`, verify: false', options: { verify: false } },
  { label: 'prune alone, verify: false', options: { transforms: [prune], verify: false } },
];
/** With `--all`, the rows bench/run.ts times beside the user rows (speedVariants there; the gate levels of the user rows too). */
const company: { options: Toolslim.TransformToolsOptions; warm: boolean }[] = [];
if (all) {
  const tokens = (await import(pathToFileURL(join(resolve(dist), 'tokens.js')).href)) as typeof import('../src/tokens.js');
  for (const verify of ['structural', 'verdicts'] as const) company.push({ options: { verify } as unknown as Toolslim.TransformToolsOptions, warm: true });
  for (const t of [...m.builtinTransforms, ...m.builtinPresets]) {
    for (const measure of [false, true]) company.push({ options: { transforms: [t], measure, ...(measure ? {} : { verify: false }) } as Toolslim.TransformToolsOptions, warm: true });
  }
  company.push({ options: { tokenizer: tokens.o200k }, warm: false });
  for (const verify of [false, 'structural', 'verdicts'] as const) company.push({ options: { measure: false, verify } as unknown as Toolslim.TransformToolsOptions, warm: true });
}

for (const set of which === 'both' ? ['corpus', 'validation'] : [which]) {
  const dir = join(import.meta.dirname, set);
  const captures = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const tools = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { toolsList: { tools: unknown[] } }).toolsList.tools;
      return { tools, text: JSON.stringify(tools) };
    });
  const floorPass = () => {
    for (const c of captures) JSON.stringify(JSON.parse(c.text));
  };
  const runs = rows.map((r) => () => {
    for (const c of captures) m.transformTools(JSON.parse(c.text), r.options);
  });
  const others = company.map((c) => () => {
    for (const cap of captures) m.transformTools(JSON.parse(cap.text), c.options);
  });
  floorPass();
  for (const run of runs) run();
  others.forEach((run, i) => company[i]!.warm && run());
  const ratios: number[][] = rows.map(() => []);
  const times: number[][] = rows.map(() => []);
  const mains: number[][] = rows.map(() => []);
  const floors: number[] = [];
  for (let i = 0; i < passes; i++) {
    for (let r = 0; r < rows.length; r++) {
      gc();
      const floor = timeOnce(floorPass);
      gc();
      const main0 = mainThreadMs();
      const ms = timeOnce(runs[r]!);
      const main1 = mainThreadMs();
      floors.push(floor);
      times[r]!.push(ms);
      ratios[r]!.push(ms / floor);
      if (main0 !== undefined && main1 !== undefined) mains[r]!.push(main1 - main0);
    }
    // The company (bench/run.ts's other rows), each after a GC as there.
    for (const run of others) {
      gc();
      if (i < 3) timeOnce(floorPass);
      gc();
      run();
    }
  }
  console.log(`${set} (${captures.length} servers, ${passes} passes${all ? ', with every row bench/run.ts times' : ''}; floor ${median(floors).toFixed(2)} ms a pass)`);
  rows.forEach((r, i) => console.log(`  ${r.label.padEnd(28)} ${median(ratios[i]!).toFixed(2)}×   ${median(times[i]!).toFixed(2)} ms${mains[i]!.length > 0 ? ` (main thread ${median(mains[i]!).toFixed(2)} ms)` : ''}`));
}
