/**
 * SEP-2549 (MCP 2026-07-28, "caching"): a `tools/list` result carries `ttlMs` (how long, in milliseconds,
 * the client may treat it as fresh; 0 = immediately stale, also what an absent field means) and
 * `cacheScope` (`public`: the same for every caller, shared caches may keep it; `private`: this caller
 * only). From that protocol version on servers MUST send both; before it the fields do not exist. A
 * `list_changed` notification still invalidates a cached list whatever its TTL.
 *
 * What a proxy serves is the server's list made smaller: the server's own hints are kept as it sent them
 * (they say how fresh the server's list is, and the served list changes only when the server's does).
 * A hint the server left out is added with the value that promises nothing — `ttlMs: 0`, `cacheScope:
 * 'private'` (the list may depend on who asks: the proxy's `--header`, the server's authorization) — and
 * only on sessions whose negotiated protocol version has the fields.
 */
import { isObject } from '../json/guards.js';

/** The first protocol version whose list results carry cache hints. */
export const CACHE_HINTS_SINCE = '2026-07-28';

/** The hints a list result carries (SEP-2549). */
export interface ListCacheHints {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

/** What the proxy adds for a hint the server left out: no freshness promised, this caller only. */
export const DEFAULT_LIST_CACHE_HINTS: ListCacheHints = Object.freeze({ ttlMs: 0, cacheScope: 'private' });

/** True when `protocolVersion` (the `initialize` result's, as negotiated) is a dated version from {@link CACHE_HINTS_SINCE} on. */
export function hasCacheHints(protocolVersion: unknown): boolean {
  return typeof protocolVersion === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(protocolVersion) && protocolVersion >= CACHE_HINTS_SINCE;
}

/**
 * The hint members to add to a list result served on a session of `protocolVersion`: each of
 * {@link DEFAULT_LIST_CACHE_HINTS} the result does not have, in that order; none before 2026-07-28.
 */
export function missingCacheHints(protocolVersion: unknown, result: unknown): Partial<ListCacheHints> {
  if (!hasCacheHints(protocolVersion)) return {};
  const has = (key: string) => isObject(result) && Object.prototype.hasOwnProperty.call(result, key);
  return { ...(has('ttlMs') ? {} : { ttlMs: DEFAULT_LIST_CACHE_HINTS.ttlMs }), ...(has('cacheScope') ? {} : { cacheScope: DEFAULT_LIST_CACHE_HINTS.cacheScope }) };
}
