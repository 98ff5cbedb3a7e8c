/**
 * The session layer: what lives across requests of one MCP session (hot sets chosen once, the served
 * list's exact bytes, cold-call checks and reveals). Used by the proxy (`toolslim proxy`) and the SDK
 * hook (`toolslim/mcp`); exported from `toolslim` for anyone building their own.
 */
export { chooseHotSet, HOT_SET_POLICIES } from './hot-set.js';
export { DEFAULT_HOT_SET } from './defaults.js';
export type { HotSetDefaults } from './defaults.js';
export type { ChooseHotSetOptions, HotSetPolicy } from './hot-set.js';
export { buildServedTools } from './served-tools.js';
export type { ColdFormOptions, PreambleMode } from './served-tools.js';
export { PREAMBLE_MODES } from './types.js';
export { ArgumentValidator } from './validate-arguments.js';
export type { ArgumentCheck, ArgumentIssue, ArgumentValidatorOptions } from './validate-arguments.js';
export { invalidArgumentsResult, REVEAL_MODES, ToolSession } from './tool-session.js';
export { CALL_TOOL, chooseServing, DEFAULT_SEARCH_NAMES, NAMES_MIN_BYTES, SEARCH_MIN_TOOLS, SEARCH_RESULTS, SEARCH_TOOL, SEARCH_TOOLS, searchMode, searchText, searchToolNames, searchTools, serverToolPrefix, ToolSearchIndex } from './tool-search.js';
export type { CallToolTextResult, ChooseServingOptions, SearchToolNames, ServingChoice } from './tool-search.js';
export type { AnswerDecision, CallDecision, CallDecisionBase, CallToolErrorResult, DefinitionBytes, ForwardDecision, HotSetOptions, RevealMode, ToolSessionOptions, UsageRecorder } from './tool-session.js';
export { readUsageFile, UsageStore } from './usage-store.js';
export type { UsageStoreOptions } from './usage-store.js';
export { createOverlay, OVERLAY_FORMAT, parseOverlay, pinTool, readOverlay } from './overlay.js';
export { findDrift } from './overlay-drift.js';
export type { CreateOverlayInput, Overlay, OverlayDroppedTool, OverlayPinEntry, OverlayStep, ReadOverlayOptions } from './overlay.js';
export type { FindDriftOptions, OverlayDrift } from './overlay-drift.js';
export { appendInstructions, findUnreadable, serveToolsList, stepsWritingInstructions } from './serve.js';
export type { ServedList, ServeToolsListOptions, UnreadableTool } from './serve.js';
export { formatStatsLine, parseStatsLines, STATS_FORMAT, summarizeResponses } from './stats.js';
export type { CallStats, ResponsesSummary, ToolResponses } from './stats.js';
export { TOOLSLIM_VERSION } from './version.js';
export { CallMap } from './call-map.js';
export type { MappedCall, ToolCallMapping } from './call-map.js';
export { ResponsePager, describeRecords } from './response-pages.js';
export type { PagerCall, PagerResult, PageResult, ResponsePagerOptions } from './response-pages.js';
export { findRecords } from './response-records.js';
export type { FoundRecords, NoRecords } from './response-records.js';
export { checkPolicy, contractText, mergePolicies, PAGE_ARGUMENTS, pageArgumentOf, parsePolicyFlag, parseResponsePolicies, withContract } from './response-policy.js';
export type { ResponsePolicies, ResponsePolicy } from './response-policy.js';
export { suggestPolicies, suggestionSnippet } from './response-suggest.js';
export type { PolicySuggestion, SuggestPoliciesOptions } from './response-suggest.js';
