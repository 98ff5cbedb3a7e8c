/**
 * The inputs of `check` and `report`: files, `-` (stdin), directories (every `.json` file below them) and
 * glob patterns (expanded with tinyglobby, because Node 20 has no `fs.glob` and a quoted pattern reaches
 * us unexpanded). The order is stable: as given, and sorted within each directory or pattern.
 */
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { globSync } from 'tinyglobby';
import { CliError } from './errors.js';

/** One input to read: a path (as it should be shown) or stdin. */
export type Source = { readonly kind: 'stdin' } | { readonly kind: 'file'; readonly path: string; readonly label: string };

const GLOB_CHARS = /[*?[{]/;
// Directories a walk never enters: dependencies and dot-directories (.git, .cache, …).
const SKIPPED_DIRS = new Set(['node_modules']);

/** Expands what was typed into the inputs to read, in order, each once; throws for one that matches nothing. */
export function expandSources(typed: readonly string[], cwd: string): Source[] {
  const out: Source[] = [];
  const seen = new Set<string>();
  const add = (path: string, label: string) => {
    const key = isAbsolute(path) ? path : join(cwd, path);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ kind: 'file', path: key, label });
  };
  let stdin = false;
  for (const item of typed) {
    if (item === '-') {
      if (stdin) throw new CliError('- (stdin) given twice', { usage: true });
      stdin = true;
      out.push({ kind: 'stdin' });
      continue;
    }
    if (GLOB_CHARS.test(item)) {
      const matches = globFiles(item, cwd);
      if (matches.length === 0) throw new CliError(`${item}: no files match`);
      for (const m of matches) add(m, m);
      continue;
    }
    const abs = isAbsolute(item) ? item : join(cwd, item);
    let isDir = false;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      // a missing file is reported when it is read, with the other read errors
    }
    if (!isDir) {
      add(item, item);
      continue;
    }
    const files = walk(abs).filter((f) => f.endsWith('.json'));
    if (files.length === 0) throw new CliError(`${item}: a directory with no .json files`);
    for (const f of files) add(f, labelFor(f, item, abs));
  }
  return out;
}

/**
 * The files a pattern matches (tinyglobby: `*`, `?`, `**`, `{a,b}`, `[abc]`), as paths in the form typed
 * (relative to `cwd` unless the pattern is absolute), sorted; no dot-files and nothing under
 * `node_modules`, as the directory walk.
 */
export function globFiles(pattern: string, cwd: string): string[] {
  const absolute = isAbsolute(pattern);
  const found = globSync(pattern.split(sep).join('/'), { cwd, absolute, onlyFiles: true, dot: false, expandDirectories: false, followSymbolicLinks: false, ignore: ['**/node_modules/**'] });
  return found.map((f) => (absolute ? f : f.replace(/^\.\//, ''))).sort();
}

/** Every file below `dir`, sorted by path; skips `node_modules` and dot-directories; follows no links. */
function walk(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (e) {
      throw new CliError(`${d}: ${(e as Error).message}`);
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.') && !SKIPPED_DIRS.has(e.name)) stack.push(p);
      } else if (e.isFile()) out.push(p);
    }
  }
  return out.sort();
}

function labelFor(file: string, typed: string, abs: string): string {
  const rel = relative(abs, file).split(sep).join('/');
  return `${typed.replace(/[/\\]+$/, '')}/${rel}`;
}
