// A full GC between two runs must not take the engine's optimised code with it (docs/architecture.md, "Shape
// anchors"). Every run's resolved options, report changes, sizes and memos die with the run; where their
// hidden classes died too, V8 deoptimised `runStep` after each major GC ("weak objects") and recompiled it on
// the next call. Closures made per run or per document die with the run too, and V8 keeps a function's
// optimised code only while one of its closures lives: such a closure was compiled again after every GC.
// Checked in a child process, with V8's own account of what it optimised, deoptimised and why.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PASSES = 9;
/** Passes before this one warm the code up; the ones from it on are looked at. */
const WARM = 4;

const script = `
const { readdirSync, readFileSync } = await import('node:fs');
const { transformTools } = await import(${JSON.stringify(root + 'src/index.ts')});
const dir = ${JSON.stringify(root + 'bench/corpus')};
const texts = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().slice(0, 30).map((f) => JSON.stringify(JSON.parse(readFileSync(dir + '/' + f, 'utf8')).toolsList.tools));
for (let pass = 0; pass < ${PASSES}; pass++) {
  globalThis.gc();
  console.log('--- pass ' + pass);
  for (const t of texts) transformTools(JSON.parse(t), { verify: false });
}
`;

/** The trace's lines after the warm-up, by pass. */
let passes: string[][] = [];

beforeAll(() => {
  const r = spawnSync(process.execPath, ['--expose-gc', '--trace-opt', '--trace-deopt-verbose', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
  expect(r.status, r.stderr).toBe(0);
  passes = r.stdout.split(/^--- pass \d+$/m).slice(1 + WARM).map((p) => p.split('\n'));
}, 150_000);

describe('shape anchors', () => {
  it('a full GC between runs deoptimises none of the engine’s step functions', () => {
    expect(passes.length).toBe(PASSES - WARM);
    const marked = passes.flat().flatMap((line) => [...line.matchAll(/marking dependent code .*?<SharedFunctionInfo ([^>]*)>.*?reason: ([^\]]*)\]/g)].map((m) => `${m[1]} (${m[2]})`));
    expect(marked.filter((m) => /^(runStep|stampChanges|stamped|runWithAnalysis|resolve|resolveStepOptions) /.test(m))).toEqual([]);
  });

  it('no function is optimised again after every full GC (no hot closure made per run, no rare load left without feedback)', () => {
    // Each function (by its SharedFunctionInfo) and the passes after the warm-up in which V8 optimised it.
    const inPasses = new Map<string, Set<number>>();
    passes.forEach((lines, pass) => {
      for (const line of lines) {
        const m = /^\[completed optimizing .*?<JSFunction ([^ >]*) ?\(sfi = (0x[0-9a-f]+)\)>/.exec(line);
        if (m) inPasses.set(`${m[1] || '(anonymous)'} sfi ${m[2]}`, (inPasses.get(`${m[1] || '(anonymous)'} sfi ${m[2]}`) ?? new Set()).add(pass));
      }
    });
    // Now and then a function is deoptimised and optimised again (a map it was compiled for dies); one
    // compiled in every pass pays for a full GC each time. (`--print-opt-source` names an anonymous one.)
    const everyPass = [...inPasses].filter(([, s]) => s.size === passes.length).map(([f]) => f);
    expect(everyPass).toEqual([]);
  });
});
