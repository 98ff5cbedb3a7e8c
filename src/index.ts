/**
 * toolslim: make MCP `tools/list` results smaller and correct, with pure, deterministic, verified
 * transforms.
 *
 * @packageDocumentation
 */

// The pipeline
export { transformTools, resolveSteps, lookup } from './core/pipeline.js';
export type { TransformToolsOptions, TransformStepInput } from './core/pipeline.js';
export type { RunOptions, TransformResult, Step } from './core/run.js';
export type { ToolsInput, Envelope, LocatedTools } from './core/input.js';
export { locateTools } from './core/input.js';

// Single schemas
export { transformSchema, applyToSchema, pruneSchemaDefs } from './core/schema-form.js';
export type { SchemaTransformResult, TransformSchemaOptions } from './core/schema-form.js';

// Writing transforms
export { defineTransform } from './core/define-transform.js';
export type { Transform, AnyTransform, TransformSpec, ToolDoc, TransformExtras } from './core/define-transform.js';
export { EditContext } from './core/context.js';
export type { RecordedChange, RecordedDiagnostic, MessageData } from './core/context.js';
export { definePreset } from './core/preset.js';
export type { Preset, PresetOptions } from './core/preset.js';

// Report
export type { Change, Diagnostic, Skip, Report, ReportStats, ToolStats, TransformStats, VerifyStats, Safety, Severity } from './core/report.js';
export { formatReport } from './core/format.js';
export type { ReportFormat } from './core/format.js';
export { applyPatch, invertPatch } from './core/patch.js';
export type { PatchOperation } from './core/patch.js';
export { measureJson, utf8Length } from './core/measure.js';
export type { Tokenizer, Size } from './core/measure.js';
export { ToolslimError } from './core/errors.js';
export type { ToolslimErrorCode } from './core/errors.js';

// Transforms and presets
export { builtinTransforms, pruneUnreachableDefs } from './transforms/index.js';
export type { PruneUnreachableDefsOptions } from './transforms/prune-unreachable-defs.js';
export { builtinPresets, presetLossless, presetSafe } from './presets/index.js';

// Schema utilities
export { getDeclaredDialect, dialectFromUri, DIALECT_URIS } from './schema/dialect.js';
export type { DeclaredDialect } from './schema/dialect.js';
export type { Dialect, KeywordInfo, KeywordRole, KeywordShape, KeywordTable } from './schema/keywords.js';
export { KEYWORD_TABLES, UNION_KEYWORDS } from './schema/keywords.js';
export { collectRefInventory, findUnresolvedRefs, resolveRefSite } from './schema/refs.js';
export type { RefInventory, RefSite, AnchorSite, ResourceSite, RefResolution } from './schema/refs.js';

// MCP types
export type { McpTool, ListToolsResult, JsonSchema, SchemaSlot } from './mcp/types.js';
export { SCHEMA_SLOTS, TOOL_ANNOTATION_FIELDS } from './mcp/types.js';

// The equivalence gate
export { verifyTool, verifyHistory, AjvPool } from './verify/gate.js';
export type { VerifyLevel, VerifyCheck, VerifyToolOptions, VerifyFailure, VerifyStep, AttributedFailure, CompileResult } from './verify/gate.js';
export { registerAjv } from './verify/ajv-loader.js';
export type { AjvClasses } from './verify/ajv-loader.js';
export { generateInstances } from './verify/instances.js';
export type { InstanceOptions } from './verify/instances.js';
