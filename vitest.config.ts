import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * The test files that replace what other files import (`vi.mock`, `vi.spyOn` on a prototype or a builtin,
 * `vi.stubGlobal`): each runs in a process of its own, as vitest runs every file by default. Every other file
 * shares its worker's module cache with the files that worker ran before (`isolate: false`): a file then no
 * longer evaluates toolslim's ~240 source modules again, which took ~1 s of CPU per file (measured: 15 files
 * that only import `toolslim`, 19.3 s of CPU isolated against 5.9 s shared), ~190 s of the suite's summed time.
 * What such a file may leave behind was checked: the sources' module-level state is memoization only (a
 * result never depends on what ran before), no test sets `process.env` or the working directory, the two that
 * pollute a prototype remove it in `finally`, and the V8 flag two files set (bounded-regexp.ts) changes only
 * how fast a backtracking expression fails. `npm test` on 2 idle cores: 641 s before, 498 s after.
 * A new file that mocks a module belongs in this list (test/unit/isolated-files.test.ts checks that).
 */
const INCLUDE = ['test/**/*.test.ts', 'examples/**/*.test.ts'];

export const ISOLATED = [
  'test/unit/collisions-bound.test.ts',
  'test/unit/lint-collisions-off.test.ts',
  'test/unit/parsed-json.test.ts',
  'test/unit/inventory-keys.test.ts',
  'test/hardening/hostile.test.ts',
  'test/verify/engine.test.ts',
];

export default defineConfig({
  // toolslim's version, as the build defines it (src/session/version.ts).
  define: { __TOOLSLIM_VERSION__: JSON.stringify(version) },
  // examples/ import the package by name, as users do; in this repo the names map to the sources.
  resolve: {
    alias: [
      { find: /^toolslim$/, replacement: src('index.ts') },
      { find: /^toolslim\/mcp$/, replacement: src('sdk/index.ts') },
      { find: /^toolslim\/testing$/, replacement: src('testing/index.ts') },
      { find: /^toolslim\/tokens$/, replacement: src('tokens.ts') },
    ],
  },
  test: {
    // A deadline only for a test that never ends: the heaviest (every corpus server through a transform and
    // ajv) take 20-30 s on an idle machine and went past 60 s at a load of 10 on 2 cores.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Both cores of the machines CI runs on (vitest's default leaves one to itself: one test file at a time on
    // two cores). Measured on fresh clones: 555 s of wall time for the suite before, 323-382 s over three runs after.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', isolate: false, include: INCLUDE, exclude: [...configDefaults.exclude, ...ISOLATED] } },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
