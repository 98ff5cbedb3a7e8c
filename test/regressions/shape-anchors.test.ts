// A full GC between two runs must not take the engine's optimised code with it (docs/architecture.md, "Shape
// anchors"). Every run's resolved options, report changes, sizes and memos die with the run; where their
// hidden classes died too, V8 deoptimised `runStep` after each major GC ("weak objects") and recompiled it on
// the next call. Checked in a child process, with V8's own account of what it deoptimised and why.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

const script = `
const { readdirSync, readFileSync } = await import('node:fs');
const { transformTools } = await import(${JSON.stringify(root + 'src/index.ts')});
const dir = ${JSON.stringify(root + 'bench/corpus')};
const texts = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().slice(0, 30).map((f) => JSON.stringify(JSON.parse(readFileSync(dir + '/' + f, 'utf8')).toolsList.tools));
for (let pass = 0; pass < 6; pass++) {
  globalThis.gc();
  console.log('--- pass ' + pass);
  for (const t of texts) transformTools(JSON.parse(t), { verify: false });
}
`;

describe('shape anchors', () => {
  it('a full GC between runs deoptimises none of the engine’s step functions', () => {
    const r = spawnSync(process.execPath, ['--expose-gc', '--trace-deopt-verbose', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    // After the warm-up passes (code optimised), what each forced GC marked for deoptimisation.
    const afterWarmUp = r.stdout.slice(r.stdout.indexOf('--- pass 3'));
    expect(afterWarmUp).not.toBe('');
    const marked = [...afterWarmUp.matchAll(/marking dependent code .*?<SharedFunctionInfo ([^>]*)>.*?reason: ([^\]]*)\]/g)].map((m) => `${m[1]} (${m[2]})`);
    expect(marked.filter((m) => /^(runStep|stampChanges|stamped|runWithAnalysis|resolve|resolveStepOptions) /.test(m))).toEqual([]);
  }, 150_000);
});
