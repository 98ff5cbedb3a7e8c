/**
 * A stdio MCP proxy for servers you cannot change. Messages are newline-delimited JSON (the MCP stdio
 * framing). Every line passes through as the same bytes, except:
 * - a client's `tools/list` request (first page) is answered by the proxy from the optimized list, which
 *   it fetches from the server with requests of its own (ids `toolslim-proxy-N`, following `nextCursor`),
 *   optimizes once and caches;
 * - the server's answers to those requests are consumed;
 * - `notifications/tools/list_changed` from the server drops the cache (and is forwarded), so the next
 *   `tools/list` is optimized again.
 * The `initialize` exchange is forwarded untouched, so the proxy advertises exactly what the server does.
 * It exits when the server exits, with the server's exit code. No SDK involved.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { mergePages } from './pages.js';

/** Options of {@link runProxy}. */
export interface ProxyOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** Client side. */
  readonly input: Readable;
  readonly output: Writable;
  /** Where the server's stderr and the proxy's own messages go. */
  readonly errors: Writable;
  /** Rewrites a merged `tools/list` result; returns the result to send and a one-line summary. */
  readonly optimize: (result: Record<string, unknown>) => { result: unknown; summary: string };
  /** Write a line to `errors` each time the list is optimized. */
  readonly verbose?: boolean;
  /** How long the server gets to exit after the client has gone, before SIGTERM (default 3000 ms). */
  readonly exitGraceMs?: number;
}

const ID_PREFIX = 'toolslim-proxy-';
const NEWLINE = 0x0a;

/** Runs the proxy until the server exits; resolves to the exit code to exit with. */
export function runProxy(options: ProxyOptions): Promise<number> {
  const { input, output, errors } = options;
  const log = (line: string) => errors.write(`toolslim proxy: ${line}\n`);
  return new Promise<number>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(options.command, [...options.args], { stdio: ['pipe', 'pipe', 'pipe'], env: process.env, windowsHide: true });
    } catch (e) {
      log(`cannot start \`${options.command}\`: ${(e as Error).message}`);
      resolve(2);
      return;
    }
    const childIn = child.stdin!;
    const childOut = child.stdout!;
    child.stderr!.on('data', (chunk: Buffer) => errors.write(chunk));
    childIn.on('error', () => {
      // the server went away; its exit ends the proxy
    });

    let seq = 0;
    let generation = 0;
    let cached: string | undefined;
    let fetching = false;
    let waiters: unknown[] = [];
    const pending = new Map<string, (message: Record<string, unknown>) => void>();
    let done = false;

    const toClient = (bytes: Buffer | string) => {
      if (!output.write(bytes)) {
        childOut.pause();
        output.once('drain', () => childOut.resume());
      }
    };
    const toServer = (bytes: Buffer | string) => {
      if (!childIn.writable) return;
      if (!childIn.write(bytes)) {
        input.pause();
        childIn.once('drain', () => input.resume());
      }
    };

    const answer = (ids: readonly unknown[], member: 'result' | 'error', json: string) => {
      for (const id of ids) toClient(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"${member}":${json}}\n`);
    };

    const requestFromServer = (method: string, params: object): Promise<Record<string, unknown>> => {
      const id = `${ID_PREFIX}${++seq}`;
      return new Promise((res) => {
        pending.set(id, res);
        toServer(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      });
    };

    const fetchList = async () => {
      fetching = true;
      const gen = generation;
      const pages: Record<string, unknown>[] = [];
      let cursor: string | undefined;
      let failure: string | undefined;
      do {
        const reply = await requestFromServer('tools/list', cursor === undefined ? {} : { cursor });
        if (Object.prototype.hasOwnProperty.call(reply, 'error')) {
          failure = JSON.stringify(reply.error);
          break;
        }
        const page = reply.result;
        if (!isRecord(page) || !Array.isArray(page.tools)) {
          failure = JSON.stringify({ code: -32603, message: 'toolslim proxy: the server answered tools/list without a tools array' });
          break;
        }
        pages.push(page);
        cursor = typeof page.nextCursor === 'string' && pages.length < 1000 ? page.nextCursor : undefined;
      } while (cursor !== undefined);
      const ids = waiters;
      waiters = [];
      fetching = false;
      if (failure !== undefined) {
        answer(ids, 'error', failure);
      } else {
        const merged = mergePages(pages);
        let text: string;
        try {
          const { result, summary } = options.optimize(merged);
          text = JSON.stringify(result);
          if (options.verbose) log(summary);
        } catch (e) {
          log(`serving the original tools/list: ${(e as Error)?.message ?? String(e)}`);
          text = JSON.stringify(merged);
        }
        if (gen === generation) cached = text;
        answer(ids, 'result', text);
      }
      // Requests that arrived after the list changed mid-fetch.
      if (waiters.length > 0) void fetchList();
    };

    const fromClient = (line: Buffer) => {
      if (line.includes('tools/list')) {
        const msg = parseLine(line);
        if (isRecord(msg) && msg.method === 'tools/list' && Object.prototype.hasOwnProperty.call(msg, 'id') && !hasCursor(msg.params)) {
          if (cached !== undefined) answer([msg.id], 'result', cached);
          else {
            waiters.push(msg.id);
            if (!fetching) void fetchList();
          }
          return;
        }
      }
      toServer(line);
    };

    const fromServer = (line: Buffer) => {
      if (line.includes(ID_PREFIX)) {
        const msg = parseLine(line);
        if (isRecord(msg) && typeof msg.id === 'string' && pending.has(msg.id) && !Object.prototype.hasOwnProperty.call(msg, 'method')) {
          const res = pending.get(msg.id)!;
          pending.delete(msg.id);
          res(msg);
          return;
        }
      }
      if (line.includes('notifications/tools/list_changed')) {
        const msg = parseLine(line);
        if (isRecord(msg) && msg.method === 'notifications/tools/list_changed') {
          generation++;
          cached = undefined;
        }
      }
      toClient(line);
    };

    const clientLines = new LineSplitter(fromClient);
    const serverLines = new LineSplitter(fromServer);
    const onInput = (chunk: Buffer | string) => clientLines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    input.on('data', onInput);
    childOut.on('data', (chunk: Buffer) => serverLines.push(chunk));

    let graceTimer: NodeJS.Timeout | undefined;
    const onInputEnd = () => {
      clientLines.flush();
      childIn.end();
      // The client is gone: give the server a moment to exit on its own, then make sure it does.
      graceTimer = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        graceTimer = setTimeout(() => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        }, 2000);
        graceTimer.unref?.();
      }, options.exitGraceMs ?? 3000);
      graceTimer.unref?.();
    };
    input.on('end', onInputEnd);

    const forward = (signal: NodeJS.Signals) => () => {
      if (child.exitCode === null) child.kill(signal);
    };
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);

    const finish = (code: number) => {
      if (done) return;
      done = true;
      clearTimeout(graceTimer);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      input.off('data', onInput);
      input.off('end', onInputEnd);
      input.pause();
      // Let the process end: nothing more will be read from the client.
      if (input === process.stdin) process.stdin.destroy();
      resolve(code);
    };
    child.on('error', (e) => {
      log(`cannot start \`${options.command}\`: ${e.message}`);
      finish(2);
    });
    child.on('close', (code, signal) => {
      serverLines.flush();
      finish(code ?? (signal ? 128 + signalNumber(signal) : 1));
    });
  });
}

/** Splits a byte stream into lines (each with its `\n`); the bytes are never re-encoded. */
class LineSplitter {
  #buffer: Buffer = Buffer.alloc(0);
  readonly #onLine: (line: Buffer) => void;
  constructor(onLine: (line: Buffer) => void) {
    this.#onLine = onLine;
  }
  push(chunk: Buffer): void {
    let data = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    let nl = data.indexOf(NEWLINE);
    while (nl !== -1) {
      this.#onLine(data.subarray(0, nl + 1));
      data = data.subarray(nl + 1);
      nl = data.indexOf(NEWLINE);
    }
    this.#buffer = data.length === 0 ? Buffer.alloc(0) : Buffer.from(data);
  }
  /** Passes on a last line without `\n`, if any. */
  flush(): void {
    if (this.#buffer.length > 0) this.#onLine(this.#buffer);
    this.#buffer = Buffer.alloc(0);
  }
}

function parseLine(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
}

function hasCursor(params: unknown): boolean {
  return isRecord(params) && params.cursor !== undefined;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function signalNumber(signal: NodeJS.Signals): number {
  const table: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return table[signal] ?? 0;
}
