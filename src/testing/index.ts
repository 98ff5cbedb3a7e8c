/**
 * `toolslim/testing`: assertions for any test runner (vitest, jest, node:test, mocha).
 *
 * ```ts
 * import { assertToolsHealthy } from 'toolslim/testing';
 * assertToolsHealthy(tools, { maxToolBytes: 4000 });   // throws an Error listing every finding
 * ```
 *
 * @packageDocumentation
 */
import type { ToolsInput } from '../core/run-types.js';
import type { Severity } from '../core/report.js';
import { describeValue, isOptionsObject } from '../core/describe.js';
import { ToolslimError } from '../core/errors.js';
import { isAtLeast, lintTools, SEVERITIES, type Finding, type LintOptions } from '../lint/index.js';

export type { Finding, LintOptions } from '../lint/index.js';

/** Options of {@link assertToolsHealthy}. */
export interface AssertToolsHealthyOptions extends LintOptions {
  /** The least severe finding that fails the assertion (default `error`). */
  readonly failOn?: Severity;
}

/** Thrown by {@link assertToolsHealthy}; `findings` are the ones at or above the threshold. */
export class ToolsHealthError extends Error {
  readonly findings: readonly Finding[];
  constructor(message: string, findings: readonly Finding[]) {
    super(message);
    this.name = 'ToolsHealthError';
    this.findings = findings;
  }
}

/**
 * Lints a `tools/list` result (any envelope `transformTools` accepts) and throws a {@link ToolsHealthError}
 * whose message lists every finding at or above `failOn`, one per line with severity, code, tool, JSON
 * pointer and message, so any test runner shows them all. Returns every finding (including the ones below
 * the threshold) when none fails.
 */
export function assertToolsHealthy(tools: ToolsInput, options: AssertToolsHealthyOptions = {}): Finding[] {
  if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `assertToolsHealthy: options must be an object, got ${describeValue(options)}`);
  const { failOn = 'error', ...lint } = options;
  // A misspelt threshold would match no severity and pass every list: refused instead.
  if (!SEVERITIES.includes(failOn)) throw new ToolslimError('invalid-option', `assertToolsHealthy: \`failOn\` must be error, warning or info, got ${JSON.stringify(failOn)}`);
  const findings = lintTools(tools, lint);
  const failing = findings.filter((f) => isAtLeast(f.severity, failOn));
  if (failing.length === 0) return findings;
  const lines = failing.map((f) => `  ${f.severity} ${f.code} ${f.tool === '' ? (f.toolIndex < 0 ? '(list)' : `#${f.toolIndex}`) : f.tool} ${f.path || '/'}: ${f.message}`);
  const s = failing.length === 1 ? '' : 's';
  throw new ToolsHealthError(`tools are not healthy: ${failing.length} finding${s} at or above \`${failOn}\`\n${lines.join('\n')}`, failing);
}
