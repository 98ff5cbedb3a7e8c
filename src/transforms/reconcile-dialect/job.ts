/**
 * What one document's rewrite shares: the {@link Job} (the source's analysis, the tool's context, the record of
 * moves), and the helpers every conversion edits and decides through. A conversion edits only through
 * {@link removeKey}, {@link renameKey} and `job.ctx`, and reads a node only as {@link current} gives it.
 */
import type { EditContext, MessageData } from '../../core/context.js';
import { appendPointer } from '../../json/pointer.js';
import { ANCHOR_KEYWORDS, KEYWORD_TABLES, REFERENCE_KEYWORDS, type Dialect } from '../../schema/keywords.js';
import type { PathMap } from '../../schema/relocate.js';
import type { ReconcileDialectOptions, ReconcileTarget } from './options.js';

/** One resolved reference: where it sits, where it lands, and the root definitions holding either. */
export interface RefTarget {
  readonly target: string;
  readonly site: string;
  readonly siteDef?: string;
  readonly targetDef?: string;
  /** The anchor name, for a reference written `#name`. */
  readonly anchor?: string;
}

/** Everything one document's rewrite needs. */
export interface Job {
  /**
   * The tool's context, inside the transform's transaction: the edits stay only when nothing in the tool
   * was unconvertible (otherwise they are rolled back, with every finding but those about the source).
   */
  readonly ctx: EditContext;
  /** How many keywords had no equivalent in the target. */
  unconvertible: number;
  /** Pointer of the document inside the tool (`/inputSchema`). */
  readonly base: string;
  /** The dialect the source is read in, and the one written. */
  readonly source: Dialect;
  readonly target: ReconcileTarget;
  /** OpenAPI 3.0 keywords (`example`) are converted: assumed `openapi-3.0`, or detected from `nullable`. */
  readonly openapi: boolean;
  readonly options: Required<ReconcileDialectOptions>;
  readonly map: PathMap;
  /** Pointers (in the source) of every location a `$ref` resolves to. */
  readonly targets: readonly string[];
  /**
   * Every resolved reference's target, with the dead definition the reference sits in, if it does: a root
   * definition no reference from outside the definitions reaches (prune-unreachable-defs removes those).
   */
  readonly refTargets: readonly RefTarget[];
  /** Embedded resources (subschemas with an identifier of their own), by pointer in the source. */
  readonly resources: readonly { readonly path: string; readonly id: string }[];
  /** Root definitions kept whatever references them: those holding an embedded resource or a dynamic anchor. */
  readonly anchoredDefs: ReadonlySet<string>;
  /** Pointers (`/container/name`) of the dead definitions. */
  readonly deadDefs: readonly string[];
  /** Dead definitions removed because, left in place, they alone would keep the tool from being rewritten. */
  readonly deadToRemove: Set<string>;
  /** The plain names that references use as anchors (`#name`), and how many places declare each name. */
  readonly anchorRefs: ReadonlySet<string>;
  readonly anchorCounts: ReadonlyMap<string, number>;
  /** The source document, and what the `$ref` of each of its schema objects resolves to. */
  readonly schema: Record<string, unknown>;
  readonly refTargetOf: ReadonlyMap<string, string>;
  /** The keywords the per-key checks can act on, for this source and target. */
  readonly pair: PairTables;
  /**
   * The working copy's node at `cur` as of `edits` edits (the context's change count). Seeded by the walk with the node it is
   * about to convert (in preorder nothing has edited it or below it yet, and copy-on-write shares the
   * node itself), so the first look at a node costs no pointer walk.
   */
  seen?: { readonly cur: string; readonly edits: number; readonly node: Record<string, unknown> } | undefined;
  /**
   * Where the `nullable` conversion wrote `type: ["object"|"array", "null"]` (current pointers): split into
   * a `oneOf` with null once the walk and the reference rewrites are done (see conversions/nullable.ts).
   */
  nullableSplits?: string[] | undefined;
}

/** What a node's rewrite did to its keys, so its children are visited where they now are. */
export interface KeyMoves {
  /** Original keyword → current pointer of its value (`null`: removed). */
  readonly keys: Map<string, string | null>;
  /** Original keyword → (entry → current pointer), for maps whose entries moved one by one. */
  readonly entries: Map<string, Map<string, string>>;
}

/** Per (source, target): the only keywords the per-key checks can act on (built in pair-tables.ts). */
/** Keywords that may give a conversion work, each with the test its value must pass (undefined: its presence is enough). */
export type Triggers = ReadonlyMap<string, ((value: unknown) => boolean) | undefined>;

export interface PairTables {
  /** Keywords of the target that the source does not know and that change verdicts in the target. */
  readonly foreign: ReadonlySet<string>;
  /** Keywords of the source that matter there and that the target may not express the same way. */
  readonly unconvertible: ReadonlySet<string>;
  /**
   * The quick look's keywords (see pair-tables.ts), for a schema read as plain JSON Schema and for one with
   * OpenAPI keywords (`example`): each with the test its value must pass, or undefined when its presence is enough.
   */
  readonly triggers: Triggers;
  readonly triggersWithOpenApi: Triggers;
  /**
   * What the source's look (document.ts) asks of each keyword in one lookup: every keyword any dialect
   * knows and every trigger, each with the value kinds for which it contradicts the source dialect and
   * its trigger tests (a keyword not listed is neither).
   */
  readonly keys: ReadonlyMap<string, KeyFacts>;
}

/** A trigger as {@link KeyFacts} holds it: not one (`false`), by presence (`true`), or the test its value must pass. */
export type Trigger = boolean | ((value: unknown) => boolean);

/** One keyword as the source's look reads it (see {@link PairTables.keys}). */
export interface KeyFacts {
  /**
   * The kinds of value (bits of {@link valueKind}) for which the keyword contradicts the source dialect, as
   * `judgeKeyword` (schema/dialect.ts) says: its verdict depends on the value only through its JSON kind.
   */
  readonly contradicts: number;
  /** As a trigger of {@link PairTables.triggers} and of {@link PairTables.triggersWithOpenApi}. */
  readonly plain: Trigger;
  readonly withOpenApi: Trigger;
}

/** One bit per JSON kind (boolean, string, number, null, array, object), for {@link KeyFacts.contradicts}. */
export function valueKind(value: unknown): number {
  switch (typeof value) {
    case 'boolean':
      return 1;
    case 'string':
      return 2;
    case 'number':
      return 4;
    case 'object':
      return value === null ? 8 : Array.isArray(value) ? 16 : 32;
    default:
      return 0;
  }
}

/** A value of each kind {@link valueKind} tells apart, in bit order. */
export const KIND_SAMPLES: readonly unknown[] = Object.freeze([true, '', 0, null, Object.freeze([]), Object.freeze({})]);

const VERDICT_ROLES: ReadonlySet<string> = new Set(['validation', 'applicator']);

/** The working copy of the schema object at `cur`. */
export function current(job: Job, cur: string): Record<string, unknown> {
  // Asked several times per node with the same `cur` string: remembered until the next edit.
  const seen = job.seen;
  if (seen !== undefined && seen.cur === cur && seen.edits === job.ctx.changes.length) return seen.node;
  const node = job.ctx.get(job.base + cur) as Record<string, unknown>;
  job.seen = { cur, edits: job.ctx.changes.length, node };
  return node;
}

export function at(job: Pick<Job, 'base'>, cur: string, key: string): string {
  return job.base + appendPointer(cur, key);
}

/**
 * For a keyword that can be neither kept (it would start to apply) nor dropped while a `$ref` points into
 * it: true when such a reference exists outside the dead definitions. When the keyword lies in a dead
 * definition, or only dead definitions point into it, those are removed instead (nothing reaches them,
 * so no verdict depends on them; left in place, the next prune would remove them and a second run would
 * then rewrite what this one could not).
 */
export function isTargetedLive(job: Job, path: string): boolean {
  const d = deadDefinitionAt(job, path);
  if (d !== undefined) {
    removeDead(job, d);
    return false;
  }
  const within = (p: string) => p === path || p.startsWith(path + '/');
  if (!job.refTargets.some((r) => within(r.target) && !within(r.site))) return false;
  // Which definitions stay reachable once the keyword is gone (references inside it go with it).
  const reached = new Set(job.anchoredDefs);
  const queue = job.refTargets.filter((r) => !within(r.site) && (r.siteDef === undefined || reached.has(r.siteDef)));
  while (queue.length > 0) {
    const r = queue.pop()!;
    if (r.targetDef === undefined || reached.has(r.targetDef)) continue;
    reached.add(r.targetDef);
    for (const s of job.refTargets) if (s.siteDef === r.targetDef && !within(s.site)) queue.push(s);
  }
  const dead: string[] = [];
  for (const r of job.refTargets) {
    if (!within(r.target) || within(r.site)) continue;
    if (r.siteDef === undefined || reached.has(r.siteDef)) return true;
    dead.push(r.siteDef);
  }
  for (const def of dead) removeDead(job, def);
  return false;
}

/** Counts something the target cannot express, unless it lies in a dead definition, which is removed instead. */
export function blocks(job: Job, orig: string): boolean {
  const d = deadDefinitionAt(job, orig);
  if (d !== undefined) {
    removeDead(job, d);
    return false;
  }
  job.unconvertible++;
  return true;
}

export function deadDefinitionAt(job: Job, path: string): string | undefined {
  for (const d of job.deadDefs) if (path === d || path.startsWith(d + '/')) return d;
  return undefined;
}

/** Schedules a dead definition for removal, and every dead definition whose references point into it. */
export function removeDead(job: Job, definition: string): void {
  const queue = [definition];
  while (queue.length > 0) {
    const d = queue.pop()!;
    if (job.deadToRemove.has(d)) continue;
    job.deadToRemove.add(d);
    for (const r of job.refTargets) if (r.siteDef !== undefined && r.siteDef !== d && (r.target === d || r.target.startsWith(d + '/'))) queue.push(r.siteDef);
  }
}

export function isWithinAny(path: string, prefixes: ReadonlySet<string>): boolean {
  for (const p of prefixes) if (path === p || path.startsWith(p + '/')) return true;
  return false;
}

/** True when a keyword can change a verdict in `dialect` (a validation keyword, an applicator or a reference). */
export function affectsVerdicts(dialect: Dialect, keyword: string): boolean {
  const info = KEYWORD_TABLES[dialect].get(keyword);
  return info !== undefined && (VERDICT_ROLES.has(info.role) || REFERENCE_KEYWORDS.includes(keyword));
}

/** True when losing the keyword in `dialect` can change a verdict: {@link affectsVerdicts}, or an anchor a reference may find. */
export function mattersIn(dialect: Dialect, keyword: string): boolean {
  const info = KEYWORD_TABLES[dialect].get(keyword);
  return affectsVerdicts(dialect, keyword) || ANCHOR_KEYWORDS.includes(keyword) || info?.id === 'recursive-anchor';
}

export function removeKey(job: Job, cur: string, key: string, moves: KeyMoves, code: string, data?: MessageData): void {
  job.ctx.remove(at(job, cur, key), code, data);
  moves.keys.set(key, null);
}

export function renameKey(job: Job, cur: string, from: string, to: string, moves: KeyMoves, code: string, data?: MessageData): void {
  job.ctx.rename(at(job, cur, from), to, code, data);
  moves.keys.set(from, appendPointer(cur, to));
}
