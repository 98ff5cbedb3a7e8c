// Runner for bench/ab-instructions.sh: `node instructions-run.mjs <set> <options JSON> <dist dir> <passes>` runs
// transformTools(JSON.parse(text), options) over every capture of bench/<set> `passes` times. The options
// may name built-in transforms or presets by name ("transforms": ["prune-unreachable-defs"]).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [set, variant, dist, passes] = process.argv.slice(2);
const dir = join(import.meta.dirname, '..', set);
const m = await import(resolve(dist, 'index.js'));
const options = JSON.parse(variant);
if (options.transforms) options.transforms = options.transforms.map((name) => m.lookup(name));
const texts = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.stringify(JSON.parse(readFileSync(join(dir, f), 'utf8')).toolsList.tools));
for (let i = 0; i < Number(passes); i++) for (const t of texts) m.transformTools(JSON.parse(t), options);
