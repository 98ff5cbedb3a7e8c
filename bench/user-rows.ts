// The bench's user rows (the default call, `safe` with the gate off, prune alone with the gate off) as
// `npm run bench` measures them, in seconds instead of the whole bench's minutes: every server's
// tools parsed and kept (as bench/run.ts keeps its captures), passes interleaved with the floor, a full GC
// before every timed pass waited out until the collector's threads are idle, CPU time of the process, and
// each pass divided by the floor pass timed right before it (the median of those is the paired ratio of
// record). For trying a change against the figure the targets read.
//
//   npx tsx bench/user-rows.ts [dist] [corpus|validation|both] [passes]
//   e.g. npx tsx bench/user-rows.ts dist validation 9
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

const [dist = 'dist', which = 'both', passArg = '9'] = process.argv.slice(2);
const passes = Number(passArg);

const m = (await import(pathToFileURL(join(resolve(dist), 'index.js')).href)) as typeof Toolslim;
const prune = m.builtinTransforms.find((t) => t.name === 'prune-unreachable-defs')!;
const rows: { label: string; options: Toolslim.TransformToolsOptions }[] = [
  { label: 'the default call', options: {} },
  { label: '`safe`, verify: false', options: { verify: false } },
  { label: 'prune alone, verify: false', options: { transforms: [prune], verify: false } },
];

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
  floorPass();
  for (const run of runs) run();
  const ratios: number[][] = rows.map(() => []);
  const times: number[][] = rows.map(() => []);
  const floors: number[] = [];
  for (let i = 0; i < passes; i++) {
    for (let r = 0; r < rows.length; r++) {
      gc();
      const floor = timeOnce(floorPass);
      gc();
      const ms = timeOnce(runs[r]!);
      floors.push(floor);
      times[r]!.push(ms);
      ratios[r]!.push(ms / floor);
    }
  }
  console.log(`${set} (${captures.length} servers, ${passes} passes; floor ${median(floors).toFixed(2)} ms a pass)`);
  rows.forEach((r, i) => console.log(`  ${r.label.padEnd(28)} ${median(ratios[i]!).toFixed(2)}×   ${median(times[i]!).toFixed(2)} ms`));
}
