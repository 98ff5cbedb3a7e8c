// Why one file: one client of the streamable HTTP transport (its session, its POSTs, its GET stream and
// their limits share the session id, the barrier and the abort); SSE parsing lives in sse.ts.
/**
 * A streamable HTTP MCP server as the proxy's upstream: a small client of the transport over `fetch`,
 * written here rather than taken from the SDK so the server's bytes reach the client as they were sent.
 *
 * - Each client message is POSTed as it came (`Accept: application/json, text/event-stream`); the answer
 *   is a JSON body or an SSE stream whose events are relayed one by one; 202 for notifications.
 * - `Mcp-Session-Id` from the server is sent on every later request, `MCP-Protocol-Version` once
 *   initialize has negotiated one; the session is ended with DELETE when the proxy exits.
 * - After `notifications/initialized`, a GET opens the stream of server-initiated messages (405: the
 *   server has none), reconnecting with `Last-Event-ID` when it drops.
 *
 * Not byte-identical, by necessity: a body that spans lines (pretty-printed JSON, multi-line SSE data)
 * is joined into one line by removing its line breaks (every other byte is kept), and text is decoded
 * as UTF-8, so invalid UTF-8 from the server becomes U+FFFD.
 */
import { oneLine } from '../../core/safe-text.js';
import { isObject } from '../../json/guards.js';
import { CliError } from '../errors.js';
import { toOneLine } from './json-text.js';
import { makeRedactor, redactUrl, targetSecrets, type Redactor } from '../redact.js';
import { SseParser } from './sse.js';
import { formatSeconds } from './hooks.js';
import { DEFAULT_LIMITS, overCap, reconnectDelay } from './limits.js';
import type { RpcId, SendInfo, Upstream, UpstreamEnd, UpstreamEvents } from './upstream.js';

/** Options of {@link HttpUpstream}. */
export interface HttpUpstreamOptions {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly log: (line: string) => void;
  /** How long the DELETE that ends the session may take (default 2000 ms). */
  readonly closeTimeoutMs?: number;
  /**
   * How long the server gets to answer each POST with its status line (default 30 s; `--timeout`); a
   * notification's whole answer must come within it too (a request's answer may stream for longer).
   */
  readonly requestTimeoutMs?: number;
  /** The cap on one JSON body, one SSE line or event (`--max-line-bytes`; default DEFAULT_LIMITS.line). */
  readonly maxLineBytes?: number;
}

/** Redirects followed for one request (same origin only). */
const MAX_REDIRECTS = 5;

const TRANSPORT_ERROR = -32000;
/** A GET stream that lasted this long counts as productive even without an event (a server's idle timeout). */
const PRODUCTIVE_STREAM_MS = 60_000;

export class HttpUpstream implements Upstream {
  readonly label: string;
  readonly #url: URL;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #log: (line: string) => void;
  readonly #redact: Redactor;
  readonly #closeTimeoutMs: number;
  readonly #requestTimeoutMs: number;
  readonly #maxLineBytes: number;
  readonly #abort = new AbortController();
  #events: UpstreamEvents | undefined;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** Messages wait for this before they are POSTed (initialize and notifications are sent in order). */
  #barrier: Promise<void> = Promise.resolve();
  #getStream = false;
  /** Bumped by each new session (#renew): the GET stream starts over on it, at once (see #openGetStream). */
  #getSession = 0;
  /** Ends the GET stream's wait before it reconnects (set while it waits). */
  #wakeGetStream: (() => void) | undefined;
  /** The GET stream was opened once and its loop ended (gave up, or 405): a new session opens it again. */
  #getStreamEnded = false;
  #closing: Promise<UpstreamEnd> | undefined;
  /** The client's initialize and initialized messages, sent again to start a new session after a 404. */
  #initBody: string | undefined;
  #initializedBody: string | undefined;
  /** A new session being started (see #renew). */
  #renewing: Promise<boolean> | undefined;
  #renewals = 0;

  constructor(options: HttpUpstreamOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new CliError(`--url ${JSON.stringify(options.url)} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--url must be http(s)://…, got ${url.protocol}`);
    // The URL's userinfo and query values and the header values never reach a message (redact.ts).
    this.label = redactUrl(url.href);
    const headers = { ...options.headers };
    const secrets = targetSecrets({ kind: 'http', url: url.href, headers });
    if (url.username !== '' || url.password !== '') {
      // `fetch` refuses a URL with credentials ("Request cannot be constructed …"): sent as curl sends them,
      // HTTP Basic authentication in an Authorization header, and the URL used without them.
      if (Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) {
        throw new CliError('--url carries credentials (user:password@) and --header gives an Authorization header: give one of them');
      }
      const user = decodeUserinfo(url.username);
      const password = decodeUserinfo(url.password);
      const basic = `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
      headers.Authorization = basic;
      secrets.push(...[user, password, basic].filter((v) => v !== ''));
      url.username = '';
      url.password = '';
    }
    this.#url = url;
    this.#headers = headers;
    this.#redact = makeRedactor(secrets);
    const log = options.log;
    this.#log = (line) => log(this.#redact(line));
    this.#closeTimeoutMs = options.closeTimeoutMs ?? 2000;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_LIMITS.line;
  }

  /** The session the server gave, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  start(events: UpstreamEvents): void {
    this.#events = events;
  }

  send(text: Buffer | string, info: SendInfo): boolean {
    const body = typeof text === 'string' ? text : text.toString('utf8');
    if (info.initialize) {
      // A new initialize starts a new session.
      this.#sessionId = undefined;
      this.#protocolVersion = undefined;
      this.#initBody = body;
    }
    if (info.initialized) this.#initializedBody = body;
    const started = this.#barrier.then(() => this.#post(body, info));
    // What must reach the server before anything after it: initialize (its session id) and notifications.
    if (info.initialize || info.requestIds.length === 0) this.#barrier = started.then((p) => p.headers);
    return true;
  }

  onDrain(f: () => void): void {
    f();
  }

  pauseOutput(): void {}

  resumeOutput(): void {}

  close(): Promise<UpstreamEnd> {
    this.#closing ??= (async () => {
      this.#abort.abort();
      if (this.#sessionId !== undefined) {
        try {
          const res = await this.#fetch({ method: 'DELETE', headers: this.#requestHeaders({}), signal: AbortSignal.timeout(this.#closeTimeoutMs) });
          await res.body?.cancel();
          if (!res.ok && res.status !== 405 && res.status !== 404) this.#log(`ending the HTTP session: ${statusLine(res)}`);
        } catch (e) {
          this.#log(`ending the HTTP session: ${describeFetchError(e)}`);
        }
      }
      const end = { status: 0, reason: 'closed the session' };
      this.#events?.ended(end);
      return end;
    })();
    return this.#closing;
  }

  /**
   * One request to the server's URL, following redirects only within its origin (the headers, `-H` ones
   * included, are never sent to another origin); a redirect elsewhere is refused naming both origins.
   */
  async #fetch(init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal }): Promise<Response> {
    let url = this.#url;
    for (let hop = 0; ; hop++) {
      const res = await fetch(url, { ...init, redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status < 300 || res.status > 399 || location === null) return res;
      await res.body?.cancel();
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new RedirectRefused(`${this.label} redirected ${init.method} to ${JSON.stringify(redactUrl(location))}, which is not a URL`);
      }
      if (next.origin !== this.#url.origin) {
        throw new RedirectRefused(`${this.label} redirected ${init.method} from origin ${this.#url.origin} to origin ${next.origin}; the proxy follows redirects only within the origin of --url (so its headers never reach another server): give the new URL as --url if you trust it`);
      }
      if ((res.status === 301 || res.status === 302 || res.status === 303) && init.method === 'POST') {
        throw new RedirectRefused(`${this.label} answered a POST with HTTP ${res.status} to ${redactUrl(next.href)}, which would turn it into a GET; give that URL as --url`);
      }
      if (hop >= MAX_REDIRECTS) throw new RedirectRefused(`${this.label} redirected ${init.method} more than ${MAX_REDIRECTS} times`);
      url = next;
    }
  }

  #requestHeaders(extra: Record<string, string>): Record<string, string> {
    const h: Record<string, string> = { ...this.#headers, ...extra };
    if (this.#sessionId !== undefined) h['mcp-session-id'] = this.#sessionId;
    if (this.#protocolVersion !== undefined) h['mcp-protocol-version'] = this.#protocolVersion;
    return h;
  }

  /** POSTs one message; `headers` resolves once the server's status line and headers are in. */
  #post(body: string, info: SendInfo, retried = false): { headers: Promise<void> } {
    let headersIn!: () => void;
    const headers = new Promise<void>((r) => (headersIn = r));
    // Every POST has a limit: a server that never answers one (a notification above all, which the next
    // messages wait behind) fails it after --timeout instead of holding the session forever.
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(), this.#requestTimeoutMs);
    timer.unref?.();
    const signal = AbortSignal.any([this.#abort.signal, limit.signal]);
    const what = info.requestIds.length === 0 ? 'a notification' : 'a request';
    const late = `${this.label} did not answer the POST of ${what} within ${formatSeconds(this.#requestTimeoutMs)} (raise --timeout if the server is just slow)`;
    void (async () => {
      let res: Response;
      const sentWith = this.#sessionId;
      try {
        res = await this.#fetch({
          method: 'POST',
          headers: this.#requestHeaders({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
          body,
          signal,
        });
      } catch (e) {
        clearTimeout(timer);
        headersIn();
        if (!this.#abort.signal.aborted) this.#fail(info.requestIds, limit.signal.aborted ? late : e instanceof RedirectRefused ? e.message : `cannot reach ${this.label}: ${describeFetchError(e)}`);
        return;
      }
      // A request's answer may stream as long as the tool works; a notification's must come now.
      if (info.requestIds.length > 0) clearTimeout(timer);
      const sid = res.headers.get('mcp-session-id');
      if (sid) this.#sessionId = sid;
      headersIn();
      try {
        // MCP: an HTTP client told 404 for its session id starts a new session; a stdio client behind the
        // proxy cannot, so the proxy does, once per request, and sends the request again.
        if (res.status === 404 && !retried && !info.initialize && sentWith !== undefined && this.#initBody !== undefined) {
          await res.body?.cancel().catch(() => undefined);
          clearTimeout(timer);
          if (await this.#renew(sentWith)) {
            this.#post(body, info, true);
            return;
          }
          this.#fail(info.requestIds, `${this.label} answered HTTP 404 (the server no longer knows this session) and a new session could not be started; restart the client`);
          return;
        }
        await this.#answer(res, info);
      } catch (e) {
        if (!this.#abort.signal.aborted) this.#fail(info.requestIds, limit.signal.aborted ? late : `reading the answer of ${this.label}: ${describeFetchError(e)}`);
      } finally {
        clearTimeout(timer);
      }
    })();
    return { headers };
  }

  /**
   * Starts a new session after the server answered 404 for `dead` (a restart forgets sessions): the
   * client's own initialize under a private id, its answer read here (never relayed: the client was
   * answered once), then the client's `notifications/initialized`. Requests that meet the same 404 share
   * one renewal; messages sent meanwhile wait behind it. Resolves whether a session was started.
   */
  #renew(dead: string): Promise<boolean> {
    if (this.#renewing !== undefined) return this.#renewing;
    if (this.#sessionId !== dead) return Promise.resolve(this.#sessionId !== undefined);
    const renewing = (async (): Promise<boolean> => {
      this.#sessionId = undefined;
      this.#protocolVersion = undefined;
      const id = `toolslim-session-${++this.#renewals}`;
      let init: unknown;
      try {
        init = JSON.parse(this.#initBody!);
      } catch {
        return false;
      }
      if (!isObject(init) || init.method !== 'initialize') return false;
      const signal = AbortSignal.any([this.#abort.signal, AbortSignal.timeout(this.#requestTimeoutMs)]);
      const post = (body: string) => this.#fetch({ method: 'POST', headers: this.#requestHeaders({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }), body, signal });
      try {
        const res = await post(JSON.stringify({ ...init, id }));
        const sid = res.headers.get('mcp-session-id');
        const answer = res.ok ? await this.#ownAnswer(res, id) : undefined;
        if (!res.ok) await res.body?.cancel().catch(() => undefined);
        if (!sid || !isObject(answer) || !isObject(answer.result)) {
          this.#log(`${this.label} no longer knows the session (HTTP 404), and starting a new one failed: ${res.ok ? 'no session id or no initialize result' : statusLine(res)}`);
          return false;
        }
        this.#sessionId = sid;
        if (typeof answer.result.protocolVersion === 'string') this.#protocolVersion = answer.result.protocolVersion;
        const note = await post(this.#initializedBody ?? '{"jsonrpc":"2.0","method":"notifications/initialized"}');
        await note.body?.cancel().catch(() => undefined);
        this.#log(`${this.label} no longer knows the session (HTTP 404): started a new one with the client's initialize; what the server kept for the old session (subscriptions, state) is gone`);
        // The server's own messages of the new session (list_changed, requests outside a call) come on a
        // GET stream of it: opened now, not after the backoff the dead session's stream had run up, by which
        // time the server had dropped what it sent (an SDK server keeps nothing for a stream not open).
        this.#getSession++;
        if (this.#wakeGetStream) this.#wakeGetStream();
        else if (!this.#getStream && this.#getStreamEnded) this.#openGetStream();
        // A server that forgot the session was most likely restarted, perhaps with other tools.
        this.#events?.renewed?.();
        return true;
      } catch (e) {
        if (!this.#abort.signal.aborted) this.#log(`${this.label} no longer knows the session (HTTP 404), and starting a new one failed: ${describeFetchError(e)}`);
        return false;
      }
    })();
    this.#renewing = renewing;
    void renewing.finally(() => {
      if (this.#renewing === renewing) this.#renewing = undefined;
    });
    // Whatever is sent meanwhile goes to the new session.
    this.#barrier = this.#barrier.then(() => renewing.then(() => undefined));
    return renewing;
  }

  /** The answer to the proxy's own request `id`, from a JSON body or an event stream (read only until it arrives). */
  async #ownAnswer(res: Response, id: string): Promise<Record<string, unknown> | undefined> {
    const pick = (text: string): Record<string, unknown> | undefined => {
      try {
        const parsed = JSON.parse(toOneLine(text)) as unknown;
        for (const m of Array.isArray(parsed) ? parsed : [parsed]) if (isObject(m) && m.id === id) return m;
      } catch {
        // not JSON: no answer here
      }
      return undefined;
    };
    if (mediaType(res) !== 'text/event-stream') {
      const text = await this.#body(res);
      return text === undefined ? undefined : pick(text);
    }
    let found: Record<string, unknown> | undefined;
    const parser = new SseParser((event) => (found ??= event.event === 'message' ? pick(event.data) : undefined), undefined, this.#maxLineBytes);
    if (!res.body) return undefined;
    const reader = res.body.getReader();
    const decoder = new TextDecoder('utf-8');
    while (found === undefined && !parser.overflowed) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    await reader.cancel().catch(() => undefined);
    return found;
  }

  async #answer(res: Response, info: SendInfo): Promise<void> {
    if (!res.ok) {
      await this.#httpError(res, info);
      return;
    }
    const type = mediaType(res);
    if (res.status === 202 || res.status === 204 || (info.requestIds.length === 0 && type === '')) {
      await res.body?.cancel();
      if (info.initialized) this.#openGetStream();
      return;
    }
    const answered = new Set<string>();
    if (type === 'text/event-stream') {
      const parser = await this.#readEvents(res, answered, info.initialize === true);
      if (parser.overflowed) {
        this.#fail(
          info.requestIds.filter((id) => !answered.has(key(id))),
          `${overCap(`an event of ${this.label}'s stream`, 'line', this.#maxLineBytes)}; the stream was cut`,
        );
        return;
      }
      const missing = info.requestIds.filter((id) => !answered.has(key(id)));
      if (missing.length > 0 && parser.lastEventId !== undefined) await this.#resume(parser.lastEventId, missing, answered, info.initialize === true);
      const still = info.requestIds.filter((id) => !answered.has(key(id)));
      if (still.length > 0) this.#fail(still, `${this.label} closed its event stream before answering`);
      return;
    }
    const text = await this.#body(res);
    if (text === undefined) {
      this.#fail(info.requestIds, `${overCap(`the body ${this.label} answered with`, 'line', this.#maxLineBytes)}; it was dropped`);
      return;
    }
    if (type !== 'application/json' && !(type === '' && text.trim() !== '')) {
      this.#fail(info.requestIds, `${this.label} answered with content type ${JSON.stringify(res.headers.get('content-type') ?? '')}, expected application/json or text/event-stream`);
      return;
    }
    if (text.trim() === '') {
      if (info.requestIds.length > 0) this.#fail(info.requestIds, `${this.label} answered with an empty body`);
      return;
    }
    this.#deliver(text, answered, info.initialize === true, info.requestIds);
    const missing = info.requestIds.filter((id) => !answered.has(key(id)));
    if (missing.length > 0) this.#fail(missing, `${this.label} did not answer this request in its response`);
  }

  /** One message from the server (a JSON body or an SSE event's data) to the client. */
  #deliver(text: string, answered: Set<string>, initialize: boolean, ids: readonly RpcId[] = []): void {
    const line = toOneLine(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.#log(`dropped a message from ${this.label} that is not JSON: ${preview(line)}`);
      if (ids.length > 0) this.#fail(ids, `${this.label} answered with a body that is not JSON`);
      return;
    }
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
      if (!isObject(m) || typeof m.method === 'string') continue;
      if (typeof m.id === 'string' || typeof m.id === 'number') answered.add(key(m.id));
      if (initialize && isObject(m.result) && typeof m.result.protocolVersion === 'string') this.#protocolVersion = m.result.protocolVersion;
    }
    this.#events?.message(Buffer.from(line, 'utf8'), parsed);
  }

  /** A body as text, read up to the line cap; undefined (the body cancelled) when it is longer. */
  async #body(res: Response): Promise<string | undefined> {
    if (!res.body) return '';
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > this.#maxLineBytes) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks, bytes).toString('utf8');
  }

  /** Reads an event stream to its end (or the line cap: then `overflowed` is set and the stream cancelled). */
  async #readEvents(res: Response, answered: Set<string>, initialize: boolean, lastEventId?: string, onEvent?: () => void): Promise<SseParser> {
    const p = new SseParser(
      (event) => {
        onEvent?.();
        if (event.event === 'message' && event.data !== '') this.#deliver(event.data, answered, initialize);
      },
      lastEventId,
      this.#maxLineBytes,
    );
    if (!res.body) return p;
    const decoder = new TextDecoder('utf-8');
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      p.push(decoder.decode(value, { stream: true }));
      if (p.overflowed) {
        await reader.cancel().catch(() => undefined);
        return p;
      }
    }
    p.push(decoder.decode());
    p.end();
    return p;
  }

  /** A POST's event stream ended before its answers: ask for the rest with GET and Last-Event-ID. */
  async #resume(lastEventId: string, missing: readonly RpcId[], answered: Set<string>, initialize: boolean): Promise<void> {
    let last = lastEventId;
    for (let attempt = 0; attempt < 2 && missing.some((id) => !answered.has(key(id))) && !this.#abort.signal.aborted; attempt++) {
      const res = await this.#fetch({ method: 'GET', headers: this.#requestHeaders({ accept: 'text/event-stream', 'last-event-id': last }), signal: this.#abort.signal });
      if (!res.ok || mediaType(res) !== 'text/event-stream') {
        await res.body?.cancel();
        return;
      }
      const parser = await this.#readEvents(res, answered, initialize, last);
      last = parser.lastEventId ?? last;
    }
  }

  /**
   * The stream of server-initiated messages, kept open until the proxy closes. It reconnects after the
   * server's `retry` (at least 1 s: a `retry: 0` server no longer gets ~200 connections a second),
   * doubling for each unproductive connection in a row (an error, or a stream that ended with no event
   * before a minute), at most 30 s, and gives up after 8 in a row, saying so (limits.ts).
   */
  #openGetStream(): void {
    if (this.#getStream) return;
    this.#getStream = true;
    void (async () => {
      let unproductive = 0;
      let last: string | undefined;
      let retryMs: number | undefined;
      let why = '';
      let session = this.#getSession;
      while (!this.#abort.signal.aborted) {
        if (session !== this.#getSession) {
          // A new session: its stream owes nothing to the old one's failures nor its event ids.
          session = this.#getSession;
          unproductive = 0;
          last = undefined;
        }
        const opened = Date.now();
        let events = 0;
        try {
          const res = await this.#fetch({
            method: 'GET',
            headers: this.#requestHeaders({ accept: 'text/event-stream', ...(last !== undefined ? { 'last-event-id': last } : {}) }),
            signal: this.#abort.signal,
          });
          if (res.status === 405) {
            await res.body?.cancel();
            return;
          }
          if (!res.ok || mediaType(res) !== 'text/event-stream') {
            await res.body?.cancel();
            throw new Error(res.ok ? `content type ${res.headers.get('content-type') ?? 'none'}` : statusLine(res));
          }
          const parser = await this.#readEvents(res, new Set(), false, last, () => events++);
          last = parser.lastEventId ?? last;
          if (parser.retryMs !== undefined) retryMs = parser.retryMs;
          if (parser.overflowed) this.#log(`${overCap(`an event of the server's stream (GET ${this.label})`, 'line', this.#maxLineBytes)}; the stream was cut`);
          const productive = !parser.overflowed && (events > 0 || Date.now() - opened >= PRODUCTIVE_STREAM_MS);
          unproductive = productive ? 0 : unproductive + 1;
          why = parser.overflowed ? 'an event over the line cap' : 'the stream ended with no event';
        } catch (e) {
          if (this.#abort.signal.aborted) return;
          unproductive++;
          why = describeFetchError(e);
        }
        const wait = reconnectDelay(unproductive, retryMs);
        if (wait === undefined) {
          this.#log(`the server's event stream (GET ${this.label}) brought nothing ${unproductive} times in a row, last: ${why}; giving up: server-initiated messages outside responses will not arrive`);
          return;
        }
        await new Promise<void>((r) => {
          const signal = this.#abort.signal;
          const done = () => {
            clearTimeout(t);
            signal.removeEventListener('abort', done);
            this.#wakeGetStream = undefined;
            r();
          };
          const t = setTimeout(done, wait);
          signal.addEventListener('abort', done, { once: true });
          this.#wakeGetStream = done;
        });
      }
    })().finally(() => {
      this.#getStream = false;
      this.#getStreamEnded = true;
    });
  }

  async #httpError(res: Response, info: SendInfo): Promise<void> {
    const text = (await this.#body(res).catch(() => '')) ?? '';
    let detail = '';
    try {
      const body = JSON.parse(text) as unknown;
      const first = Array.isArray(body) ? body[0] : body;
      if (isObject(first) && isObject(first.error) && typeof first.error.message === 'string') detail = first.error.message;
    } catch {
      detail = plainDetail(res, text);
    }
    let message = `${this.label} answered ${statusLine(res)}${detail ? `: ${detail}` : ''}`;
    if (res.status === 404 && this.#sessionId !== undefined && !info.initialize) {
      message += ' (the server no longer knows this session; the client has to reconnect)';
      this.#sessionId = undefined;
    }
    // On stderr the server's message is one line (a newline in it would write a line of the server's choosing).
    if (info.requestIds.length === 0) this.#log(oneLine(message));
    else this.#fail(info.requestIds, message);
  }

  #fail(ids: readonly RpcId[], message: string): void {
    if (ids.length === 0) this.#log(message);
    else this.#events?.failed(ids, TRANSPORT_ERROR, this.#redact(message));
  }
}

/** A redirect the proxy does not follow; its message is the whole story. */
class RedirectRefused extends Error {}

function key(id: RpcId): string {
  return typeof id === 'string' ? `s${id}` : `n${id}`;
}

function mediaType(res: Response): string {
  return (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** `404 Not Found`: the status and its text, never the body. */
function statusLine(res: Response): string {
  return `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
}

/** The first line of a plain-text error body; nothing from an HTML page. */
function plainDetail(res: Response, text: string): string {
  const type = mediaType(res);
  const first = text.trim().split(/\r?\n/, 1)[0] ?? '';
  if (type.includes('html') || first.startsWith('<') || first === '') return '';
  return first.length > 200 ? `${first.slice(0, 200)}…` : first;
}

function describeFetchError(e: unknown): string {
  const err = e as { message?: string; cause?: { code?: string; message?: string } };
  const cause = err?.cause?.code ?? err?.cause?.message;
  const message = err?.message ?? String(e);
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}

function preview(text: string): string {
  const s = text.slice(0, 200).replace(/[\u0000-\u001f]/g, ' ');
  return JSON.stringify(text.length > 200 ? `${s}…` : s);
}

/** A URL's user or password as typed: percent-escapes decoded (a malformed one is kept as it stands, as curl keeps it). */
function decodeUserinfo(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
