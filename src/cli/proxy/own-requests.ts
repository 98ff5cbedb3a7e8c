/**
 * The proxy's own requests to the server (the `tools/list` pages): ids in a space of their own — never an
 * id that a client request in flight holds — each with a timeout, answered by {@link OwnRequests.settle}.
 */
import { hasOwn, isObject } from '../../json/guards.js';
import { formatSeconds, RpcError } from './hooks.js';
import { memberText } from './json-text.js';
import type { RpcId } from './upstream.js';

/** Options of {@link OwnRequests}. */
export interface OwnRequestsOptions {
  /** Sends one request (its text; `id` is its id). */
  readonly send: (text: string, id: RpcId) => void;
  /** Whether a key is held by a client request in flight. */
  readonly taken: (key: string) => boolean;
  /** How the server is named in messages. */
  readonly label: string;
  readonly timeoutMs: number;
  /** What else is pending that may explain a timeout (named in its message), if anything. */
  readonly waitingFor?: () => string | undefined;
}

interface Pending {
  readonly method: string;
  readonly resolve: (r: { text: string; value: Record<string, unknown> }) => void;
  readonly reject: (e: RpcError) => void;
  readonly timer: NodeJS.Timeout;
}

export const OWN_PREFIX = 'toolslim-proxy-';

export class OwnRequests {
  readonly #o: OwnRequestsOptions;
  readonly #pending = new Map<string, Pending>();
  #seq = 0;

  constructor(options: OwnRequestsOptions) {
    this.#o = options;
  }

  /** Whether `key` is one of the proxy's requests in flight. */
  has(key: string): boolean {
    return this.#pending.has(key);
  }

  /** An id no request in flight (the client's or the proxy's) holds. */
  freshId(prefix = OWN_PREFIX): string {
    for (;;) {
      const id = `${prefix}${++this.#seq}`;
      const key = idKey(id);
      if (!this.#o.taken(key) && !this.#pending.has(key)) return id;
    }
  }

  /** Sends a request; resolves with the server's result message (text and value), rejects with its error. */
  request(method: string, params: object): Promise<{ text: string; value: Record<string, unknown> }> {
    const id = this.freshId();
    const key = idKey(id);
    const { timeoutMs, label } = this.#o;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(key);
        const also = this.#o.waitingFor?.();
        reject(new RpcError(-32001, `toolslim proxy: ${label} did not answer ${method} within ${formatSeconds(timeoutMs)}${also ? ` (${also})` : ' (raise --timeout if the server is just slow)'}`));
      }, timeoutMs);
      this.#pending.set(key, { method, resolve, reject, timer });
      this.#o.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }), id);
    });
  }

  /** A response with this key: true when it was one of the proxy's (then it is consumed). */
  settle(key: string, text: string, msg: Record<string, unknown>): boolean {
    const own = this.#pending.get(key);
    if (!own) return false;
    this.#pending.delete(key);
    clearTimeout(own.timer);
    if (hasOwn(msg, 'error')) own.reject(new RpcError(-32603, `${this.#o.label} answered ${own.method} with an error: ${errorMessage(msg.error)}`, memberText(text, 'error')));
    else own.resolve({ text, value: msg });
    return true;
  }

  /** Rejects the requests whose keys `which` picks, with `message(method)`. */
  fail(which: (key: string) => boolean, code: number, message: (method: string) => string): void {
    for (const [key, own] of this.#pending) {
      if (!which(key)) continue;
      this.#pending.delete(key);
      clearTimeout(own.timer);
      own.reject(new RpcError(code, message(own.method)));
    }
  }

  /** Stops every timer (the proxy is ending). */
  clear(): void {
    for (const own of this.#pending.values()) clearTimeout(own.timer);
  }
}

/** Ids are compared by type and value: `1` and `"1"` are different requests. */
export function idKey(id: RpcId): string {
  return typeof id === 'string' ? `s${id}` : `n${id}`;
}

/** The id a key stands for. */
export function unkey(key: string): RpcId {
  return key.startsWith('s') ? key.slice(1) : Number(key.slice(1));
}

function errorMessage(error: unknown): string {
  if (isObject(error) && typeof error.message === 'string') return `${error.message}${typeof error.code === 'number' ? ` (${error.code})` : ''}`;
  return JSON.stringify(error) ?? String(error);
}
