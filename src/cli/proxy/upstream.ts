/**
 * The server side of the proxy: something that takes JSON-RPC messages and gives messages back. Two
 * kinds: a command spoken to over stdio ({@link StdioUpstream}) and a streamable HTTP endpoint
 * (`http.ts`). Both deliver each server message as its exact text, one message (or batch) at a time.
 */
import { RedactedLines } from './server-stderr.js';
import type { Writable } from 'node:stream';
import { startServerProcess, describeExit, exitStatus, type ServerProcess } from './child.js';
import { LineReader, isBlankLine } from './lines.js';
import { redactArgs } from '../redact.js';
import { DEFAULT_LIMITS, leadingId, overCap, trailingId } from './limits.js';

/** A JSON-RPC id as it is on the wire (parsed). */
export type RpcId = string | number;

/** What the proxy tells an upstream about a message it sends. */
export interface SendInfo {
  /** Ids of the requests in the message (a batch may hold several), which expect an answer. */
  readonly requestIds: readonly RpcId[];
  /** The message is the `initialize` request. */
  readonly initialize?: boolean;
  /** The message is `notifications/initialized`. */
  readonly initialized?: boolean;
}

/** How an upstream ended. */
export interface UpstreamEnd {
  /** What the proxy exits with (the server's status for a process). */
  readonly status: number;
  /** For messages: `exited with status 3`, `closed its output`, … */
  readonly reason: string;
  /** The server never started (a command not found): nothing was exchanged. */
  readonly startFailed?: boolean;
}

/** What an upstream reports. */
export interface UpstreamEvents {
  /** One server message (object or batch) as its exact text; `parsed` when the upstream already parsed it. */
  message(line: Buffer, parsed?: unknown): void;
  /** These requests will get no answer from the server (HTTP failures); `message` says why. */
  failed(ids: readonly RpcId[], code: number, message: string): void;
  /** The server is gone; nothing more will come. */
  ended(end: UpstreamEnd): void;
  /** A line for stderr. */
  log(line: string): void;
  /**
   * The upstream started a new session after the server forgot the old one (HTTP 404: a restart); the
   * server, perhaps another version of it, may list other tools now.
   */
  renewed?(): void;
}

/** The server side. */
export interface Upstream {
  /** How the server is named in messages. */
  readonly label: string;
  start(events: UpstreamEvents): void;
  /** Sends one message: its exact text, without a line break. False: the server is not keeping up; wait for `onDrain`. */
  send(text: Buffer | string, info: SendInfo): boolean;
  /** Calls `f` once the server has taken what was sent. */
  onDrain(f: () => void): void;
  /** Ends the server (or the HTTP session); resolves with the end once it is over. */
  close(): Promise<UpstreamEnd>;
  /** Pauses/resumes delivery (the client cannot keep up). */
  pauseOutput(): void;
  resumeOutput(): void;
}

/** Options of {@link StdioUpstream}. */
export interface StdioUpstreamOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** Where the server's stderr goes (the proxy's stderr). */
  readonly stderr?: Writable;
  /** Every line of the server's stderr passes this before `stderr` gets it (redact.ts; server-stderr.ts). */
  readonly redact?: (text: string) => string;
  /** Called with every chunk of the server's stderr (capture keeps a tail for messages). */
  readonly onStderr?: (chunk: Buffer) => void;
  /** How long a server gets to exit after its stdin closed before SIGTERM (default 2000 ms). */
  readonly graceMs?: number;
  /** How long after SIGTERM before SIGKILL (default 1000 ms). */
  readonly killMs?: number;
  /** The line cap (`--max-line-bytes`; default {@link DEFAULT_LIMITS}.line). */
  readonly maxLineBytes?: number;
}

/** A command spoken to over stdio, in a process group of its own. */
export class StdioUpstream implements Upstream {
  readonly label: string;
  readonly #options: StdioUpstreamOptions;
  #process: ServerProcess | undefined;
  #events: UpstreamEvents | undefined;
  #ended: Promise<UpstreamEnd> | undefined;
  #closing = false;
  #onDrain: (() => void)[] = [];

  constructor(options: StdioUpstreamOptions) {
    this.#options = options;
    // Secret-looking arguments (`--api-key=…`) never reach a message (redact.ts).
    this.label = `\`${redactArgs([options.command, ...options.args]).map(shellWord).join(' ')}\``;
  }

  /** The server's process id (its process group id too), once started. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  start(events: UpstreamEvents): void {
    this.#events = events;
    const proc = startServerProcess(this.#options.command, this.#options.args);
    this.#process = proc;
    const maxBytes = this.#options.maxLineBytes ?? DEFAULT_LIMITS.line;
    /** The line over the cap being dropped whose id was not in its first bytes. */
    let overflow: { readonly head: string; readonly message: string } | undefined;
    const lines = new LineReader(
      (line) => {
        if (!isBlankLine(line)) events.message(line);
      },
      {
        maxBytes,
        // Never held whole: dropped, and the request it answers fails naming the cap: at once when its id
        // is in its first bytes, else when the line ends, from its last bytes (the SDK writes `id` last).
        onOverflow: (head, seen) => {
          const text = head.toString('utf8');
          const id = leadingId(text);
          const message = `${overCap(`a line ${this.label} wrote`, 'line', maxBytes)} (${seen.toLocaleString('en-US')} bytes seen); it was dropped`;
          overflow = id === undefined ? { head: text, message } : undefined;
          events.log(`${message}${id === undefined ? ' (no answer id in its first bytes: its last bytes are read for one when it ends)' : `: request ${JSON.stringify(id)} gets an error`}`);
          if (id !== undefined) events.failed([id], -32000, message);
        },
        onOverflowEnd: (tail) => {
          if (overflow === undefined) return;
          const { head, message } = overflow;
          overflow = undefined;
          const id = trailingId(head, tail.toString('utf8'));
          events.log(id === undefined ? 'the line over the line cap had no answer id in its first or last bytes: nothing else was told' : `the line over the line cap answered request ${JSON.stringify(id)} (its id in its last bytes): it gets an error`);
          if (id !== undefined) events.failed([id], -32000, message);
        },
      },
    );
    proc.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
    const out = this.#options.stderr;
    const redacted = out && this.#options.redact ? new RedactedLines(out, this.#options.redact) : undefined;
    proc.stderr.on('data', (chunk: Buffer) => {
      this.#options.onStderr?.(chunk);
      if (redacted) redacted.push(chunk);
      else out?.write(chunk);
    });
    proc.stderr.once('end', () => redacted?.end());
    proc.stdin.on('drain', () => {
      const waiting = this.#onDrain;
      this.#onDrain = [];
      for (const f of waiting) f();
    });
    const stdoutDone = new Promise<void>((resolve) => {
      proc.stdout.once('end', resolve);
      proc.stdout.once('close', resolve);
      proc.stdout.once('error', () => resolve());
    });
    this.#ended = (async (): Promise<UpstreamEnd> => {
      const exit = await proc.exited;
      if (exit.error) {
        const code = (exit.error as { code?: string }).code;
        const why = code === 'ENOENT' ? `\`${this.#options.command}\` was not found` : code === 'EACCES' ? `\`${this.#options.command}\` is not executable` : exit.error.message;
        return { status: 2, reason: `cannot start ${this.label}: ${why}`, startFailed: true };
      }
      // The server is gone: whatever it left in its group goes too, so the pipes close.
      await Promise.race([stdoutDone, sleep(200)]);
      await proc.clearGroup(this.#options.killMs ?? 1000);
      await Promise.race([stdoutDone, sleep(500)]);
      if (!proc.stdout.destroyed) proc.stdout.destroy();
      if (!proc.stderr.destroyed) proc.stderr.destroy();
      redacted?.end();
      lines.end();
      const status = exitStatus(exit);
      return { status, reason: this.#closing ? 'stopped' : describeExit(exit) };
    })();
    void this.#ended.then((end) => events.ended(end));
  }

  send(text: Buffer | string, _info: SendInfo): boolean {
    const stdin = this.#process?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) return true;
    stdin.write(text);
    return stdin.write('\n');
  }

  onDrain(f: () => void): void {
    const stdin = this.#process?.stdin;
    if (!stdin || stdin.destroyed || stdin.writableNeedDrain !== true) f();
    else this.#onDrain.push(f);
  }

  /** Stops the server now, without waiting for it to exit on its own: SIGTERM to its group, SIGKILL after `killMs`. */
  async abort(killMs = 500): Promise<void> {
    this.#closing = true;
    await this.#process?.stop({ graceMs: 0, killMs });
  }

  /** Passes a signal to the server's whole process group. */
  signal(sig: NodeJS.Signals): void {
    this.#process?.signal(sig);
  }

  pauseOutput(): void {
    this.#process?.stdout.pause();
  }

  resumeOutput(): void {
    this.#process?.stdout.resume();
  }

  async close(): Promise<UpstreamEnd> {
    this.#closing = true;
    const proc = this.#process;
    if (!proc || !this.#ended) return { status: 0, reason: 'not started' };
    await proc.stop({ graceMs: this.#options.graceMs ?? 2000, killMs: this.#options.killMs ?? 1000 });
    return this.#ended;
  }
}

/** A word as a shell would need it quoted. */
export function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
