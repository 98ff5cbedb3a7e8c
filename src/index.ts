/**
 * toolslim: make MCP `tools/list` results smaller and correct, with pure, deterministic, verified
 * transforms.
 *
 * @packageDocumentation
 */

// The pipeline
export { transformTools, resolveSteps } from './api.js';
export { lookup } from './presets/index.js';
export type { TransformToolsOptions } from './api.js';
export type { TransformStepInput } from './core/preset.js';
export type { RunOptions, TransformResult } from './core/run-types.js';
export type { Step } from './core/transform.js';
export type { ToolsInput } from './core/run-types.js';
export type { Envelope, LocatedTools } from './engine/input.js';
export { locateTools } from './engine/input.js';

// Single schemas
export { transformSchema, applyToSchema, pruneSchemaDefs } from './api.js';
export type { SchemaTransformResult, TransformSchemaOptions } from './api.js';

// Writing transforms
export { defineTransform } from './engine/define-transform.js';
export type { Transform, AnyTransform, TransformSpec, ToolDoc, KeyKinds, TransformExtras, CommonOptions, TransformPart } from './core/transform.js';
export type { SchemaDocument, UnknownDialectDocument } from './core/documents.js';
export { EditContext } from './core/context.js';
export type { RecordedChange, RecordedDiagnostic, MessageData, EditContextOptions, TransactionOptions } from './core/context.js';
export { definePreset } from './core/preset.js';
export type { Preset, PresetOptions } from './core/preset.js';

// Report
export type { Change, Diagnostic, Skip, Report, ReportStats, ToolStats, TransformStats, VerifyStats, Safety, Severity, ToolFindingBase } from './core/report.js';
export { formatReport } from './core/format.js';
export type { ReportFormat } from './core/format.js';
export { applyPatch, invertPatch } from './core/patch.js';
export type { PatchOperation } from './core/patch.js';
export { measureJson, utf8Length } from './core/measure.js';
export type { Tokenizer, Size } from './core/measure.js';
export { measureRendered } from './core/rendered.js';
export type { RenderedMeasure } from './core/rendered.js';

// Renderers: what each model reads (docs/render.md)
export { getRenderer, findAnyTypes, RENDERER_NAMES, RenderError, MAX_TYPESCRIPT_DEPTH } from './render/index.js';
export type { AnyReason, AnyType, ForwardedTool, Renderer, RendererName, RenderErrorCode } from './render/index.js';
export { ToolslimError } from './core/errors.js';
export type { ToolslimErrorCode } from './core/errors.js';

// Transforms and presets
export { builtinTransforms, pruneUnreachableDefs } from './transforms/index.js';
export type { PruneUnreachableDefsOptions } from './transforms/prune-unreachable-defs.js';
export { adaptToClient } from './transforms/adapt-to-client/index.js';
export { planToolRenames, toolRenamesOf, type ToolRename, type ToolRenamePlan } from './transforms/adapt-to-client/steps/rename-tools.js';
export type { AdaptToClientOptions } from './transforms/adapt-to-client/index.js';
export { reconcileDialect, hoistNestedDefs, inlineSmallRefs } from './transforms/index.js';
export type { InlineSmallRefsOptions } from './transforms/inline-small-refs.js';
export type { ReconcileDialectOptions, ReconcileTarget } from './transforms/reconcile-dialect/index.js';
export type { HoistNestedDefsOptions } from './transforms/hoist-nested-defs.js';
export { builtinPresets, presetLossless, presetSafe } from './presets/index.js';
export { dedupeRepeatedSubtrees, normalizeSchema, promoteCommonParams, stripNoise } from './transforms/index.js';
export type { DedupeRepeatedSubtreesOptions } from './transforms/dedupe-repeated-subtrees.js';
export type { NormalizeSchemaOptions } from './transforms/normalize-schema.js';
export { normalizeUnions } from './transforms/index.js';
export type { NormalizeUnionsOptions } from './transforms/normalize-unions.js';
export type { PromoteCommonParamsOptions, PromotedParams } from './transforms/promote-common-params.js';
export type { KeepReason, SentenceRemoval } from './transforms/promote-common-params/sentences.js';
export type { CleanedText, StripNoiseOptions } from './transforms/strip-noise/index.js';
export { stripVendorExtensions } from './transforms/index.js';
export type { StripVendorExtensionsOptions } from './transforms/strip-vendor-extensions.js';
export { presetMax } from './presets/index.js';

// Schema utilities
export { getDeclaredDialect, dialectFromUri, DIALECT_URIS } from './schema/dialect.js';
export type { DeclaredDialect } from './schema/dialect.js';
export { keywordFit, isLegacyDialect } from './schema/dialect.js';
// The functions that walk a caller's schema, checked first (a schema that contains itself is refused, not walked forever).
export { findDialectContradictions, findToolsDialectContradictions } from './engine/checked.js';
export type { DialectContradiction, DialectSource, FindDialectContradictionsOptions, ToolDialectContradictions } from './schema/dialect.js';
export type { Dialect, KeywordInfo, KeywordRole, KeywordShape, KeywordTable, InstanceTypeName } from './schema/keywords.js';
export { KEYWORD_TABLES, UNION_KEYWORDS } from './schema/keywords.js';
export { resolveRefSite, RefIndex } from './schema/refs.js';
export { collectRefInventory, findUnresolvedRefs } from './engine/checked.js';
export type { RefInventory, RefSite, AnchorSite, ResourceSite, RefResolution } from './schema/refs.js';

// Lint (findings for CI)
export { lintTools, isAtLeast, FINDING_SEVERITY, MCP_TOOL_NAME, SEVERITIES } from './lint/index.js';
export type { Finding, FindingCode, LintCheck, LintOptions } from './lint/index.js';

// MCP types
export type { McpTool, ListToolsResult, JsonSchema, SchemaSlot } from './core/tool.js';
export { SCHEMA_SLOTS, TOOL_ANNOTATION_FIELDS } from './core/tool.js';

// The equivalence gate
export { AjvPool } from './verify/gate.js';
export { verifyTool, verifyHistory } from './engine/checked.js';
export type { VerifyLevel } from './core/report.js';
export type { VerifyCheck, VerifyToolOptions, VerifyFailure, VerifyStep, AttributedFailure, CompileResult } from './verify/gate.js';
export { registerAjv } from './verify/ajv-loader.js';
export type { AjvClasses } from './verify/ajv-loader.js';
export { generateInstances, generateProbeInstances } from './engine/checked.js';
export type { InstanceOptions, ProbeOptions, ProbeSite } from './verify/instances.js';

// Client profiles
export { builtinProfiles, defineProfile, getProfile, profileClaude, profileClaudeCode, profileGemini, profileKimi, profileLlama, profileMcp, profileOpenai, profileOpenaiStrict, profileQwen, profileRefFree, REFERENCE_MACHINERY } from './profiles/profiles.js';
export type { AlwaysPaid, ClientProfile, ClientProfileSpec, ForwardedField, ProfileName, ReaderSpec, ReaderTokenizer, RefPolicy, StrictModeRules, ToolNameRule } from './profiles/profiles.js';
export { checkToolsForProfile, checkToolForProfile } from './profiles/check.js';
export type { ProfileFinding, ToolFinding } from './profiles/check.js';
export { INSTRUCTION_TRANSFORMS, planForProfile, presetForProfile, REF_CREATING_TRANSFORMS } from './presets/for-profile.js';
export type { ProfilePlan, SkippedStep } from './presets/for-profile.js';
export type { PresetForProfileOptions } from './presets/for-profile.js';
// Tool-surface analysis
export { analyzeSurface } from './lint/surface.js';
export type { AnalyzeSurfaceOptions, SurfaceAnalysis, SurfaceFinding, CollisionPair, PartBytes } from './lint/surface.js';
export type { Collisions, CollisionPartner, ToolCollisions } from './lint/collisions.js';

// compress-cold-tools (lossy, opt-in)
export { compressColdTools } from './transforms/compress-cold-tools.js';
export type { ColdParameters, ColdToolsState, CompressColdToolsOptions } from './transforms/compress-cold-tools.js';

// Usage-driven hot sets
export { ToolUsageGraph } from './usage/graph.js';
export type { ToolUsageGraphOptions, ToolUsageGraphJSON, UsageWeights, RankContext, RankedTool, ToolRef } from './usage/graph.js';
export { removeColdTools } from './usage/remove-cold-tools.js';
export type { RemoveColdToolsOptions, RemoveColdToolsResult } from './usage/remove-cold-tools.js';

// Sessions: cache-stable hot sets, cold-call checks, reveals
export { ArgumentValidator, buildServedTools, chooseHotSet, DEFAULT_HOT_SET, HOT_SET_POLICIES, invalidArgumentsResult, PREAMBLE_MODES, REVEAL_MODES, ToolSession } from './session/index.js';
// Sessions: the usage file, overlays, serving a list, stats lines
export { CallMap } from './session/index.js';
export type { MappedCall, ToolCallMapping } from './session/index.js';
export { readUsageFile, UsageStore, createOverlay, findDrift, OVERLAY_FORMAT, parseOverlay, pinTool, readOverlay, TOOLSLIM_VERSION } from './session/index.js';
export { appendInstructions, findUnreadable, serveToolsList, stepsWritingInstructions, formatStatsLine, parseStatsLines, STATS_FORMAT, summarizeResponses } from './session/index.js';
export type { UsageStoreOptions, CreateOverlayInput, FindDriftOptions, Overlay, OverlayDrift, OverlayDroppedTool, OverlayPinEntry, OverlayStep, ReadOverlayOptions } from './session/index.js';
export type { ServedList, ServeToolsListOptions, UnreadableTool, CallStats, ResponsesSummary, ToolResponses } from './session/index.js';
export { ResponsePager, describeRecords, findRecords, checkPolicy, contractText, mergePolicies, PAGE_ARGUMENTS, pageArgumentOf, parsePolicyFlag, parseResponsePolicies, withContract, suggestPolicies, suggestionSnippet } from './session/index.js';
export type { PagerCall, PagerResult, PageResult, ResponsePagerOptions, FoundRecords, NoRecords, ResponsePolicies, ResponsePolicy, PolicySuggestion, SuggestPoliciesOptions } from './session/index.js';
export { CALL_TOOL, chooseServing, DEFAULT_SEARCH_NAMES, NAMES_MIN_BYTES, SEARCH_MIN_TOOLS, SEARCH_RESULTS, SEARCH_TOOL, SEARCH_TOOLS, searchMode, searchText, searchToolNames, searchTools, serverToolPrefix, ToolSearchIndex } from './session/index.js';
export type { CallToolTextResult, ChooseServingOptions, SearchToolNames, ServingChoice } from './session/index.js';
export type {
  AnswerDecision,
  ArgumentCheck,
  ArgumentIssue,
  ArgumentValidatorOptions,
  CallDecision,
  CallDecisionBase,
  CallToolErrorResult,
  ChooseHotSetOptions,
  ColdFormOptions,
  DefinitionBytes,
  ForwardDecision,
  HotSetDefaults,
  HotSetOptions,
  HotSetPolicy,
  PreambleMode,
  RevealMode,
  ToolSessionOptions,
  UsageRecorder,
} from './session/index.js';
