/**
 * Reading a live MCP server with the official SDK client: initialize, then `tools/list` following
 * `nextCursor`. The SDK speaks the protocol; the bytes travel over the proxy's own upstreams, so a stdio
 * server runs in a process group of its own (everything it starts is stopped with it, on success, error
 * and timeout) and an HTTP server's errors never put a raw HTML page in a message. The SDK is loaded
 * here, by dynamic import, only when a live server is asked for.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { oneLine } from '../core/safe-text.js';
import { scanToolsSource } from '../json/source.js';
import { CliError } from './errors.js';
import { mergePages } from './pages.js';
import { formatSeconds } from './proxy/hooks.js';
import { shellWord, StdioUpstream, type RpcId, type Upstream } from './proxy/upstream.js';
import { redactArgs, redactUrl, targetRedactor } from './redact.js';

/** A server to read: a command spoken to over stdio, or a streamable HTTP endpoint. */
export type LiveTarget =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly kind: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> };

/** What `capture` writes: the server's `initialize` result and its `tools/list` result. */
export interface CaptureFile {
  readonly server: Record<string, unknown>;
  readonly initialize: unknown;
  readonly toolsList: unknown;
}

/** Options of {@link captureServer}. */
export interface CaptureOptions {
  /** Overall limit, in milliseconds, from start to the last page. */
  readonly timeoutMs: number;
  /** Progress lines (the caller decides whether to show them). */
  readonly progress?: (line: string) => void;
  /** Warnings about what the read could not keep (the caller prints them). */
  readonly warn?: (line: string) => void;
}

const SDK = '@modelcontextprotocol/sdk';
const STDERR_TAIL = 8000;

/**
 * The numbers of the tools/list pages, as their text has them, that `JSON.parse` changed (an integer beyond
 * 2^53, `-0`, more digits than a double holds): one line each, naming the tool and the pointer. The SDK
 * client parses every message, so a live read cannot keep them; a file read and the proxy can.
 */
function lostNumbers(pages: readonly Record<string, unknown>[], texts: readonly (string | undefined)[]): string[] {
  const out: string[] = [];
  pages.forEach((page, i) => {
    const text = texts[i];
    if (text === undefined) return;
    let source;
    try {
      source = scanToolsSource(text, '/result/tools');
    } catch {
      return;
    }
    const tools = page.tools as unknown[];
    source.tools.forEach((span, j) => {
      const problem = span.numbers?.problem;
      if (problem?.lost === undefined) return;
      const name = (tools[j] as { name?: unknown } | null)?.name;
      out.push(`${typeof name === 'string' ? `\`${oneLine(name)}\`` : `tool #${j}`} \`${problem.path}\`: \`${problem.lexeme}\` ${problem.lost}`);
    });
  });
  return out;
}

/** How a target is named in messages: the command line in backticks, or the URL. */
export function describeTarget(target: LiveTarget): string {
  return target.kind === 'stdio' ? `\`${redactArgs([target.command, ...target.args]).map(shellWord).join(' ')}\`` : redactUrl(target.url);
}

/**
 * Starts (or connects to) a server, initializes, lists every page of tools, and closes — always, also on
 * failure or timeout, so no process outlives the call. The `initialize` and `tools/list` results are
 * recorded as the server sent them (not re-shaped by the SDK's schemas, which would reject the very tools
 * a user wants to check). Several pages are merged into one result without `nextCursor`.
 */
export async function captureServer(target: LiveTarget, options: CaptureOptions): Promise<CaptureFile> {
  const sdk = await loadSdk();
  const label = describeTarget(target);
  const progress = options.progress ?? (() => {});
  let stderrTail = '';
  let upstream: Upstream;
  if (target.kind === 'stdio') {
    upstream = new StdioUpstream({
      command: target.command,
      args: target.args,
      onStderr: (chunk) => {
        stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
      },
      graceMs: 1000,
      killMs: 500,
    });
  } else {
    const { HttpUpstream } = await import('./proxy/http.js');
    upstream = new HttpUpstream({ url: target.url, headers: target.headers, log: () => {}, closeTimeoutMs: 1000, requestTimeoutMs: options.timeoutMs });
  }
  const transport = new UpstreamTransport(upstream);
  const client = new sdk.Client({ name: 'toolslim', version: '0' }, { capabilities: {} });
  let stage = 'start';
  let timer: NodeJS.Timeout | undefined;
  const work = async (): Promise<CaptureFile> => {
    stage = 'initialize';
    progress(`toolslim: connecting to ${label}…`);
    await client.connect(transport, { timeout: options.timeoutMs });
    const init = transport.results.get('initialize');
    const info = (init as { serverInfo?: { name?: string; version?: string } } | undefined)?.serverInfo;
    progress(`toolslim: initialized ${info?.name ?? 'server'} ${info?.version ?? ''}`.trimEnd());
    const pages: Record<string, unknown>[] = [];
    const pageTexts: (string | undefined)[] = [];
    let cursor: string | undefined;
    do {
      stage = pages.length === 0 ? 'tools/list' : `tools/list (page ${pages.length + 1})`;
      transport.results.delete('tools/list');
      await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, sdk.ResultSchema, { timeout: options.timeoutMs });
      const page = transport.results.get('tools/list');
      if (!isRecord(page) || !Array.isArray(page.tools)) throw new CliError(`${label} answered tools/list without a \`tools\` array`);
      pages.push(page);
      pageTexts.push(transport.texts.get('tools/list'));
      progress(`toolslim: tools/list page ${pages.length}: ${page.tools.length} tools`);
      const next = page.nextCursor;
      if (next !== undefined && next !== null && typeof next !== 'string') throw new CliError(`${label} answered tools/list with a \`nextCursor\` that is not a string`);
      if (typeof next === 'string' && pages.length >= 1000) throw new CliError(`${label} keeps answering tools/list with a \`nextCursor\` (1000 pages); giving up`);
      cursor = typeof next === 'string' ? next : undefined;
    } while (cursor !== undefined);
    const lost = lostNumbers(pages, pageTexts);
    if (lost.length > 0) {
      options.warn?.(
        `the server's tools/list holds ${lost.length === 1 ? 'a number' : 'numbers'} JavaScript cannot hold, which the MCP SDK client that reads a live server has changed: ${lost.slice(0, 3).join('; ')}${lost.length > 3 ? `; and ${lost.length - 3} more` : ''}; what toolslim writes from this read holds the changed value${lost.length === 1 ? '' : 's'} (a file or \`toolslim proxy\`, which read the text, keep them)`,
      );
    }
    return {
      server: {
        // A capture is a file to commit: secrets on the command line or in the URL are left out (redact.ts).
        ...(target.kind === 'stdio' ? { command: redactArgs([target.command])[0]!, args: redactArgs(target.args) } : { url: redactUrl(target.url) }),
        capturedWith: sdkVersion() ? `${SDK} ${sdkVersion()}` : SDK,
        capturedAt: new Date().toISOString(),
        ...(pages.length > 1 ? { pages: pages.length } : {}),
      },
      initialize: init,
      toolsList: mergePages(pages),
    };
  };
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutSignal()), options.timeoutMs);
  });
  const redact = targetRedactor(target);
  try {
    return await Promise.race([work(), timeout]);
  } catch (e) {
    // Every message out of here passes the target's redactor (a fetch error can quote the URL).
    const message = e instanceof CliError ? e.message : await failureMessage(e);
    throw new CliError(redact(message));
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
    await upstream.close().catch(() => {});
  }

  async function failureMessage(e: unknown): Promise<string> {
    if (e instanceof TimeoutSignal) {
      // A hung server gets no grace: its whole group is stopped now (SIGKILL after 250 ms).
      if (upstream instanceof StdioUpstream) await upstream.abort(250);
      const stray = transport.stray;
      if (stray !== undefined) return `${label} wrote a line on stdout that is not JSON-RPC, and no answer to ${stage} came in ${formatSeconds(options.timeoutMs)}: ${JSON.stringify(stray)}. stdout is the protocol channel: the server must log to stderr${tail(stderrTail)}`;
      return `timed out after ${formatSeconds(options.timeoutMs)} waiting for ${label} to answer ${stage} (raise --timeout if the server is just slow)${tail(stderrTail)}`;
    }
    const failure = transport.failure;
    if (failure !== undefined) return `${label} failed during ${stage}: ${failure.replace(`cannot reach ${label}: `, '').replace(`${label} `, '')}`;
    const end = transport.end;
    if (end?.startFailed) return end.reason;
    const message = (e as Error)?.message ?? String(e);
    if (end !== undefined || /Connection closed/i.test(message)) return `${label} ${end ? end.reason : 'closed the connection'} before answering ${stage}${tail(stderrTail)}`;
    return `${label} failed during ${stage}: ${message}${tail(stderrTail)}`;
  }
}

/** The SDK's transport shape, over one of the proxy's upstreams; records the results of `initialize` and `tools/list` as they came. */
class UpstreamTransport {
  readonly results = new Map<string, unknown>();
  /** The text of the line each result came in, when it came alone (not in a batch). */
  readonly texts = new Map<string, string>();
  /** How the server ended, when it did before the transport was closed. */
  end: { readonly status: number; readonly reason: string; readonly startFailed?: boolean } | undefined;
  /** The first transport failure (HTTP), as a message. */
  failure: string | undefined;
  /** The first line the server wrote on stdout that is not JSON (its first 200 characters). */
  stray: string | undefined;
  #closed = false;
  readonly #upstream: Upstream;
  readonly #methods = new Map<string, string>();
  onmessage?: (message: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(upstream: Upstream) {
    this.#upstream = upstream;
  }

  async start(): Promise<void> {
    this.#upstream.start({
      message: (line, parsed) => {
        let message = parsed;
        if (message === undefined) {
          try {
            message = JSON.parse(line.toString('utf8'));
          } catch {
            // Not JSON-RPC (a log line on stdout): nothing the client can use, but named if an answer never comes.
            this.stray ??= line.toString('utf8').slice(0, 200);
            return;
          }
        }
        for (const m of Array.isArray(message) ? message : [message]) {
          if (isRecord(m) && Object.prototype.hasOwnProperty.call(m, 'result') && (typeof m.id === 'string' || typeof m.id === 'number')) {
            const method = this.#methods.get(key(m.id));
            if (method !== undefined) {
              this.results.set(method, m.result);
              if (Array.isArray(message)) this.texts.delete(method);
              else this.texts.set(method, line.toString('utf8'));
            }
          }
          this.onmessage?.(m);
        }
      },
      failed: (ids, code, message) => {
        this.failure ??= message;
        for (const id of ids) this.onmessage?.({ jsonrpc: '2.0', id, error: { code, message } });
      },
      ended: (end) => {
        if (!this.#closed) this.end = end;
        this.onclose?.();
      },
      log: () => {},
    });
  }

  async send(message: unknown): Promise<void> {
    const ids: RpcId[] = [];
    let method: string | undefined;
    if (isRecord(message) && typeof message.method === 'string') {
      method = message.method;
      if (typeof message.id === 'string' || typeof message.id === 'number') {
        ids.push(message.id);
        this.#methods.set(key(message.id), message.method);
      }
    }
    this.#upstream.send(JSON.stringify(message), { requestIds: ids, initialize: method === 'initialize' || undefined, initialized: method === 'notifications/initialized' || undefined });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#upstream.close();
  }
}

interface Sdk {
  Client: new (info: { name: string; version: string }, options: object) => {
    connect(transport: UpstreamTransport, options?: object): Promise<void>;
    request(request: object, schema: unknown, options?: object): Promise<unknown>;
    close(): Promise<void>;
  };
  ResultSchema: unknown;
}

async function loadSdk(): Promise<Sdk> {
  try {
    const [client, types] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/types.js')]);
    return { Client: client.Client as unknown as Sdk['Client'], ResultSchema: types.ResultSchema };
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new CliError(`reading a live server needs ${SDK}, which is not installed. Install it next to toolslim (npm i -D ${SDK}) or run: npx -p toolslim -p ${SDK} toolslim …`);
    }
    throw e;
  }
}

let cachedSdkVersion: string | null | undefined;

function sdkVersion(): string | undefined {
  if (cachedSdkVersion === undefined) {
    cachedSdkVersion = null;
    try {
      // `createRequire`, not `import.meta.resolve`: the same in the ES module and CommonJS builds.
      let dir = dirname(createRequire(import.meta.url).resolve(`${SDK}/client/index.js`));
      for (let i = 0; i < 6; i++) {
        try {
          const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
          if (pkg.name === SDK && typeof pkg.version === 'string') {
            cachedSdkVersion = pkg.version;
            break;
          }
        } catch {
          // keep looking upward
        }
        dir = dirname(dir);
      }
    } catch {
      // unknown version
    }
  }
  return cachedSdkVersion ?? undefined;
}

class TimeoutSignal extends Error {}

function key(id: RpcId): string {
  return typeof id === 'string' ? `s${id}` : `n${id}`;
}

/** Lines of a server's stderr an error quotes: its last ones. */
const TAIL_LINES = 8;

/**
 * The end of a server's stderr, for an error. A server that dies of an uncaught exception ends its stderr
 * with the stack's frames (`    at …`, ten or more in Node), so the last lines alone hide the error itself
 * (`TypeError: …`, the line above the frames): that line is kept too, before the last lines, with `…`
 * for what lies between.
 */
function tail(stderr: string): string {
  const t = stderr.trim();
  if (t === '') return '';
  const all = t.split('\n');
  const start = Math.max(0, all.length - TAIL_LINES);
  const lines = all.slice(start);
  const frame = /^\s+at\s/;
  // The last frame among the kept lines, then the first frame of its block: the error is the line above.
  let i = all.length - 1;
  while (i >= start && !frame.test(all[i]!)) i--;
  if (i >= start) {
    while (i > 0 && frame.test(all[i - 1]!)) i--;
    const at = i - 1;
    if (at >= 0 && at < start && all[at]!.trim() !== '') lines.unshift(all[at]!, ...(at < start - 1 ? ['…'] : []));
  }
  return `; its stderr ended with:\n  ${lines.join('\n  ')}`;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
