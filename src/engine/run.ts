import { EditContext } from '../core/context.js';
import { ToolslimError } from '../core/errors.js';
import { utf8Length, type Tokenizer } from '../core/measure.js';
import type { Change, Diagnostic, Report, Safety, Skip, ToolStats, TransformStats, VerifyLevel, VerifyStats } from '../core/report.js';
import type { RunOptions, ToolsInput, TransformResult } from '../core/run-types.js';
import { SCHEMA_SLOTS, toolName, type McpTool } from '../core/tool.js';
import type { AnyTransform, Step, TransformExtras } from '../core/transform.js';
import { isObject } from '../json/guards.js';
import { appendPointer } from '../json/pointer.js';
import { stringifyJson } from '../json/stringify.js';
import { getDeclaredDialect } from '../schema/dialect.js';
import { findUnresolvedRefs, refInventoryOf, withRefInventoryMemo } from '../schema/refs.js';
import { AjvPool, verifyHistory, type VerifyStep } from '../verify/gate.js';
import { checkJsonTool, describe, locateTools } from './input.js';

const DEFAULT_MAX_DEPTH = 1000;

/** Runs resolved steps over an input. Used by `transformTools` and by every transform called alone. */
export function runSteps(input: ToolsInput, steps: readonly Step[], run: RunOptions = {}): TransformResult {
  return withRefInventoryMemo(() => runStepsMemo(input, steps, run));
}

function runStepsMemo(input: ToolsInput, steps: readonly Step[], run: RunOptions): TransformResult {
  const started = now();
  const located = locateTools(input);
  const onError = run.onError ?? 'report';
  const measure = run.measure ?? true;
  const tokenizer = run.tokenizer;
  const maxDepth = run.maxDepth ?? DEFAULT_MAX_DEPTH;
  const verify = run.verify === undefined ? 'structural' : run.verify;
  if (verify !== false && verify !== 'structural' && verify !== 'verdicts') {
    throw new ToolslimError('invalid-option', `\`verify\` is ${JSON.stringify(verify)}, expected 'structural', 'verdicts' or false`);
  }
  const tools = located.tools.slice() as McpTool[];
  const n = tools.length;
  const names = tools.map(toolName);
  const changes: Change[] = [];
  const diagnostics: Diagnostic[] = [];
  const skipped: Skip[] = [];
  const resolved = steps.map(([t, o]) => [t, resolveOptions(t, o)] as const);

  // Tools that are not plain JSON are passed through untouched.
  const usable: boolean[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const undefinedMembers: string[] = [];
    const problem = checkJsonTool(tools[i], maxDepth, undefinedMembers);
    const keep = problem === undefined ? run.keepUnchanged?.get(i) : undefined;
    usable[i] = problem === undefined && keep === undefined;
    if (keep !== undefined) skipped.push({ tool: names[i]!, toolIndex: i, transform: 'input', reason: keep });
    for (const path of undefinedMembers) {
      diagnostics.push({
        severity: 'info',
        tool: names[i]!,
        toolIndex: i,
        transform: 'input',
        code: 'undefined-member',
        path: appendPointer('', i) + path,
        message: 'Found a member whose value is `undefined`: JSON omits it, so readers see it as absent; it was kept as it is',
      });
    }
    if (problem) {
      const reason = `${problem.message} at \`${appendPointer('', i)}${problem.path}\``;
      if (onError === 'throw') throw new ToolslimError('invalid-input', `tool ${quote(names[i]!)} (index ${i}): ${reason}`, { tool: names[i], path: appendPointer('', i) + problem.path });
      skipped.push({ tool: names[i]!, toolIndex: i, transform: 'input', reason });
    }
    // A schema slot holding something that is not a schema is left as it is, and said so (issue 15).
    if (problem === undefined && isObject(tools[i])) {
      for (const slot of SCHEMA_SLOTS) {
        const v = (tools[i] as Record<string, unknown>)[slot];
        if (v !== undefined && Object.prototype.hasOwnProperty.call(tools[i], slot) && typeof v !== 'boolean' && !isObject(v)) {
          skipped.push({ tool: names[i]!, toolIndex: i, transform: 'input', reason: `\`${slot}\` is ${describe(v)}, not a JSON Schema: left as it is at \`${appendPointer('', i)}/${slot}\`` });
        }
      }
    }
  }

  // prepare/finish read the whole list: they see only the tools the steps may change (a Proxy that throws,
  // or a tool kept for its numbers, does not take a transform down for every tool).
  const allUsable = usable.every(Boolean);
  const visible = (list: McpTool[]): McpTool[] => (allUsable ? list : list.filter((_, i) => usable[i]));
  const texts: (string | undefined)[] = measure ? tools.map((t, i) => (usable[i] ? JSON.stringify(t) : safeStringify(t))) : [];
  const beforeTexts = texts.slice();
  const before = measure ? texts.map(sizeOf(tokenizer)) : [];
  const current = before.slice();
  const transformStats: Mutable<TransformStats>[] = [];
  let instructions: string | undefined;
  // With the gate on: every version of every changed tool, with what each step contributed to the stats.
  const history: (ToolVersion[] | undefined)[] = verify === false ? [] : new Array(n);

  for (const [step, [transform, options]] of resolved.entries()) {
    const t0 = now();
    // A throwing `prepare` (it reads the whole list, bad tools included) leaves every tool unchanged by this
    // transform, named in `skipped`; the rest of the pipeline still runs.
    let state: unknown;
    let prepareFailure: string | undefined;
    if (transform.prepare) {
      try {
        state = transform.prepare(visible(tools), options);
      } catch (e) {
        prepareFailure = `prepare threw: ${(e as Error)?.message ?? String(e)}`;
        if (onError === 'throw') throw new ToolslimError('transform-failed', `${transform.name}: ${prepareFailure}`, { transform: transform.name });
      }
    }
    let count = 0;
    let toolsChanged = 0;
    let bytesSaved = 0;
    let tokensSaved = 0;
    for (let i = 0; i < n; i++) {
      if (!usable[i]) continue;
      if (prepareFailure !== undefined) {
        skipped.push({ tool: names[i]!, toolIndex: i, transform: transform.name, reason: prepareFailure });
        continue;
      }
      const tool = tools[i]!;
      const ctx = new EditContext(tool, transform.messages);
      let failure: string | undefined;
      try {
        transform.apply({ tool, index: i, name: names[i]!, state }, ctx, options);
        if (ctx.changed) failure = checkPostConditions(tool, ctx.root);
      } catch (e) {
        failure = `threw: ${(e as Error)?.message ?? String(e)}`;
      }
      if (failure !== undefined) {
        if (onError === 'throw') {
          throw new ToolslimError('transform-failed', `${transform.name} failed on tool ${quote(names[i]!)} (index ${i}): ${failure}`, { tool: names[i], path: appendPointer('', i), transform: transform.name });
        }
        skipped.push({ tool: names[i]!, toolIndex: i, transform: transform.name, reason: failure });
        continue;
      }
      const prefix = appendPointer('', i);
      for (const d of ctx.diagnostics) diagnostics.push({ severity: d.severity, tool: names[i]!, toolIndex: i, transform: transform.name, code: d.code, path: prefix + d.path, message: d.message });
      if (!ctx.changed) continue;
      tools[i] = ctx.root as McpTool;
      toolsChanged++;
      const safety = transform.safetyWith ? transform.safetyWith(options) : transform.safety;
      const version: ToolVersion | undefined = verify === false ? undefined : { step, transform: transform.name, safety, tool: tools[i]!, changes: ctx.changes.length, bytesSaved: 0, tokensSaved: 0 };
      if (version) (history[i] ??= []).push(version);
      for (const c of ctx.changes) {
        const change: Record<string, unknown> = { op: c.op, path: prefix + c.path };
        if (c.from !== undefined) change.from = prefix + c.from;
        if (c.op === 'add' || c.op === 'replace') change.value = c.value;
        if (c.op === 'remove' || c.op === 'replace') change.oldValue = c.oldValue;
        Object.assign(change, { tool: names[i]!, toolIndex: i, transform: transform.name, code: c.code, message: c.message });
        changes.push(change as unknown as Change);
        count++;
      }
      if (measure) {
        const text = JSON.stringify(tools[i]);
        texts[i] = text;
        const size = sizeOf(tokenizer)(text);
        const saved = current[i]!.bytes - size.bytes;
        const savedTokens = tokenizer ? (current[i]!.tokens ?? 0) - (size.tokens ?? 0) : 0;
        bytesSaved += saved;
        tokensSaved += savedTokens;
        if (version) {
          version.bytesSaved = saved;
          version.tokensSaved = savedTokens;
        }
        current[i] = size;
      }
    }
    let extras: TransformExtras | undefined;
    if (transform.finish && prepareFailure === undefined) {
      try {
        extras = transform.finish(state, visible(tools), options);
      } catch (e) {
        const message = `finish threw: ${(e as Error)?.message ?? String(e)}`;
        if (onError === 'throw') throw new ToolslimError('transform-failed', `${transform.name}: ${message}`, { transform: transform.name });
        diagnostics.push({ severity: 'error', tool: '', toolIndex: -1, transform: transform.name, code: 'finish-failed', path: '', message });
      }
    }
    if (extras?.instructions) instructions = instructions ? `${instructions}\n\n${extras.instructions}` : extras.instructions;
    const stat: Mutable<TransformStats> = { name: transform.name, changes: count, toolsChanged, bytesSaved, timeMs: round(now() - t0) };
    transformStats.push(tokenizer ? { ...stat, tokensSaved } : stat);
  }

  let verifyStats: VerifyStats | undefined;
  let kept: Change[] = changes;
  if (verify !== false) {
    const t0 = now();
    const pool = new AjvPool();
    const reverted = new Set<number>();
    let checked = 0;
    for (let i = 0; i < n; i++) {
      const versions = history[i];
      if (!versions || versions.length === 0) continue;
      checked++;
      const original = located.tools[i] as McpTool;
      const steps: VerifyStep[] = versions.map((v) => ({ transform: v.transform, safety: v.safety, tool: v.tool }));
      let result: ReturnType<typeof verifyHistory>;
      try {
        result = verifyHistory(original, steps, { level: verify, pool });
      } catch (e) {
        // ajv cannot be loaded here: a setup problem, not a tool's.
        if (e instanceof ToolslimError) throw e;
        // The gate itself failed on this tool: it cannot vouch for the rewrite, so the tool is reverted.
        result = { step: versions.length - 1, failure: { check: 'error', path: '', message: `the gate could not check the rewrite (${(e as Error)?.message ?? String(e)})` } };
      }
      if (!result) continue;
      const culprit = versions[result.step]!;
      const by = [...new Set(versions.map((v) => v.transform))];
      const where = appendPointer('', i) + result.failure.path;
      const message =
        `toolslim defect: \`${culprit.transform}\` (${culprit.safety}) broke tool ${quote(names[i]!)} at \`${where}\`: ${result.failure.message}. ` +
        `Transforms that changed the tool: ${by.map((t) => `\`${t}\``).join(', ')}. The tool is returned unchanged; please report this as a bug in toolslim.`;
      if (onError === 'throw') throw new ToolslimError('verification-failed', message, { tool: names[i], path: where, transform: culprit.transform });
      reverted.add(i);
      tools[i] = original;
      if (measure) {
        texts[i] = beforeTexts[i];
        current[i] = before[i]!;
      }
      for (const v of versions) {
        const stat = transformStats[v.step]!;
        stat.changes -= v.changes;
        stat.toolsChanged -= 1;
        stat.bytesSaved -= v.bytesSaved;
        if (stat.tokensSaved !== undefined) stat.tokensSaved -= v.tokensSaved;
      }
      diagnostics.push({ severity: 'error', tool: names[i]!, toolIndex: i, transform: 'verify', code: result.failure.check, path: where, message });
      skipped.push({ tool: names[i]!, toolIndex: i, transform: 'verify', reason: message });
    }
    if (reverted.size > 0) kept = changes.filter((c) => !reverted.has(c.toolIndex));
    verifyStats = { level: verify, tools: checked, failed: reverted.size, compiled: pool.compiled, instances: pool.validated, timeMs: round(now() - t0) };
  }
  const toolStats: ToolStats[] = measure ? tools.map((_, i) => ({ index: i, name: names[i]!, before: before[i]!, after: current[i]! })) : [];
  const beforeTotal = measure ? totalSize(before, beforeTexts, tokenizer) : { bytes: 0 };
  const afterTotal = measure ? totalSize(current, texts, tokenizer) : { bytes: 0 };
  const report: Report = {
    changes: kept,
    diagnostics,
    skipped,
    stats: {
      before: beforeTotal,
      after: afterTotal,
      tools: toolStats,
      transforms: transformStats,
      ...(tokenizer ? { tokenizer: tokenizer.name } : {}),
      ...(verifyStats ? { verify: verifyStats } : {}),
      timeMs: round(now() - started),
    },
  };
  const result: TransformResult = { tools, report, output: located.wrap(tools) };
  return instructions === undefined ? result : { ...result, instructions };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** One version of a changed tool: the step that made it, and what that step contributed to the stats. */
interface ToolVersion {
  readonly step: number;
  readonly transform: string;
  readonly safety: Safety;
  readonly tool: McpTool;
  readonly changes: number;
  bytesSaved: number;
  tokensSaved: number;
}

/**
 * The pipeline's post-condition for every changed tool: every local `$ref` that resolved before still
 * resolves. Refs that were already broken may stay broken, counted by their text: a transform that fixes
 * one broken ref and breaks another is caught, not excused by an unchanged count.
 */
function checkPostConditions(before: McpTool, after: unknown): string | undefined {
  if (!isObject(after)) return 'the tool is no longer an object';
  for (const slot of SCHEMA_SLOTS) {
    const a = (after as Record<string, unknown>)[slot];
    const b = (before as Record<string, unknown>)[slot];
    if (a === b || !isObject(a)) continue;
    const da = getDeclaredDialect(a).dialect;
    const brokenAfter = findUnresolvedRefs(a, da, refInventoryOf(a, da));
    if (brokenAfter.length === 0) continue;
    // Refs that were already broken may stay broken (a transform never rewrites one); any other is new.
    const stillBroken = new Map<string, number>();
    if (isObject(b)) {
      const db = getDeclaredDialect(b).dialect;
      for (const { site } of findUnresolvedRefs(b, db, refInventoryOf(b, db))) stillBroken.set(site.ref, (stillBroken.get(site.ref) ?? 0) + 1);
    }
    for (const { site, reason } of brokenAfter) {
      const left = stillBroken.get(site.ref) ?? 0;
      if (left > 0) {
        stillBroken.set(site.ref, left - 1);
        continue;
      }
      return `left \`$ref\` \`${site.ref}\` at \`/${slot}${site.path}\` unresolvable (${reason})`;
    }
  }
  return undefined;
}

function resolveOptions(transform: AnyTransform, options: object): object {
  const merged = { ...transform.defaultOptions, ...options };
  for (const key of Object.keys(options)) {
    if (!Object.prototype.hasOwnProperty.call(transform.defaultOptions, key)) {
      throw new ToolslimError('invalid-option', `${transform.name}: unknown option \`${key}\` (known: ${Object.keys(transform.defaultOptions).join(', ') || 'none'})`, { transform: transform.name });
    }
  }
  if (transform.validateOptions) {
    try {
      transform.validateOptions(merged);
    } catch (e) {
      throw new ToolslimError('invalid-option', `${transform.name}: ${(e as Error).message}`, { transform: transform.name, cause: e });
    }
  }
  return Object.freeze(merged);
}

function sizeOf(tokenizer: Tokenizer | undefined) {
  return (text: string | undefined) => {
    const t = text ?? '';
    return tokenizer ? { bytes: utf8Length(t), tokens: tokenizer.count(t) } : { bytes: utf8Length(t) };
  };
}

/** Size of the compact JSON array of the tools: brackets, commas and every tool. */
function totalSize(sizes: readonly { bytes: number }[], texts: readonly (string | undefined)[], tokenizer: Tokenizer | undefined) {
  let bytes = sizes.length === 0 ? 2 : 1 + sizes.length;
  for (const s of sizes) bytes += s.bytes;
  return tokenizer ? { bytes, tokens: tokenizer.count(joinArray(texts.map((t) => t ?? 'null'))) } : { bytes };
}

function joinArray(texts: readonly string[]): string {
  return '[' + texts.join(',') + ']';
}

/** Compact JSON of a tool that may be too deep for `JSON.stringify`, or undefined when it is not JSON at all. */
function safeStringify(value: unknown): string | undefined {
  try {
    return stringifyJson(value);
  } catch {
    return undefined;
  }
}

function quote(name: string): string {
  return name === '' ? '(unnamed)' : `\`${name}\``;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}
