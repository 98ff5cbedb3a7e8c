/**
 * The usage file: a {@link ToolUsageGraph}'s JSON that a proxy (or the SDK hook) keeps on disk, updated
 * from the calls that pass through. Several processes may share one file: each keeps its own new calls
 * in memory and, on {@link UsageStore.flush}, takes a lock file, reads what is on disk now, replays its
 * calls onto it, writes a temporary file in the same directory and renames it over the usage file. So
 * the file is never half-written, and no process loses another's calls.
 */
import { ToolslimError } from '../core/errors.js';
import { isObject } from '../json/guards.js';
import { ToolUsageGraph, type ToolRef } from '../usage/graph.js';
import { describeValue, isOptionsObject } from './hot-set.js';

/** Options of {@link UsageStore.open}. */
export interface UsageStoreOptions {
  /** The tools of a graph created for a missing file (its tie-breaking order); names met later are appended. */
  readonly tools?: readonly ToolRef[];
  /** How long {@link UsageStore.flush} waits for another process's lock before it throws (default 5000 ms). */
  readonly lockTimeoutMs?: number;
  /**
   * A lock file older than this is taken to be left by a process that died while holding it, and
   * removed (default 30 000 ms; a flush holds the lock for milliseconds). A lock whose process is gone
   * (same host) is removed at once.
   */
  readonly staleLockMs?: number;
}

/** The `node:fs` functions the store uses. */
interface Fs {
  openSync(path: string, flags: string): number;
  closeSync(fd: number): void;
  writeSync(fd: number, data: string | Uint8Array, offset?: number, length?: number): number;
  fsyncSync(fd: number): void;
  readFileSync(path: string, encoding: 'utf8'): string;
  renameSync(from: string, to: string): void;
  linkSync(existing: string, link: string): void;
  unlinkSync(path: string): void;
  statSync(path: string): { mtimeMs: number };
}

let fsModule: Fs | undefined;

/**
 * `node:fs`, loaded on first use (no static import: `toolslim` stays importable where there is no file
 * system). Node ≥ 20.16, Deno and Bun have `process.getBuiltinModule`; CommonJS has `require`.
 */
function fs(): Fs {
  if (fsModule) return fsModule;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  let mod = typeof proc?.getBuiltinModule === 'function' ? (proc.getBuiltinModule('node:fs') as Fs | undefined) : undefined;
  if (!mod && typeof module === 'object' && module !== null && typeof (module as { require?: unknown }).require === 'function') mod = (module as { require: (id: string) => Fs }).require('node:fs');
  if (!mod) throw new ToolslimError('invalid-option', 'usage files need a file system: Node 20.16 or later (process.getBuiltinModule), Deno or Bun');
  fsModule = mod;
  return mod;
}

type Pending = { readonly kind: 'call'; readonly name: string } | { readonly kind: 'session' };

const LOCK_SUFFIX = '.lock';

/**
 * A usage file, open for recording. {@link UsageStore.graph} is what was on disk when the store was
 * opened (or last flushed) plus this process's calls since; {@link UsageStore.flush} merges those calls
 * into whatever the file holds now.
 *
 * ```ts
 * const store = UsageStore.open('usage.json');   // missing → a new graph (written on the first flush)
 * const hot = chooseHotSet(tools, 5, { graph: store.graph });
 * store.beginSession();
 * store.record('read_file');                     // after each call that reaches the server
 * store.flush();                                 // now and then, and before exit
 * ```
 *
 * Synchronous on purpose: a flush takes milliseconds, and an exit handler can still call it.
 */
export class UsageStore {
  /** The usage file's path. */
  readonly file: string;
  readonly #lockTimeoutMs: number;
  readonly #staleLockMs: number;
  readonly #tools: readonly ToolRef[];
  #graph: ToolUsageGraph;
  #pending: Pending[] = [];

  private constructor(file: string, graph: ToolUsageGraph, tools: readonly ToolRef[], lockTimeoutMs: number, staleLockMs: number) {
    this.file = file;
    this.#graph = graph;
    this.#tools = tools;
    this.#lockTimeoutMs = lockTimeoutMs;
    this.#staleLockMs = staleLockMs;
  }

  /**
   * Opens `file`: reads it when it exists, or starts a new graph when it does not (the file is created
   * by the first {@link UsageStore.flush}). An empty file counts as missing.
   *
   * @throws ToolslimError (`invalid-input`) naming the file when it cannot be read, is not JSON, is not a
   * usage graph or was written by a newer toolslim — never a silent reset; (`invalid-option`) for bad options.
   */
  static open(file: string, options: UsageStoreOptions = {}): UsageStore {
    if (typeof file !== 'string' || file === '') throw new ToolslimError('invalid-option', `UsageStore.open: the usage file must be a path, got ${describeValue(file)}`);
    if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `UsageStore.open: options must be an object, got ${describeValue(options)}`);
    const known = ['tools', 'lockTimeoutMs', 'staleLockMs'];
    for (const key of Object.keys(options)) if (!known.includes(key)) throw new ToolslimError('invalid-option', `UsageStore.open: unknown option \`${key}\` (known: ${known.join(', ')})`);
    const lockTimeoutMs = checkMs(options.lockTimeoutMs, 5000, 'lockTimeoutMs');
    const staleLockMs = checkMs(options.staleLockMs, 30_000, 'staleLockMs');
    const tools = options.tools ?? [];
    if (!Array.isArray(tools)) throw new ToolslimError('invalid-option', `UsageStore.open: \`tools\` must be an array of tools or names, got ${describeValue(tools)}`);
    const graph = readUsageFile(file) ?? new ToolUsageGraph(tools);
    return new UsageStore(file, graph, tools, lockTimeoutMs, staleLockMs);
  }

  /** The graph: the file as last read, with this process's calls since applied. Rank from it; do not record into it. */
  get graph(): ToolUsageGraph {
    return this.#graph;
  }

  /** Calls and sessions recorded since the last flush. */
  get pending(): number {
    return this.#pending.length;
  }

  /** Records one call of `name` (in memory until {@link UsageStore.flush}). */
  record(name: string): this {
    if (typeof name !== 'string') throw new ToolslimError('invalid-input', `UsageStore.record: expected a tool name, got ${describeValue(name)}`);
    this.#graph.record(name);
    this.#pending.push({ kind: 'call', name });
    return this;
  }

  /** Counts one more session (in memory until {@link UsageStore.flush}). */
  beginSession(): this {
    this.#graph.beginSession();
    this.#pending.push({ kind: 'session' });
    return this;
  }

  /**
   * Writes this process's calls into the file: lock, read the file as it is now, replay the calls onto
   * it, write a temporary file next to it, rename it over the file, unlock. Afterwards
   * {@link UsageStore.graph} is the merged graph. Nothing to write → nothing happens. On failure the file
   * is unchanged and the calls stay pending (a later flush retries them).
   *
   * @throws ToolslimError naming the file: the lock was not obtained in time, the file became unreadable
   * or foreign, or the write failed
   */
  flush(): void {
    if (this.#pending.length === 0) return;
    const lock = this.#lock();
    try {
      const onDisk = readUsageFile(this.file) ?? new ToolUsageGraph(this.#tools);
      for (const p of this.#pending) {
        if (p.kind === 'call') onDisk.record(p.name);
        else onDisk.beginSession();
      }
      writeAtomically(this.file, JSON.stringify(onDisk) + '\n');
      this.#graph = onDisk;
      this.#pending = [];
    } finally {
      unlock(lock);
    }
  }

  /** Takes the lock file (O_EXCL), removing a stale one; waits up to the lock timeout. Returns the lock's path and content. */
  #lock(): { path: string; token: string } {
    const path = this.file + LOCK_SUFFIX;
    const token = `${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}\n`;
    const deadline = Date.now() + this.#lockTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const fd = fs().openSync(path, 'wx');
        try {
          fs().writeSync(fd, token);
        } finally {
          fs().closeSync(fd);
        }
        return { path, token };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new ToolslimError('invalid-input', `usage file ${this.file}: cannot create the lock file ${path}: ${(e as Error).message}`, { cause: e });
      }
      if (removeIfStale(path, this.#staleLockMs)) continue;
      if (Date.now() >= deadline) {
        throw new ToolslimError('invalid-input', `usage file ${this.file}: another process has held ${path} for more than ${this.#lockTimeoutMs} ms; if no toolslim is running, remove that lock file`);
      }
      sleep(Math.min(50, 2 + attempt * 2) + Math.floor(Math.random() * 5));
    }
  }
}

/**
 * Reads a usage file: its graph, or undefined when the file does not exist (or is empty).
 *
 * @throws ToolslimError (`invalid-input`) naming the file for anything else
 */
export function readUsageFile(file: string): ToolUsageGraph | undefined {
  let text: string;
  try {
    text = fs().readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ToolslimError('invalid-input', `usage file ${file}: cannot read it: ${(e as Error).message}`, { cause: e });
  }
  if (text.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ToolslimError('invalid-input', `usage file ${file} is not JSON (${(e as Error).message}), so it is not a toolslim usage file; it was left as it is: pass another file, or move it away to start a new one`, { cause: e });
  }
  if (!isObject(json) || !('version' in json) || !('steps' in json) || !('tools' in json)) {
    throw new ToolslimError('invalid-input', `usage file ${file} is JSON but not a toolslim usage graph (no \`version\`, \`tools\` and \`steps\`); it was left as it is: pass another file, or move it away to start a new one`);
  }
  if (typeof json.version === 'number' && json.version > 1) {
    throw new ToolslimError('invalid-input', `usage file ${file} was written by a newer toolslim (usage graph version ${json.version}; this toolslim reads version 1); it was left as it is: upgrade toolslim or use another file`);
  }
  try {
    return ToolUsageGraph.fromJSON(json);
  } catch (e) {
    throw new ToolslimError('invalid-input', `usage file ${file} is not a valid toolslim usage graph: ${(e as Error).message}; it was left as it is`, { cause: e, path: (e as ToolslimError).path });
  }
}

/**
 * Writes `text` to `file` atomically: a temporary file in the same directory (so the rename stays on
 * one filesystem), flushed to disk, then renamed over `file`. On failure `file` is untouched and the
 * temporary file removed.
 *
 * @throws ToolslimError (`invalid-input`) naming the file
 */
export function writeAtomically(file: string, text: string): void {
  // Next to the file (same directory, so the rename stays on one filesystem).
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const fd = fs().openSync(temp, 'wx');
    try {
      const bytes = Buffer.from(text, 'utf8');
      let written = 0;
      while (written < bytes.length) written += fs().writeSync(fd, bytes, written, bytes.length - written);
      fs().fsyncSync(fd);
    } finally {
      fs().closeSync(fd);
    }
    fs().renameSync(temp, file);
  } catch (e) {
    try {
      fs().unlinkSync(temp);
    } catch {
      // not created, or already renamed
    }
    throw new ToolslimError('invalid-input', `cannot write ${file} (${(e as Error).message}); the file was left as it was`, { cause: e });
  }
}

/**
 * Removes the lock at `path` when it is stale: its process is gone (same host), or it is older than
 * `staleMs`. The lock is first renamed aside (atomic) and removed only if it is still the lock judged
 * stale; a lock that another process re-created in between is put back. Returns true when the caller
 * should try again at once.
 */
function removeIfStale(path: string, staleMs: number): boolean {
  let content: string;
  let mtime: number;
  try {
    content = fs().readFileSync(path, 'utf8');
    mtime = fs().statSync(path).mtimeMs;
  } catch {
    return true; // gone already: try again
  }
  const pid = Number.parseInt(content, 10);
  const dead = Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid);
  const old = Date.now() - mtime > staleMs;
  // A lock being written has no content yet: give it its time, unless it is old.
  if (!(dead || old) || (content === '' && !old)) return false;
  const aside = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.stale`;
  try {
    fs().renameSync(path, aside);
  } catch {
    return true; // someone else removed it
  }
  let moved = '';
  try {
    moved = fs().readFileSync(aside, 'utf8');
  } catch {
    // unreadable: treat as the stale one
  }
  if (moved !== content) {
    // Not the lock we judged: another process took the lock in between. Put it back (never over a newer one).
    try {
      fs().linkSync(aside, path);
    } catch {
      // a newer lock exists: its holder goes on, and so does the one whose lock this was
    }
  }
  try {
    fs().unlinkSync(aside);
  } catch {
    // already gone
  }
  return true;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes our lock, unless another process has since replaced it (having judged ours stale). */
function unlock(lock: { path: string; token: string }): void {
  try {
    if (fs().readFileSync(lock.path, 'utf8') === lock.token) fs().unlinkSync(lock.path);
  } catch {
    // removed as stale by another process: nothing to undo
  }
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(SLEEPER, 0, 0, ms);
}

function checkMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new ToolslimError('invalid-option', `UsageStore.open: \`${name}\` must be a non-negative number of milliseconds, got ${describeValue(value)}`);
  return value;
}
