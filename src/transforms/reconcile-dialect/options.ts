/** The options of reconcile-dialect (public: the package entry exports both types). */
import type { SchemaSlot } from '../../core/tool.js';
import type { Dialect } from '../../schema/keywords.js';

/** The dialects reconcile-dialect writes. */
export type ReconcileTarget = '2020-12' | 'draft-07';

/** Options of {@link reconcileDialect}. */
export interface ReconcileDialectOptions {
  /** The dialect to write (default `2020-12`, the MCP default). */
  readonly target?: ReconcileTarget;
  /** The dialect of a schema without `$schema` (default `2020-12`; `openapi-3.0` for OpenAPI 3.0 schema objects). */
  readonly assume?: Dialect;
  /**
   * The output's `$schema`: `omit` removes it, `write` sets the target's URI, `keep` keeps it present only
   * where it was (naming the target). Default: `omit` for a 2020-12 target, `write` otherwise.
   */
  readonly stamp?: 'omit' | 'write' | 'keep';
  /**
   * Keywords beside a `$ref` of a draft-04/06/07 (or OpenAPI 3.0) schema, which those dialects ignore and
   * 2020-12 applies: `drop-validation` (default) removes those that can change a verdict and keeps
   * annotations; `apply` keeps them all (verdicts may change).
   */
  readonly refSiblings?: 'drop-validation' | 'apply';
  /**
   * Keywords of a newer dialect in an older schema (`prefixItems` in draft-07), which its readers ignore
   * and the target's apply: `drop` (default) removes those that can change a verdict, `keep` keeps them.
   */
  readonly foreignKeywords?: 'drop' | 'keep';
  /** Which schemas of each tool to rewrite (default both). */
  readonly slots?: readonly SchemaSlot[];
}
