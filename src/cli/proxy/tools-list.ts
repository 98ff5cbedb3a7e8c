/**
 * `tools/list` as the proxy answers it: every page fetched from the server with the proxy's own
 * requests, served through the hooks once per version of the server's list (a
 * `notifications/tools/list_changed` starts a new one), and the answer to each form of the request:
 * no params, `{}`, `cursor: null` (the first page); any other cursor is one the proxy never issued.
 */
import { isObject } from '../../json/guards.js';
import { mergePages } from '../pages.js';
import { echoedSecrets } from '../redact.js';
import { Refusal, RpcError, type ListHooks, type RawList, type ServedList } from './hooks.js';
import { memberText } from './json-text.js';
import type { OwnRequests } from './own-requests.js';
import { DEFAULT_LIMITS, overCap } from './limits.js';

/** Options of {@link ToolsList}. */
export interface ToolsListOptions {
  readonly own: OwnRequests;
  readonly hooks: ListHooks;
  readonly label: string;
  /** A refusal outside initialize: stop the proxy with this message. */
  readonly refuse: (message: string) => void;
  /** Error messages the proxy writes pass this (redact.ts). */
  readonly redact?: (text: string) => string;
  /** Bytes of one page's result and of all pages together (limits.ts; defaults: DEFAULT_LIMITS). */
  readonly limits?: { readonly page: number; readonly list: number };
  /** Secrets of the target (given on its command line, in its URL or a header: redact.ts), to warn of one the list holds. */
  readonly secrets?: readonly string[];
  /** Writes a line on the proxy's stderr (redacted). */
  readonly warn?: (line: string) => void;
}

const MAX_PAGES = 1000;

export class ToolsList {
  readonly #o: ToolsListOptions;
  #generation = 0;
  #served: { list: ServedList; generation: number } | undefined;
  #serving: Promise<ServedList> | undefined;

  constructor(options: ToolsListOptions) {
    this.#o = options;
  }

  /** The server said its list changed: the next answer is fetched again. */
  changed(): void {
    this.#generation++;
    this.#served = undefined;
  }

  /** The answer (a whole JSON-RPC response text) to a client's `tools/list` with this id and params. */
  answer(idText: string, params: unknown): Promise<string> {
    const reply = (member: 'result' | 'error', json: string) => `{"jsonrpc":"2.0","id":${idText},"${member}":${json}}`;
    if (params !== undefined && params !== null && !isObject(params)) return Promise.resolve(reply('error', new RpcError(-32602, 'tools/list: params must be an object').toText()));
    const cursor = isObject(params) ? params.cursor : undefined;
    if (cursor !== undefined && cursor !== null) {
      const message = typeof cursor === 'string' ? `tools/list: unknown cursor ${JSON.stringify(cursor.slice(0, 100))} (toolslim proxy serves the whole list as one page and issues no cursors)` : 'tools/list: cursor must be a string';
      return Promise.resolve(reply('error', new RpcError(-32602, message).toText()));
    }
    return this.served('request').then(
      (served) => reply('result', served.resultText),
      (e: unknown) => {
        const err = e instanceof RpcError ? e : new RpcError(-32603, `toolslim proxy: ${(e as Error)?.message ?? String(e)}`);
        const redact = this.#o.redact ?? ((t: string) => t);
        return reply('error', err.errorText !== undefined ? redact(err.errorText) : JSON.stringify({ code: err.code, message: redact(err.message) }));
      },
    );
  }

  /** The list to serve now: cached for this version of the server's list, else fetched and served. */
  served(when: 'initialize' | 'request' | 'changed'): Promise<ServedList> {
    if (this.#served && this.#served.generation === this.#generation) return Promise.resolve(this.#served.list);
    if (this.#serving) return this.#serving;
    const generation = this.#generation;
    const serving = (async () => {
      const raw = await this.#fetch();
      let list: ServedList;
      try {
        list = this.#o.hooks.serve(raw, when);
      } catch (e) {
        // At initialize the caller answers the client's initialize with the reason first.
        if (e instanceof Refusal && when !== 'initialize') this.#o.refuse(e.message);
        throw e;
      }
      if (generation === this.#generation) this.#served = { list, generation };
      return list;
    })();
    this.#serving = serving;
    const clear = () => {
      if (this.#serving === serving) this.#serving = undefined;
    };
    serving.then(clear, clear);
    return serving;
  }

  async #fetch(): Promise<RawList> {
    const { label } = this.#o;
    const pages: { text: string; value: Record<string, unknown> }[] = [];
    const { page: maxPage, list: maxList } = this.#o.limits ?? DEFAULT_LIMITS;
    let total = 0;
    let cursor: string | undefined;
    do {
      const reply = await this.#o.own.request('tools/list', cursor === undefined ? {} : { cursor });
      const page = reply.value.result;
      const text = memberText(reply.text, 'result');
      if (!isObject(page) || !Array.isArray(page.tools) || text === undefined) throw new RpcError(-32603, `toolslim proxy: ${label} answered tools/list without a tools array`);
      // A server cannot make the proxy hold more than the caps: one huge page, or a cursor that never ends.
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > maxPage) throw new RpcError(-32603, `toolslim proxy: ${overCap(`page ${pages.length + 1} of ${label}'s tools/list`, 'page', maxPage, bytes)}`);
      total += bytes;
      if (total > maxList) throw new RpcError(-32603, `toolslim proxy: ${overCap(`${label}'s tools/list (${pages.length + 1} pages so far${typeof page.nextCursor === 'string' ? ', and the server gives another cursor' : ''})`, 'list', maxList, total)}`);
      pages.push({ text, value: page });
      const next = page.nextCursor;
      if (next !== undefined && next !== null && typeof next !== 'string') throw new RpcError(-32603, `toolslim proxy: ${label} answered tools/list with a nextCursor that is not a string`);
      if (typeof next === 'string' && pages.length >= MAX_PAGES) throw new RpcError(-32603, `toolslim proxy: ${label} keeps answering tools/list with a nextCursor (${MAX_PAGES} pages); giving up`);
      cursor = typeof next === 'string' ? next : undefined;
    } while (cursor !== undefined);
    const merged = mergePages(pages.map((p) => p.value));
    // A server that lists a secret of its own command line (a private key as a parameter's `default`): the
    // client, and its model, get the list as the server sent it, so say where (never the secret itself).
    const secrets = this.#o.secrets ?? [];
    if (secrets.length > 0 && this.#o.warn && pages.some((p) => secrets.some((x) => p.text.includes(x) || p.text.includes(JSON.stringify(x).slice(1, -1))))) {
      const places = echoedSecrets({ toolsList: merged }, secrets);
      this.#o.warn(`warning: ${label}'s tools/list holds a secret given on its command line or URL (in ${places.join('; ') || 'its tools/list result'}); the client and its model get it as the server sent it`);
    }
    return { pages, merged };
  }
}
