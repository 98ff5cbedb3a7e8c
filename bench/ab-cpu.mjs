// A/B of two builds in CPU time, in one process: both builds are imported side by side and their passes
// alternate (forced GC before each), so a pass of each runs in the same minute of the machine's clock, which
// on this machine moves by more than the changes measured (the same build read 54 and 100 ms a pass minutes
// apart). Prints each build's median pass and the median of the per-pair ratio B/A.
//
//   node --expose-gc bench/ab-cpu.mjs <dist A> <dist B> <corpus|validation|dir> ['<options JSON>']
//   e.g. node --expose-gc bench/ab-cpu.mjs /tmp/dist-old dist validation '{"verify":false}'
//
// The position matters (the second build imported runs on what the first warmed) and the machine still moves
// a ratio between runs: run both orders (A B, then B A) with N of 20 or more, and count a change only when the
// two ratios agree on its direction (10 pairs in one order once read a build 6% slower that 20 pairs in each
// order read 3% and 8% faster). Options may name built-in transforms or presets
// (`"transforms": ["reconcile-dialect"]`). Env: N (pairs, default 30).
import { readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [distA, distB, set, variant = '{"verify":false}'] = process.argv.slice(2);
if (!distA || !distB || !set || typeof globalThis.gc !== 'function') {
  process.stderr.write('usage: node --expose-gc bench/ab-cpu.mjs <dist A> <dist B> <corpus|validation|dir> [options JSON]\n');
  process.exit(2);
}
const dir = isAbsolute(set) || set.includes('/') ? resolve(set) : join(import.meta.dirname, set);
const load = (d) => import(pathToFileURL(join(resolve(d), 'index.js')).href);
const [A, B] = [await load(distA), await load(distB)];
const optionsFor = (m) => {
  const o = JSON.parse(variant);
  if (o.transforms) o.transforms = o.transforms.map((name) => m.lookup(name));
  return o;
};
const [oa, ob] = [optionsFor(A), optionsFor(B)];
const texts = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.stringify(JSON.parse(readFileSync(join(dir, f), 'utf8')).toolsList.tools));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const pass = (m, o) => {
  for (const t of texts) m.transformTools(JSON.parse(t), o);
};
const timed = (m, o) => {
  globalThis.gc();
  const start = cpu();
  pass(m, o);
  return cpu() - start;
};
for (let i = 0; i < 8; i++) pass(A, oa), pass(B, ob);
const a = [];
const b = [];
const ratio = [];
for (let i = 0; i < Number(process.env.N ?? 30); i++) {
  // Which build goes first alternates from pair to pair.
  const [ta, tb] = i % 2 === 0 ? [timed(A, oa), timed(B, ob)] : (([y, x]) => [x, y])([timed(B, ob), timed(A, oa)]);
  a.push(ta);
  b.push(tb);
  ratio.push(tb / ta);
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
process.stdout.write(`A ${median(a).toFixed(2)} ms  B ${median(b).toFixed(2)} ms  median B/A ${median(ratio).toFixed(3)}  (${a.length} pairs)\n`);
