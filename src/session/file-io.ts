/**
 * The file operations of the usage file (and of the CLI's state files): the regular-file check made
 * before any open, the atomic write that follows a symlink and keeps the file's mode (and owner, when
 * run as root), and the lock file that never makes the caller wait.
 *
 * Written here rather than taken from `write-file-atomic` (which does the write part the same way:
 * realpath, temporary file, chmod/chown from the old file, fsync, rename): this module is reached by a
 * plain `import 'toolslim'` (the SDK hook's usage file), which must stay importable where there is no
 * file system, so `node:fs` is loaded on first use, never statically — and write-file-atomic imports it
 * statically along with two more packages. Its sync API also blocks on nothing here, as ours.
 */
import { ToolslimError } from '../core/errors.js';

/** The `node:fs` functions used here and by the usage store. */
export interface Fs {
  openSync(path: string, flags: string, mode?: number): number;
  closeSync(fd: number): void;
  writeSync(fd: number, data: string | Uint8Array, offset?: number, length?: number): number;
  fsyncSync(fd: number): void;
  fchmodSync(fd: number, mode: number): void;
  fchownSync(fd: number, uid: number, gid: number): void;
  readFileSync(path: string, encoding: 'utf8'): string;
  renameSync(from: string, to: string): void;
  linkSync(existing: string, link: string): void;
  unlinkSync(path: string): void;
  statSync(path: string): FileStat;
  lstatSync(path: string): FileStat;
  realpathSync(path: string): string;
  readlinkSync(path: string): string;
}

interface FileStat {
  mtimeMs: number;
  mode: number;
  uid: number;
  gid: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
  isSymbolicLink(): boolean;
}

let fsModule: Fs | undefined;

/**
 * `node:fs`, loaded on first use (no static import: `toolslim` stays importable where there is no file
 * system). Node ≥ 20.16, Deno and Bun have `process.getBuiltinModule`; CommonJS has `require`.
 */
export function fs(): Fs {
  if (fsModule) return fsModule;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  let mod = typeof proc?.getBuiltinModule === 'function' ? (proc.getBuiltinModule('node:fs') as Fs | undefined) : undefined;
  if (!mod && typeof module === 'object' && module !== null && typeof (module as { require?: unknown }).require === 'function') mod = (module as { require: (id: string) => Fs }).require('node:fs');
  if (!mod) throw new ToolslimError('invalid-option', 'usage files need a file system: Node 20.16 or later (process.getBuiltinModule), Deno or Bun');
  fsModule = mod;
  return mod;
}

/** What a path that is not a regular file is, in words (`a FIFO`, `a directory`, …). */
function kindOf(st: FileStat): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Checks, without opening it, that `file` (through any symlinks) is a regular file or does not exist
 * yet; returns whether it exists. Opening a FIFO for reading blocks until a writer comes, a device
 * gives endless or no bytes, and renaming over either replaces it: so they are refused first.
 *
 * @throws ToolslimError (`invalid-input`) starting with `what` (e.g. `usage file x.json`)
 */
export function checkRegularFile(file: string, what: string): boolean {
  let st: FileStat;
  try {
    st = fs().statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    throw new ToolslimError('invalid-input', `${what}: cannot read it: ${(e as Error).message}`, { cause: e });
  }
  if (!st.isFile()) throw new ToolslimError('invalid-input', `${what} is ${kindOf(st)}, not a regular file; give the path of a file (it is created when missing)`);
  return true;
}

/**
 * The path a write to `file` must replace: `file` itself, or, when it is a symlink (also a chain of
 * them, also one that points at a file not created yet), the file it points to — so a shared target
 * gets the write and the link stays a link.
 */
export function writeTarget(file: string): string {
  try {
    return fs().realpathSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  // Missing: a dangling symlink points where the file will be (followed for a bounded number of links).
  let path = file;
  for (let hop = 0; hop < 40; hop++) {
    let st: FileStat;
    try {
      st = fs().lstatSync(path);
    } catch {
      return path;
    }
    if (!st.isSymbolicLink()) return path;
    const link = fs().readlinkSync(path);
    path = link.startsWith('/') ? link : `${path.slice(0, path.lastIndexOf('/') + 1)}${link}`;
  }
  throw new ToolslimError('invalid-input', `${file}: too many levels of symbolic links`);
}

/**
 * Writes `text` to `file` atomically: a temporary file next to the file the path ends at (through
 * symlinks, so the rename stays on one filesystem and a symlink is never replaced by a file), with the
 * old file's mode (0600 stays 0600, whatever the umask) and, when run as root, its owner; flushed to
 * disk, then renamed over it. On failure the file is untouched and the temporary file removed.
 *
 * @throws ToolslimError (`invalid-input`) naming the file
 */
export function writeAtomically(file: string, text: string): void {
  let target: string;
  let temp: string | undefined;
  try {
    target = writeTarget(file);
    let old: FileStat | undefined;
    try {
      old = fs().statSync(target);
    } catch {
      // a new file: mode 0666 less the umask, as any new file
    }
    if (old !== undefined && !old.isFile()) throw new Error(`it is ${kindOf(old)}`);
    temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    const fd = fs().openSync(temp, 'wx', old === undefined ? 0o666 : old.mode & 0o7777);
    try {
      if (old !== undefined) {
        fs().fchmodSync(fd, old.mode & 0o7777);
        if (process.getuid?.() === 0 && (old.uid !== 0 || old.gid !== 0)) fs().fchownSync(fd, old.uid, old.gid);
      }
      const bytes = Buffer.from(text, 'utf8');
      let written = 0;
      while (written < bytes.length) written += fs().writeSync(fd, bytes, written, bytes.length - written);
      fs().fsyncSync(fd);
    } finally {
      fs().closeSync(fd);
    }
    fs().renameSync(temp, target);
  } catch (e) {
    if (temp !== undefined) {
      try {
        fs().unlinkSync(temp);
      } catch {
        // not created, or already renamed
      }
    }
    throw new ToolslimError('invalid-input', `cannot write ${file} (${(e as Error).message}); the file was left as it was`, { cause: e });
  }
}

/** A lock file taken by {@link tryLock}. */
export interface FileLock {
  readonly path: string;
  readonly token: string;
}

/**
 * Takes the lock file `path` (O_EXCL) in one attempt, never waiting: a stale lock (its process is gone,
 * or it is older than `staleMs`) is removed and the lock taken. Returns the lock, or the holder's pid
 * (undefined when unknown) when a live process holds it.
 */
export function tryLock(path: string, staleMs: number): FileLock | { busy: true; pid: number | undefined } {
  const token = `${process.pid} ${Date.now()} ${Math.random().toString(36).slice(2)}\n`;
  // A few rounds: a stale lock removed (or one released) between two steps is simply tried again.
  for (let round = 0; round < 3; round++) {
    try {
      const fd = fs().openSync(path, 'wx');
      try {
        fs().writeSync(fd, token);
      } finally {
        fs().closeSync(fd);
      }
      return { path, token };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new ToolslimError('invalid-input', `cannot create the lock file ${path}: ${(e as Error).message}`, { cause: e });
    }
    const held = removeIfStale(path, staleMs);
    if (held !== undefined) return { busy: true, pid: held.pid };
  }
  return { busy: true, pid: undefined };
}

/** Removes our lock, unless another process has since replaced it (having judged ours stale). */
export function unlock(lock: FileLock): void {
  try {
    if (fs().readFileSync(lock.path, 'utf8') === lock.token) fs().unlinkSync(lock.path);
  } catch {
    // removed as stale by another process: nothing to undo
  }
}

/**
 * Removes the lock at `path` when it is stale: its process is gone (same host), or it is older than
 * `staleMs`. The lock is first renamed aside (atomic) and removed only if it is still the lock judged
 * stale; a lock that another process re-created in between is put back. Returns undefined when the
 * caller should try again at once, else the live holder.
 */
function removeIfStale(path: string, staleMs: number): { pid: number | undefined } | undefined {
  let content: string;
  let mtime: number;
  try {
    content = fs().readFileSync(path, 'utf8');
    mtime = fs().statSync(path).mtimeMs;
  } catch {
    return undefined; // gone already: try again
  }
  const parsed = Number.parseInt(content, 10);
  const pid = Number.isSafeInteger(parsed) && parsed > 0 ? parsed : undefined;
  const dead = pid !== undefined && pid !== process.pid && !isAlive(pid);
  const old = Date.now() - mtime > staleMs;
  // A lock being written has no content yet: give it its time, unless it is old.
  if (!(dead || old) || (content === '' && !old)) return { pid };
  const aside = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.stale`;
  try {
    fs().renameSync(path, aside);
  } catch {
    return undefined; // someone else removed it
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
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
