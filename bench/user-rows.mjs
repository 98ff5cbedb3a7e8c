// The bench's user rows (the default call, `safe` with the gate off, prune alone with the gate off) as
// `npm run bench` measures them, in about 20 s a set instead of the whole bench's minutes: every server's
// tools parsed and kept (as bench/run.ts keeps its captures), passes interleaved with the floor, a full GC
// before every timed pass waited out until the collector's threads are idle, CPU time of the process, and
// each pass divided by the floor pass timed right before it (the median of those is the paired ratio of
// record). For trying a change against the figure the targets read.
//
//   node bench/user-rows.mjs [dist] [corpus|validation|both] [passes]
//   e.g. node bench/user-rows.mjs dist validation 9
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
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const [dist = 'dist', which = 'both', passArg = '9'] = process.argv.slice(2);
const passes = Number(passArg);
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc');
const pause = new Int32Array(new SharedArrayBuffer(4));
// As bench/lib/timing.ts: a full GC, then wait until a 10 ms sleep costs (almost) no CPU.
const gc = () => {
  collect();
  for (let i = 0; i < 100; i++) {
    const u0 = process.cpuUsage();
    Atomics.wait(pause, 0, 0, 10);
    const u = process.cpuUsage(u0);
    if (u.user + u.system < 500) break;
  }
};
const tick = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const timeOnce = (f) => {
  const t0 = tick();
  f();
  return tick() - t0;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const m = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
const prune = m.builtinTransforms.find((t) => t.name === 'prune-unreachable-defs');
const rows = [
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
      const tools = JSON.parse(readFileSync(join(dir, f), 'utf8')).toolsList.tools;
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
  const ratios = rows.map(() => []);
  const times = rows.map(() => []);
  const floors = [];
  for (let i = 0; i < passes; i++) {
    for (let r = 0; r < rows.length; r++) {
      gc();
      const floor = timeOnce(floorPass);
      gc();
      const ms = timeOnce(runs[r]);
      floors.push(floor);
      times[r].push(ms);
      ratios[r].push(ms / floor);
    }
  }
  console.log(`${set} (${captures.length} servers, ${passes} passes; floor ${median(floors).toFixed(2)} ms a pass)`);
  rows.forEach((r, i) => console.log(`  ${r.label.padEnd(28)} ${median(ratios[i]).toFixed(2)}×   ${median(times[i]).toFixed(2)} ms`));
}
