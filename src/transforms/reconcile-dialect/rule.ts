/**
 * The shape of one reconcile-dialect conversion (each lives in conversions/<id>.ts, with its fixtures in
 * test/fixtures/reconcile-dialect/rules/<id>/). The walk (walk.ts) visits the source's schema objects top
 * down and hands each one to every conversion that runs for the document, in the order of
 * `CONVERSIONS` (conversions/index.ts); a conversion rewrites that object's own keywords, never its
 * children's, and records in `moves` where the keys it renamed or removed went.
 */
import type { Dialect } from '../../schema/keywords.js';
import type { Job, KeyMoves } from './job.js';
import type { ReconcileTarget } from './options.js';

/** What decides which keywords a conversion can act on: the dialect pair and its per-key candidates. */
export interface ConversionScope {
  readonly source: Dialect;
  readonly target: ReconcileTarget;
  /** Whether OpenAPI 3.0 keywords (`example`) are converted (assumed `openapi-3.0`, or `nullable` seen). */
  readonly openapi: boolean;
  /** Keywords of the target that the source does not know and that change verdicts in the target. */
  readonly foreign: ReadonlySet<string>;
  /** Keywords of the source that matter there and that the target may not express the same way. */
  readonly unconvertible: ReadonlySet<string>;
}

/** One conversion: its name, the codes it writes, what it looks for, and the rewrite. */
export interface Conversion {
  /** kebab-case: its module (conversions/<id>.ts) and its fixtures folder (test/fixtures/reconcile-dialect/rules/<id>/). */
  readonly id: string;
  /** Every change and finding code it writes (each in messages.ts). */
  readonly codes: readonly string[];
  /** Whether it runs at all for a document read in `scope.source` and written in `scope.target`. */
  readonly runs: (scope: ConversionScope) => boolean;
  /**
   * What it matches (where it runs): the keywords whose presence in a schema object can give it work
   * there. A schema with none of the running conversions' keywords anywhere skips the walk (a quick look,
   * pointer-free; pair-tables.ts). Coarse on purpose: a false alarm costs the full walk, a miss would skip
   * a conversion.
   */
  readonly keywords: (scope: ConversionScope) => Iterable<string>;
  /** For a conversion that acts on a keyword's value rather than its presence: that keyword and the test. */
  readonly matchesValue?: { readonly keyword: string; readonly test: (value: unknown) => boolean };
  /**
   * The rewrite of one schema object: `node` is the source's object at `orig`, which the rewrites of its
   * ancestors left at `cur` in the working copy (read it as `current(job, cur)`, edit it through `job`).
   */
  readonly convert: (node: Record<string, unknown>, orig: string, cur: string, job: Job, moves: KeyMoves) => void;
}
