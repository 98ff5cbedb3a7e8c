/**
 * The built package (dist/), what users install: every speed figure of `bench/run.ts` and `bench/hostile.ts`
 * is timed on it, not on the TypeScript sources. The two differ: with tsup's rollup tree-shaking on, the
 * built default call ran 1.5× slower (wall) and used 2× the CPU of the sources on the corpus, and a bench
 * timing the sources did not show it. Built first (tsup) when dist/ is missing or older than src/.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Toolslim from '../../src/index.js';
import type * as Tokens from '../../src/tokens.js';
import { ensureBuilt } from './build.js';

const DIST = join(import.meta.dirname, '..', '..', 'dist');

ensureBuilt(join(DIST, 'index.js'), (line) => process.stderr.write(`[bench] ${line}\n`));

/** `toolslim` as a user imports it (dist/index.js). */
export const built = (await import(pathToFileURL(join(DIST, 'index.js')).href)) as typeof Toolslim;
/** `toolslim/tokens` as a user imports it (dist/tokens.js). */
export const builtTokens = (await import(pathToFileURL(join(DIST, 'tokens.js')).href)) as typeof Tokens;
