export { lintTools, isAtLeast, isKnownFindingCode, PROFILE_RULE_CODES, BUILTIN_CHECKS, FINDING_SEVERITY, MCP_TOOL_NAME, SEVERITIES } from './lint.js';
export type { Finding, FindingCode, LintCheck, LintOptions } from './lint.js';
