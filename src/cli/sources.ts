/**
 * The inputs of `check` and `report`: files, `-` (stdin), directories (every `.json` file below them) and
 * glob patterns (`*`, `**`, `?`, expanded here because Node 20 has no `fs.glob` and a quoted pattern
 * reaches us unexpanded). The order is stable: as given, and sorted within each directory or pattern.
 */
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { CliError } from './errors.js';

/** One input to read: a path (as it should be shown) or stdin. */
export type Source = { readonly kind: 'stdin' } | { readonly kind: 'file'; readonly path: string; readonly label: string };

const GLOB_CHARS = /[*?]/;
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
 * The files a pattern matches, as paths in the form typed (relative to `cwd` unless the pattern is
 * absolute), sorted. `*` matches within one path segment, `?` one character of it, `**` any number of
 * whole segments (none included); the walk starts at the pattern's longest prefix without a wildcard.
 */
export function globFiles(pattern: string, cwd: string): string[] {
  const normalized = pattern.split(sep).join('/');
  const segments = normalized.split('/');
  const fixed: string[] = [];
  for (const s of segments) {
    if (GLOB_CHARS.test(s)) break;
    fixed.push(s);
  }
  const baseTyped = fixed.join('/');
  const base = baseTyped === '' ? cwd : isAbsolute(baseTyped) ? baseTyped : join(cwd, baseTyped);
  const re = globRegExp(segments.slice(fixed.length).join('/'));
  let files: string[];
  try {
    files = statSync(base).isDirectory() ? walk(base) : [];
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const f of files) {
    const rel = relative(base, f).split(sep).join('/');
    if (re.test(rel)) out.push(baseTyped === '' ? rel : `${baseTyped.replace(/\/$/, '')}/${rel}`);
  }
  return out.sort();
}

/** A glob (relative, `/`-separated) as an anchored regular expression. */
export function globRegExp(glob: string): RegExp {
  let re = '';
  const parts = glob.split('/');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    if (part === '**') {
      re += last ? '.*' : '(?:[^/]+/)*';
      continue;
    }
    for (const ch of part) re += ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    if (!last) re += '/';
  }
  return new RegExp(`^${re}$`, 'u');
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
