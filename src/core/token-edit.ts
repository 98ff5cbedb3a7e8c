/**
 * A token count of a text after an edit, from the count before it and the stretches that changed. A step
 * changes a few places of a tool (a `$schema` stamp, a link in each description, a converter's leftover)
 * and the run counts the tool's text after each step that changed it: on the 31,560-tool list of
 * bench/check-scale.ts that was 58 M characters scanned for `report`, where the stretches that differ (found
 * as below) hold 1.9 M (5.7 M on the side before the step). A tokenizer that counts a text as the sum of the counts of stretches cut at the cut
 * points of src/core/token-memo.ts (both encodings of toolslim/tokens; its header says why that is exact)
 * counts a changed text as the old count less the old stretches plus the new ones, each stretch running
 * from a cut point the two texts share to the next one after the change.
 *
 * **How the changed stretches are found.** The common head and tail first (compared a slice at a time, far
 * cheaper than the memo's scan: no hash, no table). Between them, where the texts stop agreeing,
 * a stretch of {@link ANCHOR} characters of one text is looked for in the other a bounded distance ahead
 * ({@link REACH}) — taken at the point itself (a deletion or an insertion), then further on (a replacement)
 * — and where it is found the texts agree again, as far as they do. The search is bounded in all
 * ({@link WORK}× the length of what differs): past that, the rest is one window. A wrong alignment (an
 * anchor that also occurs elsewhere) or none only makes a window larger, never a count wrong: any windows
 * whose ends are cut points both texts share add up, whatever the alignment.
 *
 * Why our own (not a diff library): only a bounded, linear search that stops at cut points is wanted, not a
 * minimal edit script (Myers' diff is quadratic in what differs), and the windows must end where the memo's
 * cut rule says.
 */
import { isCutPoint } from './token-memo.js';

/** Characters of one text looked for in the other to find where they agree again. */
const ANCHOR = 32;
/** How far ahead of where the texts stopped agreeing an anchor is looked for (characters). */
const REACH = 4096;
/** Offsets past that point at which anchors are taken, in turn. */
const OFFSETS = [0, 16, 64, 256, 1024] as const;
/** The search's bound: this many characters looked through per character that differs, plus {@link SLACK}. */
const WORK = 8;
const SLACK = 1 << 14;

/**
 * Windows `[aStart, aEnd, bStart, bEnd, …]` (flat) such that, for a count that adds up over the cut points of
 * src/core/token-memo.ts, `count(b) = count(a) + Σ (count(b.slice(bStart, bEnd)) − count(a.slice(aStart, aEnd)))`:
 * each window starts and ends at a cut point of both texts (or at their start or end), and what lies between
 * two windows is the same text in both. Empty when the texts are equal.
 */
export function editWindows(a: string, b: string): number[] {
  const n = a.length;
  const m = b.length;
  const lim = n < m ? n : m;
  const p = agree(a, 0, b, 0, lim);
  if (p === n && p === m) return [];
  const q = agreeBack(a, n, b, m, lim - p);
  const aEnd = n - q;
  const bEnd = m - q;
  const out: number[] = [];
  // The open window starts at the last cut point of the common head (or at the start).
  let wa = lastCut(a, 0, p);
  let wb = wa;
  let ai = p;
  let bi = p;
  let budget = WORK * (aEnd - p + (bEnd - p)) + SLACK;
  while (ai < aEnd && bi < bEnd && budget > 0) {
    // Where the texts agree again: an anchor of b found in a, or of a in b.
    let as = -1;
    let bs = -1;
    for (const d of OFFSETS) {
      const bk = bi + d;
      const ak = ai + d;
      if (bk + ANCHOR > bEnd && ak + ANCHOR > aEnd) break;
      // An anchor of b looked for in a (a deletion, or where a replacement ends), then one of a in b.
      const aTo = bk + ANCHOR <= bEnd ? Math.min(aEnd, ai + d + REACH) : ai;
      const bTo = ak + ANCHOR <= aEnd ? Math.min(bEnd, bi + d + REACH) : bi;
      const inA = findAnchor(a, ai, aTo, b, bk);
      const inB = inA < 0 ? findAnchor(b, bi, bTo, a, ak) : -1;
      budget -= aTo - ai + (inA < 0 ? bTo - bi : 0);
      if (inA >= 0) {
        as = inA;
        bs = bk;
      } else if (inB >= 0) {
        as = ak;
        bs = inB;
      } else continue;
      break;
    }
    if (as < 0) break;
    // The stretch they agree on, as far back and ahead as it goes (never before where the last one ended).
    while (as > ai && bs > bi && a.charCodeAt(as - 1) === b.charCodeAt(bs - 1)) {
      as--;
      bs--;
    }
    const len = ANCHOR + agree(a, as + ANCHOR, b, bs + ANCHOR, Math.min(aEnd - as, bEnd - bs) - ANCHOR);
    budget -= len;
    ai = as + len;
    bi = bs + len;
    // The window ends at the stretch's first cut point and the next one starts at its last; a stretch
    // without a cut point is part of the window.
    const first = firstCut(a, as, ai);
    if (first < 0) continue;
    out.push(wa, first, wb, bs + (first - as));
    wa = lastCut(a, as, ai);
    wb = bs + (wa - as);
  }
  // The common tail closes the last window at its first cut point (or the window runs to the ends).
  const first = firstCut(a, aEnd, n);
  if (first < 0) out.push(wa, n, wb, m);
  else out.push(wa, first, wb, bEnd + (first - aEnd));
  return out;
}

/**
 * Two texts are compared in stretches, not a character at a time: two slices compared with `===` (a native
 * compare) cost far less than a `charCodeAt` loop over them (20 M characters: 66 ms by characters, 18 ms by
 * 64 at once, 7 ms by 1,024). The stretch doubles while they agree and halves where they do not, down to
 * {@link FINE} characters, which are compared one by one: few slices over a long agreement, few characters
 * compared twice near its end.
 */
const FIRST = 64;
const WIDEST = 8192;
const FINE = 16;

/** How many characters `a` and `b` agree on from `a[i]` and `b[j]` on (at most `max`). */
function agree(a: string, i: number, b: string, j: number, max: number): number {
  let k = 0;
  let step = FIRST;
  while (step > FINE) {
    if (k + step <= max && a.slice(i + k, i + k + step) === b.slice(j + k, j + k + step)) {
      k += step;
      if (step < WIDEST) step *= 2;
    } else step >>= 1;
  }
  while (k < max && a.charCodeAt(i + k) === b.charCodeAt(j + k)) k++;
  return k;
}

/** How many characters `a` and `b` agree on backwards from before `a[i]` and `b[j]` (at most `max`). */
function agreeBack(a: string, i: number, b: string, j: number, max: number): number {
  let k = 0;
  let step = FIRST;
  while (step > FINE) {
    if (k + step <= max && a.slice(i - k - step, i - k) === b.slice(j - k - step, j - k)) {
      k += step;
      if (step < WIDEST) step *= 2;
    } else step >>= 1;
  }
  while (k < max && a.charCodeAt(i - 1 - k) === b.charCodeAt(j - 1 - k)) k++;
  return k;
}

/** Where the {@link ANCHOR} characters of `other` from `at` first occur in `text` between `from` and `to` (an index of `text`), or -1. */
function findAnchor(text: string, from: number, to: number, other: string, at: number): number {
  if (to - from < ANCHOR) return -1;
  const found = text.slice(from, to).indexOf(other.slice(at, at + ANCHOR));
  return found < 0 ? -1 : from + found;
}

/** The first cut point `i` of `text` with `from < i < to` (both characters around it inside `[from, to)`), or -1. */
function firstCut(text: string, from: number, to: number): number {
  for (let i = from + 1; i < to; i++) if (isCutPoint(text, i)) return i;
  return -1;
}

/** The last cut point `i` of `text` with `from < i < to`, or `from` when there is none. */
function lastCut(text: string, from: number, to: number): number {
  for (let i = to - 1; i > from; i--) if (isCutPoint(text, i)) return i;
  return from;
}
