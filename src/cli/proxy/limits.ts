/**
 * The proxy's limits: byte caps on what a peer can make it hold, and the backoff of the server's event
 * stream. Each cap has a default (below) and a flag that raises it; going over one is a clear error that
 * names the cap and the flag, never an unbounded buffer.
 *
 * - line: one message line (stdio, either side), one HTTP JSON body, one SSE line or event's data.
 * - page: one `tools/list` page (the result's bytes) the proxy fetches for itself.
 * - list: the sum of those pages (a server whose cursor never ends is stopped here, not after 1000 pages).
 * - result: one `tools/call` answer (result or error) the client gets.
 */
/** A JSON-RPC id as it is on the wire (as upstream.ts's RpcId; not imported: upstream.ts imports this module). */
type RpcId = string | number;

/** The byte caps (UTF-8 bytes; an SSE event's data: characters, the same for ASCII JSON). */
export interface ByteLimits {
  readonly line: number;
  readonly page: number;
  readonly list: number;
  readonly result: number;
}

const MIB = 1024 * 1024;

/** Defaults: far above any real server's message or list (the largest list of the corpus is under 1 MB; the proxy's own tests serve a 50 MB one), far below what hurts. */
export const DEFAULT_LIMITS: ByteLimits = Object.freeze({ line: 128 * MIB, page: 64 * MIB, list: 128 * MIB, result: 64 * MIB });

/** The flag that raises each cap. */
export const LIMIT_FLAGS: Readonly<Record<keyof ByteLimits, string>> = Object.freeze({
  line: '--max-line-bytes',
  page: '--max-page-bytes',
  list: '--max-list-bytes',
  result: '--max-result-bytes',
});

const NAMES: Readonly<Record<keyof ByteLimits, string>> = Object.freeze({ line: 'line', page: 'tools/list page', list: 'tools/list total', result: 'result' });

/** The limits with defaults filled in. */
export function limitsOf(given: Partial<ByteLimits> | undefined): ByteLimits {
  return { ...DEFAULT_LIMITS, ...Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => v !== undefined)) };
}

/** `<what> is over the <cap> cap of N bytes (<flag> raises it)`. */
export function overCap(what: string, cap: keyof ByteLimits, limit: number, seen?: number): string {
  return `${what} ${seen === undefined ? 'is' : `is ${formatBytes(seen)}, which is`} over the ${NAMES[cap]} cap of ${formatBytes(limit)} (${LIMIT_FLAGS[cap]} <bytes> raises it)`;
}

function formatBytes(n: number): string {
  return `${n.toLocaleString('en-US')} bytes`;
}

/** The SSE reconnection floor: a server's `retry: 0` (or 5) is taken as this. */
export const SSE_RETRY_FLOOR_MS = 1000;
/** The longest wait between two reconnections. */
export const SSE_RETRY_CAP_MS = 30_000;
/** Reconnections in a row that bring nothing (an error, or a stream that ends with no event) before the proxy gives up. */
export const SSE_GIVE_UP_AFTER = 8;

/**
 * How long to wait before reconnecting the server's event stream: the server's `retry` (at least
 * {@link SSE_RETRY_FLOOR_MS}), doubled for each unproductive reconnection in a row, at most
 * {@link SSE_RETRY_CAP_MS}; undefined once {@link SSE_GIVE_UP_AFTER} came in a row (give up).
 */
export function reconnectDelay(unproductive: number, retryMs: number | undefined): number | undefined {
  if (unproductive >= SSE_GIVE_UP_AFTER) return undefined;
  const base = Math.max(SSE_RETRY_FLOOR_MS, retryMs ?? SSE_RETRY_FLOOR_MS);
  return Math.min(base * 2 ** unproductive, SSE_RETRY_CAP_MS);
}

/**
 * The `id` of a JSON-RPC message from the start of its text (a line cut at a cap): the top-level members
 * are read in order, by parsing, as far as the text goes. `response` (a server's line): the `id` (a string
 * or a number) when one was read and no `method` (a message with one is the server's own request, not an
 * answer). `request` (a client's line): the `id` only when a `method` was read too (a client's answer to
 * the server has none, and nobody waits for an error about it). Undefined when the text is no object or
 * what is needed is not within it.
 */
export function leadingId(prefix: string, kind: 'response' | 'request' = 'response'): RpcId | undefined {
  const { id, keys } = readLeadingMembers(prefix);
  if (keys.includes('method') ? kind === 'response' : kind === 'request') return undefined;
  return id;
}

/**
 * The `id` of a JSON-RPC message cut at a cap, read from its last bytes: the official SDK writes `id` as
 * the last member of every request (`{ method, params, jsonrpc, id }`) and response (`{ result, jsonrpc,
 * id }`), so a huge message has it only at its end. `head` (its first bytes) says which kind it is, as for
 * {@link leadingId}: a `method` key read there makes it a request, a `result` or `error` key a response.
 * The last top-level member is read backwards from the closing brace; only a string or number `id` counts.
 * Undefined when the kind does not match, or `tail` does not end with an `id` member.
 */
export function trailingId(head: string, tail: string, kind: 'response' | 'request' = 'response'): RpcId | undefined {
  const { keys } = readLeadingMembers(head);
  if (kind === 'request' ? !keys.includes('method') : keys.includes('method') || !(keys.includes('result') || keys.includes('error'))) return undefined;
  let i = blankBack(tail, tail.length - 1);
  if (tail[i] !== '}') return undefined;
  i = blankBack(tail, i - 1);
  const valueEnd = i + 1;
  let valueStart: number;
  if (tail[i] === '"') {
    valueStart = openingQuote(tail, i - 1);
    if (valueStart < 0) return undefined;
  } else {
    while (i >= 0 && /[0-9eE+\-.]/.test(tail[i]!)) i--;
    valueStart = i + 1;
    if (valueStart === valueEnd) return undefined;
  }
  i = blankBack(tail, valueStart - 1);
  if (tail[i] !== ':') return undefined;
  i = blankBack(tail, i - 1);
  if (tail[i] !== '"') return undefined;
  const keyStart = openingQuote(tail, i - 1);
  if (keyStart < 0) return undefined;
  const before = blankBack(tail, keyStart - 1);
  if (tail[before] !== ',' && tail[before] !== '{') return undefined;
  try {
    if (JSON.parse(tail.slice(keyStart, i + 1)) !== 'id') return undefined;
    const v = JSON.parse(tail.slice(valueStart, valueEnd)) as unknown;
    return typeof v === 'string' || typeof v === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The top-level members of a message's first bytes, in order: every key read (also one whose value is cut) and the `id` if its value was read. */
function readLeadingMembers(prefix: string): { id: RpcId | undefined; keys: string[] } {
  const keys: string[] = [];
  let id: RpcId | undefined;
  let i = blank(prefix, 0);
  if (prefix[i] !== '{') return { id, keys };
  i = blank(prefix, i + 1);
  for (let members = 0; members < 64 && i < prefix.length; members++) {
    const keyEnd = stringEnd(prefix, i);
    if (keyEnd === -1) break;
    let key: string;
    try {
      key = JSON.parse(prefix.slice(i, keyEnd)) as string;
    } catch {
      return { id: undefined, keys };
    }
    keys.push(key);
    i = blank(prefix, keyEnd);
    if (prefix[i] !== ':') break;
    i = blank(prefix, i + 1);
    const end = valueEnd(prefix, i);
    if (end === -1) break;
    if (key === 'id') {
      try {
        const v = JSON.parse(prefix.slice(i, end)) as unknown;
        id = typeof v === 'string' || typeof v === 'number' ? v : undefined;
      } catch {
        return { id: undefined, keys };
      }
    }
    i = blank(prefix, end);
    if (prefix[i] !== ',') break;
    i = blank(prefix, i + 1);
  }
  return { id, keys };
}

/** The index of the last non-blank character at or before `i` (-1 when none). */
function blankBack(s: string, i: number): number {
  while (i >= 0 && (s[i] === ' ' || s[i] === '\t' || s[i] === '\r' || s[i] === '\n')) i--;
  return i;
}

/** Reading backwards from `i`, inside a string whose closing quote is at `i + 1`: the index of its opening quote (the first quote not escaped by an odd run of backslashes), or -1. */
function openingQuote(s: string, i: number): number {
  if (i < 0) return -1;
  for (let j = s.lastIndexOf('"', i); j >= 0; j = s.lastIndexOf('"', j - 1)) {
    let slashes = 0;
    while (j - 1 - slashes >= 0 && s[j - 1 - slashes] === '\\') slashes++;
    if (slashes % 2 === 0) return j;
    if (j === 0) break;
  }
  return -1;
}

function blank(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\r' || s[i] === '\n')) i++;
  return i;
}

/** The end (exclusive) of the string starting at `i`, or -1 when it is not one or does not end in `s`. */
function stringEnd(s: string, i: number): number {
  if (s[i] !== '"') return -1;
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === '"') return j + 1;
  }
  return -1;
}

/** The end (exclusive) of the value starting at `i`, or -1 when it does not end within `s`. */
function valueEnd(s: string, i: number): number {
  const c = s[i];
  if (c === '"') return stringEnd(s, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const d = s[j];
      if (d === '"') {
        j = stringEnd(s, j) - 1;
        if (j < 0) return -1;
      } else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < s.length && !/[\s,}\]]/.test(s[j]!)) j++;
  return j === s.length ? -1 : j;
}
