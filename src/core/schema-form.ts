import type { JsonSchema, McpTool } from './tool.js';
import type { AnyTransform } from './transform.js';
import { resolveSteps, type TransformStepInput } from '../api.js';
import type { Change, Diagnostic, Report, Skip } from './report.js';
import { runSteps, type RunOptions } from '../engine/run.js';
import type { PruneUnreachableDefsOptions } from '../transforms/prune-unreachable-defs.js';
import { pruneUnreachableDefs } from '../transforms/prune-unreachable-defs.js';

/** What the single-schema forms return: pointers in the report are relative to the schema. */
export interface SchemaTransformResult<S = JsonSchema> {
  readonly schema: S;
  readonly report: Report;
}

/** Options of {@link transformSchema}. */
export interface TransformSchemaOptions extends RunOptions {
  /** What to run (default: the `safe` preset). */
  readonly transforms?: readonly TransformStepInput[];
}

const PREFIX = '/0/inputSchema';

/**
 * Runs transforms on one JSON Schema instead of a tools list: for code generators (OpenAPI→MCP
 * converters) that build schemas before they build tools. The schema is never changed.
 */
export function transformSchema<S extends JsonSchema>(schema: S, options: TransformSchemaOptions = {}): SchemaTransformResult<S> {
  const { transforms, ...run } = options;
  const tool: McpTool = { name: '', inputSchema: schema };
  const steps = resolveSteps(transforms ?? ['safe']);
  const result = runSteps([tool], steps, run);
  return { schema: result.tools[0]!.inputSchema as S, report: rebase(result.report) };
}

/** One transform on one schema. */
export function applyToSchema<S extends JsonSchema>(transform: AnyTransform, schema: S, options: object = {}, run: RunOptions = {}): SchemaTransformResult<S> {
  return transformSchema(schema, { ...run, transforms: [[transform, options]] });
}

/**
 * `prune-unreachable-defs` for a single schema: keeps only the definitions its references reach. For a
 * converter that attaches a shared components inventory to every operation's schema.
 */
export function pruneSchemaDefs<S extends JsonSchema>(schema: S, options: Omit<PruneUnreachableDefsOptions, 'slots'> = {}): SchemaTransformResult<S> {
  return applyToSchema(pruneUnreachableDefs, schema, options);
}

function strip(path: string): string {
  return path.startsWith(PREFIX) ? path.slice(PREFIX.length) : path;
}

function rebase(report: Report): Report {
  return {
    ...report,
    changes: report.changes.map((c): Change => ({ ...c, path: strip(c.path), ...(c.from !== undefined ? { from: strip(c.from) } : {}) })),
    diagnostics: report.diagnostics.map((d): Diagnostic => ({ ...d, path: strip(d.path) })),
    skipped: report.skipped.map((s): Skip => ({ ...s })),
  };
}
