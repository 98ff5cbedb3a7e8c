/**
 * Reading a live MCP server with the official SDK client: initialize, then `tools/list` following
 * `nextCursor`. The SDK is loaded here, by dynamic import, only when a live server is asked for; nothing
 * else in toolslim imports it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from './errors.js';
import { mergePages } from './pages.js';

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
}

const SDK = '@modelcontextprotocol/sdk';
const STDERR_TAIL = 2000;

/** How a target is named in messages: the command line in backticks, or the URL. */
export function describeTarget(target: LiveTarget): string {
  return target.kind === 'stdio' ? `\`${[target.command, ...target.args].map(shellWord).join(' ')}\`` : target.url;
}

/**
 * Starts (or connects to) a server, initializes, lists every page of tools, and closes — always, also on
 * failure or timeout, so no child process outlives the call. The `initialize` and `tools/list` results
 * are recorded as the transport delivered them (not re-shaped by the SDK's schemas, which would reject
 * the very tools a user wants to check). Several pages are merged into one result without `nextCursor`.
 */
export async function captureServer(target: LiveTarget, options: CaptureOptions): Promise<CaptureFile> {
  const sdk = await loadSdk();
  const label = describeTarget(target);
  const progress = options.progress ?? (() => {});
  let stderrTail = '';
  let transport: SdkTransport;
  if (target.kind === 'stdio') {
    const stdio = new sdk.StdioClientTransport({ command: target.command, args: [...target.args], env: inheritedEnv(), stderr: 'pipe' });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    transport = stdio;
  } else {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      throw new CliError(`--url ${JSON.stringify(target.url)} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--url must be http(s)://…, got ${url.protocol}`);
    transport = new sdk.StreamableHTTPClientTransport(url, { requestInit: { headers: { ...target.headers } } });
  }
  const recorder = new RecordingTransport(transport);
  const client = new sdk.Client({ name: 'toolslim', version: '0' }, { capabilities: {} });
  let stage = 'start';
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  recorder.onServerClose = () => {
    closed = true;
  };
  const work = async (): Promise<CaptureFile> => {
    stage = 'initialize';
    progress(`toolslim: connecting to ${label}…`);
    await client.connect(recorder, { timeout: options.timeoutMs });
    const init = recorder.results.get('initialize');
    const info = (init as { serverInfo?: { name?: string; version?: string } } | undefined)?.serverInfo;
    progress(`toolslim: initialized ${info?.name ?? 'server'} ${info?.version ?? ''}`.trimEnd());
    const pages: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    do {
      stage = pages.length === 0 ? 'tools/list' : `tools/list (page ${pages.length + 1})`;
      recorder.results.delete('tools/list');
      await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, sdk.ResultSchema, { timeout: options.timeoutMs });
      const page = recorder.results.get('tools/list');
      if (!isRecord(page) || !Array.isArray(page.tools)) throw new CliError(`${label} answered tools/list without a \`tools\` array`);
      pages.push(page);
      progress(`toolslim: tools/list page ${pages.length}: ${page.tools.length} tools`);
      const next = page.nextCursor;
      if (next !== undefined && typeof next !== 'string') throw new CliError(`${label} answered tools/list with a \`nextCursor\` that is not a string`);
      if (next !== undefined && pages.length >= 1000) throw new CliError(`${label} keeps answering tools/list with a \`nextCursor\` (1000 pages); giving up`);
      cursor = next;
    } while (cursor !== undefined);
    return {
      server: {
        ...(target.kind === 'stdio' ? { command: target.command, args: [...target.args] } : { url: target.url }),
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
  try {
    return await Promise.race([work(), timeout]);
  } catch (e) {
    if (e instanceof TimeoutSignal) {
      recorder.kill();
      throw new CliError(`timed out after ${seconds(options.timeoutMs)} waiting for ${label} to answer ${stage} (raise --timeout if the server is just slow)${tail(stderrTail)}`);
    }
    if (e instanceof CliError) throw e;
    const message = (e as Error)?.message ?? String(e);
    if (/ENOENT/.test(message) && target.kind === 'stdio') throw new CliError(`cannot start ${label}: \`${target.command}\` was not found`);
    if (target.kind === 'stdio' && (closed || /Connection closed/i.test(message))) throw new CliError(`${label} closed the connection before answering ${stage}${tail(stderrTail)}`);
    const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
    const why = cause?.code ?? cause?.message;
    throw new CliError(`${label} failed during ${stage}: ${message}${why && !message.includes(why) ? ` (${why})` : ''}${tail(stderrTail)}`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
    await recorder.close().catch(() => {});
  }
}

interface SdkTransport {
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: unknown, extra?: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  sessionId?: string;
  setProtocolVersion?: (version: string) => void;
  readonly pid?: number | null;
}

/**
 * Wraps a transport so the results of `initialize` and `tools/list` are kept as they arrived; everything
 * else passes through.
 */
class RecordingTransport implements SdkTransport {
  readonly results = new Map<string, unknown>();
  readonly #methods = new Map<unknown, string>();
  readonly #inner: SdkTransport;
  onmessage?: (message: unknown, extra?: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onServerClose?: () => void;

  constructor(inner: SdkTransport) {
    this.#inner = inner;
    inner.onmessage = (message, extra) => {
      if (isRecord(message) && Object.prototype.hasOwnProperty.call(message, 'result') && this.#methods.has(message.id)) {
        this.results.set(this.#methods.get(message.id)!, message.result);
        this.#methods.delete(message.id);
      }
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => {
      this.onServerClose?.();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }
  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }
  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }
  start(): Promise<void> {
    return this.#inner.start();
  }
  send(message: unknown, options?: unknown): Promise<void> {
    if (isRecord(message) && typeof message.method === 'string' && Object.prototype.hasOwnProperty.call(message, 'id')) this.#methods.set(message.id, message.method);
    return this.#inner.send(message, options);
  }
  close(): Promise<void> {
    return this.#inner.close();
  }
  /** Ends a stdio child at once (a timed-out server may ignore its stdin closing). */
  kill(): void {
    const pid = this.#inner.pid;
    if (typeof pid === 'number') {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
}

interface Sdk {
  Client: new (info: { name: string; version: string }, options: object) => {
    connect(transport: SdkTransport, options?: object): Promise<void>;
    request(request: object, schema: unknown, options?: object): Promise<unknown>;
    close(): Promise<void>;
  };
  StdioClientTransport: new (params: object) => SdkTransport & { readonly stderr: NodeJS.ReadableStream | null };
  StreamableHTTPClientTransport: new (url: URL, options: object) => SdkTransport;
  ResultSchema: unknown;
}

async function loadSdk(): Promise<Sdk> {
  try {
    const [client, stdio, http, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return {
      Client: client.Client as unknown as Sdk['Client'],
      StdioClientTransport: stdio.StdioClientTransport as unknown as Sdk['StdioClientTransport'],
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport as unknown as Sdk['StreamableHTTPClientTransport'],
      ResultSchema: types.ResultSchema,
    };
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
      let dir = dirname(fileURLToPath(import.meta.resolve(`${SDK}/client/index.js`)));
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

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
  return env;
}

class TimeoutSignal extends Error {}

function tail(stderr: string): string {
  const t = stderr.trim();
  if (t === '') return '';
  const lines = t.split('\n').slice(-8);
  return `; its stderr ended with:\n  ${lines.join('\n  ')}`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
