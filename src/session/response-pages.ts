/**
 * Response policies applied to `tools/call`s: projection, then pages on record boundaries within a byte
 * budget, served from the first call's result. No I/O: the caller forwards, answers and logs what the
 * pager decides (the proxy today; the SDK hook can use the same class).
 *
 * - A call with no paging argument, or page 1, goes to the server; its result replaces what is stored for
 *   (tool, arguments) and page 1 is served.
 * - A later page is served from the stored result, without calling the server again. The store is an LRU
 *   bounded in bytes (default 16 MB of projected records, and 64 results): a result larger than the bound
 *   is not kept, and a page of an evicted result goes to the server again and is cut from its new result.
 *   Pages of one stored result always come from that result, even if the server would now answer
 *   differently.
 * - A record that alone does not fit the budget is never cut: the call gets an `isError` result naming
 *   the record, its size and the budget. A bad paging argument (not a whole number ≥ 1, or past the last
 *   page) gets an `isError` result too. Nothing loops.
 * - Results the policy does not cover (see response-records.ts) pass through untouched, with the reason.
 */
import { ToolslimError } from '../core/errors.js';
import { utf8Length } from '../core/measure.js';
import { canonicalJson } from '../json/canonical.js';
import { hasOwn, isObject } from '../json/guards.js';
import { pageByByteBudget, projectFields } from '../response/index.js';
import { describeValue } from './hot-set.js';
import { containerText, fieldsSeen, findRecords, hasRecords, type FoundRecords } from './response-records.js';
import { pageArgumentOf, type ResponsePolicies, type ResponsePolicy } from './response-policy.js';

/** Options of {@link ResponsePager}. */
export interface ResponsePagerOptions {
  readonly policies: ResponsePolicies;
  /** Most bytes of stored results (compact JSON of the projected records; default 16,000,000). */
  readonly maxStoredBytes?: number;
  /** Most stored results (default 64). */
  readonly maxStored?: number;
}

/** An `isError` or page result the caller sends instead of calling the server or of the server's result. */
export type PageResult = Record<string, unknown>;

/** What {@link ResponsePager.onCall} decides. */
export type PagerCall =
  | { readonly action: 'answer'; readonly result: PageResult; readonly page?: number; readonly pages?: number; readonly error?: true }
  | { readonly action: 'forward'; /** The paging argument to remove before forwarding, when the client sent it. */ readonly strip?: string; readonly arguments?: unknown };

/** What {@link ResponsePager.onResult} made of a server's result. */
export interface PagerResult {
  /** The result to send instead (undefined: the server's result, untouched). */
  readonly result?: PageResult;
  /** Why the policy did not cover the result (it passed through untouched). */
  readonly uncovered?: string;
  readonly page?: number;
  readonly pages?: number;
  readonly error?: true;
  /** Projected fields no record of this result has (each reported once per tool). */
  readonly missing?: readonly string[];
}

interface Stored {
  readonly rows: readonly unknown[];
  /** Where each page starts (`starts[i]` for page i + 1), and the end. */
  readonly starts: readonly number[];
  readonly prefix: string;
  readonly suffix: string;
  readonly base: Record<string, unknown>;
  readonly bytes: number;
}

const PAGE_META = 'toolslim/page';

export class ResponsePager {
  readonly #policies: ResponsePolicies;
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  readonly #store = new Map<string, Stored>();
  #storedBytes = 0;
  readonly #pageArgs = new Map<string, string | undefined>();
  readonly #reported = new Set<string>();

  constructor(options: ResponsePagerOptions) {
    this.#policies = options.policies;
    this.#maxBytes = options.maxStoredBytes ?? 16_000_000;
    this.#maxEntries = options.maxStored ?? 64;
  }

  /** The policy of a tool (by the server's name), if any. */
  policy(tool: string): ResponsePolicy | undefined {
    return Object.prototype.hasOwnProperty.call(this.#policies, tool) ? this.#policies[tool] : undefined;
  }

  /** Tells the pager a tool's `inputSchema` as the server sent it, so it knows the paging argument's name. */
  learn(tool: string, inputSchema: unknown): void {
    if (this.policy(tool)?.budget !== undefined) this.#pageArgs.set(tool, pageArgumentOf(inputSchema));
  }

  /** The paging argument of a paged tool (`page` or `toolslim_page`), undefined when it has none. */
  pageArgument(tool: string): string | undefined {
    return this.#pageArgs.has(tool) ? this.#pageArgs.get(tool) : this.policy(tool)?.budget !== undefined ? 'page' : undefined;
  }

  /** Bytes of results stored now. */
  get storedBytes(): number {
    return this.#storedBytes;
  }

  /** A client's call of `tool` with `args`: answer it from the stored result, refuse it, or forward it. */
  onCall(tool: string, args: unknown): PagerCall {
    const name = this.pageArgument(tool);
    if (name === undefined || !isObject(args) || !hasOwn(args, name)) return { action: 'forward' };
    const page = args[name];
    const rest = without(args, name);
    if (typeof page !== 'number' || !Number.isSafeInteger(page) || page < 1) {
      return { action: 'answer', error: true, result: errorResult(`toolslim did not call \`${tool}\`: \`${name}\` must be a whole number from 1 (the page of the result), got ${describeValue(page)}. Call it again without \`${name}\` for the first page.`) };
    }
    if (page > 1) {
      const stored = this.#get(keyOf(tool, rest));
      if (stored) return { action: 'answer', ...this.#page(tool, stored, page) };
    }
    return { action: 'forward', strip: name, arguments: rest };
  }

  /** The server's result of a call of `tool` with the client's `args`: what the client gets. */
  onResult(tool: string, args: unknown, result: unknown): PagerResult {
    const policy = this.policy(tool);
    if (!policy) return {};
    const found = findRecords(result);
    if (!hasRecords(found)) return found.quiet ? {} : { uncovered: found.reason };
    const name = this.pageArgument(tool);
    const requested = name !== undefined && isObject(args) && typeof args[name] === 'number' ? (args[name] as number) : 1;
    const rows = policy.project ? projectFields(found.records, policy.project) : found.records;
    const missing = policy.project ? this.#missing(tool, policy.project, rows) : [];
    const { prefix, suffix } = containerText(found);
    const base = baseOf(result as Record<string, unknown>);
    const extra = missing.length > 0 ? { missing } : {};
    if (policy.budget === undefined) {
      return { result: pageResult(base, prefix + JSON.stringify(rows) + suffix), ...extra };
    }
    const overhead = utf8Length(prefix) + utf8Length(suffix);
    const arrayBudget = policy.budget - overhead;
    if (arrayBudget < 2) {
      return { error: true, result: errorResult(`toolslim could not page this result of \`${tool}\`: its budget of ${policy.budget} bytes per page is below the smallest page (${overhead + 2} bytes: the members around the records, and \`[]\`). Raise --response-budget ${tool}.`), ...extra };
    }
    const starts: number[] = [0];
    try {
      for (let offset: number | null = 0; offset !== null && offset < rows.length; ) {
        offset = pageByByteBudget(rows, { budget: arrayBudget, offset }).nextOffset;
        starts.push(offset ?? rows.length);
      }
    } catch (e) {
      if (!(e instanceof ToolslimError) || e.path === undefined) throw e;
      const index = Number(e.path.slice(1));
      const size = utf8Length(JSON.stringify(rows[index]));
      const fields = Object.keys(rows[index] as object).slice(0, 3).join(',');
      const message = `toolslim could not page this result of \`${tool}\`: record ${index} alone is ${size} bytes of compact JSON (a page holding only it needs ${size + 2 + overhead} bytes), over the budget of ${policy.budget} bytes per page. A record is never cut. Keep fewer fields of each record (a projection: --project ${tool}=${fields || 'field,…'}) or raise --response-budget ${tool}.`;
      return { error: true, result: errorResult(message), ...extra };
    }
    if (starts.length === 1) starts.push(0); // no records: one empty page
    const stored: Stored = { rows, starts, prefix, suffix, base, bytes: starts.length * overhead + utf8Length(JSON.stringify(rows)) };
    this.#put(keyOf(tool, isObject(args) && name !== undefined ? without(args, name) : args), stored);
    return { ...this.#page(tool, stored, requested), ...extra };
  }

  #page(tool: string, s: Stored, page: number): { result: PageResult; page?: number; pages?: number; error?: true } {
    const pages = s.starts.length - 1;
    const name = this.pageArgument(tool) ?? 'page';
    if (page > pages) {
      return { error: true, result: errorResult(`toolslim: \`${name}\` ${page} is past the last page: this result of \`${tool}\` has ${pages} page${pages === 1 ? '' : 's'} (${name} 1${pages > 1 ? ` to ${pages}` : ''}).`) };
    }
    const text = s.prefix + JSON.stringify(s.rows.slice(s.starts[page - 1], s.starts[page])) + s.suffix;
    const next = page < pages ? page + 1 : null;
    const line = next === null ? `page ${page} of ${pages}: the last` : `page ${page} of ${pages}; call again with ${name}: ${next} for the next`;
    return { page, pages, result: pageResult(s.base, text, line, { page, pages, nextPage: next }) };
  }

  /**
   * Fields of the projection that no record has (after projection), reported once per tool. A result without
   * records says nothing about the fields (reporting them then, once, hid a field that later results lack).
   */
  #missing(tool: string, fields: readonly string[], rows: readonly unknown[]): string[] {
    const out: string[] = [];
    if (rows.length === 0) return out;
    for (const field of fields) {
      const key = `${tool}\u0000${field}`;
      if (this.#reported.has(key) || rows.some((r) => hasPath(r, field.split('.')))) continue;
      this.#reported.add(key);
      out.push(field);
    }
    return out;
  }

  #get(key: string): Stored | undefined {
    const s = this.#store.get(key);
    if (s) {
      this.#store.delete(key);
      this.#store.set(key, s);
    }
    return s;
  }

  #put(key: string, s: Stored): void {
    const old = this.#store.get(key);
    if (old) {
      this.#store.delete(key);
      this.#storedBytes -= old.bytes;
    }
    if (s.bytes > this.#maxBytes) return;
    this.#store.set(key, s);
    this.#storedBytes += s.bytes;
    for (const [k, v] of this.#store) {
      if (this.#storedBytes <= this.#maxBytes && this.#store.size <= this.#maxEntries) break;
      this.#store.delete(k);
      this.#storedBytes -= v.bytes;
    }
  }
}

/** Describes a result's records for stats: how many, the bytes of their compact container, the fields seen. */
export function describeRecords(result: unknown): { records: number; recordsBytes: number; fields: string[] } | undefined {
  const found = findRecords(result);
  if (!hasRecords(found)) return undefined;
  const { prefix, suffix } = containerText(found as FoundRecords);
  return { records: found.records.length, recordsBytes: utf8Length(prefix + JSON.stringify(found.records) + suffix), fields: fieldsSeen(found.records) };
}

function pageResult(base: Record<string, unknown>, text: string, line?: string, meta?: { page: number; pages: number; nextPage: number | null }): PageResult {
  const out: Record<string, unknown> = {};
  let metaDone = false;
  for (const key of Object.keys(base)) {
    if (key === 'content') out.content = line === undefined ? [{ type: 'text', text }] : [{ type: 'text', text }, { type: 'text', text: line }];
    else if (key === '_meta' && meta) {
      out._meta = { ...(isObject(base._meta) ? base._meta : {}), [PAGE_META]: meta };
      metaDone = true;
    } else Object.defineProperty(out, key, { value: base[key], writable: true, enumerable: true, configurable: true });
  }
  if (meta && !metaDone) out._meta = { [PAGE_META]: meta };
  return out;
}

/** The server's result without structuredContent, with a `content` slot kept in its place. */
function baseOf(result: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(result)) if (key !== 'structuredContent') Object.defineProperty(out, key, { value: result[key], writable: true, enumerable: true, configurable: true });
  if (!hasOwn(out, 'content')) return { content: [], ...out };
  return out;
}

function errorResult(text: string): PageResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function keyOf(tool: string, args: unknown): string {
  return `${tool}\u0000${canonicalJson(args ?? {})}`;
}

function without(args: Record<string, unknown>, name: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(args)) if (k !== name) Object.defineProperty(out, k, { value: args[k], writable: true, enumerable: true, configurable: true });
  return out;
}

function hasPath(value: unknown, keys: readonly string[]): boolean {
  if (keys.length === 0) return true;
  if (Array.isArray(value)) return value.some((v) => hasPath(v, keys));
  return isObject(value) && hasOwn(value, keys[0]!) && hasPath(value[keys[0]!], keys.slice(1));
}
