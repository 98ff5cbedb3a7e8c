/**
 * `toolslim proxy`: a stdio MCP proxy in front of a server you cannot change (a command over stdio or a
 * streamable HTTP endpoint). See router.ts for what passes through and what is answered here.
 *
 * Ending: the proxy exits when the server does, with its status; when the client closes stdin it lets
 * the requests in flight finish (a few seconds at most), stops the server (its whole process group, or
 * the HTTP session) and exits 0. SIGINT/SIGTERM/SIGHUP are passed to the server's group.
 */
import type { Readable, Writable } from 'node:stream';
import type { LiveTarget } from '../live.js';
import { LineReader } from './lines.js';
import type { ListHooks } from './hooks.js';
import { Router } from './router.js';
import { StdioUpstream, type Upstream } from './upstream.js';
import { targetRedactor } from '../redact.js';
import { leadingId, limitsOf, overCap, trailingId, type ByteLimits } from './limits.js';

/** Options of {@link runProxy}. */
export interface ProxyOptions {
  readonly target: LiveTarget;
  /** Client side. */
  readonly input: Readable;
  readonly output: Writable;
  /** Where the server's stderr and the proxy's own messages go. */
  readonly errors: Writable;
  readonly hooks: ListHooks;
  /** Limit for each of the proxy's own requests to the server (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** After the client has gone, how long requests in flight get to finish (default 3000 ms). */
  readonly exitGraceMs?: number;
  /** Lines for stderr besides `errors` (tests). */
  readonly onLog?: (line: string) => void;
  /** The upstream, once made (tests read the server's pid). */
  readonly onUpstream?: (upstream: Upstream) => void;
  /** Byte caps (`--max-*-bytes`; limits.ts); the result cap is the session hooks'. */
  readonly limits?: Partial<ByteLimits>;
}

/** Runs the proxy until the server or the client ends it; resolves to the status to exit with. */
export async function runProxy(options: ProxyOptions): Promise<number> {
  const { input, output, errors } = options;
  // Every line the proxy writes on stderr and every error it answers passes this (redact.ts).
  const redact = targetRedactor(options.target);
  const log = (raw: string) => {
    const line = redact(raw);
    errors.write(`toolslim proxy: ${line}\n`);
    options.onLog?.(line);
  };
  const limits = limitsOf(options.limits);
  const upstream = await makeUpstream(options.target, errors, log, options.requestTimeoutMs, redact, limits.line);
  options.onUpstream?.(upstream);

  return new Promise<number>((resolve) => {
    let clientGone = false;
    let finishing = false;

    // One `drain` listener at a time: lines the server sent before it was paused (and the proxy's own
    // answers) keep coming while the client's pipe is full, and a listener per line piled up (Node's
    // MaxListenersExceededWarning on stderr, in the client's log, after 2,000 quick notifications).
    let draining = false;
    const drained = () => {
      draining = false;
      upstream.resumeOutput();
    };
    const toClient = (line: Buffer | string) => {
      if (clientGone || output.destroyed) return;
      output.write(line);
      if (!output.write('\n') && !draining) {
        draining = true;
        upstream.pauseOutput();
        output.once('drain', drained);
      }
    };

    const router = new Router({
      upstream,
      hooks: options.hooks,
      toClient,
      log,
      requestTimeoutMs: options.requestTimeoutMs,
      redact,
      limits,
      secrets: redact.secrets,
      done: (status) => void finish(status),
    });

    const finish = async (status: number) => {
      if (finishing) return;
      finishing = true;
      cleanup();
      await upstream.close().catch(() => undefined);
      resolve(status);
    };

    /** The client line over the cap being dropped whose id was not in its first bytes. */
    let clientOverflow: { readonly head: string; readonly message: string } | undefined;
    const lines = new LineReader(
      (line) => {
        if (!router.fromClient(line)) {
          input.pause();
          upstream.onDrain(() => input.resume());
        }
      },
      {
        maxBytes: limits.line,
        // A client line over the cap never reaches the server; its request gets the error: at once when its id
        // is in its first bytes, else when the line ends, from its last bytes (the SDK's Client writes `id` last).
        onOverflow: (head) => {
          const text = head.toString('utf8');
          const id = leadingId(text, 'request');
          const message = `${overCap('a line from the client', 'line', limits.line)}; it was not sent to the server`;
          clientOverflow = id === undefined ? { head: text, message } : undefined;
          log(message);
          if (id !== undefined) toClient(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${JSON.stringify({ code: -32600, message: `toolslim proxy: ${message}` })}}`);
        },
        onOverflowEnd: (tail) => {
          if (clientOverflow === undefined) return;
          const { head, message } = clientOverflow;
          clientOverflow = undefined;
          const id = trailingId(head, tail.toString('utf8'), 'request');
          if (id !== undefined) toClient(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${JSON.stringify({ code: -32600, message: `toolslim proxy: ${message}` })}}`);
        },
      },
    );
    const onData = (chunk: Buffer | string) => lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    const onEnd = () => {
      lines.end();
      router.clientEnded();
      void (async () => {
        await router.drained(options.exitGraceMs ?? 3000);
        // The upstream's end (below) finishes the router with status 0.
        await upstream.close().catch(() => undefined);
      })();
    };
    const onOutputError = () => {
      // The client stopped reading: it is gone.
      clientGone = true;
      router.clientEnded();
      void upstream.close();
    };
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const onSignal = (sig: NodeJS.Signals) => {
      if (upstream instanceof StdioUpstream) upstream.signal(sig);
      else void upstream.close();
    };

    const cleanup = () => {
      input.off('data', onData);
      input.off('end', onEnd);
      output.off('error', onOutputError);
      for (const s of signals) process.off(s, onSignal);
      input.pause();
      // Nothing more is read from the client: let the process end.
      if (input === process.stdin) process.stdin.destroy();
    };

    input.on('data', onData);
    input.on('end', onEnd);
    output.on('error', onOutputError);
    for (const s of signals) process.on(s, onSignal);

    upstream.start({
      message: (line, parsed) => router.fromServer(line, parsed),
      failed: (ids, code, message) => router.failed(ids, code, message),
      renewed: () => router.renewed(),
      ended: (end) => {
        if (end.startFailed) log(end.reason);
        void router.upstreamEnded(end);
      },
      log,
    });
  });
}

async function makeUpstream(target: LiveTarget, errors: Writable, log: (line: string) => void, requestTimeoutMs: number | undefined, redact: (text: string) => string, maxLineBytes: number): Promise<Upstream> {
  // The server's own stderr passes the same redaction as the proxy's lines (its argv secrets, tokens).
  if (target.kind === 'stdio') return new StdioUpstream({ command: target.command, args: target.args, stderr: errors, redact, maxLineBytes });
  const { HttpUpstream } = await import('./http.js');
  return new HttpUpstream({ url: target.url, headers: target.headers, log, maxLineBytes, ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}) });
}
