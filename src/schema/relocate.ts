/**
 * Moving parts of a schema and keeping every reference to them: a record of where each location went, and
 * the rewrite of the `$ref`s that addressed a moved location (escape-aware, relative to the resource each
 * reference is read against).
 */
import { formatRefPointer, parseRef } from './ref-syntax.js';
import { parsePointer } from '../json/pointer.js';
import { anchorShape } from '../json/shapes.js';
import { resolveRefSite, type RefInventory, type RefSite } from './refs.js';

/** Maps a pointer of the original document to where that location is now. */
export interface Relocation {
  /** The current pointer of an original location; `undefined` when it was removed. */
  map(path: string): string | undefined;
}

/**
 * Relocations recorded during one top-down walk: for each visited location, where it is now. A location
 * with nothing recorded moved with its nearest recorded ancestor.
 */
export class PathMap implements Relocation {
  readonly #moves = new Map<string, string | null>();

  /** Records that the location `from` (original pointer) is now at `to`; `null` when it was removed. */
  set(from: string, to: string | null): void {
    this.#moves.set(from, to);
  }

  /** True when anything was moved or removed. */
  get moved(): boolean {
    for (const [from, to] of this.#moves) if (from !== to) return true;
    return false;
  }

  map(path: string): string | undefined {
    const hit = this.#moves.get(path);
    if (hit !== undefined) return hit === null ? undefined : hit;
    let cut = path.length;
    while (cut > 0) {
      cut = path.lastIndexOf('/', cut - 1);
      if (cut < 0) break;
      const above = this.#moves.get(path.slice(0, cut));
      if (above === null) return undefined;
      if (above !== undefined) return above + path.slice(cut);
    }
    return path;
  }
}

/** Relocations applied one after the other, each in the coordinates left by the ones before it. */
export class SequentialMoves implements Relocation {
  readonly #moves: [string, string][] = [];

  add(from: string, to: string): void {
    this.#moves.push([from, to]);
  }

  get size(): number {
    return this.#moves.length;
  }

  map(path: string): string | undefined {
    let p = path;
    for (const [from, to] of this.#moves) if (p === from || p.startsWith(from + '/')) p = to + p.slice(from.length);
    return p;
  }
}

/** A reference that must change because its target (or the resource it is read against) moved. */
export interface RefRewrite {
  readonly site: RefSite;
  /** The new value of the reference keyword. */
  readonly ref: string;
  /** Pointer (relative to the document) of the target before and after. */
  readonly from: string;
  readonly to: string;
}

/** A reference whose target moved where it cannot follow (outside the resource it is read against). */
export interface RefProblem {
  readonly site: RefSite;
  readonly reason: string;
}

/**
 * The rewrites that keep every JSON Pointer reference of `schema` (the document before the moves) on its
 * target after the moves in `relocation`. Anchors, references into other documents and references in data
 * (`default`, `enum`, unknown keywords) are left alone.
 */
export function planRefRewrites(schema: unknown, inventory: RefInventory, relocation: Relocation): { rewrites: RefRewrite[]; problems: RefProblem[] } {
  const rewrites: RefRewrite[] = [];
  const problems: RefProblem[] = [];
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    const resolution = resolveRefSite(schema, inventory, site);
    if (resolution.status !== 'resolved' || resolution.tokens === undefined || resolution.base === undefined) continue;
    const base = resolution.base;
    const target = resolution.path;
    const newTarget = relocation.map(target);
    const newBase = relocation.map(base);
    if (newTarget === target && newBase === base) continue;
    if (newTarget === undefined || newBase === undefined) {
      problems.push({ site, reason: `its target \`${target}\` was removed` });
      continue;
    }
    if (!(newBase === '' || newTarget === newBase || newTarget.startsWith(newBase + '/'))) {
      problems.push({ site, reason: `its target moved to \`${newTarget}\`, outside the resource at \`${newBase}\` it is read against` });
      continue;
    }
    const tokens = parsePointer(newTarget.slice(newBase.length));
    if (sameList(tokens, resolution.tokens)) continue;
    rewrites.push({ site, ref: replaceFragment(site.ref, resolution.tokens, tokens), from: target, to: newTarget });
  }
  return { rewrites, problems };
}

/**
 * `ref` with its JSON Pointer fragment changed from `oldTokens` to `newTokens`. The URI part and the
 * unchanged tail of the fragment keep their original spelling (escapes, percent-encoding); only the
 * changed head is written anew.
 */
export function replaceFragment(ref: string, oldTokens: readonly string[], newTokens: readonly string[]): string {
  const hash = ref.indexOf('#');
  const head = hash === -1 ? ref + '#' : ref.slice(0, hash + 1);
  const raw = hash === -1 ? '' : ref.slice(hash + 1);
  const segments = raw === '' ? [] : raw.slice(1).split('/');
  // The raw spelling can be kept only when its segments line up with the tokens (no `%2F` separators).
  const aligned = raw === '' || (raw.charCodeAt(0) === 47 && segments.length === oldTokens.length && sameTokens(segments, oldTokens));
  let common = 0;
  if (aligned) {
    while (common < oldTokens.length && common < newTokens.length && oldTokens[oldTokens.length - 1 - common] === newTokens[newTokens.length - 1 - common]) common++;
  }
  const fresh = formatRefPointer(newTokens.slice(0, newTokens.length - common)).slice(1);
  const tail = common === 0 ? '' : '/' + segments.slice(segments.length - common).join('/');
  return head + fresh + tail;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameTokens(segments: readonly string[], tokens: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const parsed = parseRef('#/' + segments[i]!);
    if (parsed.kind !== 'pointer' || parsed.tokens.length !== 1 || parsed.tokens[0] !== tokens[i]) return false;
  }
  return true;
}

// One instance of each kept, so their maps outlive a full GC between runs (src/json/shapes.ts).
anchorShape([new PathMap(), new SequentialMoves()]);
