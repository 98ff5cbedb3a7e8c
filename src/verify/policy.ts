/**
 * The gate's policy over a run: which changed tools to return unchanged, and whom to blame. The engine
 * hands over every version each step made of each changed tool; `verifyHistory` checks them against the
 * original and names the first step after which the tool stops being equivalent; this module turns that
 * into the decision (revert, or throw under `onError: 'throw'`) and the defect message.
 */
import { ToolslimError } from '../core/errors.js';
import type { Safety, VerifyLevel } from '../core/report.js';
import type { McpTool } from '../core/tool.js';
import { appendPointer } from '../json/pointer.js';
import type { Dialect } from '../schema/keywords.js';
import { AjvPool, verifyHistoryFrom, type AttributedFailure, type VerifyCheck } from './gate.js';

/** One version of a changed tool: the step that made it. */
export interface ToolVersion {
  /** Index of the step in the run. */
  readonly step: number;
  readonly transform: string;
  readonly safety: Safety;
  readonly tool: McpTool;
}

/** A tool the gate returns unchanged. */
export interface Revert {
  readonly toolIndex: number;
  readonly check: VerifyCheck;
  /** Pointer into the tools array. */
  readonly path: string;
  /** The step blamed. */
  readonly culprit: ToolVersion;
  readonly message: string;
}

/** What the gate decided over a run. */
export interface GateDecision {
  readonly reverts: readonly Revert[];
  /** Changed tools checked. */
  readonly checked: number;
  readonly compiled: number;
  readonly instances: number;
}

/**
 * Checks every changed tool's versions against its original. Returns the tools to revert, in tool order;
 * `source`: the run's first step when it is reconcile-dialect with an `assume` other than 2020-12 (a tool
 * that step rewrote has its original read in that dialect, as the step read it);
 * with `onError: 'throw'` the first failure throws a `verification-failed` {@link ToolslimError} instead.
 */
export function decideReverts(
  originals: readonly unknown[],
  histories: readonly (readonly ToolVersion[] | undefined)[],
  names: readonly string[],
  level: VerifyLevel,
  onError: 'report' | 'throw',
  source?: { readonly step: number; readonly assume: Dialect },
): GateDecision {
  const pool = new AjvPool();
  const reverts: Revert[] = [];
  let checked = 0;
  for (let i = 0; i < originals.length; i++) {
    const versions = histories[i];
    if (!versions || versions.length === 0) continue;
    checked++;
    // A tool the reconciling first step rewrote is read, as it was, in the dialect that step assumed.
    const result = attribute(originals[i] as McpTool, versions, level, pool, source !== undefined && versions[0]!.step === source.step ? source.assume : undefined);
    if (!result) continue;
    const culprit = versions[result.step]!;
    const by = [...new Set(versions.map((v) => v.transform))];
    const path = appendPointer('', i) + result.failure.path;
    const message =
      `toolslim defect: \`${culprit.transform}\` (${culprit.safety}) broke tool ${quote(names[i]!)} at \`${path}\`: ${result.failure.message}. ` +
      `Transforms that changed the tool: ${by.map((t) => `\`${t}\``).join(', ')}. The tool is returned unchanged; please report this as a bug in toolslim.`;
    if (onError === 'throw') throw new ToolslimError('verification-failed', message, { tool: names[i], path, transform: culprit.transform });
    reverts.push({ toolIndex: i, check: result.failure.check, path, culprit, message });
  }
  return { reverts, checked, compiled: pool.compiled, instances: pool.validated };
}

/** The first step to blame for a tool's history, or undefined when every version is equivalent. */
function attribute(original: McpTool, versions: readonly ToolVersion[], level: VerifyLevel, pool: AjvPool, originalAssume: Dialect | undefined): AttributedFailure | undefined {
  try {
    return verifyHistoryFrom(original, versions, { level, pool }, originalAssume);
  } catch (e) {
    // ajv cannot be loaded here: a setup problem, not a tool's.
    if (e instanceof ToolslimError) throw e;
    // The gate itself failed on this tool: it cannot vouch for the rewrite, so the tool is reverted.
    return { step: versions.length - 1, failure: { check: 'error', path: '', message: `the gate could not check the rewrite (${(e as Error)?.message ?? String(e)})` } };
  }
}

function quote(name: string): string {
  return name === '' ? '(unnamed)' : `\`${name}\``;
}
