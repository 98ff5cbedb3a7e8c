/**
 * Tool-surface analysis: what a model sees of a server as a whole. Tools whose names and descriptions
 * read alike get confused for each other; tools with many arguments get called wrong; tools without a
 * description get guessed at; and the bytes of a list are spent somewhere. Pure, no tokenizer.
 */
import { ToolslimError } from '../core/errors.js';
import { locateTools } from '../engine/input.js';
import type { ToolsInput } from '../core/run-types.js';
import { utf8Length } from '../core/measure.js';
import type { Severity, ToolFindingBase } from '../core/report.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';

/** Options of {@link analyzeSurface}. */
export interface AnalyzeSurfaceOptions {
  /** Pairs whose similarity is at or above this are reported (default 0.30). */
  readonly collisionThreshold?: number;
  /** Reported pairs at or above this similarity are warnings, the rest `info` (default 0.60). */
  readonly collisionWarningThreshold?: number;
  /** How many of the most similar pairs `collisions.worst` lists (default 5). */
  readonly worst?: number;
  /** Tools with more top-level arguments than this are reported (default 4). */
  readonly maxArguments?: number;
}

/** Two tools whose name and description read alike. */
export interface CollisionPair {
  readonly a: string;
  readonly aIndex: number;
  readonly b: string;
  readonly bIndex: number;
  /** Jaccard similarity of their character-bigram sets, in [0, 1]. */
  readonly score: number;
}

/** Bytes of one part of a tools list, and its share of the whole. */
export interface PartBytes {
  readonly bytes: number;
  /** `bytes` over the list's total (0 for an empty list). */
  readonly share: number;
}

/** A finding (`description-collision`, `too-many-arguments` or `missing-description`), shaped like lint findings. */
export type SurfaceFinding = ToolFindingBase;

/** What {@link analyzeSurface} found. */
export interface SurfaceAnalysis {
  readonly tools: number;
  readonly collisions: {
    readonly threshold: number;
    /** Every pair at or above the threshold, most similar first (ties: by position). */
    readonly pairs: readonly CollisionPair[];
    /** The most similar pairs, whatever the threshold. */
    readonly worst: readonly CollisionPair[];
    /** Mean similarity over all pairs (0 with fewer than two tools). */
    readonly mean: number;
    /** Number of pairs compared: n·(n−1)/2. */
    readonly compared: number;
  };
  readonly arguments: {
    readonly threshold: number;
    /** Tools with more top-level arguments than the threshold, in list order. */
    readonly over: readonly { readonly tool: string; readonly toolIndex: number; readonly count: number }[];
  };
  /** Tools whose `description` is missing, not a string, or blank, in list order. */
  readonly missingDescriptions: readonly { readonly tool: string; readonly toolIndex: number }[];
  /**
   * Where the bytes of the list go (UTF-8 of compact JSON). Each part is the `"key":value` member text of
   * that field in every tool; `other` is everything else (names, titles, `_meta`, unknown fields, braces,
   * commas and the array's brackets), so the parts add up to `total` exactly.
   */
  readonly bytes: {
    readonly total: number;
    readonly descriptions: PartBytes;
    readonly inputSchemas: PartBytes;
    readonly outputSchemas: PartBytes;
    readonly annotations: PartBytes;
    readonly other: PartBytes;
  };
  /** Every finding above, one per collision pair / tool, in a shape that merges with lint findings. */
  readonly findings: readonly SurfaceFinding[];
}

const DEFAULT_COLLISION_THRESHOLD = 0.3;
const DEFAULT_COLLISION_WARNING = 0.6;
const DEFAULT_WORST = 5;
const DEFAULT_MAX_ARGUMENTS = 4;

/**
 * Analyzes one server's tool list (any input `transformTools` accepts). Similarity is the Jaccard index of
 * character-bigram sets over each tool's name and description: the text is split into words at camelCase
 * humps and at every character that is not a letter or digit (`_`, `-`, `.`, whitespace, punctuation),
 * lower-cased, and each word of two or more characters contributes its bigrams. Every pair is compared
 * (n·(n−1)/2) over precomputed sorted integer arrays.
 */
export function analyzeSurface(input: ToolsInput, options: AnalyzeSurfaceOptions = {}): SurfaceAnalysis {
  const threshold = options.collisionThreshold ?? DEFAULT_COLLISION_THRESHOLD;
  const warnAt = options.collisionWarningThreshold ?? DEFAULT_COLLISION_WARNING;
  const worstCount = options.worst ?? DEFAULT_WORST;
  const maxArguments = options.maxArguments ?? DEFAULT_MAX_ARGUMENTS;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) throw new ToolslimError('invalid-option', `analyzeSurface: \`collisionThreshold\` must be a number in [0, 1], got ${String(threshold)}`);
  if (typeof warnAt !== 'number' || !(warnAt >= 0 && warnAt <= 1)) throw new ToolslimError('invalid-option', `analyzeSurface: \`collisionWarningThreshold\` must be a number in [0, 1], got ${String(warnAt)}`);
  if (!Number.isSafeInteger(worstCount) || worstCount < 0) throw new ToolslimError('invalid-option', `analyzeSurface: \`worst\` must be a non-negative integer, got ${String(worstCount)}`);
  if (!Number.isSafeInteger(maxArguments) || maxArguments < 0) throw new ToolslimError('invalid-option', `analyzeSurface: \`maxArguments\` must be a non-negative integer, got ${String(maxArguments)}`);

  const tools = locateTools(input).tools;
  const n = tools.length;
  const names = tools.map((t) => (isObject(t) && typeof t.name === 'string' ? t.name : ''));
  const findings: SurfaceFinding[] = [];

  // Collisions.
  const sets = tools.map((t, i) => bigramSet(names[i] + ' ' + descriptionOf(t)));
  const pairs: CollisionPair[] = [];
  const worst: CollisionPair[] = [];
  let sum = 0;
  forEachPair(sets, (i, j, score) => {
    sum += score;
    if (score < threshold && (worstCount === 0 || (worst.length === worstCount && score <= worst[worstCount - 1]!.score))) return;
    const pair = { a: names[i]!, aIndex: i, b: names[j]!, bIndex: j, score };
    if (score >= threshold) pairs.push(pair);
    if (worstCount > 0) keepWorst(worst, pair, worstCount);
  });
  pairs.sort(byScore);
  const compared = n < 2 ? 0 : (n * (n - 1)) / 2;
  for (const p of pairs) {
    findings.push({
      severity: p.score >= warnAt ? 'warning' : 'info',
      code: 'description-collision',
      tool: p.a,
      toolIndex: p.aIndex,
      path: appendPointer('', p.aIndex),
      message: `${label(p.a, p.aIndex)} and ${label(p.b, p.bIndex)} read alike (bigram similarity ${p.score.toFixed(2)}, expected below ${threshold.toFixed(2)}); a model may call one for the other`,
    });
  }

  // Arguments and descriptions.
  const over: { tool: string; toolIndex: number; count: number }[] = [];
  const missing: { tool: string; toolIndex: number }[] = [];
  for (let i = 0; i < n; i++) {
    const tool = tools[i];
    const count = argumentCount(tool);
    if (count > maxArguments) {
      over.push({ tool: names[i]!, toolIndex: i, count });
      findings.push({
        severity: 'info',
        code: 'too-many-arguments',
        tool: names[i]!,
        toolIndex: i,
        path: appendPointer('', i) + '/inputSchema/properties',
        message: `${label(names[i]!, i)} takes ${count} arguments, expected at most ${maxArguments}`,
      });
    }
    if (descriptionOf(tool).trim() === '') {
      missing.push({ tool: names[i]!, toolIndex: i });
      const present = isObject(tool) && hasOwn(tool, 'description');
      findings.push({
        severity: 'warning',
        code: 'missing-description',
        tool: names[i]!,
        toolIndex: i,
        path: appendPointer('', i) + (present ? '/description' : ''),
        message: `${label(names[i]!, i)} has ${present ? 'a blank or non-string `description`' : 'no `description`'}, expected a sentence saying what it does`,
      });
    }
  }
  findings.sort((x, y) => x.toolIndex - y.toolIndex || codeRank(x.code) - codeRank(y.code));

  return {
    tools: n,
    collisions: { threshold, pairs, worst, mean: compared === 0 ? 0 : sum / compared, compared },
    arguments: { threshold: maxArguments, over },
    missingDescriptions: missing,
    bytes: partBytes(tools),
    findings,
  };
}

/**
 * The character-bigram set of a text, as a sorted array of distinct integer codes (see
 * {@link analyzeSurface} for how words are split). Exposed for tests and for callers that compare texts.
 */
export function bigramSet(text: string): number[] {
  const buf: number[] = [];
  for (const word of splitWords(text)) {
    let prev = -1;
    for (let i = 0; i < word.length; i++) {
      let cp = word.charCodeAt(i);
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < word.length) {
        const lo = word.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
          i++;
        }
      }
      if (prev >= 0) buf.push(prev * 0x110000 + cp);
      prev = cp;
    }
  }
  const sorted = Float64Array.from(buf).sort();
  const codes: number[] = [];
  for (let r = 0; r < sorted.length; r++) if (r === 0 || sorted[r] !== sorted[r - 1]) codes.push(sorted[r]!);
  return codes;
}

/** Jaccard index |A∩B| / |A∪B| of two sorted, distinct arrays; 0 when both are empty. */
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
 * Splits a text into lower-case words: at camelCase humps (`listIssues` → `list`, `issues`;
 * `HTTPServer` → `http`, `server`), then at every character that is not a letter or a digit.
 */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
  return spaced
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

// ---------------------------------------------------------------------------------------------------

/**
 * Calls `visit(i, j, jaccard)` for every pair i < j, in order. When the distinct bigrams of the whole list
 * fit in a few machine words per tool, each set becomes a bitset over dense ids and an intersection is a
 * popcount of ANDed words; otherwise the sorted arrays are merged.
 */
function forEachPair(sets: readonly number[][], visit: (i: number, j: number, score: number) => void): void {
  const n = sets.length;
  const ids = new Map<number, number>();
  let total = 0;
  for (const set of sets) {
    total += set.length;
    for (const code of set) if (!ids.has(code)) ids.set(code, ids.size);
  }
  const words = (ids.size + 31) >>> 5;
  if (n > 1 && words <= (2 * total) / n) {
    const bits = new Uint32Array(n * words);
    for (let i = 0; i < n; i++) for (const code of sets[i]!) {
      const id = ids.get(code)!;
      bits[i * words + (id >>> 5)]! |= 1 << (id & 31);
    }
    for (let i = 0; i < n; i++) {
      const a = sets[i]!.length;
      const bi = i * words;
      for (let j = i + 1; j < n; j++) {
        const b = sets[j]!.length;
        if (a === 0 && b === 0) {
          visit(i, j, 0);
          continue;
        }
        const bj = j * words;
        let inter = 0;
        for (let k = 0; k < words; k++) inter += popcount(bits[bi + k]! & bits[bj + k]!);
        visit(i, j, inter / (a + b - inter));
      }
    }
    return;
  }
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) visit(i, j, jaccard(sets[i]!, sets[j]!));
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

function descriptionOf(tool: unknown): string {
  return isObject(tool) && typeof tool.description === 'string' ? tool.description : '';
}

function argumentCount(tool: unknown): number {
  if (!isObject(tool) || !isObject(tool.inputSchema)) return 0;
  const props = tool.inputSchema.properties;
  return isObject(props) ? Object.keys(props).length : 0;
}

function byScore(x: CollisionPair, y: CollisionPair): number {
  return y.score - x.score || x.aIndex - y.aIndex || x.bIndex - y.bIndex;
}

/** Keeps `worst` sorted by {@link byScore} and at most `k` long (k is small, so insertion is cheap). */
function keepWorst(worst: CollisionPair[], pair: CollisionPair, k: number): void {
  if (worst.length === k && byScore(pair, worst[k - 1]!) >= 0) return;
  let at = worst.length;
  while (at > 0 && byScore(pair, worst[at - 1]!) < 0) at--;
  worst.splice(at, 0, pair);
  if (worst.length > k) worst.pop();
}

const PARTS = [
  ['description', 'descriptions'],
  ['inputSchema', 'inputSchemas'],
  ['outputSchema', 'outputSchemas'],
  ['annotations', 'annotations'],
] as const;

function partBytes(tools: readonly unknown[]): SurfaceAnalysis['bytes'] {
  const sums = { descriptions: 0, inputSchemas: 0, outputSchemas: 0, annotations: 0 };
  let total = tools.length === 0 ? 2 : 1 + tools.length; // brackets and commas
  for (const tool of tools) {
    const text = JSON.stringify(tool) ?? 'null';
    total += utf8Length(text);
    if (!isObject(tool)) continue;
    for (const [key, part] of PARTS) {
      if (!hasOwn(tool, key)) continue;
      const value = JSON.stringify(tool[key]);
      if (value === undefined) continue; // JSON leaves the member out
      sums[part] += utf8Length(JSON.stringify(key)) + 1 + utf8Length(value);
    }
  }
  const other = total - sums.descriptions - sums.inputSchemas - sums.outputSchemas - sums.annotations;
  const share = (bytes: number): PartBytes => ({ bytes, share: total === 0 ? 0 : bytes / total });
  return {
    total,
    descriptions: share(sums.descriptions),
    inputSchemas: share(sums.inputSchemas),
    outputSchemas: share(sums.outputSchemas),
    annotations: share(sums.annotations),
    other: share(other),
  };
}

function label(name: string, index: number): string {
  return name === '' ? `tool #${index}` : `\`${name}\``;
}

function codeRank(code: string): number {
  return code === 'missing-description' ? 0 : code === 'too-many-arguments' ? 1 : 2;
}
