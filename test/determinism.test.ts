/**
 * Byte-determinism across processes: the built library (dist/index.js, as `npm test`'s pretest builds it)
 * runs in two separate Node processes with different V8 random and hash seeds, on several corpus files;
 * the output bytes and the report (changes, diagnostics, skips, sizes) must be identical, and equal to
 * what the sources give in this process.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transformTools } from '../src/index.js';
import { CORPUS_DIR } from './helpers/corpus.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const FILES = ['notionhq__notion-mcp-server@2.5.2.json', 'cyanheads__git-mcp-server.json', 'ivotoby__openapi-mcp-server--twilio-api-v2010-spec.json'];

/** What a child prints: everything of a run except timings. */
const CHILD = `
const [lib, file] = process.argv.slice(2);
const { transformTools } = await import(lib);
const { readFileSync } = await import('node:fs');
const input = JSON.parse(readFileSync(file, 'utf8'));
const { output, report } = transformTools(input);
const sizes = { before: report.stats.before, after: report.stats.after, tools: report.stats.tools };
process.stdout.write(JSON.stringify({ output, changes: report.changes, diagnostics: report.diagnostics, skipped: report.skipped, sizes }));
`;

function newestMtime(dir: string): number {
  let newest = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      const s = statSync(p);
      if (s.isDirectory()) stack.push(p);
      else newest = Math.max(newest, s.mtimeMs);
    }
  }
  return newest;
}

const tempDirs: string[] = [];

function tempDir(prefix: string, under = tmpdir()): string {
  mkdirSync(under, { recursive: true });
  const d = mkdtempSync(join(under, prefix));
  tempDirs.push(d);
  return d;
}

/** dist/index.js when it is newer than every source file; otherwise a fresh JS-only build in a temp dir. */
function builtLibrary(): string {
  const dist = join(ROOT, 'dist', 'index.js');
  try {
    if (statSync(dist).mtimeMs >= newestMtime(join(ROOT, 'src'))) return dist;
  } catch {
    // no dist yet
  }
  // Inside the project, so that the build's package imports (ajv, when the gate loads it) resolve from node_modules.
  const out = tempDir('toolslim-dist-', join(ROOT, 'node_modules', '.cache'));
  execFileSync('npx', ['tsup', 'src/index.ts', '--format', 'esm', '--no-config', '--silent', '--out-dir', out], { cwd: ROOT, stdio: 'ignore' });
  return join(out, 'index.js');
}

let lib = '';
let script = '';

beforeAll(() => {
  lib = builtLibrary();
  script = join(tempDir('toolslim-child-'), 'child.mjs');
  writeFileSync(script, CHILD);
}, 120_000);

afterAll(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

async function child(file: string, seed: number): Promise<string> {
  const { stdout } = await run(process.execPath, [`--random-seed=${seed}`, `--hash-seed=${seed}`, script, lib, join(CORPUS_DIR, file)], {
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, TZ: seed === 1 ? 'UTC' : 'Asia/Kathmandu', LANG: seed === 1 ? 'C' : 'tr_TR.UTF-8' },
  });
  return stdout;
}

describe.each(FILES)('%s', (file) => {
  it('gives the same bytes in two processes, and the same as the sources in this one', async () => {
    const [a, b] = await Promise.all([child(file, 1), child(file, 987654)]);
    expect(a.length).toBeGreaterThan(1000);
    expect(b).toBe(a);
    const here = transformTools(JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8')));
    const parsed = JSON.parse(a) as { output: unknown; changes: unknown[] };
    expect(JSON.stringify(parsed.output)).toBe(JSON.stringify(here.output));
    expect(JSON.stringify(parsed.changes)).toBe(JSON.stringify(here.report.changes));
  });
});

it('the notion capture actually changes (the comparison is not between two no-ops)', async () => {
  const out = JSON.parse(await child(FILES[0]!, 3)) as { changes: unknown[] };
  expect(out.changes.length).toBeGreaterThan(100);
});
