/**
 * The usage file: a {@link ToolUsageGraph}'s JSON that a proxy (or the SDK hook) keeps on disk, updated
 * from the calls that pass through. Several processes may share one file: each keeps its own new calls
 * in memory and, on {@link UsageStore.flush}, takes a lock file, reads what is on disk now, replays its
 * calls onto it, writes a temporary file in the same directory and renames it over the usage file. So
 * the file is never half-written, and no process loses another's calls. A symlink is followed (the file
 * it points to is written, the link stays), the file's mode is kept, and a FIFO, device or directory is
 * refused before it is opened (file-io.ts).
 */
import { ToolslimError } from '../core/errors.js';
import { isObject } from '../json/guards.js';
import { ToolUsageGraph, type ToolRef } from '../usage/graph.js';
import { describeValue, isOptionsObject } from './hot-set.js';
import { checkRegularFile, fs, tryLock, unlock, writeAtomically, writeTarget, type FileLock } from './file-io.js';

export { writeAtomically } from './file-io.js';

/** Options of {@link UsageStore.open}. */
export interface UsageStoreOptions {
  /** The tools of a graph created for a missing file (its tie-breaking order); names met later are appended. */
  readonly tools?: readonly ToolRef[];
  /** How long {@link UsageStore.flush} waits for another process's lock before it throws (default 5000 ms). */
  readonly lockTimeoutMs?: number;
  /**
   * A lock file older than this is taken to be left by a process that died while holding it, and
   * removed (default 10 000 ms; a flush holds the lock for milliseconds). A lock whose process is gone
   * (same host) is removed at once. So a lock left with the pid of an unrelated live process (a reused
   * pid) holds up writes for at most this long, and {@link UsageStore.tryFlush} never waits for it.
   */
  readonly staleLockMs?: number;
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
    const staleLockMs = checkMs(options.staleLockMs, 10_000, 'staleLockMs');
    const tools = options.tools ?? [];
    if (!Array.isArray(tools)) throw new ToolslimError('invalid-option', `UsageStore.open: \`tools\` must be an array of tools or names, got ${describeValue(tools)}`);
    const graph = readUsageFile(file) ?? new ToolUsageGraph(tools);
    // `this`, not the class's own name: esbuild names a class that refers to itself `_UsageStore`.
    return new this(file, graph, tools, lockTimeoutMs, staleLockMs);
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
    this.#write(this.#lock());
  }

  /**
   * {@link UsageStore.flush} without ever waiting: when another live process holds the lock, nothing is
   * written, the calls stay pending and the result is false (try again later). A stale lock (its process
   * gone, or older than `staleLockMs`) is removed and the write goes on. What a long-running process
   * (the proxy, the SDK hook) calls, so a held lock never blocks its event loop.
   *
   * @throws ToolslimError naming the file: the file became unreadable or foreign, or the write failed
   */
  tryFlush(): boolean {
    if (this.#pending.length === 0) return true;
    const lock = tryLock(this.#lockPath(), this.#staleLockMs);
    if ('busy' in lock) return false;
    this.#write(lock);
    return true;
  }

  /** The lock's path: next to the file the path ends at, so every symlink to one file shares one lock. */
  #lockPath(): string {
    return writeTarget(this.file) + LOCK_SUFFIX;
  }

  #write(lock: FileLock): void {
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

  /** Takes the lock file, removing a stale one; waits (blocking) up to the lock timeout. */
  #lock(): FileLock {
    const path = this.#lockPath();
    const deadline = Date.now() + this.#lockTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      const lock = tryLock(path, this.#staleLockMs);
      if (!('busy' in lock)) return lock;
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
    // Never opened when it is a FIFO (the read would wait for a writer), a device or a directory.
    if (!checkRegularFile(file, `usage file ${file}`)) return undefined;
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

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(SLEEPER, 0, 0, ms);
}

function checkMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new ToolslimError('invalid-option', `UsageStore.open: \`${name}\` must be a non-negative number of milliseconds, got ${describeValue(value)}`);
  return value;
}
