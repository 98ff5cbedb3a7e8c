/**
 * `toolslim/mcp`: make an `@modelcontextprotocol/sdk` server answer `tools/list` with optimized tools,
 * without changing how its tools are registered.
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
import { ToolslimError } from '../core/errors.js';
import { transformTools, type TransformToolsOptions } from '../api.js';
import type { TransformResult } from '../core/run-types.js';

export type { McpTool, ListToolsResult, JsonSchema } from '../core/tool.js';

/** A low-level SDK `Server` (or anything with the same request-handler registry). */
export interface SdkLowLevelServer {
  setRequestHandler(...args: never[]): unknown;
}

/** A high-level SDK `McpServer`: it holds a low-level `Server` as `server`. */
export interface SdkMcpServer {
  readonly server: SdkLowLevelServer;
}

/** Options of {@link optimizeToolsList}: what to run (default the `safe` preset) and how. */
export interface OptimizeToolsListOptions extends TransformToolsOptions {
  /** Called with each fresh result: once per change of the tool set (and cursor), not per request. */
  readonly onResult?: (result: TransformResult) => void;
  /**
   * Called when optimizing throws; the server then answers with its original list. Without it the
   * error is written to `console.error` once per tool set.
   */
  readonly onFailure?: (error: unknown) => void;
}

/** What {@link optimizeToolsList} returns. */
export interface ToolsListOptimizer {
  /** The most recent result, if any `tools/list` was answered yet. */
  readonly last: TransformResult | undefined;
  /** How many times the list was optimized (a cache hit does not count). */
  readonly computations: number;
  /** Forgets every cached result: the next `tools/list` is optimized again. */
  invalidate(): void;
}

const INSTALLED = Symbol.for('toolslim.optimizeToolsList');
const METHOD = 'tools/list';

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Makes `server` (an SDK `McpServer` or low-level `Server`) answer `tools/list` with optimized tools.
 * Works whenever it is called: before or after tools are registered and before or after `connect`.
 * The optimized list is computed once per change of the tool set and cached; a change (a tool
 * registered, updated, enabled, disabled or removed) is noticed by comparing what the server's own
 * handler produced, so it is recomputed exactly when the list differs. `tools/call` and every other
 * request are untouched, so tools are called with their original names and arguments.
 *
 * Transform names and options are checked now: a bad one throws here, not on the first request. If
 * optimizing ever throws later, the server answers with its original list (see `onFailure`).
 */
export function optimizeToolsList(server: SdkMcpServer | SdkLowLevelServer, options: OptimizeToolsListOptions = {}): ToolsListOptimizer {
  const low = lowLevelOf(server);
  const handlers = (low as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) throw new TypeError('optimizeToolsList: not an MCP SDK server (no request handler registry found); pass an McpServer or a Server from @modelcontextprotocol/sdk');
  const registry = handlers as Map<string, Handler>;
  const marked = low as unknown as Record<symbol, unknown>;
  if (marked[INSTALLED]) throw new Error('optimizeToolsList: already installed on this server');
  const { onResult, onFailure, ...run } = options;
  // Names and options are checked now (on an empty list), not on the first request.
  try {
    transformTools([], { ...run, measure: false });
  } catch (e) {
    if (e instanceof ToolslimError && (e.code === 'unknown-transform' || e.code === 'invalid-option')) throw e;
  }

  const cache = new Map<string, { key: string; output: unknown }>();
  const wrappers = new WeakSet<Handler>();
  let last: TransformResult | undefined;
  let computations = 0;
  let failedKey: string | undefined;

  const optimize = (raw: unknown, cursor: string): unknown => {
    let key: string;
    try {
      key = JSON.stringify(raw);
    } catch (e) {
      report(e, undefined);
      return raw;
    }
    if (key === undefined) return raw;
    const hit = cache.get(cursor);
    if (hit && hit.key === key) return hit.output;
    try {
      // A JSON round trip: the SDK builds tools with `undefined` members, which are not JSON.
      const result = transformTools(JSON.parse(key), run);
      computations++;
      last = result;
      cache.set(cursor, { key, output: result.output });
      onResult?.(result);
      return result.output;
    } catch (e) {
      report(e, key);
      return raw;
    }
  };

  const report = (e: unknown, key: string | undefined) => {
    if (onFailure) onFailure(e);
    else if (key === undefined || key !== failedKey) console.error(`toolslim: serving the original tools/list: ${(e as Error)?.message ?? String(e)}`);
    failedKey = key;
  };

  const wrapCurrent = () => {
    const current = registry.get(METHOD);
    if (current === undefined || wrappers.has(current)) return;
    const wrapper: Handler = async (request, extra) => optimize(await current(request, extra), cursorOf(request));
    wrappers.add(wrapper);
    registry.set(METHOD, wrapper);
  };

  // Handlers registered later (McpServer installs its tools/list handler on the first registerTool).
  const original = (low as unknown as { setRequestHandler: (...args: unknown[]) => unknown }).setRequestHandler;
  Object.defineProperty(low, 'setRequestHandler', {
    configurable: true,
    writable: true,
    value: function (this: unknown, ...args: unknown[]) {
      const r = original.apply(this, args);
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
    get computations() {
      return computations;
    },
    invalidate() {
      cache.clear();
    },
  };
}

function lowLevelOf(server: SdkMcpServer | SdkLowLevelServer): SdkLowLevelServer {
  const s = server as Partial<SdkMcpServer & SdkLowLevelServer>;
  if (typeof s.setRequestHandler === 'function') return s as SdkLowLevelServer;
  if (s.server && typeof s.server.setRequestHandler === 'function') return s.server;
  throw new TypeError('optimizeToolsList: expected an McpServer or a Server from @modelcontextprotocol/sdk');
}

/** The page a `tools/list` request asks for (`""` for the first). */
function cursorOf(request: unknown): string {
  const params = typeof request === 'object' && request !== null ? (request as { params?: unknown }).params : undefined;
  const cursor = typeof params === 'object' && params !== null ? (params as { cursor?: unknown }).cursor : undefined;
  return typeof cursor === 'string' ? cursor : '';
}
