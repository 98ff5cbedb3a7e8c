import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

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
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // A deadline only for a test that never ends: the heaviest (every corpus server through a transform and
    // ajv) take 20-30 s on an idle machine and went past 60 s at a load of 10 on 2 cores.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Both cores of the machines CI runs on (vitest's default leaves one to itself: one test file at a time on
    // two cores). Measured on fresh clones: 555 s of wall time for the suite before, 323-382 s over three runs after.
    maxWorkers: 2,
  },
});
