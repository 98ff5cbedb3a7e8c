/**
 * Which keys a JSON subtree holds, as a bit set, so that a transform can tell in O(1) that a whole schema
 * has nothing for it ("no nested definitions container", "no `x-` key") before it walks anything.
 *
 * A summary is a superset answer: it counts every object key anywhere below a value, subschema or data
 * alike, whatever the dialect, so "absent" is exact and "present" only means "look". Each keyword of
 * {@link UNION_KEYWORDS} has its own bit; every other key sets one of two shared bits (an `x-` extension
 * or any other name).
 *
 * Within a run (see `withAnalysis` in refs.ts) summaries are kept by object identity, so asking again
 * about the same object is a look-up, and after copy-on-write made a new version of a tool only the
 * objects on the edited paths are summarised anew (every large subtree they share with the old version
 * keeps its summary). The contract is the ref index's: never ask about an object that is written
 * afterwards (a step's input, or a step's output once the step is done, never the working copy of a
 * context in the middle of a step). Outside a run nothing is kept.
 */
import { isExtensionKeyword, UNION_KEYWORDS } from './keywords.js';
import { currentAnalysis } from './refs.js';

/** A set of keys to ask {@link mayContainKeys} about; build one with {@link keyMask}, once. */
export interface KeyMask {
  /** @internal */
  readonly words: readonly number[];
}

const BITS = new Map<string, number>();
for (const name of UNION_KEYWORDS.keys()) BITS.set(name, BITS.size);
const EXTENSION_BIT = BITS.size;
const OTHER_BIT = BITS.size + 1;
const WORDS = Math.ceil((BITS.size + 2) / 32);

/** The bit a key sets. */
function bitOf(key: string): number {
  const bit = BITS.get(key);
  if (bit !== undefined) return bit;
  return isExtensionKeyword(key) ? EXTENSION_BIT : OTHER_BIT;
}

/**
 * A mask of key names: a keyword of any dialect stands for itself; any other name for every key of its
 * kind (an `x-` extension for every extension, anything else for every non-keyword name), so the answer
 * stays a superset.
 */
export function keyMask(names: readonly string[]): KeyMask {
  const words = new Array<number>(WORDS).fill(0);
  for (const name of names) {
    const bit = bitOf(name);
    words[bit >>> 5] = words[bit >>> 5]! | (1 << (bit & 31));
  }
  return Object.freeze({ words: Object.freeze(words) });
}

/** A mask of every `x-` extension key. */
export const EXTENSION_KEYS: KeyMask = Object.freeze({ words: Object.freeze(wordsWith(EXTENSION_BIT)) });

function wordsWith(bit: number): number[] {
  const words = new Array<number>(WORDS).fill(0);
  words[bit >>> 5] = words[bit >>> 5]! | (1 << (bit & 31));
  return words;
}

/**
 * False when no object inside `value` (itself included) has a key of `mask`: then a transform looking for
 * those keys has nothing to do there. True means some object may (see the module comment).
 */
export function mayContainKeys(value: unknown, mask: KeyMask): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const summary = summarize(value);
  const m = mask.words;
  for (let i = 0; i < WORDS; i++) if ((summary[i]! & m[i]!) !== 0) return true;
  return false;
}

/** Subtrees with at least this many containers keep their summary (smaller ones are cheaper to redo). */
const KEEP_FROM = 8;

/**
 * The keys of every object in `root`'s subtree, OR-ed. Iterative (deep nesting costs heap, not stack):
 * containers in preorder with their parent's position, then summed up from the last to the first; a
 * container already summarised in this run counts as a leaf with its summary.
 */
function summarize(root: object): readonly number[] {
  const memo = currentAnalysis()?.keySummaries;
  const known = memo?.get(root);
  if (known !== undefined) return known;
  const nodes: object[] = [root];
  const parents: number[] = [-1];
  // Per container: its words, then (for the memo) how many containers its subtree has.
  const acc: number[] = new Array<number>(WORDS).fill(0);
  const sizes: number[] = [1];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const base = i * WORDS;
    if (i > 0) {
      const kept = memo?.get(node);
      if (kept !== undefined) {
        for (let w = 0; w < WORDS; w++) acc[base + w] = kept[w]!;
        sizes[i] = KEEP_FROM;
        continue;
      }
    }
    if (Array.isArray(node)) {
      for (let j = 0; j < node.length; j++) {
        const v = node[j];
        if (typeof v === 'object' && v !== null) push(nodes, parents, acc, sizes, v, i);
      }
      continue;
    }
    const obj = node as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const bit = bitOf(key);
      const at = base + (bit >>> 5);
      acc[at] = acc[at]! | (1 << (bit & 31));
      const v = obj[key];
      if (typeof v === 'object' && v !== null) push(nodes, parents, acc, sizes, v, i);
    }
  }
  for (let i = nodes.length - 1; i > 0; i--) {
    const p = parents[i]!;
    const from = i * WORDS;
    const to = p * WORDS;
    for (let w = 0; w < WORDS; w++) acc[to + w] = acc[to + w]! | acc[from + w]!;
    sizes[p] = sizes[p]! + sizes[i]!;
    if (memo !== undefined && sizes[i]! >= KEEP_FROM && !memo.has(nodes[i]!)) memo.set(nodes[i]!, Object.freeze(acc.slice(from, from + WORDS)));
  }
  const summary = Object.freeze(acc.slice(0, WORDS));
  memo?.set(root, summary);
  return summary;
}

function push(nodes: object[], parents: number[], acc: number[], sizes: number[], value: object, parent: number): void {
  nodes.push(value);
  parents.push(parent);
  for (let w = 0; w < WORDS; w++) acc.push(0);
  sizes.push(1);
}
