/**
 * Import cost: time and retained heap of `import(spec)` in a fresh Node process, and the packages a
 * built entry pulls in statically (to show that importing `toolslim` does not load a tokenizer).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** One fresh-process import. */
export interface ImportSample {
  /** Milliseconds of the `await import()` in the child: CPU time of the child, or wall time. */
  readonly ms: number;
  /** Heap in use after the import minus before it, each after a full GC. */
  readonly heapBytes: number;
}

const CHILD = `
const gc = globalThis.gc;
const cpu = process.env.BENCH_CLOCK !== 'wall';
const tick = () => (cpu ? (process.cpuUsage().user + process.cpuUsage().system) / 1000 : performance.now());
gc();
const h0 = process.memoryUsage().heapUsed;
const t0 = tick();
await import(process.env.BENCH_IMPORT_SPEC);
const ms = tick() - t0;
gc();
const heapBytes = process.memoryUsage().heapUsed - h0;
process.stdout.write(JSON.stringify({ ms, heapBytes }));
`;

/**
 * Imports `spec` (a bare package name resolved from `cwd`, or an absolute file path) in a fresh process
 * `runs` times. Throws with the child's stderr when an import fails.
 */
export function measureImport(spec: string, cwd: string, runs: number, clock: 'cpu' | 'wall' = 'wall'): ImportSample[] {
  const target = spec.startsWith('/') ? pathToFileURL(spec).href : spec;
  const samples: ImportSample[] = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', CHILD], {
      cwd,
      env: { ...process.env, BENCH_IMPORT_SPEC: target, BENCH_CLOCK: clock, NODE_OPTIONS: '' },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`import of ${spec} failed: ${r.stderr || r.error?.message}`);
    samples.push(JSON.parse(r.stdout) as ImportSample);
  }
  return samples;
}

/**
 * Packages a built ESM entry imports, statically or through `import()`, following its relative imports
 * (chunks). Sorted; package names only (`gpt-tokenizer/encoding/o200k_base` → `gpt-tokenizer`).
 */
export function packagesImportedBy(entry: string): string[] {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = [resolve(entry)];
  const patterns = [/\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /\bimport\s*['"]([^'"]+)['"]/g];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const re of patterns) {
      for (const m of text.matchAll(re)) {
        const spec = m[1]!;
        if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec));
        else if (!spec.startsWith('node:')) packages.add(packageName(spec));
      }
    }
  }
  return [...packages].sort();
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}
