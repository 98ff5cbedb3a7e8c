// Why one file: one state machine over the client's requests in flight (see below); its other parts already
// live next door.
/**
 * The proxy's message router: every client line goes to the server as the same bytes, every server line
 * to the client, except what the proxy answers itself (`tools/list`, in every form, and what the list
 * hooks take: cold tool calls) and its own requests to the server.
 *
 * Ids: the proxy's own requests use ids (`toolslim-proxy-N`) that no client request in flight holds; a
 * client request that arrives with the id of one of the proxy's requests in flight is forwarded under a
 * fresh id and answered under its own again. On the normal path no id is touched.
 *
 * Faults: when the server goes, every request waiting for it gets a JSON-RPC error, then the router ends
 * with the server's status. The proxy's own requests time out with a message.
 *
 * Its parts live next door: the proxy's own requests (own-requests.ts), tools/list (tools-list.ts),
 * batches (batch.ts: their responses; client-batch.ts: routing a client's batch), message helpers
 * (messages.ts), the hooks' types (hooks.ts). What stays here (~400 lines) is one state machine over
 * the client's requests in flight, which every direction, the initialize hold and the fault paths share.
 */
import { hasOwn, isObject } from '../../json/guards.js';
import { Batches } from './batch.js';
import { routeClientBatch, type BatchRouter, type Decide, type Member } from './client-batch.js';
import { Refusal, type CallDecision, type ListHooks } from './hooks.js';
import { elementSpans, memberSpans, memberText } from './json-text.js';
import { appendInstructions, isJsonRpcLine, isServerRequest, kindOf, NO_KIND, paramsBytes, preview, spliceMember, type Kind } from './messages.js';
import { isBlankLine } from './lines.js';
import { idKey, OWN_PREFIX, OwnRequests, unkey } from './own-requests.js';
import { ToolsList } from './tools-list.js';
import type { RpcId, Upstream, UpstreamEnd } from './upstream.js';

export { Refusal, RpcError, formatSeconds, type CallDecision, type CallInfo, type ListHooks, type RawList, type ServedList } from './hooks.js';

/** Options of {@link Router}. */
export interface RouterOptions {
  readonly upstream: Upstream;
  readonly hooks: ListHooks;
  /** Writes one message line to the client (the router adds nothing; the writer adds the `\n`). */
  readonly toClient: (line: Buffer | string) => void;
  readonly log: (line: string) => void;
  /** Limit for each of the proxy's own requests (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** Called once with the status to exit with. */
  readonly done: (status: number) => void;
  /** Every error message the proxy writes itself passes this (redact.ts; default: as it is). */
  readonly redact?: (text: string) => string;
  /** The page and list caps of the proxy's own tools/list (limits.ts). */
  readonly limits?: { readonly page: number; readonly list: number };
  /** Secrets of the target (redact.ts), to warn of one the server's list holds. */
  readonly secrets?: readonly string[];
}

interface ClientPending {
  readonly id: RpcId;
  readonly method: string;
  readonly started: number;
  readonly bytes: number;
  readonly params?: unknown;
  /** The id the client used, when it was rewritten to avoid one of the proxy's. */
  readonly original?: RpcId;
}


const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
const MAX_CANCELLED = 10_000;

export class Router {
  readonly #o: RouterOptions;
  readonly #clientPending = new Map<string, ClientPending>();
  readonly #own: OwnRequests;
  readonly #list: ToolsList;
  readonly #batches: Batches;
  /** What batch routing (client-batch.ts) uses of this router. */
  readonly #batchRouter: BatchRouter;
  readonly #outstanding = new Set<Promise<unknown>>();
  #holding: { line: Buffer; parsed: unknown }[] | undefined;
  /** `notifications/initialized` went to the server (the client's, or the proxy's own at prefetch). */
  #initializedSent = false;
  #finished = false;
  /** The server's initialize result declared `tools.listChanged` (see {@link Router.renewed}). */
  #declaresListChanged = false;
  #clientGone = false;

  constructor(options: RouterOptions) {
    this.#o = options;
    this.#batches = new Batches((text) => this.#o.toClient(text));
    const router = this;
    this.#batchRouter = {
      batches: this.#batches,
      decideCall: (msg, text) => (this.#o.hooks.call ? this.#decide(msg, text) : undefined),
      classify: (text, msg, bytes, how) => this.#classify(text, msg, bytes, how),
      send: (text, ids, kind) => this.#send(text, ids, kind),
      track: (p) => this.#track(p),
      hold: (ids) => {
        for (const id of ids) this.#held.set(idKey(id), false);
      },
      listServed: () => this.#list.served('request'),
      get finished() {
        return router.#finished;
      },
    };
    this.#own = new OwnRequests({
      send: (text, id) => void this.#send(text, [id], NO_KIND),
      taken: (key) => this.#clientPending.has(key),
      label: options.upstream.label,
      timeoutMs: options.requestTimeoutMs ?? 30_000,
      waitingFor: () => {
        const asked = [...new Set(this.#serverAsked.values())];
        return asked.length === 0 ? undefined : `the server itself is still waiting for the client's answer to ${asked.join(', ')}`;
      },
    });
    this.#list = new ToolsList({ own: this.#own, hooks: options.hooks, label: options.upstream.label, refuse: (message) => this.#refuse(message), redact: this.#redact, ...(options.limits ? { limits: options.limits } : {}), ...(options.secrets ? { secrets: options.secrets, warn: options.log } : {}) });
  }

  readonly #redact = (text: string): string => this.#o.redact?.(text) ?? text;

  get finished(): boolean {
    return this.#finished;
  }

  /** Requests of the client still waiting for an answer (forwarded or answered by the proxy). */
  get waiting(): number {
    return this.#clientPending.size + this.#outstanding.size;
  }

  // ---- client → server ------------------------------------------------------------------------------

  /** One line from the client; false when the server is not keeping up (wait for the upstream's drain). */
  fromClient(line: Buffer): boolean {
    if (this.#finished || isBlankLine(line)) return true;
    let text: string;
    let msg: unknown;
    try {
      text = line.toString('utf8');
      msg = JSON.parse(text);
    } catch {
      // Not JSON: the server answers it (a parse error), as it would without the proxy.
      return this.#send(line, [], NO_KIND);
    }
    if (Array.isArray(msg)) return this.#clientBatch(line, text, msg);
    const m = isObject(msg) ? this.#classify(text, msg, line.length, { alone: true }) : ({ kind: 'forward' } as Member);
    if (m.kind === 'drop') return true;
    if (m.kind === 'local') {
      this.#track(m.answer.then((answer) => answer !== undefined && this.#o.toClient(answer)));
      return true;
    }
    return this.#send(m.text ?? line, m.requestId === undefined ? [] : [m.requestId], kindOf([m.method]));
  }

  #clientBatch(line: Buffer, text: string, arr: unknown[]): boolean {
    return routeClientBatch(this.#batchRouter, line, text, arr);
  }

  /** The hooks' decision on a tools/call (a hook that throws: forwarded unchanged, said on stderr). */
  #decide(msg: Record<string, unknown>, text: string): CallDecision {
    try {
      return this.#o.hooks.call!(msg.params, paramsBytes(text), memberText(text, 'params'));
    } catch (e) {
      this.#o.log(`tools/call: ${(e as Error).message}; forwarding it unchanged`);
      return { forward: true };
    }
  }

  /** What to do with one client message (alone or in a batch). */
  #classify(text: string, msg: Record<string, unknown>, bytes: number, how: Decide & { alone?: boolean } = {}): Member {
    const method = typeof msg.method === 'string' ? msg.method : undefined;
    const id = msg.id;
    const isRequest = method !== undefined && hasOwn(msg, 'id') && (typeof id === 'string' || typeof id === 'number');
    if (!isRequest) {
      if (method === undefined && (typeof id === 'string' || typeof id === 'number')) this.#serverAsked.delete(idKey(id));
      if (method === 'notifications/initialized') {
        if (this.#initializedSent) return { kind: 'drop' };
        this.#initializedSent = true;
      }
      if (method === 'notifications/cancelled') return { kind: 'forward', text: this.#retargetCancel(text, msg), method };
      return { kind: 'forward', method };
    }
    // A member of a batch held for the list that the client cancelled meanwhile: never forwarded, never answered.
    if (how.held === true && this.#held.has(idKey(id as RpcId))) {
      const cancelled = this.#held.get(idKey(id as RpcId))!;
      this.#held.delete(idKey(id as RpcId));
      if (cancelled) return { kind: 'drop' };
    }
    const idText = memberText(text, 'id') ?? JSON.stringify(id);
    if (method === 'tools/list') return { kind: 'local', answer: this.#list.answer(idText, msg.params) };
    let notify = false;
    let forwardText: string | undefined;
    const requestBytes = method === 'tools/call' ? paramsBytes(text) : bytes;
    if (method === 'tools/call' && this.#o.hooks.call) {
      let decision = how.decision ?? this.#decide(msg, text);
      if (!decision.forward && 'wait' in decision) {
        if (how.alone) {
          this.#held.set(idKey(id as RpcId), false);
          return { kind: 'local', answer: this.#afterList(text, msg, bytes, idText) };
        }
        if (how.listFailed !== undefined) return { kind: 'local', answer: Promise.resolve(this.#listFailedAnswer(idText, how.listFailed)) };
        decision = { forward: true };
      }
      if (!decision.forward) {
        if (decision.listChanged === true) this.#o.toClient('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}');
        return { kind: 'local', answer: Promise.resolve(`{"jsonrpc":"2.0","id":${idText},"result":${decision.resultText}}`) };
      }
      notify = decision.listChanged === true;
      // A renamed tool (or nulls to drop): the server gets its own name; every other member keeps its bytes.
      if (decision.paramsText !== undefined) forwardText = spliceMember(text, 'params', decision.paramsText);
    }
    let key = idKey(id as RpcId);
    let original: RpcId | undefined;
    if (this.#own.has(key)) {
      // The client picked an id the proxy has in flight: forward it under a fresh one, answer under its own.
      original = id as RpcId;
      const fresh = this.#own.freshId(`${OWN_PREFIX}client-`);
      key = idKey(fresh);
      forwardText = spliceMember(forwardText ?? text, 'id', JSON.stringify(fresh));
    }
    this.#clientPending.set(key, { id: (original === undefined ? id : unkey(key)) as RpcId, method: method!, started: performance.now(), bytes: requestBytes, params: method === 'tools/call' ? msg.params : undefined, original });
    if (notify) this.#o.toClient('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}');
    return { kind: 'forward', text: forwardText, requestKey: key, requestId: original === undefined ? (id as RpcId) : unkey(key), method };
  }

  /**
   * A tools/call that came before the first list (a session's checks need it): the list is fetched (each page
   * bounded by --timeout), then the call is decided as any other; the answer, when the proxy gives one.
   */
  async #afterList(text: string, msg: Record<string, unknown>, bytes: number, idText: string): Promise<string | undefined> {
    const key = idKey(msg.id as RpcId);
    let failed: string | undefined;
    try {
      await this.#list.served('request');
    } catch (e) {
      failed = (e as Error)?.message ?? String(e);
    }
    // Cancelled while it waited (MCP: a cancelled request gets no answer): forgotten, never forwarded.
    const cancelled = this.#held.get(key) === true;
    this.#held.delete(key);
    if (cancelled || this.#finished) return undefined;
    if (failed !== undefined) return this.#listFailedAnswer(idText, failed);
    const m = this.#classify(text, msg, bytes);
    if (m.kind === 'local') return m.answer;
    if (m.kind === 'forward') this.#send(m.text ?? text, m.requestId === undefined ? [] : [m.requestId], NO_KIND);
    return undefined;
  }

  #listFailedAnswer(idText: string, why: string): string {
    return `{"jsonrpc":"2.0","id":${idText},"error":${JSON.stringify({ code: -32603, message: this.#redact(`toolslim proxy: this tools/call came before the tool list, which the proxy needs to check it, and the list could not be fetched: ${why.replace(/^toolslim proxy: /, '')}`) })}}`;
  }

  /** A cancel for a request the proxy forwarded under another id names that id. */
  #retargetCancel(text: string, msg: Record<string, unknown>): string | undefined {
    const params = msg.params;
    if (!isObject(params) || (typeof params.requestId !== 'string' && typeof params.requestId !== 'number')) return undefined;
    const wanted = params.requestId;
    // Still held for the first list: marked, so it is never forwarded nor answered (the cancel goes on as it came).
    if (this.#held.has(idKey(wanted))) {
      this.#held.set(idKey(wanted), true);
      return undefined;
    }
    // MCP: a cancelled request gets no answer. It is forgotten now; its late answer, if any, is dropped.
    for (const [key, p] of this.#clientPending) {
      if ((p.original ?? p.id) !== wanted) continue;
      this.#clientPending.delete(key);
      this.#batches.forget(key);
      this.#cancelled.set(key, true);
      if (this.#cancelled.size > MAX_CANCELLED) this.#cancelled.delete(this.#cancelled.keys().next().value!);
      if (p.original !== undefined) {
        const span = memberSpans(text).get('params')!;
        const paramsText = spliceMember(text.slice(span.start, span.end), 'requestId', JSON.stringify(unkey(key)));
        return text.slice(0, span.start) + paramsText + text.slice(span.end);
      }
      return undefined;
    }
    return undefined;
  }

  /** `kind` comes from the parsed message: text a tool argument carries can never make a call look like `initialize`. */
  #send(text: Buffer | string, requestIds: readonly RpcId[], kind: Kind): boolean {
    return this.#o.upstream.send(text, { requestIds, ...kind });
  }

  // ---- server → client ------------------------------------------------------------------------------

  fromServer(line: Buffer, parsed?: unknown): void {
    if (this.#finished) return;
    let text: string | undefined;
    let msg = parsed;
    if (msg === undefined) {
      try {
        text = line.toString('utf8');
        msg = JSON.parse(text);
      } catch {
        this.#o.log(`dropped a line ${this.#o.upstream.label} wrote to stdout that is not JSON-RPC (it would break the client): ${preview(line)}`);
        return;
      }
    }
    if (!isJsonRpcLine(msg)) {
      this.#o.log(`dropped a line ${this.#o.upstream.label} wrote to stdout that is not JSON-RPC (it would break the client): ${preview(line)}`);
      return;
    }
    this.#noteServerRequests(msg);
    // While the list is fetched before the initialize result, the server's requests to the client still go
    // through (a server may need the client's roots/list to answer tools/list); the rest waits its turn.
    if (this.#holding && !this.#isOwnResponse(msg) && !isServerRequest(msg)) {
      this.#holding.push({ line, parsed: msg });
      return;
    }
    text ??= line.toString('utf8');
    if (Array.isArray(msg)) this.#serverBatch(line, text, msg);
    else this.#serverMessage(line, text, msg);
  }

  /** Client requests held until the first list (a call alone, or each request of a held batch) → cancelled meanwhile. */
  readonly #held = new Map<string, boolean>();
  /** Client requests cancelled while in flight (their late answers are dropped); bounded, oldest forgotten first. */
  readonly #cancelled = new Map<string, true>();

  /** Requests of the server to the client not answered yet (by id key → method): named when a list fetch times out. */
  readonly #serverAsked = new Map<string, string>();

  #noteServerRequests(msg: unknown): void {
    for (const m of Array.isArray(msg) ? msg : [msg]) {
      if (isServerRequest(m) && this.#serverAsked.size < 1000) this.#serverAsked.set(idKey((m as { id: RpcId }).id), (m as { method: string }).method);
    }
  }

  #isOwnResponse(msg: unknown): boolean {
    return isObject(msg) && !hasOwn(msg, 'method') && (typeof msg.id === 'string' || typeof msg.id === 'number') && this.#own.has(idKey(msg.id));
  }

  #serverBatch(line: Buffer, text: string, arr: unknown[]): void {
    const spans = elementSpans(text);
    const kept: string[] = [];
    let touched = false;
    arr.forEach((m, i) => {
      const elementText = text.slice(spans[i]!.start, spans[i]!.end);
      const out = isObject(m) ? this.#response(elementText, m) : elementText;
      if (out !== elementText) touched = true;
      if (out !== undefined) kept.push(out);
    });
    if (!touched) this.#o.toClient(line);
    else if (kept.length > 0) this.#o.toClient(`[${kept.join(',')}]`);
  }

  #serverMessage(line: Buffer, text: string, msg: Record<string, unknown>): void {
    if (typeof msg.method === 'string') {
      if (msg.method === 'notifications/tools/list_changed' && !hasOwn(msg, 'id')) this.#listChanged();
      this.#o.toClient(line);
      return;
    }
    const pending = typeof msg.id === 'string' || typeof msg.id === 'number' ? this.#clientPending.get(idKey(msg.id)) : undefined;
    if (pending?.method === 'initialize' && isObject(msg.result) && pending.original === undefined) {
      this.#clientPending.delete(idKey(msg.id as RpcId));
      this.#track(this.#initializeResult(line, text, msg.result));
      return;
    }
    const out = this.#response(text, msg);
    if (out === text) this.#o.toClient(line);
    else if (out !== undefined) this.#o.toClient(out);
  }

  /**
   * Routes one response: the proxy's own are consumed (undefined), a batch member is kept for its batch
   * (undefined), a rewritten id is put back; otherwise the text comes back unchanged.
   */
  #response(text: string, msg: Record<string, unknown>): string | undefined {
    if (hasOwn(msg, 'method') || (typeof msg.id !== 'string' && typeof msg.id !== 'number')) return text;
    const key = idKey(msg.id);
    if (this.#own.settle(key, text, msg)) return undefined;
    const pending = this.#clientPending.get(key);
    if (!pending) return this.#cancelled.delete(key) ? undefined : text;
    this.#clientPending.delete(key);
    let out = pending.original === undefined ? text : spliceMember(text, 'id', JSON.stringify(pending.original));
    if (pending.method === 'tools/call' && this.#o.hooks.answer) {
      try {
        out = this.#o.hooks.answer(pending.params, out, msg) ?? out;
      } catch (e) {
        this.#o.log(`tools/call answer: ${(e as Error).message}; passing it on unchanged`);
      }
    }
    if (pending.method === 'tools/call' && this.#o.hooks.called && (hasOwn(msg, 'result') || hasOwn(msg, 'error'))) {
      try {
        this.#o.hooks.called({ params: pending.params, requestBytes: pending.bytes, started: pending.started }, text, msg);
      } catch (e) {
        this.#o.log(`recording a tools/call: ${(e as Error).message}`);
      }
    }
    return this.#batches.take(key, out) ? undefined : out;
  }

  /**
   * The upstream started a new session (a restarted server, perhaps another version): handled as the
   * server's own `notifications/tools/list_changed` (the list is fetched again), and the client is sent
   * one when the server declared `tools.listChanged` (a client may count on none otherwise).
   */
  renewed(): void {
    if (this.#finished) return;
    this.#listChanged();
    if (this.#declaresListChanged) this.#o.toClient('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}');
  }

  #listChanged(): void {
    this.#list.changed();
    let refetch = false;
    try {
      refetch = this.#o.hooks.changed?.() ?? false;
    } catch (e) {
      this.#o.log((e as Error).message);
    }
    if (refetch) {
      this.#track(
        this.#list.served('changed').catch((e: unknown) => {
          if (!(e instanceof Refusal) && !this.#finished) this.#o.log(`after tools/list_changed: ${(e as Error)?.message ?? String(e)}`);
        }),
      );
    }
  }

  /** The server's `initialize` result: served as it is, or (prefetch) once the list is known, with the instructions it needs. */
  async #initializeResult(line: Buffer, text: string, result: Record<string, unknown>): Promise<void> {
    const hooks = this.#o.hooks;
    // A server that writes a secret of its command line or URL into its initialize result (its base URL,
    // token included, in `instructions`): the client and its model get it as sent, so say so (as capture does).
    const secrets = this.#o.secrets ?? [];
    if (secrets.length > 0 && secrets.some((x) => text.includes(x) || text.includes(JSON.stringify(x).slice(1, -1)))) {
      this.#o.log(`warning: ${this.#o.upstream.label}'s initialize result holds a secret given on its command line or URL; the client and its model get it as the server sent it`);
    }
    const caps = result.capabilities;
    this.#declaresListChanged = isObject(caps) && isObject(caps.tools) && caps.tools.listChanged === true;
    try {
      hooks.initialized?.(result);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      const id = memberText(text, 'id');
      this.#o.toClient(`{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify({ code: -32603, message: this.#redact(`toolslim proxy: ${e.message}`) })}}`);
      this.#refuse(e.message);
      return;
    }
    if (!hooks.prefetch || !isObject(result.capabilities) || !hasOwn(result.capabilities, 'tools')) {
      this.#o.toClient(line);
      return;
    }
    // The client gets the initialize result only once its instructions are known. The server is told the
    // session is initialized now (the client's own notification is then not sent again), so servers that
    // refuse requests before `notifications/initialized` answer tools/list too.
    this.#holding = [];
    if (!this.#initializedSent) {
      this.#initializedSent = true;
      this.#send(INITIALIZED, [], { initialized: true });
    }
    let out: string | Buffer = line;
    // Held until the list is known; a refusal that ends the run meanwhile (a request the client pipelined
    // behind it met the same refused list) answers it too (see #refuse).
    this.#initializeHeld = memberText(text, 'id');
    try {
      await this.#list.served('initialize');
      const extra = hooks.instructions?.();
      if (extra !== undefined && extra !== '') out = appendInstructions(text, result, extra);
    } catch (e) {
      if (this.#finished) return;
      const why = hooks.prefetchWhy ? ` (${hooks.prefetchWhy})` : '';
      const message = e instanceof Refusal ? e.message : `${(e as Error)?.message ?? String(e)}; the proxy needs the tools before it answers initialize${why}, so it refuses`;
      this.#answerHeldInitialize(message);
      this.#refuse(message);
      return;
    }
    this.#initializeHeld = undefined;
    this.#o.toClient(out);
    const held = this.#holding;
    this.#holding = undefined;
    for (const h of held) this.fromServer(h.line, h.parsed);
  }

  // ---- ending ---------------------------------------------------------------------------------------

  /** The server is gone: every request waiting for it gets an error, then the router ends with `end.status`. */
  async upstreamEnded(end: UpstreamEnd): Promise<void> {
    if (this.#finished) return;
    const gone = (method: string) => `toolslim proxy: ${this.#o.upstream.label} ${end.reason} before answering ${method}`;
    this.#own.fail(() => true, -32000, gone);
    this.#failPending(() => true, -32000, gone);
    this.#holding = undefined;
    await this.#settled();
    this.#finish(this.#clientGone && !end.startFailed ? 0 : end.status);
  }

  /** HTTP failures: these requests get an error now. */
  failed(ids: readonly RpcId[], code: number, message: string): void {
    const keys = new Set(ids.map(idKey));
    this.#own.fail((key) => keys.has(key), code, (method) => `toolslim proxy: ${method}: ${message}`);
    this.#failPending((key) => keys.has(key), code, (method) => `toolslim proxy: ${method}: ${message}`);
  }

  #failPending(which: (key: string) => boolean, code: number, message: (method: string) => string): void {
    for (const [key, p] of this.#clientPending) {
      if (!which(key)) continue;
      this.#clientPending.delete(key);
      const answer = `{"jsonrpc":"2.0","id":${JSON.stringify(p.original ?? p.id)},"error":${JSON.stringify({ code, message: this.#redact(message(p.method)) })}}`;
      if (!this.#batches.take(key, answer)) this.#o.toClient(answer);
    }
  }

  /** The client closed its side: nothing more will come from it. */
  clientEnded(): void {
    this.#clientGone = true;
  }

  /** Resolves once every request of the client has its answer (or `ms` passed). */
  async drained(ms: number): Promise<void> {
    const end = Date.now() + ms;
    while (this.waiting > 0 && Date.now() < end && !this.#finished) await new Promise((r) => setTimeout(r, 10));
  }

  /** The client's `initialize`, while its answer waits for the list: the text of its id. */
  #initializeHeld: string | undefined = undefined;

  /** Answers the held `initialize` (if any) with the refusal, first, as the client asked it first. */
  #answerHeldInitialize(message: string): void {
    const id = this.#initializeHeld;
    if (id === undefined) return;
    this.#initializeHeld = undefined;
    this.#o.toClient(`{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify({ code: -32603, message: this.#redact(`toolslim proxy: ${message}`) })}}`);
  }

  #refuse(message: string): void {
    if (this.#finished) return;
    this.#answerHeldInitialize(message);
    this.#o.log(message);
    this.#failPending(() => true, -32603, () => `toolslim proxy: ${message}`);
    this.#finish(1);
  }

  #finish(status: number): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#own.clear();
    try {
      this.#o.hooks.close?.();
    } catch (e) {
      this.#o.log((e as Error).message);
    }
    this.#o.done(status);
  }

  #track(p: Promise<unknown>): void {
    this.#outstanding.add(p);
    const drop = () => this.#outstanding.delete(p);
    p.then(drop, drop);
  }

  async #settled(): Promise<void> {
    while (this.#outstanding.size > 0) await Promise.allSettled([...this.#outstanding]);
  }
}

