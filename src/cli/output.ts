// Why one file: everything the CLI writes (atomic files, and tools JSON rendered in the input's own layout);
// each half is small and the renderers write through the file helpers.
// Why not write-file-atomic (issue 29, item 14). Measured with write-file-atomic 6.0.0 on Node 20.20, Linux:
// - under `ulimit -f 10`, writing 200 KB killed the process with SIGXFSZ (exit 153, no message): the
//   signal-exit it loads listens for SIGXFSZ, which Node otherwise ignores, and re-raises it. Here the write
//   fails with EFBIG and `optimize` says "the file would exceed the size limit (ulimit -f) (X is unchanged)"
//   (test/cli/output.test.ts);
// - a FIFO target was replaced by a regular file (its reader got nothing), and `/dev/stdout` into a pipe
//   failed with ENOENT (`/proc/<pid>/fd/pipe:[…].<hash>`): both are written directly here.
// The target inspection those need is most of this code; the atomic core (temp file beside the target,
// datasync, rename) is 15 lines, and the package would add three (write-file-atomic, signal-exit,
// imurmurhash). What it has and this has not: removing the temporary file when a signal ends the process
// mid-write (here a hidden `.X.<pid>-<random>.tmp` is left).
/**
 * What the CLI writes: files written atomically (a temporary file beside the target, then a rename, so a
 * failed write leaves the target as it was), and JSON output that is what the input was — the input's
 * layout, every tool no step changed as its exact input bytes, and each rewritten tool's numbers in their
 * original text (see docs/output.md).
 */
import * as fs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { locateTools } from '../engine/input.js';
import { stringifyJson } from '../json/stringify.js';
import type { TransformResult } from '../core/run-types.js';
import {
  COMPACT_STYLE,
  describeNumberProblem,
  indentedStyle,
  renderTool,
  restyleJson,
  sameStyle,
  scanToolsSource,
  spliceTools,
  type JsonStyle,
  type ToolsSource,
} from '../json/source.js';
import type { Context } from './command.js';
import { CliError } from './errors.js';

// ---------------------------------------------------------------------------------------------------
// Writing files

/**
 * Writes `data` to `path` atomically: into a new temporary file in the same directory (mode, and owner
 * when run as root, copied from the file it replaces), flushed to disk, then renamed over `path`. A
 * symbolic link is followed (the file it points at is replaced; the link stays). On failure — no space,
 * file size limit, permissions, a read-only file system — the temporary file is removed, `path` is as it
 * was, and the {@link CliError} says so: `cannot write X: no space left on the device (X is unchanged)`.
 * A path that is not a regular file (`/dev/stdout`, a FIFO) is written directly: there is nothing to
 * replace atomically.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const fsp = fs.promises;
  const target = await inspectTarget(path);
  if (target.special) {
    try {
      await fsp.writeFile(path, data);
    } catch (e) {
      throw writeError(path, e, 'special');
    }
    return;
  }
  const temp = tempPathFor(target.path);
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fsp.open(temp, 'wx', target.mode ?? 0o666);
    if (target.owner) await handle.chown(target.owner.uid, target.owner.gid).catch(() => undefined);
    await handle.writeFile(data);
    await handle.datasync();
    await handle.close();
    handle = undefined;
    await fsp.rename(temp, target.path);
  } catch (e) {
    if (handle) await handle.close().catch(() => undefined);
    await fsp.unlink(temp).catch(() => undefined);
    throw writeError(path, e, target.exists ? 'unchanged' : 'absent');
  }
}

/** {@link writeFileAtomic}, synchronously (for a file written as the process exits). */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const target = inspectTargetSync(path);
  if (target.special) {
    try {
      fs.writeFileSync(path, data);
    } catch (e) {
      throw writeError(path, e, 'special');
    }
    return;
  }
  const temp = tempPathFor(target.path);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'wx', target.mode ?? 0o666);
    if (target.owner) {
      try {
        fs.fchownSync(fd, target.owner.uid, target.owner.gid);
      } catch {
        // keep the writer's ownership
      }
    }
    fs.writeFileSync(fd, data);
    fs.fdatasyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temp, target.path);
  } catch (e) {
    if (fd !== undefined) {
      try {
        fs.closeSync(fd);
      } catch {
        // already failed
      }
    }
    try {
      fs.unlinkSync(temp);
    } catch {
      // never created
    }
    throw writeError(path, e, target.exists ? 'unchanged' : 'absent');
  }
}

/** Writes a command's main output: to stdout for no path or `-`, else atomically to the file. */
export async function writeOutput(path: string | undefined, text: string, ctx: Context): Promise<void> {
  if (path === undefined || path === '-') ctx.io.stdout.write(text);
  else await writeFileAtomic(path, text);
}

/** {@link writeFileAtomic} (kept for the commands that call it by this name). */
export async function writeFileOrFail(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, text);
}

interface Target {
  /** Where to write: `path`, or the file a symbolic link at `path` points at. */
  readonly path: string;
  readonly exists: boolean;
  readonly special: boolean;
  readonly mode?: number;
  readonly owner?: { uid: number; gid: number };
}

async function inspectTarget(path: string): Promise<Target> {
  let st: fs.Stats;
  try {
    st = await fs.promises.stat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { path, exists: false, special: false };
    throw writeError(path, e, 'absent');
  }
  const target = describeTarget(path, st);
  return target.special ? target : { ...target, path: await fs.promises.realpath(path) };
}

function inspectTargetSync(path: string): Target {
  let st: fs.Stats;
  try {
    st = fs.statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { path, exists: false, special: false };
    throw writeError(path, e, 'absent');
  }
  const target = describeTarget(path, st);
  return target.special ? target : { ...target, path: fs.realpathSync(path) };
}

/** An existing target: a regular file (mode and owner to copy) or something to write in place. */
function describeTarget(path: string, st: fs.Stats): Target {
  if (st.isDirectory()) throw new CliError(`cannot write ${path}: it is a directory (give a file name)`);
  if (!st.isFile()) return { path, exists: true, special: true };
  const owner = isRoot() && (st.uid !== 0 || st.gid !== 0) ? { owner: { uid: st.uid, gid: st.gid } } : {};
  return { path, exists: true, special: false, mode: st.mode & 0o7777, ...owner };
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'the file would exceed the size limit (ulimit -f)',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'no such directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'it is a directory',
  EIO: 'input/output error',
};

function writeError(path: string, e: unknown, state: 'unchanged' | 'absent' | 'special'): CliError {
  const code = (e as NodeJS.ErrnoException)?.code;
  const reason = (code && REASONS[code] ? `${REASONS[code]} (${code})` : (e as Error)?.message) ?? String(e);
  const tail = state === 'unchanged' ? ` (${path} is unchanged)` : state === 'absent' ? ` (${path} was not created)` : '';
  return new CliError(`cannot write ${path}: ${reason}${tail}`);
}

// ---------------------------------------------------------------------------------------------------
// JSON output

/**
 * JSON for a file or stdout when there is no input text to follow (a live server's answer, a capture):
 * indented, or compact when the value is too deep to indent (a tool nested 100,000 levels passes through
 * unchanged and must still be written; its indentation alone would not fit in a string).
 */
export function outputJson(value: unknown, style: JsonStyle = indentedStyle(2)): string {
  if (style.newline === '') return restyleIfNeeded(stringifyJson(value), style) + '\n';
  try {
    const text = JSON.stringify(value, null, style.indent);
    return (style.newline === '\n' && style.colon === ': ' ? text : restyleJson(text, style)) + '\n';
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return stringifyJson(value) + '\n';
  }
}

function restyleIfNeeded(text: string, style: JsonStyle): string {
  return sameStyle(style, COMPACT_STYLE) ? text : restyleJson(text, style);
}

/**
 * Where the tools sit in the input text, for writing the output in its image; undefined when the text
 * cannot be followed (then the output is serialized afresh). `value` is the text parsed (`JSON.parse`).
 */
export function readToolsSource(text: string, value: unknown): ToolsSource | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let located;
  try {
    located = locateTools(value);
  } catch {
    return undefined;
  }
  return scanSource(body, located.pointer, located.tools.length);
}

/**
 * One `tools/list` answer as received (a JSON-RPC response text, or the result text alone) for
 * {@link renderListResult}: the proxy keeps each page's text and scans it. Undefined when it holds no tools
 * array where `pointer` says (default: `/result/tools` for a response, `/tools` for a result).
 */
export function readPageSource(text: string, pointer?: string): ToolsSource | undefined {
  const p = pointer ?? (/^\s*\{[\s\S]*"jsonrpc"/.test(text.slice(0, 200)) ? '/result/tools' : '/tools');
  try {
    return scanToolsSource(text, p);
  } catch {
    return undefined;
  }
}

function scanSource(body: string, pointer: string, count: number): ToolsSource | undefined {
  try {
    const source = scanToolsSource(body, pointer);
    return source.tools.length === count ? source : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tools a run must leave unchanged so that their numbers keep their text: index in the (merged) tools
 * array → the reason, for `transformTools(…, { keepUnchanged })`. Several sources are pages of one list,
 * in order.
 */
export function keepUnchangedOf(sources: readonly ToolsSource[]): ReadonlyMap<number, string> | undefined {
  let map: Map<number, string> | undefined;
  let index = 0;
  for (const source of sources) {
    for (const span of source.tools) {
      const problem = span.numbers?.problem;
      if (problem) (map ??= new Map()).set(index, describeNumberProblem(problem, `/${index}`));
      index++;
    }
  }
  return map;
}

/** Indexes of the tools a run changed (those with a change in the report: the others equal their input). */
export function changedTools(result: TransformResult): Set<number> {
  const changed = new Set<number>();
  for (const c of result.report.changes) changed.add(c.toolIndex);
  return changed;
}

/**
 * The output text for an input text: the input with each changed tool replaced by its new text (in the
 * input's layout, numbers in their original text); every other byte as it came in. With `style` different
 * from the input's, the whole text is then laid out again, token by token (strings and numbers keep their
 * text). Ends as the input ends (a restyled text ends with a line break).
 */
export function renderToolsText(source: ToolsSource, result: TransformResult, style?: JsonStyle): string {
  const changed = changedTools(result);
  const spliced = spliceTools(source, (i) => (changed.has(i) ? renderTool(result.tools[i], source.toolStyle, source.toolLevel, source.tools[i]!.numbers?.lexemes, stringifyJson) : undefined));
  if (style === undefined || sameStyle(style, source.style)) return spliced;
  return restyleJson(spliced, style) + '\n';
}

/**
 * The `tools/list` result to serve for pages received as texts (in order; see {@link readPageSource}),
 * after `transformTools` ran over their merged list (`keepUnchanged: keepUnchangedOf(pages)`): the first
 * page's result object without `nextCursor`, holding every page's tools — each unchanged tool as its exact
 * received bytes, each changed tool serialized with its numbers' original text. One page without
 * `nextCursor` is its result text with only the changed tools replaced. On one line (compact) unless
 * `oneLine` is false, as a stdio message must be.
 */
export function renderListResult(pages: readonly ToolsSource[], result: TransformResult, options: { readonly oneLine?: boolean; /** Merged-list indexes left out (the proxy's dropped tools). */ readonly omit?: ReadonlySet<number> } = {}): string {
  if (pages.length === 0) throw new Error('renderListResult: no pages');
  const changed = changedTools(result);
  const first = pages[0]!;
  const holder = first.holder;
  if (!holder) throw new Error('renderListResult: a page must hold its tools in an object (a result)');
  const toolText = (page: ToolsSource, local: number, index: number, level: number) =>
    changed.has(index) ? renderTool(result.tools[index], page.toolStyle, level, page.tools[local]!.numbers?.lexemes, stringifyJson) : page.text.slice(page.tools[local]!.start, page.tools[local]!.end);
  let text: string;
  const hasCursor = holder.members.some((m) => m.key === 'nextCursor');
  const omit = options.omit;
  if (pages.length === 1 && !hasCursor && !omit?.size) {
    // Served as the top-level value, the result object puts its tools at level 2.
    const inner = spliceTools(first, (i) => (changed.has(i) ? toolText(first, i, i, 2) : undefined));
    // The holder's span moved by what was spliced before it (nothing: tools lie inside it).
    const shift = inner.length - first.text.length;
    text = inner.slice(holder.start, holder.end + shift);
  } else {
    const parts: string[] = [];
    let index = 0;
    for (const page of pages) {
      for (let local = 0; local < page.tools.length; local++, index++) if (!omit?.has(index)) parts.push(toolText(page, local, index, 2));
    }
    const sep = first.style.newline === '' ? first.style.comma : ',';
    const array = '[' + parts.join(sep) + ']';
    const members: string[] = [];
    for (const m of holder.members) {
      if (m.key === 'nextCursor') continue;
      if (m.start < first.arrayStart && first.arrayStart < m.end) members.push(first.text.slice(m.start, first.arrayStart) + array + first.text.slice(first.arrayEnd, m.end));
      else members.push(first.text.slice(m.start, m.end));
    }
    text = '{' + members.join(sep) + '}';
  }
  if (options.oneLine !== false && /[\r\n]/.test(text)) text = restyleJson(text, COMPACT_STYLE);
  return text;
}

/** What `optimize` writes: the input's image when there is an input text, else fresh JSON (indented 2 unless `style`). */
export function renderOptimized(source: ToolsSource | undefined, result: TransformResult, style?: JsonStyle): string {
  if (source === undefined) return outputJson(result.output, style);
  return renderToolsText(source, result, style);
}
