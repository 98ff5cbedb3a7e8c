/**
 * Tool-surface analysis: what a model sees of a server as a whole. Tools whose names and descriptions
 * read alike get confused for each other; tools with many arguments get called wrong; tools without a
 * description get guessed at; and the bytes of a list are spent somewhere. Pure, no tokenizer.
 */
import { describeValue, isOptionsObject } from '../core/describe.js';
import { code } from '../core/format.js';
import { ToolslimError } from '../core/errors.js';
import { checkJsonTool, locateTools } from '../engine/input.js';
import { DEFAULT_MAX_DEPTH } from '../engine/options.js';
import { toolName } from '../core/tool.js';
import { isParsedJson } from '../json/parsed.js';
import { isProxy } from '../json/plain.js';
import type { ToolsInput } from '../core/run-types.js';
import { utf8Length } from '../core/measure.js';
import type { ToolFindingBase } from '../core/report.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { collisionMessage, collisionSearchStopped, collisionText, DEFAULT_COLLISION_PARTNERS, DEFAULT_COLLISION_THRESHOLD, findCollisions, type Collisions } from './collisions.js';

export type { CollisionPair, CollisionPartner, ToolCollisions } from './collisions.js';

/** Options of {@link analyzeSurface}. */
export interface AnalyzeSurfaceOptions {
  /** Pairs whose similarity is at or above this read alike (default 0.30, in [0, 1]). */
  readonly collisionThreshold?: number;
  /** How many of its most similar partners each tool lists (default 3). */
  readonly collisionPartners?: number;
  /** Tools with more top-level arguments than this are reported (default 4). */
  readonly maxArguments?: number;
}

/** Bytes of one part of a tools list, and its share of the whole. */
export interface PartBytes {
  readonly bytes: number;
  /** `bytes` over the list's total (0 for an empty list). */
  readonly share: number;
}

/** A finding (`description-collision`, `many-arguments`, `missing-description`, or `invalid-tool` for a tool that is not plain JSON), shaped like lint findings. */
export type SurfaceFinding = ToolFindingBase;

/** What {@link analyzeSurface} found. */
export interface SurfaceAnalysis {
  readonly tools: number;
  /** Tools whose name and description read alike (see {@link analyzeSurface}). */
  readonly collisions: Collisions;
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
  /** Every finding above (one per tool with collisions, one per tool over the argument limit or without a description), shaped like lint findings. */
  readonly findings: readonly SurfaceFinding[];
}

const DEFAULT_MAX_ARGUMENTS = 4;

/** Every key of {@link AnalyzeSurfaceOptions}: a key outside it is refused, not ignored. */
const SURFACE_OPTION_KEYS: readonly string[] = Object.keys({ collisionThreshold: 1, collisionPartners: 1, maxArguments: 1 } satisfies Record<keyof AnalyzeSurfaceOptions, 1>);

/**
 * Analyzes one server's tool list (any input `transformTools` accepts). Similarity is the Jaccard index of
 * character-bigram sets: each tool's name and description joined, lower-cased, `_` and whitespace removed,
 * and every two consecutive characters of that string taken once (see `docs/surface.md`). Each tool lists
 * its few most similar partners at or above the threshold; candidate pairs come from an inverted index
 * with prefix filtering, so large lists are not compared pair by pair, and no pair above the threshold is
 * missed.
 */
export function analyzeSurface(input: ToolsInput, options: AnalyzeSurfaceOptions = {}): SurfaceAnalysis {
  if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `analyzeSurface: options must be an object, got ${describeValue(options)}`);
  for (const key of Object.keys(options)) {
    if (!SURFACE_OPTION_KEYS.includes(key)) throw new ToolslimError('invalid-option', `analyzeSurface: unknown option \`${key}\` (known: ${SURFACE_OPTION_KEYS.join(', ')})`);
  }
  const threshold = options.collisionThreshold ?? DEFAULT_COLLISION_THRESHOLD;
  const partners = options.collisionPartners ?? DEFAULT_COLLISION_PARTNERS;
  const maxArguments = options.maxArguments ?? DEFAULT_MAX_ARGUMENTS;
  checkCollisionOptions('analyzeSurface', threshold, partners);
  if (!Number.isSafeInteger(maxArguments) || maxArguments < 0) throw new ToolslimError('invalid-option', `analyzeSurface: \`maxArguments\` must be a non-negative integer, got ${String(maxArguments)}`);

  const tools = locateTools(input).tools;
  const n = tools.length;
  const names = tools.map(toolName);
  const findings: SurfaceFinding[] = [];
  // A tool that is not plain JSON (one built in code can contain itself, which reading it would follow
  // forever) is reported as the lint reports it, and left out of everything else: the others are analyzed
  // as without it. A tool that is not an object is analyzed as always (it has no name, description or
  // arguments).
  const keyBytes = new Map<string, number>();
  const parsed = isParsedJson(input);
  const unreadable: boolean[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const tool = tools[i];
    const problem = isProxy(tool) || isObject(tool) ? checkJsonTool(tool, DEFAULT_MAX_DEPTH, [], undefined, keyBytes, parsed) : undefined;
    unreadable[i] = problem !== undefined;
    if (problem) findings.push({ severity: 'error', code: 'invalid-tool', tool: names[i]!, toolIndex: i, path: appendPointer('', i) + problem.path, message: invalidToolMessage(problem.message) });
  }

  const collisions = findCollisions(
    tools.map((t, i) => (unreadable[i] ? '' : collisionText(names[i], descriptionOf(t)))),
    names,
    { threshold, partners },
  );
  for (const c of collisions.tools) {
    findings.push({ severity: 'info', code: 'description-collision', tool: c.tool, toolIndex: c.toolIndex, path: appendPointer('', c.toolIndex), message: collisionMessage(c, threshold) });
  }
  // The search stopped at its bound of work: said, with which tools it covers (never a silent gap).
  if (!collisions.complete) findings.push({ severity: 'info', code: 'description-collision', tool: '', toolIndex: -1, path: '', message: collisionSearchStopped(collisions.searched, n) });

  // Arguments and descriptions.
  const over: { tool: string; toolIndex: number; count: number }[] = [];
  const missing: { tool: string; toolIndex: number }[] = [];
  for (let i = 0; i < n; i++) {
    if (unreadable[i]) continue;
    const tool = tools[i];
    const count = argumentCount(tool);
    if (count > maxArguments) {
      over.push({ tool: names[i]!, toolIndex: i, count });
      findings.push({
        severity: 'info',
        code: 'many-arguments',
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
    collisions,
    arguments: { threshold: maxArguments, over },
    missingDescriptions: missing,
    bytes: partBytes(tools, unreadable),
    findings,
  };
}

/** Throws a {@link ToolslimError} for a threshold outside [0, 1] or a partner count below 1. */
export function checkCollisionOptions(who: string, threshold: unknown, partners: unknown): void {
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) throw new ToolslimError('invalid-option', `${who}: \`collisionThreshold\` must be a number in [0, 1], got ${String(threshold)}`);
  if (typeof partners !== 'number' || !Number.isSafeInteger(partners) || partners < 1) throw new ToolslimError('invalid-option', `${who}: \`collisionPartners\` must be a positive integer, got ${String(partners)}`);
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

/** The message of an `invalid-tool` finding (the lint's, and {@link analyzeSurface}'s). */
export function invalidToolMessage(problem: string): string {
  return `tool cannot be checked: ${problem}; fix its JSON (the other checks skip it)`;
}

function descriptionOf(tool: unknown): string {
  return isObject(tool) && typeof tool.description === 'string' ? tool.description : '';
}

function argumentCount(tool: unknown): number {
  if (!isObject(tool) || !isObject(tool.inputSchema)) return 0;
  const props = tool.inputSchema.properties;
  return isObject(props) ? Object.keys(props).length : 0;
}

const PARTS = [
  ['description', 'descriptions'],
  ['inputSchema', 'inputSchemas'],
  ['outputSchema', 'outputSchemas'],
  ['annotations', 'annotations'],
] as const;

function partBytes(tools: readonly unknown[], unreadable: readonly boolean[]): SurfaceAnalysis['bytes'] {
  const sums = { descriptions: 0, inputSchemas: 0, outputSchemas: 0, annotations: 0 };
  let total = tools.length === 0 ? 2 : 1 + tools.length; // brackets and commas
  for (let i = 0; i < tools.length; i++) {
    if (unreadable[i]) continue; // JSON cannot hold it: it has no bytes to count
    const tool = tools[i];
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
  return name === '' ? `tool #${index}` : code(name);
}

function codeRank(code: string): number {
  return code === 'missing-description' ? 0 : code === 'many-arguments' ? 1 : 2;
}
