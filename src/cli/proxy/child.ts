/**
 * A server started as a child process in a process group of its own, so that everything it starts
 * (`sh -c '…'`, `npx` → node, `uvx` → python) can be signalled as a whole and nothing outlives the command.
 * Used by the proxy and by the commands that read a live server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { PassThrough, type Readable, type Writable } from 'node:stream';

/** How the direct child ended. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Options of {@link startServerProcess}. */
export interface StartOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/** A running server process and its group. */
export interface ServerProcess {
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves when the direct child has exited (or failed to start: `error`). */
  readonly exited: Promise<ChildExit & { readonly error?: Error }>;
  /** Sends a signal to every process of the group (the direct child included); false when none is left. */
  signal(signal: NodeJS.Signals): boolean;
  /**
   * Ends the server: closes its stdin, gives it `graceMs` to exit on its own, then SIGTERM to the group,
   * then SIGKILL after `killMs`. Resolves once the direct child has exited and the group was cleared.
   */
  stop(options?: { graceMs?: number; killMs?: number }): Promise<ChildExit>;
  /** After the direct child exited: SIGTERM whatever is left in its group, SIGKILL after `killMs`. */
  clearGroup(killMs?: number): Promise<void>;
}

const GROUPS = process.platform !== 'win32';

/** Starts `command args…` with piped stdio in a new process group. Never throws: a failure to start resolves `exited` with `error`. */
export function startServerProcess(command: string, args: readonly string[], options: StartOptions = {}): ServerProcess {
  let child: ChildProcess;
  try {
    child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? process.env, cwd: options.cwd, detached: GROUPS, windowsHide: true });
  } catch (e) {
    return notStarted(e as Error);
  }
  const pid = child.pid;
  let exit: ChildExit | undefined;
  const exited = new Promise<ChildExit & { error?: Error }>((resolve) => {
    child.once('error', (error) => {
      // A spawn failure (ENOENT, EACCES) comes as 'error' without 'exit'.
      if (exit === undefined && child.pid === undefined) resolve({ code: null, signal: null, error });
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });
  child.stdin!.on('error', () => {
    // EPIPE when the server is gone; its exit is what counts.
  });

  const signal = (sig: NodeJS.Signals): boolean => {
    if (pid === undefined) return false;
    try {
      if (GROUPS) process.kill(-pid, sig);
      else child.kill(sig);
      return true;
    } catch {
      return false;
    }
  };

  const clearGroup = async (killMs = 1000): Promise<void> => {
    if (pid === undefined || !GROUPS) return;
    if (!groupAlive(pid)) return;
    signal('SIGTERM');
    const deadline = Date.now() + killMs;
    while (Date.now() < deadline) {
      await sleep(20);
      if (!groupAlive(pid)) return;
    }
    signal('SIGKILL');
  };

  const stop = async ({ graceMs = 2000, killMs = 1000 } = {}): Promise<ChildExit> => {
    if (!child.stdin!.destroyed) child.stdin!.end();
    const ended = await Promise.race([exited, sleep(graceMs).then(() => undefined)]);
    if (ended === undefined) {
      signal('SIGTERM');
      const killed = await Promise.race([exited, sleep(killMs).then(() => undefined)]);
      if (killed === undefined) {
        signal('SIGKILL');
        await exited;
      }
    }
    await clearGroup(killMs);
    const e = await exited;
    return { code: e.code, signal: e.signal };
  };

  return { pid, stdin: child.stdin!, stdout: child.stdout!, stderr: child.stderr!, exited, signal, stop, clearGroup };
}

/** A server that could not even be spawned (bad arguments): empty streams and `exited` holding the error. */
function notStarted(error: Error): ServerProcess {
  const none = { code: null, signal: null } as const;
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.end();
  stderr.end();
  return {
    pid: undefined,
    stdin: new PassThrough(),
    stdout,
    stderr,
    exited: Promise.resolve({ ...none, error }),
    signal: () => false,
    stop: async () => none,
    clearGroup: async () => {},
  };
}

/** The status a process exits with to report how the server ended: its code, or 128 + the signal number. */
export function exitStatus(exit: ChildExit): number {
  if (exit.code !== null) return exit.code;
  if (exit.signal !== null) return 128 + ((constants.signals as Record<string, number>)[exit.signal] ?? 0);
  return 1;
}

/** How a server ended, in words: `exited with status 3`, `was killed by SIGKILL`. */
export function describeExit(exit: ChildExit): string {
  if (exit.code !== null) return `exited with status ${exit.code}`;
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  return 'ended';
}

/**
 * Whether any process of group `pgid` is still running. A process that has exited but was not yet reaped
 * (a zombie, e.g. under an init that does not reap orphans) does not count: it can do nothing more.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    for (const entry of readdirSync('/proc')) {
      if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
      const state = procState(Number(entry));
      if (state !== undefined && state.pgrp === pgid && state.state !== 'Z' && state.state !== 'X') return true;
    }
    return false;
  } catch {
    return true;
  }
}

/** A process's state letter and process group from /proc (Linux), or undefined. */
export function procState(pid: number): { state: string; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ppid pgrp …": comm may hold spaces and parentheses, so read after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0]!, pgrp: Number(rest[2]) };
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
