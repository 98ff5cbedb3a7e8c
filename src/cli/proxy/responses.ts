/**
 * The proxy's side of response policies (`--project`, `--response-budget`, an overlay's `responses`): the
 * session library's ResponsePager decides; this module connects it to the session hooks (session.ts):
 * the contract in each covered tool's served definition, the paging argument taken off a call before it
 * is forwarded, pages answered from the stored result, and the page put in place of the server's result.
 */
import type { McpTool } from '../../core/tool.js';
import { isObject } from '../../json/guards.js';
import { markParsed } from '../../json/parsed.js';
import { describeRecords, ResponsePager } from '../../session/response-pages.js';
import { withContract } from '../../session/response-policy.js';
import type { CallStats } from '../../session/stats.js';
import { setMember } from './json-text.js';

/** What a response policy did to one call, for its stats line. */
export type PolicyStats = { -readonly [K in 'records' | 'recordsBytes' | 'fields' | 'upstreamBytes' | 'page' | 'pages' | 'uncovered']?: CallStats[K] } & { resultBytes?: number; error?: true };

export class ProxyResponses {
  readonly pager: ResponsePager | undefined;
  readonly #log: (line: string) => void;
  readonly #served = new WeakMap<McpTool, McpTool>();
  readonly #said = new Set<string>();
  /** Per server response (the parsed message the router hands to `answer` and `called`). */
  readonly #stats = new WeakMap<object, PolicyStats>();

  constructor(pager: ResponsePager | undefined, log: (line: string) => void) {
    this.pager = pager;
    this.#log = log;
  }

  /** The server's tools as they came: the pager learns each paged tool's paging argument. */
  learn(tools: unknown): void {
    if (!this.pager || !Array.isArray(tools)) return;
    for (const t of tools) if (isObject(t) && typeof t.name === 'string') this.pager.learn(t.name, t.inputSchema);
  }

  /** The tools to serve, each covered one with its contract (the same objects for the same inputs). */
  serve(tools: readonly McpTool[], serverName: (served: string) => string): McpTool[] {
    const pager = this.pager;
    if (!pager) return tools as McpTool[];
    return tools.map((t) => {
      const name = serverName(t.name);
      const policy = pager.policy(name);
      if (!policy) return t;
      let out = this.#served.get(t);
      if (!out) this.#served.set(t, (out = withContract(t, policy, pager.pageArgument(name))));
      return out;
    });
  }

  /**
   * A client's call: `{ answer }` (a page from the stored result, or a refused paging argument), or what
   * to forward: the arguments without the paging argument and its name (`strip`), if it was there.
   */
  call(server: string, args: unknown): { answer: string; stats: PolicyStats } | { strip?: string; args: unknown } {
    if (!this.pager) return { args };
    const d = this.pager.onCall(server, args);
    if (d.action === 'forward') return d.strip === undefined ? { args } : { strip: d.strip, args: d.arguments };
    const answer = JSON.stringify(d.result);
    return { answer, stats: { resultBytes: Buffer.byteLength(answer), ...(d.page !== undefined ? { page: d.page, pages: d.pages } : {}), ...(d.error ? { error: true as const } : {}) } };
  }

  /** The server's response to a call of `server` with the client's `args`: the text the client gets instead, if any. */
  answer(server: string, args: unknown, responseText: string, parsed: Record<string, unknown>, withStats: boolean): string | undefined {
    const result = parsed.result;
    // `parsed` is the response as JSON.parse read it off the wire: its records need no plain-JSON check.
    markParsed(result);
    const stats: PolicyStats = withStats && isObject(result) ? { ...describeRecords(result) } : {};
    let out: string | undefined;
    if (this.pager?.policy(server) && isObject(result)) {
      const r = this.pager.onResult(server, args, result);
      for (const field of r.missing ?? []) this.#say(`--project ${server}: no record of its result has \`${field}\`; it is kept empty`);
      if (r.uncovered !== undefined) {
        this.#say(`${server}: a result passed through untouched: ${r.uncovered}`);
        stats.uncovered = r.uncovered;
      }
      if (r.result !== undefined) {
        const text = JSON.stringify(r.result);
        out = setMember(responseText, 'result', text);
        stats.resultBytes = Buffer.byteLength(text);
        if (r.page !== undefined) Object.assign(stats, { page: r.page, pages: r.pages });
        if (r.error) stats.error = true;
      }
    }
    if (withStats) this.#stats.set(parsed, stats);
    return out;
  }

  /** What {@link answer} recorded for this response. */
  statsOf(parsed: object): PolicyStats | undefined {
    return this.#stats.get(parsed);
  }

  #say(line: string): void {
    if (this.#said.has(line)) return;
    this.#said.add(line);
    this.#log(line);
  }
}
