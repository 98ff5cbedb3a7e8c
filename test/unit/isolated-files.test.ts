/**
 * vitest.config.ts runs every test file but those it lists in `ISOLATED` in one shared module cache per
 * worker (`isolate: false`). A file that replaces what others import (`vi.mock`, a spy on a shared object, a
 * stubbed global, fake timers) or that changes the process (`process.env`, the working directory) would then
 * change the files its worker runs after it, depending on which worker vitest hands each file: it must be
 * listed. The oracle is a plain search of each file's text, not vitest's own bookkeeping.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED } from '../../vitest.config.js';

const ROOT = join(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (name.endsWith('.ts')) out.push(relative(ROOT, path).split('\\').join('/'));
  }
  return out;
}

const PROCESS_WIDE = [
  /\bvi\s*\.\s*(mock|doMock|unmock|spyOn|stubGlobal|stubEnv|useFakeTimers|setSystemTime|hoisted)\b/,
  /process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)/,
  /delete\s+process\.env/,
  /process\.chdir\s*\(/,
];

describe('test files that change what later files in their worker see run isolated', () => {
  const all = [...files(join(ROOT, 'test')), ...files(join(ROOT, 'examples'))];

  it('every listed file exists and is a test file', () => {
    for (const f of ISOLATED) expect(all, f).toContain(f);
    for (const f of ISOLATED) expect(f).toMatch(/\.test\.ts$/);
  });

  it('every file (or helper) that mocks, spies, stubs, or sets the environment or directory is listed', () => {
    const offending = all.filter((f) => f !== 'test/unit/isolated-files.test.ts' && PROCESS_WIDE.some((re) => re.test(readFileSync(join(ROOT, f), 'utf8'))));
    // A helper that does it would run inside the shared files that import it.
    expect(offending.filter((f) => !f.endsWith('.test.ts'))).toEqual([]);
    expect(offending.filter((f) => !ISOLATED.includes(f))).toEqual([]);
    // The search finds what it is meant to: each listed file has a reason to be listed.
    expect([...ISOLATED].sort()).toEqual(offending.sort());
  });
});
