import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES_DIR = join(import.meta.dirname, '..', 'fixtures');

export interface FixtureInstance {
  readonly tool?: number;
  readonly slot?: 'inputSchema' | 'outputSchema';
  readonly data: unknown;
  /** Hand-written expectation; when present the verdict must equal it before and after. */
  readonly valid?: boolean;
  /** How to read the input when its `$schema` alone does not say (see helpers/readings.ts); default: by `$schema`. */
  readonly readAs?: import('./readings.js').Reading;
  /** How to read the output, when not by its `$schema` (a reading other than `none`). */
  readonly readOutputAs?: Exclude<import('./readings.js').Reading, 'none'>;
}

export interface FixtureCase {
  readonly transform: string;
  /** For a case of one part of a large transform (test/fixtures/<transform>/rules/<part>/<case>/): the part's id. */
  readonly part?: string;
  readonly name: string;
  readonly dir: string;
  readonly input: unknown;
  readonly options: object;
  readonly output: unknown;
  readonly changes: readonly { op: string; path: string; from?: string; code: string; value?: unknown }[];
  readonly diagnostics?: readonly { severity: string; code: string; path: string }[];
  readonly skipped?: readonly { toolIndex: number; transform: string }[];
  readonly instances?: readonly FixtureInstance[];
  /** The exact `result.instructions` (instructions.txt; a trailing newline of the file is not part of it; empty: none). */
  readonly instructions?: string;
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function optional(dir: string, file: string): unknown {
  const p = join(dir, file);
  return existsSync(p) ? readJson(p) : undefined;
}

/**
 * Every fixture case: test/fixtures/<transform>/<NN-slug>/{input,output,changes}.json (+ options, instances,
 * diagnostics, skipped, instructions.txt), and test/fixtures/<transform>/rules/<part>/<NN-slug>/ for each part
 * of a large transform.
 */
export function loadFixtures(): FixtureCase[] {
  if (!existsSync(FIXTURES_DIR)) return [];
  const cases: FixtureCase[] = [];
  for (const transform of readdirSync(FIXTURES_DIR).sort()) {
    const tdir = join(FIXTURES_DIR, transform);
    if (!statSync(tdir).isDirectory()) continue;
    const entries: { name: string; dir: string; part?: string }[] = [];
    for (const name of readdirSync(tdir).sort()) {
      const dir = join(tdir, name);
      if (!statSync(dir).isDirectory()) continue;
      if (name !== 'rules') {
        entries.push({ name, dir });
        continue;
      }
      // One folder per part of a large transform, each holding cases like the transform's own.
      for (const part of readdirSync(dir).sort()) {
        const pdir = join(dir, part);
        if (!statSync(pdir).isDirectory()) continue;
        for (const c of readdirSync(pdir).sort()) if (statSync(join(pdir, c)).isDirectory()) entries.push({ name: `rules/${part}/${c}`, dir: join(pdir, c), part });
      }
    }
    for (const { name, dir, part } of entries) {
      cases.push({
        transform,
        ...(part !== undefined ? { part } : {}),
        name,
        dir,
        input: readJson(join(dir, 'input.json')),
        options: (optional(dir, 'options.json') ?? {}) as object,
        output: readJson(join(dir, 'output.json')),
        changes: readJson(join(dir, 'changes.json')) as FixtureCase['changes'],
        diagnostics: optional(dir, 'diagnostics.json') as FixtureCase['diagnostics'],
        skipped: optional(dir, 'skipped.json') as FixtureCase['skipped'],
        instances: optional(dir, 'instances.json') as FixtureCase['instances'],
        ...(existsSync(join(dir, 'instructions.txt')) ? { instructions: readFileSync(join(dir, 'instructions.txt'), 'utf8').replace(/\n$/, '') } : {}),
      });
    }
  }
  return cases;
}
