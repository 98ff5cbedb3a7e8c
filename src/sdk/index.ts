// Why one file: one entry point (`toolslim/mcp`): optimizeToolsList is one closure over the server's handlers,
// the page cache and the hot set; the session logic it calls lives in src/session/.
/**
 * `toolslim/mcp`: make an `@modelcontextprotocol/sdk` server answer `tools/list` with optimized tools,
 * without changing how its tools are registered — and, when asked, serve a cache-stable hot set.
 *
 * ```ts
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { optimizeToolsList } from 'toolslim/mcp';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * server.registerTool('search', { description: '…', inputSchema: { q: z.string() } }, handler);
 * optimizeToolsList(server);          // before or after registering tools, before or after connect
 * ```
 *
 * No runtime import of the SDK: this module works on the server object it is given (the SDK is a peer
 * dependency of this subpath only).
 *
 * @packageDocumentation
 */
import { resolveSteps, transformTools, type TransformToolsOptions } from '../api.js';
import { ToolslimError } from '../core/errors.js';
import type { TransformResult } from '../core/run-types.js';
import { isObject } from '../json/guards.js';
import { getProfile } from '../profiles/profiles.js';
import { CallMap, renameInAnswer, type MappedCall } from '../session/call-map.js';
import { describeValue, isOptionsObject } from '../session/hot-set.js';
import { appendInstructions, serveToolsList, stepsWritingInstructions, unreadableLabel, unreadablePart, type ServedList } from '../session/serve.js';
import { checkHotSetOptions, ToolSession, type HotSetOptions, type UsageRecorder } from '../session/tool-session.js';
import { UsageStore } from '../session/usage-store.js';
import { ArgumentValidator } from '../session/validate-arguments.js';
import { ToolUsageGraph } from '../usage/graph.js';
import { stringifyJson } from '../json/stringify.js';

export type { McpTool, ListToolsResult, JsonSchema } from '../core/tool.js';

/** A low-level SDK `Server` (or anything with the same request-handler registry). */
export interface SdkLowLevelServer {
  setRequestHandler(...args: never[]): unknown;
}

/** A high-level SDK `McpServer`: it holds a low-level `Server` as `server`. */
export interface SdkMcpServer {
  readonly server: SdkLowLevelServer;
}

/** Hot-set options of {@link optimizeToolsList}: those of a `ToolSession`, with the usage source instead of a graph. */
export interface HookHotSetOptions extends Omit<HotSetOptions, 'graph'> {
  /**
   * Where the hot set is ranked from and calls are recorded: a usage file's path (opened now with
   * `UsageStore.open`; a foreign or unreadable file throws here; written about once a second and at
   * exit), a `UsageStore` you flush yourself, or a `ToolUsageGraph` kept in memory. Without it no tool
   * has evidence, so every tool is served cold (see `DEFAULT_HOT_SET`).
   */
  readonly usage?: string | UsageStore | ToolUsageGraph;
}

/** Options of {@link optimizeToolsList}: what to run (default the `safe` preset) and how. */
export interface OptimizeToolsListOptions extends TransformToolsOptions {
  /**
   * Leave out of `tools/list` every tool whose `inputSchema` or `outputSchema` a strict 2020-12 reader
   * cannot read (default false: served as it is; see `findUnreadable`). Each is named through
   * `onServed` (its `dropped`) and once on `console.error`.
   */
  readonly dropUnreadable?: boolean;
  /**
   * Serve `k` tools in full and the rest cold, chosen once per server connection; calls of cold tools
   * are checked against the full schema (see `ToolSession`). Every field defaults to `DEFAULT_HOT_SET`'s.
   */
  readonly hotSet?: HookHotSetOptions;
  /** Called with each fresh pipeline result: once per change of the tool set (and cursor), not per request. */
  readonly onResult?: (result: TransformResult) => void;
  /** Called with each fresh served list (what was dropped, which instructions, which steps were omitted). */
  readonly onServed?: (served: ServedList) => void;
  /**
   * Called when optimizing throws (the server then answers with its original list), when the usage
   * file cannot be written, and when steps had to be left out because their instructions could no longer
   * reach the client. Without it each is written to `console.error` once.
   */
  readonly onFailure?: (error: unknown) => void;
}

/** What {@link optimizeToolsList} returns. */
export interface ToolsListOptimizer {
  /** The most recent pipeline result, if any `tools/list` was answered yet. */
  readonly last: TransformResult | undefined;
  /** The most recent served list (first page). */
  readonly served: ServedList | undefined;
  /** The hot-set session of the first page, once a `tools/list` was answered with a hot set. */
  readonly session: ToolSession | undefined;
  /** The instructions appended to the `initialize` result (`""` when none; undefined before `initialize`). */
  readonly deliveredInstructions: string | undefined;
  /** How many times the list was optimized (a cache hit does not count). */
  readonly computations: number;
  /** Forgets every cached result: the next `tools/list` is optimized again (the hot set is kept). */
  invalidate(): void;
  /** Writes recorded calls to the usage file now (with `hotSet.usage` a path or a `UsageStore`). */
  flushUsage(): void;
}

const INSTALLED = Symbol.for('toolslim.optimizeToolsList');
/** Cursors kept with their pages and sessions (a paging server's pages; any cursor a client makes up). */
const MAX_CURSORS = 64;
/** Served lists kept by the server's answer (the list changes, and the instructions once delivered). */
const MAX_COMPUTED = 16;
const LIST = 'tools/list';
const CALL = 'tools/call';
const INITIALIZE = 'initialize';
const OPTION_KEYS = ['transforms', 'onError', 'tokenizer', 'measure', 'maxDepth', 'verify', 'keepUnchanged', 'dropUnreadable', 'hotSet', 'onResult', 'onServed', 'onFailure'];

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

interface Page {
  key: string;
  served: ServedList;
  /** How calls of this page's tools reach their handlers (tools the pipeline renamed, nulls to drop). */
  calls: CallMap;
}

/**
 * Makes `server` (an SDK `McpServer` or low-level `Server`) answer `tools/list` with optimized tools.
 * Works whenever it is called: before or after tools are registered and before or after `connect`.
 *
 * - The optimized list is computed once per change of the tool set and cached; a change (a tool
 *   registered, updated, enabled, disabled or removed) is noticed by comparing what the server's own
 *   handler produced, so it is recomputed exactly when the list differs.
 * - Instructions a step writes (promote-common-params) are appended to the server's `initialize` result
 *   `instructions`. When they can no longer reach the client (installed after `initialize`, or the tools
 *   changed later and the text with them), the list is served without those steps, so no description
 *   is lost, and `onFailure` is told which steps.
 * - `dropUnreadable` leaves out tools a strict client cannot read, and names them.
 * - `hotSet` serves a cache-stable hot set; a call of a cold tool with arguments that do not match its
 *   full schema is answered with the schema instead of reaching the handler; with `reveal:
 *   'list-changed'` the tool becomes hot and, if the server declared `tools.listChanged`, the client is
 *   notified.
 * - A tool the pipeline renamed (the profile-tuned preset's rename-tools: `transforms:
 *   presetForProfile('safe', 'gemini')`) is served under its new name, and its calls reach the handler
 *   registered under the old one; for `openai-strict`, the `null`s sent for properties the conversion made
 *   nullable are dropped before the handler sees the arguments (see `CallMap`).
 * - Everything else is untouched, so tools are called with their registered names and arguments.
 *
 * Every option is checked now: a bad one throws here, not on the first request. If optimizing ever
 * throws later, the server answers with its original list (see `onFailure`).
 */
export function optimizeToolsList(server: SdkMcpServer | SdkLowLevelServer, options: OptimizeToolsListOptions = {}): ToolsListOptimizer {
  const low = lowLevelOf(server);
  const handlers = (low as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) throw new TypeError('optimizeToolsList: not an MCP SDK server (no request handler registry found); pass an McpServer or a Server from @modelcontextprotocol/sdk');
  const registry = handlers as Map<string, Handler>;
  const marked = low as unknown as Record<symbol, unknown>;
  if (marked[INSTALLED]) throw new Error('optimizeToolsList: already installed on this server');
  if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `optimizeToolsList: options must be an object, got ${describeValue(options)}`);
  for (const key of Object.keys(options)) if (!OPTION_KEYS.includes(key)) throw new ToolslimError('invalid-option', `optimizeToolsList: unknown option \`${key}\` (known: ${OPTION_KEYS.join(', ')})`);
  const { onResult, onServed, onFailure, dropUnreadable = false, hotSet, ...run } = options;
  for (const [name, fn] of [['onResult', onResult], ['onServed', onServed], ['onFailure', onFailure]] as const) {
    if (fn !== undefined && typeof fn !== 'function') throw new ToolslimError('invalid-option', `optimizeToolsList: \`${name}\` must be a function, got ${describeValue(fn)}`);
  }
  if (typeof dropUnreadable !== 'boolean') throw new ToolslimError('invalid-option', `optimizeToolsList: \`dropUnreadable\` must be true or false, got ${describeValue(dropUnreadable)}`);
  // Names and options are checked now (on an empty list), not on the first request.
  try {
    transformTools([], { ...run, measure: false });
  } catch (e) {
    if (e instanceof ToolslimError && (e.code === 'unknown-transform' || e.code === 'invalid-option')) throw e;
  }
  const writers = stepsWritingInstructions(run.transforms ?? ['safe']);

  // Hot set: options and the usage source, checked and opened now.
  let usage: { graph: () => ToolUsageGraph; recorder: UsageRecorder; store?: UsageStore } | undefined;
  let hot: HotSetOptions | undefined;
  if (hotSet !== undefined) {
    if (!isOptionsObject(hotSet)) throw new ToolslimError('invalid-option', `optimizeToolsList: \`hotSet\` must be an object like { k: 5, usage: 'usage.json' }, got ${describeValue(hotSet)}`);
    const { usage: source, ...rest } = hotSet;
    checkHotSetOptions(rest, 'optimizeToolsList');
    // The call tool's inner call would have to be forwarded in the wrapper's place: only the proxy does that.
    if (rest.search === true) throw new ToolslimError('invalid-option', 'optimizeToolsList: `hotSet.search` is served by `toolslim proxy --search` only (the SDK hook cannot forward a call tool\'s inner call yet)');
    hot = rest;
    // As the proxy refuses `--hot-set` with such a profile: a cold stub is an open object, which a client
    // that accepts only closed objects refuses (found as a user: the hook served them).
    const strict = closedObjectsClient(run.transforms ?? ['safe']);
    if (strict !== undefined) throw new ToolslimError('invalid-option', `optimizeToolsList: \`hotSet\` serves cold tools as open objects (\`{"type": "object"}\`), which the ${strict} profile's client refuses (it accepts only closed objects): leave \`hotSet\` out for that client (every tool is then served in full, converted for it)`);
    usage = openUsage(source);
  }

  const reportOnce = new Set<string>();
  const report = (e: unknown, key: string) => {
    if (onFailure) onFailure(e);
    else if (!reportOnce.has(key)) console.error(`toolslim: ${(e as Error)?.message ?? String(e)}`);
    reportOnce.add(key);
  };

  const originals = new Map<string, Handler>();
  const wrappers = new WeakSet<Handler>();
  const pages = new Map<string, Page>();
  const sessions = new Map<string, ToolSession>();
  /** Served lists by what the server answered (and the instructions delivered), most recent last. */
  const computed = new Map<string, { served: ServedList; calls: CallMap }>();
  /**
   * Keeps a cursor's page, most recent last. A client can send any cursor, each kept with its page and
   * session: past {@link MAX_CURSORS} the oldest (not the first page's) goes, with its session. Before,
   * 10,000 requests with made-up cursors optimized the list 10,000 times and kept every copy.
   */
  const keepPage = (cursor: string, page: Page) => {
    pages.delete(cursor);
    pages.set(cursor, page);
    while (pages.size > MAX_CURSORS) {
      let oldest: string | undefined;
      for (const c of pages.keys()) if (c !== '') {
        oldest = c;
        break;
      }
      if (oldest === undefined) break;
      pages.delete(oldest);
      sessions.delete(oldest);
    }
  };
  const validator = new ArgumentValidator();
  let last: TransformResult | undefined;
  let lastServed: ServedList | undefined;
  let computations = 0;
  // Installed after the client initialized: nothing toolslim writes can reach its instructions.
  let delivered: string | undefined = (low as { getClientCapabilities?: () => unknown }).getClientCapabilities?.() !== undefined ? '' : undefined;
  let listChanged = capabilityListChanged((low as { getCapabilities?: () => unknown }).getCapabilities?.());
  let flushTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Writes the recorded calls. `later`: never blocks the server's event loop, a lock another live process
   * holds is tried again later; `wait` (flushUsage() asked for it) and `last` (exit, close): may wait for
   * another process's lock, up to the store's lock timeout (a live holder keeps it for milliseconds), so
   * two processes ending together do not lose each other's calls; what still cannot be written is reported.
   */
  const writeUsage = (how: 'wait' | 'later' | 'last') => {
    if (flushTimer !== undefined) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (!usage?.store) return;
    try {
      if (how !== 'later') usage.store.flush();
      else if (!usage.store.tryFlush()) scheduleFlush(5000);
    } catch (e) {
      report(how === 'last' ? new Error(`${(e as Error).message}; ${usage.store.pending} recorded calls were not written`, { cause: e }) : e, 'usage');
    }
  };
  const flushUsage = () => writeUsage('wait');
  const scheduleFlush = (ms = 1000) => {
    if (!usage?.store || flushTimer !== undefined) return;
    flushTimer = setTimeout(() => writeUsage('later'), ms);
    (flushTimer as { unref?: () => void }).unref?.();
  };
  if (usage?.store) {
    // Written at exit too (one process listener for every hook), and when the connection closes.
    const atExit = () => writeUsage('last');
    flushAtExit(atExit);
    const closable = low as { onclose?: () => void };
    const before = closable.onclose;
    closable.onclose = () => {
      atExit();
      EXIT_FLUSHES.delete(atExit);
      before?.();
    };
  }

  /** The served list of one page, computed when the server's own answer changed. */
  const serve = (raw: unknown, cursor: string): Page | undefined => {
    let key: string | undefined;
    try {
      key = stringifyJson(raw);
    } catch (e) {
      report(e, 'stringify');
      return undefined;
    }
    if (key === undefined) return undefined;
    const hit = pages.get(cursor);
    if (hit && hit.key === key) return hit;
    // The same answer under another cursor (an SDK McpServer ignores the cursor and answers every request
    // with its whole list) is served from the result already computed, not optimized again.
    const known = `${delivered === undefined ? '-' : '+' + delivered}\u0000${key}`;
    let done = computed.get(known);
    if (done === undefined) {
      let served: ServedList;
      try {
        // A JSON round trip: the SDK builds tools with `undefined` members, which are not JSON.
        served = serveToolsList(JSON.parse(key), { ...run, dropUnreadable, ...(delivered === undefined ? {} : { delivered, onUndeliverable: 'omit-steps' as const }) });
      } catch (e) {
        report(new ToolslimError('transform-failed', `serving the original tools/list: ${(e as Error)?.message ?? String(e)}`, { cause: e }), 'serve:' + key);
        return undefined;
      }
      computations++;
      if (served.omittedSteps.length > 0) {
        const names = served.omittedSteps.map((s) => `\`${s}\``).join(', ');
        report(new ToolslimError('transform-failed', `served tools/list without ${names}: the instructions it writes can no longer reach the client (the initialize result was already sent), so its descriptions stay in the tools`, { transform: served.omittedSteps[0] }), 'omitted:' + names);
      }
      for (const d of served.dropped) console.error(`toolslim: left tool ${unreadableLabel(d)} out of tools/list: a strict 2020-12 reader cannot read ${unreadablePart(d)} (${d.error})`);
      done = { served, calls: CallMap.fromResult(served.transformResult) };
      computed.set(known, done);
      if (computed.size > MAX_COMPUTED) computed.delete(computed.keys().next().value!);
    }
    // A new page for this cursor (a new tool set, or one seen before): the result of record, told as before.
    const served = done.served;
    last = served.transformResult;
    if (cursor === '') lastServed = served;
    onResult?.(served.transformResult);
    onServed?.(served);
    const page = { key, served, calls: done.calls };
    keepPage(cursor, page);
    if (hot && usage) {
      const session = sessions.get(cursor);
      if (session) session.update(served.result as never, raw as never, page.calls.renames);
      else {
        // One session counted per connection, however many pages it has.
        const recorder: UsageRecorder = sessions.size === 0 ? usage.recorder : { record: (name) => usage!.recorder.record(name) };
        sessions.set(cursor, new ToolSession({ list: served.result as never, original: raw as never, hotSet: { ...hot, graph: usage.graph() }, listChanged, usage: recorder, validator, serverNames: page.calls.renames }));
      }
    }
    return page;
  };

  const listWrapper = (original: Handler): Handler => async (request, extra) => {
    const raw = await original(request, extra);
    const cursor = cursorOf(request);
    const page = serve(raw, cursor);
    if (!page) return raw;
    const session = sessions.get(cursor);
    return session ? session.result : page.served.result;
  };

  const initializeWrapper = (original: Handler): Handler => async (request, extra) => {
    const result = await original(request, extra);
    if (!isObject(result)) return result;
    listChanged = capabilityListChanged(result.capabilities);
    if (writers.length === 0) {
      delivered = '';
      return result;
    }
    // Steps that write instructions: the list is served now, so its text can go into this result.
    const list = originals.get(LIST);
    let text = '';
    if (list) {
      try {
        const page = serve(await list({ method: LIST, params: {} }, extra), '');
        text = page?.served.instructions ?? '';
      } catch (e) {
        report(e, 'initialize');
      }
    }
    delivered = text;
    return appendInstructions(result, text);
  };

  const callWrapper = (original: Handler): Handler => async (request, extra) => {
    const params = isObject(request) && isObject(request.params) ? request.params : {};
    const name = params.name;
    // A tool the pipeline renamed (presetForProfile's rename-tools) is registered under its old name; the
    // nulls openai-strict's conversion makes the model send for "absent" are dropped before the handler.
    let mapped: MappedCall | undefined;
    for (const page of pages.values()) if ((mapped = page.calls.toServer(name, params.arguments)) !== undefined) break;
    const forward = async () => {
      if (mapped === undefined) return original(request, extra);
      const server = mapped.name;
      const client = typeof name === 'string' ? name : server;
      try {
        const result = await original({ ...(request as object), params: mappedParams(params, mapped) }, extra);
        // A renamed tool's errors name it as the client knows it.
        const swapped = renameInAnswer({ result }, server, client);
        return swapped !== undefined && 'result' in swapped ? swapped.result : result;
      } catch (e) {
        const swapped = e instanceof Error ? renameInAnswer({ error: { message: e.message } }, server, client) : undefined;
        if (swapped !== undefined && 'error' in swapped) (e as Error).message = (swapped.error as { message: string }).message;
        throw e;
      }
    };
    let session: ToolSession | undefined;
    for (const s of sessions.values()) {
      if (typeof name === 'string' && s.tools.some((t) => t.name === name)) {
        session = s;
        break;
      }
    }
    if (!session) return forward();
    const decision = session.onCall(name, params.arguments, mapped === undefined ? params.arguments : mapped.arguments);
    scheduleFlush();
    if (decision.notify) {
      const send = (low as { sendToolListChanged?: () => Promise<void> | void }).sendToolListChanged;
      try {
        void Promise.resolve(send?.call(low)).catch((e: unknown) => report(e, 'notify'));
      } catch (e) {
        report(e, 'notify');
      }
    }
    if (decision.action === 'answer') return decision.result;
    return forward();
  };

  const wrappersFor: Record<string, (original: Handler) => Handler> = { [LIST]: listWrapper, [INITIALIZE]: initializeWrapper, [CALL]: callWrapper };
  const wrapCurrent = () => {
    for (const [method, wrap] of Object.entries(wrappersFor)) {
      const current = registry.get(method);
      if (current === undefined || wrappers.has(current)) continue;
      originals.set(method, current);
      const wrapper = wrap(current);
      wrappers.add(wrapper);
      registry.set(method, wrapper);
    }
  };

  // Handlers registered later (McpServer installs its tools handlers on the first registerTool).
  const setHandler = (low as unknown as { setRequestHandler: (...args: unknown[]) => unknown }).setRequestHandler;
  Object.defineProperty(low, 'setRequestHandler', {
    configurable: true,
    writable: true,
    value: function (this: unknown, ...args: unknown[]) {
      const r = setHandler.apply(this, args);
      wrapCurrent();
      return r;
    },
  });
  Object.defineProperty(low, INSTALLED, { value: true });
  wrapCurrent();

  return {
    get last() {
      return last;
    },
    get served() {
      return lastServed;
    },
    get session() {
      return sessions.get('');
    },
    get deliveredInstructions() {
      return delivered;
    },
    get computations() {
      return computations;
    },
    invalidate() {
      pages.clear();
      computed.clear();
    },
    flushUsage,
  };

  function openUsage(source: HookHotSetOptions['usage']): { graph: () => ToolUsageGraph; recorder: UsageRecorder; store?: UsageStore } {
    if (source === undefined) {
      // No usage: nothing has evidence, every tool starts cold; calls are kept in memory for later sessions of this server object.
      const graph = new ToolUsageGraph();
      return { graph: () => graph, recorder: graph };
    }
    if (source instanceof ToolUsageGraph) return { graph: () => source, recorder: source };
    const store = typeof source === 'string' ? UsageStore.open(source) : source;
    if (!(store instanceof UsageStore)) throw new ToolslimError('invalid-option', `optimizeToolsList: \`hotSet.usage\` must be a usage file's path, a UsageStore or a ToolUsageGraph, got ${describeValue(source)}`);
    return {
      store,
      graph: () => store.graph,
      recorder: {
        record: (name: string) => {
          store.record(name);
          scheduleFlush();
        },
        beginSession: () => {
          store.beginSession();
          scheduleFlush();
        },
      },
    };
  }
}

const EXIT_FLUSHES = new Set<() => void>();
let exitListener = false;

function flushAtExit(flush: () => void): void {
  EXIT_FLUSHES.add(flush);
  if (exitListener) return;
  const proc = (globalThis as { process?: { once?: (event: string, fn: () => void) => void } }).process;
  if (typeof proc?.once !== 'function') return;
  exitListener = true;
  proc.once('exit', () => {
    for (const f of EXIT_FLUSHES) f();
  });
}

function lowLevelOf(server: SdkMcpServer | SdkLowLevelServer): SdkLowLevelServer {
  const s = server as Partial<SdkMcpServer & SdkLowLevelServer>;
  if (typeof s?.setRequestHandler === 'function') return s as SdkLowLevelServer;
  if (s?.server && typeof s.server.setRequestHandler === 'function') return s.server;
  throw new TypeError('optimizeToolsList: expected an McpServer or a Server from @modelcontextprotocol/sdk');
}

/** The request's `params` with the handler's name for the tool and the arguments it should get. */
function mappedParams(params: Record<string, unknown>, mapped: MappedCall): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params, name: mapped.name };
  if (mapped.arguments !== undefined || Object.prototype.hasOwnProperty.call(params, 'arguments')) out.arguments = mapped.arguments;
  return out;
}

/** The page a `tools/list` request asks for (`""` for the first). */
function cursorOf(request: unknown): string {
  const params = typeof request === 'object' && request !== null ? (request as { params?: unknown }).params : undefined;
  const cursor = typeof params === 'object' && params !== null ? (params as { cursor?: unknown }).cursor : undefined;
  return typeof cursor === 'string' ? cursor : '';
}

/** `capabilities.tools.listChanged === true`: only then may the client be told the list changed. */
function capabilityListChanged(capabilities: unknown): boolean {
  return isObject(capabilities) && isObject(capabilities.tools) && capabilities.tools.listChanged === true;
}

/**
 * The name of the profile an adapt-to-client step of `transforms` converts for, when that profile's client
 * accepts only closed objects (openai-strict); else undefined.
 */
function closedObjectsClient(transforms: NonNullable<TransformToolsOptions['transforms']>): string | undefined {
  for (const [t, options] of resolveSteps(transforms)) {
    if (t.name !== 'adapt-to-client') continue;
    const named = (options as { profile?: unknown }).profile;
    if (named === undefined) continue;
    try {
      const profile = getProfile(named as Parameters<typeof getProfile>[0]);
      if (profile.strict?.closedObjects === true) return profile.name;
    } catch {
      // An unknown profile is refused where the step runs.
    }
  }
  return undefined;
}
