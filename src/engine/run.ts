/**
 * The engine's loop: locate the tools, check them, run each step over every tool, let the gate decide what
 * to keep, assemble the report. Each part is its own module: options.ts (checked once), input.ts (the
 * input check), step.ts (one transform over the list), stats.ts (sizes), post-conditions.ts, and the
 * gate's policy in verify/policy.ts.
 */
import type { Report, TransformStats, VerifyStats } from '../core/report.js';
import type { RunOptions, ToolsInput, TransformResult } from '../core/run-types.js';
import { toolName, type McpTool } from '../core/tool.js';
import { isParsedJson } from '../json/parsed.js';
import type { KeyKinds, Step } from '../core/transform.js';
import { SchemaAnalysis, withAnalysis } from '../schema/refs.js';
import { DIALECTS, type Dialect } from '../schema/keywords.js';
import { decideReverts } from '../verify/policy.js';
import { checkInputs, locateTools } from './input.js';
import { resolveRunOptions, resolveStepOptions } from './options.js';
import { ToolSizes } from './stats.js';
import { anchorChangeShapes, keyKindsOf, noteVersion, runStep, type RunState, type StepVersion } from './step.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Runs resolved steps over an input. Used by `transformTools` and by every transform called alone. */
export function runSteps(input: ToolsInput, steps: readonly Step[], run: RunOptions = {}): TransformResult {
  anchorChangeShapes();
  return withAnalysis(new SchemaAnalysis(), () => runWithAnalysis(input, steps, run));
}

function runWithAnalysis(input: ToolsInput, steps: readonly Step[], run: RunOptions): TransformResult {
  const started = now();
  const located = locateTools(input);
  const options = resolveRunOptions(run);
  const tools = located.tools.slice() as McpTool[];
  // A loop, not `tools.map`: the array `map` makes changes its elements kind (packed to holey) once the
  // caller is optimised and inlines it, and every optimised reader of `names` was deoptimised then ('wrong
  // map' in node --trace-deopt, in the eleventh pass of the validation set) and compiled again.
  const names: string[] = [];
  for (let i = 0; i < tools.length; i++) names.push(toolName(tools[i]));
  const resolved: Step[] = [];
  for (const [t, o] of steps) resolved.push([t, resolveStepOptions(t, o)]);

  // Tools that are not plain JSON are passed through untouched.
  // An input the CLI parsed is JSON.parse's own (src/json/parsed.ts): its members are read without descriptors.
  const input_ = checkInputs(tools, names, options.maxDepth, options.onError, options.keepUnchanged, isParsedJson(input));
  const state: RunState = {
    options,
    tools,
    origin: located.tools,
    names,
    usable: input_.usable,
    keys: keyKindsOfEach(input_.refKeys, input_.extensionKeys),
    inventoryKeys: input_.inventoryKeys.slice(),
    allUsable: input_.usable.every(Boolean),
    changes: [],
    diagnostics: [...input_.diagnostics],
    skipped: [...input_.skipped],
    sizes: options.measure ? new ToolSizes(tools, input_.usable, options.tokenizer, input_.bytes) : undefined,
    histories: options.verify === false ? undefined : new Array<StepVersion[] | undefined>(tools.length),
    instructions: undefined,
    documents: new WeakMap(),
  };

  for (let i = 0; i < tools.length; i++) if (input_.usable[i] && !input_.inventoryKeys[i]) noteVersion(tools[i]!);

  const transformStats: Mutable<TransformStats>[] = [];
  for (const [step, [transform, stepOptions]] of resolved.entries()) {
    const t0 = now();
    const counts = runStep(state, step, transform, stepOptions);
    const stat: Mutable<TransformStats> = { name: transform.name, changes: counts.changes, toolsChanged: counts.toolsChanged, bytesSaved: counts.bytesSaved, timeMs: round(now() - t0) };
    transformStats.push(options.tokenizer ? { ...stat, tokensSaved: counts.tokensSaved } : stat);
  }

  let verifyStats: VerifyStats | undefined;
  let changes = state.changes;
  if (options.verify !== false) {
    const t0 = now();
    const decision = decideReverts(located.tools, state.histories!, names, options.verify, options.onError, sourceDialect(resolved));
    const reverted = new Set<number>();
    for (const r of decision.reverts) {
      const i = r.toolIndex;
      reverted.add(i);
      tools[i] = located.tools[i] as McpTool;
      state.sizes?.revert(i);
      for (const v of state.histories![i]!) {
        const stat = transformStats[v.step]!;
        stat.changes -= v.changes;
        stat.toolsChanged -= 1;
        stat.bytesSaved -= v.bytesSaved;
        if (stat.tokensSaved !== undefined) stat.tokensSaved -= v.tokensSaved;
      }
      state.diagnostics.push({ severity: 'error', tool: names[i]!, toolIndex: i, transform: 'verify', code: r.check, path: r.path, message: r.message });
      state.skipped.push({ tool: names[i]!, toolIndex: i, transform: 'verify', reason: r.message });
    }
    if (reverted.size > 0) changes = changes.filter((c) => !reverted.has(c.toolIndex));
    verifyStats = { level: options.verify, tools: decision.checked, failed: reverted.size, compiled: decision.compiled, instances: decision.instances, timeMs: round(now() - t0) };
  }

  const totals = state.sizes?.totals() ?? { before: { bytes: 0 }, after: { bytes: 0 } };
  const report: Report = {
    changes,
    diagnostics: state.diagnostics,
    skipped: state.skipped,
    stats: {
      before: totals.before,
      after: totals.after,
      tools: state.sizes?.toolStats(names) ?? [],
      transforms: transformStats,
      ...(options.tokenizer ? { tokenizer: options.tokenizer.name } : {}),
      ...(verifyStats ? { verify: verifyStats } : {}),
      timeMs: round(now() - started),
    },
  };
  const result: TransformResult = { tools, report, output: located.wrap(tools) };
  return state.instructions === undefined ? result : { ...result, instructions: state.instructions };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

function keyKindsOfEach(referenceKeys: readonly boolean[], extensionKeys: readonly boolean[]): KeyKinds[] {
  const out: KeyKinds[] = new Array(referenceKeys.length);
  for (let i = 0; i < out.length; i++) out[i] = keyKindsOf(referenceKeys[i]!, extensionKeys[i]!);
  return out;
}

/**
 * The dialect the run's input is read in when its first step is reconcile-dialect told to `assume` one
 * (an OpenAPI 3.0 converter's schema objects): what that step rewrites out of it is checked against the
 * original read that way, not as 2020-12 (which applies what OpenAPI 3.0 ignores, such as keywords beside
 * `$ref`, and would blame the step for dropping them).
 */
function sourceDialect(steps: readonly Step[]): { step: number; assume: Dialect } | undefined {
  const first = steps[0];
  if (first === undefined || first[0].name !== 'reconcile-dialect') return undefined;
  const assume = (first[1] as { assume?: unknown }).assume;
  return typeof assume === 'string' && assume !== '2020-12' && DIALECTS.includes(assume as Dialect) ? { step: 0, assume: assume as Dialect } : undefined;
}
