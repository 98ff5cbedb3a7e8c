/**
 * The JSON Schema Test Suite copy in test/data/jsts (see its README): the case groups and the remote
 * documents, by the URI the suite serves them at. Loaded once per test file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const JSTS_DIR = join(import.meta.dirname, '..', 'data', 'jsts');
export const JSTS_REMOTE_BASE = 'http://localhost:1234/';

/** One test group of the suite, as cases.jsonl holds it. */
export interface JstsCase {
  readonly dialect: 'draft7' | 'draft2020-12';
  readonly file: string;
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly { description: string; data: unknown; valid: boolean }[];
  /** Per test: whether ajv 8.20's verdict equals the suite's `valid`. */
  readonly ajvAgrees: readonly boolean[];
  readonly needsRemotes: boolean;
}

/** Every case group, in file order. */
export function loadJstsCases(): JstsCase[] {
  return readFileSync(join(JSTS_DIR, 'cases.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as JstsCase);
}

/** Every remote document (sorted by path), with the URI the suite serves it at. */
export function loadJstsRemotes(): { uri: string; schema: unknown }[] {
  const root = join(JSTS_DIR, 'remotes');
  const out: { uri: string; schema: unknown }[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) visit(p);
      else if (name.endsWith('.json')) out.push({ uri: JSTS_REMOTE_BASE + relative(root, p).split('\\').join('/'), schema: JSON.parse(readFileSync(p, 'utf8')) });
    }
  };
  visit(root);
  return out;
}
