/**
 * The prompt-cache price model of bench/sessions.ts.
 *
 * A prompt is a sequence of blocks (one per tool definition, then one per conversation message). Prices are
 * in units of one uncached input token:
 * - a block read from the cache costs `read` (0.1) per token;
 * - a block not in the cache is written: `write` (1.25) per token;
 * - what is in the cache: every prefix of every earlier prompt of the same session (a provider caches
 *   prompt prefixes by exact bytes; here at block granularity, so a changed tool re-writes that tool and
 *   everything after it: the rest of the list and the whole conversation);
 * - without a cache every input token costs 1;
 * - output tokens the policy makes the model write in vain (a call that fails validation) cost `output` per
 *   token: 0 in the main model (the extra requests are counted apart), 5 in a sensitivity row. Outputs every
 *   policy shares are never counted.
 * Each session starts with an empty cache, and all its requests fall within the cache lifetime.
 */

export interface PriceModel {
  /** Price of a token written to the cache (its first appearance). */
  readonly write: number;
  /** Price of a token read from the cache. */
  readonly read: number;
  /** Price of an output token (only wasted outputs are counted). */
  readonly output: number;
}

export const PRICE_MODEL: PriceModel = Object.freeze({ write: 1.25, read: 0.1, output: 0 });

export interface Block {
  /** Identity: equal keys are equal bytes. */
  readonly key: string;
  readonly tokens: number;
}

/** One model request: the prompt (tool blocks, then conversation blocks) and the wasted output tokens it produces. */
export interface ModelRequest {
  readonly tools: readonly Block[];
  readonly conversation: readonly Block[];
  /** Output tokens of this request that a perfect policy would not have needed (a failed call). */
  readonly wastedOutput: number;
}

interface TrieNode {
  readonly children: Map<string, TrieNode>;
}

/** The cache of one session: every prefix of every prompt priced so far. */
export class PromptCache {
  readonly #root: TrieNode = { children: new Map() };

  /** Tokens of `blocks` found as a cached prefix, and tokens to write; then caches the whole prompt. */
  lookupAndStore(blocks: readonly Block[]): { read: number; written: number } {
    let node = this.#root;
    let read = 0;
    let written = 0;
    let hit = true;
    for (const b of blocks) {
      let next = node.children.get(b.key);
      if (hit && next !== undefined) {
        read += b.tokens;
      } else {
        hit = false;
        written += b.tokens;
        if (next === undefined) {
          next = { children: new Map() };
          node.children.set(b.key, next);
        }
      }
      node = next;
    }
    return { read, written };
  }
}

export interface SessionPrice {
  /** With the prompt cache. */
  readonly cached: number;
  /** Every input token at 1. */
  readonly uncached: number;
  /** Tokens read from / written to the cache, over all requests. */
  readonly readTokens: number;
  readonly writtenTokens: number;
}

/** Prices a session's requests, in order, from an empty cache. */
export function priceRequests(requests: readonly ModelRequest[], model: PriceModel = PRICE_MODEL): SessionPrice {
  const cache = new PromptCache();
  let cached = 0;
  let uncached = 0;
  let readTokens = 0;
  let writtenTokens = 0;
  for (const r of requests) {
    const blocks = r.tools.length === 0 ? r.conversation : [...r.tools, ...r.conversation];
    const { read, written } = cache.lookupAndStore(blocks);
    readTokens += read;
    writtenTokens += written;
    const wasted = r.wastedOutput * model.output;
    cached += read * model.read + written * model.write + wasted;
    uncached += read + written + wasted;
  }
  return { cached, uncached, readTokens, writtenTokens };
}
