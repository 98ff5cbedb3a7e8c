// Where a pass's time goes, step by step, in the built package: each step's `timeMs` from the report
// (`report.stats.transforms`), the median over the passes, beside the whole pass (parse included, as the
// bench times it); what the steps leave is `JSON.parse`, the input check and the engine around the steps.
// A full GC runs before every pass, as in the bench's rows of record. For finding what to work on; the bench
// (`npm run bench`) holds the figures of record, and bench/ab-cpu.mjs tells two builds apart.
//
//   node --expose-gc bench/step-times.mjs [dist] [corpus|validation|both] ['<options JSON>'] [passes]
//   e.g. node --expose-gc bench/step-times.mjs dist validation '{"verify":false}' 30
//
// Options may name built-in transforms or presets (`"transforms": ["strip-noise"]`).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist = 'dist', which = 'both', variant = '{"verify":false}', passes = '30'] = process.argv.slice(2);
if (typeof globalThis.gc !== 'function') {
  process.stderr.write('usage: node --expose-gc bench/step-times.mjs [dist] [corpus|validation|both] [options JSON] [passes]\n');
  process.exit(2);
}
const m = await import(pathToFileURL(join(resolve(dist), 'index.js')).href);
const options = JSON.parse(variant);
if (options.transforms) options.transforms = options.transforms.map((name) => m.lookup(name));
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

for (const set of which === 'both' ? ['corpus', 'validation'] : [which]) {
  const dir = join(import.meta.dirname, set);
  const texts = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.stringify(JSON.parse(readFileSync(join(dir, f), 'utf8')).toolsList.tools));
  const steps = new Map();
  const whole = [];
  const n = Number(passes);
  // Five passes to warm up, then the measured ones.
  for (let i = 0; i < n + 5; i++) {
    globalThis.gc();
    const pass = new Map();
    const start = performance.now();
    for (const t of texts) for (const s of m.transformTools(JSON.parse(t), options).report.stats.transforms) pass.set(s.name, (pass.get(s.name) ?? 0) + s.timeMs);
    const ms = performance.now() - start;
    if (i < 5) continue;
    whole.push(ms);
    for (const [name, t] of pass) (steps.get(name) ?? steps.set(name, []).get(name)).push(t);
  }
  let sum = 0;
  process.stdout.write(`${set} (${texts.length} lists, ${n} passes, ms a pass, medians)\n`);
  for (const [name, ts] of steps) {
    sum += median(ts);
    process.stdout.write(`  ${name.padEnd(28)} ${median(ts).toFixed(2).padStart(8)}\n`);
  }
  const all = median(whole);
  process.stdout.write(`  ${'parse, input check, engine'.padEnd(28)} ${(all - sum).toFixed(2).padStart(8)}\n  ${'whole pass'.padEnd(28)} ${all.toFixed(2).padStart(8)}\n`);
}
