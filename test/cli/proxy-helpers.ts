/** Driving the built proxy over its stdio, line by line, as a client would. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT } from './helpers.js';

export const WIRE_SERVER = join(ROOT, 'test', 'servers', 'wire-server.mjs');
export const node = process.execPath;

export const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wire","version":"0"}}}';
export const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

/** The proxy as a child process, read line by line. */
export class ProxyProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  readonly closed: Promise<number | null>;
  #chunks: Buffer[] = [];
  #lines: string[] = [];
  #waiting: ((line: string) => void)[] = [];

  constructor(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(node, [BIN, 'proxy', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString('utf8')));
    this.child.stdout.on('data', (d: Buffer) => {
      let start = 0;
      let nl = d.indexOf(10);
      while (nl !== -1) {
        this.#chunks.push(d.subarray(start, nl));
        const line = Buffer.concat(this.#chunks).toString('utf8');
        this.#chunks = [];
        const w = this.#waiting.shift();
        if (w) w(line);
        else this.#lines.push(line);
        start = nl + 1;
        nl = d.indexOf(10, start);
      }
      if (start < d.length) this.#chunks.push(d.subarray(start));
    });
    this.closed = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  send(...lines: string[]): void {
    this.child.stdin.write(lines.map((l) => l + '\n').join(''));
  }

  /** The next line from the proxy. */
  next(ms = 15_000): Promise<string> {
    const ready = this.#lines.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const waiter = (line: string) => {
        clearTimeout(timer);
        resolve(line);
      };
      // A wait that timed out leaves the queue: else the next line would go to it, and be lost.
      const timer = setTimeout(() => {
        const at = this.#waiting.indexOf(waiter);
        if (at !== -1) this.#waiting.splice(at, 1);
        reject(new Error(`no message from the proxy in ${ms} ms; stderr: ${this.stderr}`));
      }, ms);
      this.#waiting.push(waiter);
    });
  }

  /** Lines until one with this id (parsed); the others are returned too. */
  async until(id: unknown, ms = 15_000): Promise<{ message: Record<string, unknown>; line: string; before: string[] }> {
    const before: string[] = [];
    for (;;) {
      const line = await this.next(ms);
      const message = JSON.parse(line) as Record<string, unknown>;
      if (!Array.isArray(message) && message.id === id && !('method' in message)) return { message, line, before };
      before.push(line);
    }
  }

  /** Initializes: sends initialize and initialized, returns the initialize response line. */
  async initialize(): Promise<string> {
    this.send(INIT);
    const { line } = await this.until(0);
    this.send(INITIALIZED);
    return line;
  }

  end(): void {
    this.child.stdin.end();
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}

/** True while a process runs (a zombie, exited but not reaped, does not count). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return process.platform !== 'linux';
  }
}

/** The demo server's/wire server's --log: every line in and out, decoded. */
export function readWireLog(path: string): { sent: string[]; received: string[] } {
  const sent: string[] = [];
  const received: string[] = [];
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { sent, received };
  }
  for (const line of text.split('\n')) {
    const [dir, b64] = line.split(' ');
    if (!b64) continue;
    (dir === 'IN' ? sent : received).push(Buffer.from(b64, 'base64').toString('utf8'));
  }
  return { sent, received };
}
