// Why one file: one algorithm (bigram Jaccard with an exact prefix-filtered index); the bound at
// findCollisions and the helpers it is proved with belong together.
/**
 * Description collisions: tools whose name and description read alike, found without comparing every
 * pair. The measure is the Jaccard index of character-bigram sets (see {@link collisionText}); candidate
 * pairs come from an inverted index over bigrams with prefix filtering, which is exact: no pair above the
 * threshold is missed (the bound is written out at {@link findCollisions}). Pure, no tokenizer.
 */

import { code } from '../core/format.js';

/** Options of {@link findCollisions}. */
export interface FindCollisionsOptions {
  /** Pairs whose similarity is at or above this are collisions (default 0.30; in [0, 1]; a pair with similarity 0 never is). */
  readonly threshold?: number;
  /** How many of its most similar partners each tool lists (default 3; at least 1). */
  readonly partners?: number;
  /**
   * How much work the search may do (default {@link DEFAULT_COLLISION_WORK}): postings met in the index plus
   * bigrams read in exact comparisons. When a tool's search would go past it, the search stops there and
   * only the tools searched before it are reported (see {@link Collisions.searched}).
   * @internal
   */
  readonly maxWork?: number;
}

/** Two tools whose name and description read alike. `aIndex < bIndex`. */
export interface CollisionPair {
  readonly a: string;
  readonly aIndex: number;
  readonly b: string;
  readonly bIndex: number;
  /** Jaccard index of their character-bigram sets, in [0, 1]. */
  readonly score: number;
}

/** One partner of a tool. */
export interface CollisionPartner {
  readonly tool: string;
  readonly toolIndex: number;
  readonly score: number;
}

/** A tool and its most similar partners above the threshold. */
export interface ToolCollisions {
  readonly tool: string;
  readonly toolIndex: number;
  /** At most `partners` of them, most similar first (ties: lower position first). */
  readonly partners: readonly CollisionPartner[];
}

/** Tools whose name and description read alike: what `analyzeSurface` and `check` compute (`findCollisions`). */
export interface Collisions {
  readonly threshold: number;
  readonly partners: number;
  /** Every tool with at least one partner at or above the threshold, in list order. */
  readonly tools: readonly ToolCollisions[];
  /** The pairs the tools above list (each once), most similar first (ties: by position). */
  readonly pairs: readonly CollisionPair[];
  /** Candidate pairs whose similarity was computed exactly (a pair may count once from each side). */
  readonly compared: number;
  /**
   * How many tools, from the first in list order, were searched to the end: every tool, unless the search
   * reached its bound of work first (a list of thousands of short, alike texts, such as `t1` … `t200000`
   * without descriptions, meets most of the list from each tool). `tools` and `pairs` then hold exactly
   * what comparing every pair gives for those tools (their partners may lie anywhere in the list), and
   * nothing for the tools after them.
   */
  readonly searched: number;
  /** `searched` is every tool: the search ran to the end. */
  readonly complete: boolean;
}

/** The default collision threshold: pairs at or above it read alike (as the tool-surface metric counts them). */
export const DEFAULT_COLLISION_THRESHOLD = 0.3;
/** How many partners each tool lists by default. */
export const DEFAULT_COLLISION_PARTNERS = 3;
/**
 * The search's bound of work ({@link FindCollisionsOptions.maxWork}): 2^30 units, a posting met or a bigram
 * compared one unit each and every exact comparison {@link COMPARE_COST} more; some 4 s on the machine of
 * bench/check-scale.ts. That bench's list (31,560 tools) takes 370 M (48 M postings, 262 M bigrams in 3.7 M
 * comparisons; 1.8 s); 40,000 tools named `t0` … `t39999` without descriptions 1.2 G (4 s), and 200,000 of them
 * would take more than 120 s without it: every tool meets a sizable share of the list through its digit bigrams,
 * and is compared with thousands of tools it shares four of its five bigrams with.
 */
export const DEFAULT_COLLISION_WORK = 2 ** 30;

/**
 * The text a tool is compared by: its `name` and `description` joined, lower-cased, with `_` and
 * whitespace (JavaScript `\s`) removed. A missing or non-string name or description counts as `""`.
 */
export function collisionText(name: unknown, description: unknown): string {
  const text = (typeof name === 'string' ? name : '') + (typeof description === 'string' ? description : '');
  return text.toLowerCase().replace(/[_\s]+/gu, '');
}

/**
 * The character bigrams of a text (every two consecutive code points of the whole string), each once,
 * as sorted integer codes `first·0x110000 + second`. A lone surrogate counts as one character.
 */
export function bigramSet(text: string): number[] {
  const buf: number[] = [];
  forEachBigram(text, (code) => buf.push(code));
  const sorted = Float64Array.from(buf).sort();
  const out: number[] = [];
  for (let r = 0; r < sorted.length; r++) if (r === 0 || sorted[r] !== sorted[r - 1]) out.push(sorted[r]!);
  return out;
}

/** Jaccard index |A∩B| / |A∪B| of two sorted arrays of distinct codes; 0 when both are empty. */
export function jaccard(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 && b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      inter++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/**
 * For every tool, its `partners` most similar other tools with similarity at or above `threshold` (and above 0),
 * exactly as comparing every pair would give them (tested against that), without comparing every pair.
 *
 * Why no pair is missed. Let two bigram sets have sizes a and b and share i. J = i / (a + b − i) > θ
 * exactly when i > θ(a + b) / (1 + θ); and since a + b − i ≥ max(a, b), it implies i > θ·max(a, b), so
 * the pair shares at least o = ⌊θ·max(a, b)⌋ + 1 bigrams. Sort every set by one global order (the bigram
 * in the fewest tools first). If two sets share o elements, the ℓ smallest shared ones lie in the first
 * |A| − o + ℓ of A and of B (each has o − ℓ shared ones after it): the prefixes of length |A| − o + 1 and
 * |B| − o + 1 share one (prefix filtering), and longer prefixes share correspondingly more. A tool's
 * round-θ prefix is its first b − ⌊θ·b⌋ bigrams; each tool's prefix for `threshold` is in an inverted
 * index, grouped by the round whose prefix first holds each bigram. A pair whose size ratio min/max is at
 * most θ has J ≤ θ, so each postings group is kept sorted by set size and a query meets only the sizes
 * its round allows (length filtering: on a list of 31,560 near-duplicates, most tools sharing a rare
 * bigram were of sizes no round allows, and meeting them was half the time). Every candidate left is
 * compared exactly; rounding is always resolved towards comparing more.
 *
 * Each tool asks in rounds of falling thresholds (0.9, 0.8, …, then `threshold`), meeting the tools whose
 * round prefix shares enough with its own: once it holds `partners` partners whose least is above the
 * round's threshold, no partner it has not compared can displace them, and it stops. Each pair compared
 * also offers itself to the other tool's list, which then sets a higher bar sooner: a tool whose list is
 * full when its turn comes holds its round at that list's least (and does not compare again the pairs the
 * tools before it judged; see the loop). In lists of
 * near-duplicates (common in large lists) tools stop after a short prefix of rare bigrams; the work is
 * bounded by the pairs that share rare bigrams, not by n².
 */
export function findCollisions(texts: readonly string[], names: readonly string[], options: FindCollisionsOptions = {}): Collisions {
  const asked = options.threshold ?? DEFAULT_COLLISION_THRESHOLD;
  // At or above `asked` is strictly above a hair below it: two Jaccard indexes of sets under a million
  // bigrams differ by more than 1e-12, so no pair below `asked` comes in. Never a pair with similarity 0.
  const threshold = Math.max(0, asked - AT_OR_ABOVE);
  const k = options.partners ?? DEFAULT_COLLISION_PARTNERS;
  const maxWork = options.maxWork ?? DEFAULT_COLLISION_WORK;
  const n = texts.length;
  const sets = encodeSets(texts);
  const { start, ids } = sets;
  const size = (x: number) => start[x + 1]! - start[x]!;

  // Rounds of falling thresholds; round L's prefix of a set is longer than round L−1's.
  const rounds = ROUNDS.filter((r) => r > threshold).concat(threshold);
  const levels = rounds.length;
  // The inverted index over each tool's prefix for the last round (CSR, bigram r's postings at
  // postStart[r]…), each list grouped by the first round whose prefix holds the bigram: round L of
  // bigram r is postTool[level[r·(levels+1) + L] … level[r·(levels+1) + L + 1]).
  const width = levels + 1;
  const level = new Int32Array(sets.distinct * width + 1);
  const firstRound = (b: number, p: number) => {
    let L = 0;
    while (p >= prefixLength(rounds[L]!, b)) L++;
    return L;
  };
  for (let y = 0; y < n; y++) {
    const b = size(y);
    const len = prefixLength(threshold, b);
    for (let p = 0; p < len; p++) level[ids[start[y]! + p]! * width + firstRound(b, p) + 1]!++;
  }
  for (let c = 0; c < sets.distinct * width; c++) level[c + 1]! += level[c]!;
  const postTool = new Int32Array(level[sets.distinct * width]!);
  const fill = level.slice(0, sets.distinct * width);
  const sizes = new Int32Array(n);
  for (let y = 0; y < n; y++) sizes[y] = size(y);
  // Filled smallest set first, so every postings group is sorted by set size: a query meets only the
  // tools whose size its round allows (length filtering), found by binary search.
  const bySize = Int32Array.from({ length: n }, (_, i) => i).sort((p, q) => sizes[p]! - sizes[q]! || p - q);
  for (const y of bySize) {
    const b = size(y);
    const len = prefixLength(threshold, b);
    for (let p = 0; p < len; p++) postTool[fill[ids[start[y]! + p]! * width + firstRound(b, p)]!++] = y;
  }

  const stamp = new Int32Array(n); // x + 1 once y is a candidate of query x
  const shared = new Int32Array(n); // prefix bigrams met so far; JUDGED once the pair is compared exactly
  const best: CollisionPartner[][] = Array.from({ length: n }, () => []);
  // Typed buffers with their own counts, not arrays emptied per tool: \`length = 0\` drops an array's
  // backing store, so every tool grew its lists afresh (about 870 MB allocated by one call on the
  // 31,560-tool list of bench/check-scale.ts, most of it these two).
  const candidates = new Int32Array(n);
  let candidateCount = 0;
  const order = new Int32Array(n);
  let orderCount = 0;
  // The tools before y that have offered y their similarity to it, or found it at or below the threshold
  // (the last SEEN of them): y's list has judged those pairs, and its least only rises, so y does not
  // compare them again. In a list of near-duplicates most pairs a tool would compare are of these.
  const seenBy = new Int32Array(n * SEEN);
  const seenCount = new Int32Array(n);
  /** The first posting in postTool[from…to) of a tool of size at least `b`. */
  const atLeast = (from: number, to: number, b: number): number => {
    while (from < to) {
      const mid = (from + to) >>> 1;
      if (sizes[postTool[mid]!]! < b) from = mid + 1;
      else to = mid;
    }
    return from;
  };
  // The requirement of each size a round allows (see `needOf`): a few times the largest set's size.
  let largest = 0;
  for (let y = 0; y < n; y++) if (sizes[y]! > largest) largest = sizes[y]!;
  const needAt = new Int32Array(4 * largest + 16);
  // marks[r] = x + 1 while x is compared: the bigrams of x, so that |A ∩ B| is one look-up per bigram of y.
  const marks = new Int32Array(sets.distinct);
  let markedFor = -1;
  let compared = 0;
  // Postings met and bigrams compared so far; past `maxWork` the search stops before (or within) a tool's
  // search, and that tool and the ones after it are not reported (their lists hold only what others offered).
  let work = 0;
  let searched = n;
  for (let x = 0; x < n; x++) {
    if (work > maxWork) {
      searched = x;
      break;
    }
    const sx = start[x]!;
    const a = start[x + 1]! - sx;
    if (a === 0) continue;
    const mine = best[x]!;
    const tag = x + 1;
    let probed = 0;
    let lastLo = 0;
    let lastHi = -1;
    candidateCount = 0;
    for (let s = 0, e = Math.min(seenCount[x]!, SEEN); s < e; s++) {
      const y = seenBy[x * SEEN + s]!;
      stamp[y] = tag;
      shared[y] = JUDGED;
    }
    // A meet only counts: which candidates share enough to be compared is decided once per round, after
    // its meets (below). Deciding it at every meet (the requirement looked up at a first meet, tested at
    // every other) cost more than the pass over the candidates: 48 million meets on bench/check-scale.ts's
    // list, and this function 2.26 -> 2.05 s there.
    const meet = (y: number): void => {
      if (stamp[y] !== tag) {
        if (y === x) return;
        stamp[y] = tag;
        candidates[candidateCount++] = y;
        shared[y] = 1;
      } else shared[y]!++;
    };
    for (let L = 0; L < levels; L++) {
      // A full list whose least is above this round's threshold (from offers of the tools before it, or
      // from the rounds before) can be displaced only by a partner at or above that least: this round is
      // then held at a hair below it, a shorter prefix (the lemma holds for any θ, and a tool's round-L
      // prefix holds its prefix for that θ), and it is the last (the least stays above it). A near-duplicate
      // of tools before it mostly stops after a few rare bigrams instead of the first round's 10% of them.
      const early = mine.length === k ? mine[k - 1]!.score - AT_OR_ABOVE : -1;
      const theta = early > rounds[L]! ? early : rounds[L]!;
      const upto = prefixLength(theta, a);
      const c = theta / (1 + theta);
      const offA = upto - a;
      // A pair above theta shares o = aboveOverlap(theta, a + b) bigrams, so its two round-L prefixes share
      // at least min(offA, offB) + o of them (see prefixShare), and J ≤ min/max: what y's prefix must
      // share with x's before the pair is worth comparing in this round.
      const ca = c * a - 1e-9;
      const roundL = rounds[L]!;
      // The sizes round L allows (J ≤ min/max < θ outside them: the BLOCKED test below, which is monotone in
      // b on either side of a). They widen from round to round.
      let lo = Math.max(0, Math.ceil(theta * a - 1e-7));
      while (lo > 0 && !(lo - 1 < theta * a - 1e-7)) lo--;
      while (lo < a && lo < theta * a - 1e-7) lo++;
      let hi = theta > 0 ? Math.min(BLOCKED - 1, Math.floor((a + 1e-7) / theta)) : BLOCKED - 1;
      while (hi < BLOCKED - 1 && !(a < theta * (hi + 1) - 1e-7)) hi++;
      while (hi > a && a < theta * hi - 1e-7) hi--;
      const needOf = (b: number): number => {
        // min < θ·max (with room for rounding) means J < θ.
        if (a < b ? a < theta * b - 1e-7 : b < theta * a - 1e-7) return BLOCKED;
        const o = Math.floor(ca + c * b) + 1;
        const off = prefixLength(roundL, b) - b;
        const r = (offA < off ? offA : off) + (o > 1 ? o : 1);
        return r > 1 ? r : 1;
      };
      // The requirement depends on y's size alone: a table over the sizes the round allows (every tool met
      // is of one of them), computed once per round and read for each candidate once the round's meets are
      // done (computed per tool met, it was 14% of this function's time on bench/check-scale.ts's list).
      const span = hi - lo + 1;
      const tableSpan = span <= needAt.length ? span : 0;
      for (let d = 0; d < tableSpan; d++) needAt[d] = needOf(lo + d);
      // Meet every tool of an allowed size whose round-L prefix shares a bigram with x's round-L prefix:
      // the bigrams probed before get the postings new in round L, and those of rounds before L of the
      // sizes newly allowed; the bigrams new in round L all of theirs up to L. So each tool is met as
      // often as when every size was met (tools of sizes not allowed could not be compared in round L).
      for (let px = 0; px < upto; px++) {
        const base = ids[sx + px]! * width;
        for (let g = 0; g <= L; g++) {
          const from = level[base + g]!;
          const to = level[base + g + 1]!;
          if (from === to) continue;
          const q0 = atLeast(from, to, lo);
          const q1 = atLeast(q0, to, hi + 1);
          if (px < probed && g < L) {
            // Seen before within [lastLo, lastHi]: only the sizes below and above that are new.
            const m0 = atLeast(q0, q1, lastLo);
            const m1 = atLeast(m0, q1, lastHi + 1);
            work += m0 - q0 + (q1 - m1);
            for (let q = q0; q < m0; q++) meet(postTool[q]!);
            for (let q = m1; q < q1; q++) meet(postTool[q]!);
          } else {
            work += q1 - q0;
            for (let q = q0; q < q1; q++) meet(postTool[q]!);
          }
        }
      }
      probed = upto;
      lastLo = lo;
      lastHi = hi;
      if (work > maxWork) break;
      // The candidates to compare: those whose round-L prefix shares what their size requires (met in this
      // round or before; shared counts only grow).
      orderCount = 0;
      for (let ci = 0; ci < candidateCount; ci++) {
        const y = candidates[ci]!;
        const got = shared[y]!;
        if (got < 0) continue;
        const d = sizes[y]! - lo;
        if (got >= (d >= 0 && d < tableSpan ? needAt[d]! : needOf(sizes[y]!))) order[orderCount++] = y;
      }
      // Compare exactly the candidates that can matter in this round: above theta and, once the list is
      // full, at least its least (a tie may still win on position). Those that share most first, so the
      // likeliest partners fill the list early and raise the bar for the rest.
      let most = 0;
      for (let oi = 0; oi < orderCount; oi++) if (shared[order[oi]!]! > most) most = shared[order[oi]!]!;
      const high = Math.ceil(most * 0.75);
      for (let pass = 0; pass < 2; pass++) {
        for (let oi = 0; oi < orderCount; oi++) {
          const y = order[oi]!;
          const got = shared[y]!;
          if (got < 0 || (pass === 0 && got < high) || (pass === 1 && got >= high)) continue;
          const sy = start[y]!;
          const b = sizes[y]!;
          const full = mine.length === k;
          const least = full ? mine[k - 1]!.score : -1;
          if (full && ((a < b ? a / b : b / a) < least || got < prefixShare(theta, a, b, least))) continue;
          compared++;
          work += b + COMPARE_COST;
          shared[y] = JUDGED;
          // Give up early only where the pair could not matter in any round, so one comparison is final.
          const sum = a + b;
          const need = full ? Math.max(aboveOverlap(threshold, sum), atLeastOverlap(least, sum)) : aboveOverlap(threshold, sum);
          if (markedFor !== x) {
            for (let p = sx; p < sx + a; p++) marks[ids[p]!] = tag;
            markedFor = x;
          }
          const inter = intersectMarked(ids, sy, sy + b, marks, tag, need);
          // Judged for y too: its similarity offered, or at or below the threshold (a need above the
          // threshold, from x's own least, leaves y's side open).
          if (y > x && (inter >= 0 || !full)) seenBy[y * SEEN + (seenCount[y]!++ % SEEN)] = x;
          if (inter < 0) continue;
          const score = inter / (sum - inter);
          if (score <= threshold) continue;
          offer(mine, names[y]!, y, score, k);
          offer(best[y]!, names[x]!, x, score, k);
        }
      }
      if (mine.length === k && mine[k - 1]!.score > theta) break;
    }
    // Stopped within this tool's search: its list is not final.
    if (work > maxWork) {
      searched = x;
      break;
    }
  }
  const found: ToolCollisions[] = [];
  for (let x = 0; x < searched; x++) if (best[x]!.length > 0) found.push({ tool: names[x]!, toolIndex: x, partners: best[x]! });

  const seen = new Set<number>();
  const pairs: CollisionPair[] = [];
  for (const t of found) {
    for (const p of t.partners) {
      const [i, j] = t.toolIndex < p.toolIndex ? [t.toolIndex, p.toolIndex] : [p.toolIndex, t.toolIndex];
      const key = i * n + j;
      if (seen.has(key)) continue;
      seen.add(key);
      pairs.push({ a: names[i]!, aIndex: i, b: names[j]!, bIndex: j, score: p.score });
    }
  }
  pairs.sort((x, y) => y.score - x.score || x.aIndex - y.aIndex || x.bIndex - y.bIndex);
  return { threshold: asked, partners: k, tools: found, pairs, compared, searched, complete: searched === n };
}

/**
 * The message of one tool's collision finding: its partners with their similarity, and what to do.
 * `` `create_entities` reads like `create_relations` (0.57) and `delete_entities` (0.45) … ``
 */
export function collisionMessage(c: ToolCollisions, threshold: number): string {
  const name = (tool: string, index: number) => (tool === '' ? `tool #${index}` : code(tool));
  const parts = c.partners.map((p) => `${name(p.tool, p.toolIndex)} (${p.score.toFixed(2)})`);
  const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]!}`;
  return `${name(c.tool, c.toolIndex)} reads like ${list} (character-bigram similarity at or above ${threshold.toFixed(2)}); a model may call one for the other: say in each description what sets it apart, or merge the tools`;
}

/**
 * The message of the whole-list finding when the search stopped at its bound of work (see
 * {@link Collisions.searched}): which tools it covers, and what to do.
 */
export function collisionSearchStopped(searched: number, total: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `the description-collision search stopped after the first ${n(searched)} of ${n(total)} tools: the list's names and descriptions are so alike that comparing them all would take too long (its bound of work); the collision findings cover those ${n(searched)} tools (each with its closest partners anywhere in the list), none after them; turn the rule off (\`--rule description-collision=off\`) for such a list, or check it in parts`;
}

// ---------------------------------------------------------------------------------------------------

const ROUNDS: readonly number[] = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4];
/**
 * What one exact comparison costs besides its bigrams, in units of {@link DEFAULT_COLLISION_WORK}: measured on
 * lists of short texts (5 bigrams a comparison), where a comparison's fixed cost is most of it.
 */
const COMPARE_COST = 16;
const AT_OR_ABOVE = 1e-12;
const BLOCKED = 0x7fffffff;
/** `shared` of a pair judged for the tool asking (compared, or offered by it before): negative however often met again. */
const JUDGED = -0x40000000;
/** How many of the tools that judged a pair with it each tool remembers (see `seenBy`). */
const SEEN = 16;

/**
 * How many of a set's first elements meet every partner with similarity above θ: b − o + 1, where
 * o = ⌊θ·b⌋ + 1 is the least overlap (computed a hair low, so rounding can only lengthen the prefix).
 */
function prefixLength(theta: number, b: number): number {
  if (b === 0) return 0;
  const overlap = Math.max(1, Math.floor(theta * b - 1e-9) + 1);
  return Math.min(b, b - overlap + 1);
}

/**
 * Inserts a partner into `best` (sorted: score descending, then position), keeping at most `k`; the
 * partner's object is made only when it goes in (most offers do not: fewer objects to collect).
 */
function offer(best: CollisionPartner[], tool: string, toolIndex: number, score: number, k: number): void {
  if (best.length === k && !before(score, toolIndex, best[k - 1]!)) return;
  for (const q of best) if (q.toolIndex === toolIndex) return; // offered from both sides
  let at = best.length;
  while (at > 0 && before(score, toolIndex, best[at - 1]!)) at--;
  best.splice(at, 0, { tool, toolIndex, score });
  if (best.length > k) best.pop();
}

/** Whether a partner (score, position) comes before `y`: higher score, or the same and earlier. */
function before(score: number, toolIndex: number, y: CollisionPartner): boolean {
  return score > y.score || (score === y.score && toolIndex < y.toolIndex);
}

/**
 * |A ∩ B|, where A's elements are marked `tag` in `marks` and B is the run `ids[j…eb)`, or -1 as soon as it
 * cannot reach `need` (more of B missed than B can spare). One look-up per element of B and no branch on
 * which run to advance: the merge of two sorted runs it replaced mispredicted that branch on every other
 * step (near-duplicate sets interleave), and was a sixth of this function's time on bench/check-scale.ts's list.
 */
function intersectMarked(ids: Int32Array, j: number, eb: number, marks: Int32Array, tag: number, need: number): number {
  let spare = eb - j - need;
  if (spare < 0) return -1;
  let inter = 0;
  for (; j < eb; j++) {
    if (marks[ids[j]!] === tag) inter++;
    else if (--spare < 0) return -1;
  }
  return inter;
}

/**
 * How many bigrams a pair must share between the two round-θ prefixes (lengths pa of a, pb of b) to be
 * above θ, and at least `least` when that is not −1. If the pair shares o bigrams, its ℓ-th smallest
 * shared bigram has at least o − ℓ shared ones after it in each set, so the first ℓ of them lie in the
 * first |A| − o + ℓ of A and of B: prefixes of lengths pa and pb share at least min(pa − a, pb − b) + o.
 */
function prefixShare(theta: number, a: number, b: number, least: number): number {
  const o = least < 0 ? aboveOverlap(theta, a + b) : Math.max(aboveOverlap(theta, a + b), atLeastOverlap(least, a + b));
  return Math.min(prefixLength(theta, a) - a, prefixLength(theta, b) - b) + o;
}

/**
 * The least integer overlap i with i / (sum − i) > θ, i.e. i > θ·sum / (1 + θ); computed a hair low, so
 * floating-point rounding can only admit more candidates, never drop one.
 */
function aboveOverlap(theta: number, sum: number): number {
  return Math.max(1, Math.floor((theta * sum) / (1 + theta) - 1e-9) + 1);
}

/** The least integer overlap i with i / (sum − i) ≥ s (a hair low, as above). */
function atLeastOverlap(s: number, sum: number): number {
  return Math.max(1, Math.ceil((s * sum) / (1 + s) - 1e-9));
}

interface EncodedSets {
  /** Tool x's bigrams are `ids[start[x]] … ids[start[x+1] − 1]`, ascending. */
  readonly start: Int32Array;
  /** Dense bigram ranks: 0 is the bigram in the fewest tools (ties: first seen first). */
  readonly ids: Int32Array;
  readonly distinct: number;
}

/** Every text's distinct bigrams as dense ranks ordered by document frequency, rarest first. */
function encodeSets(texts: readonly string[]): EncodedSets {
  const n = texts.length;
  const ascii = new Int32Array(128 * 128).fill(-1);
  const other = new Map<number, number>();
  const df: number[] = [];
  const last: number[] = [];
  const start = new Int32Array(n + 1);
  let ids = new Int32Array(1024);
  let used = 0;
  for (let x = 0; x < n; x++) {
    start[x] = used;
    forEachBigram(texts[x]!, (code, first, second) => {
      let id: number;
      if (first < 128 && second < 128) {
        id = ascii[first * 128 + second]!;
        if (id < 0) ascii[first * 128 + second] = id = df.length;
      } else {
        const got = other.get(code);
        if (got === undefined) other.set(code, (id = df.length));
        else id = got;
      }
      if (id === df.length) {
        df.push(0);
        last.push(-1);
      }
      if (last[id] === x) return;
      last[id] = x;
      df[id]!++;
      if (used === ids.length) {
        const grown = new Int32Array(ids.length * 2);
        grown.set(ids);
        ids = grown;
      }
      ids[used++] = id;
    });
  }
  start[n] = used;
  const distinct = df.length;
  const order = Array.from({ length: distinct }, (_, i) => i).sort((p, q) => df[p]! - df[q]! || p - q);
  const rank = new Int32Array(distinct);
  for (let r = 0; r < distinct; r++) rank[order[r]!] = r;
  const out = ids.subarray(0, used);
  for (let q = 0; q < used; q++) out[q] = rank[out[q]!]!;
  for (let x = 0; x < n; x++) out.subarray(start[x]!, start[x + 1]!).sort();
  return { start, ids: out, distinct };
}

/** Calls `visit(code, first, second)` for every two consecutive code points of `text`. */
function forEachBigram(text: string, visit: (code: number, first: number, second: number) => void): void {
  let prev = -1;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (prev >= 0) visit(prev * 0x110000 + cp, prev, cp);
    prev = cp;
  }
}
