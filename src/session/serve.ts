/**
 * Serving a `tools/list` result: the one function the proxy and the SDK hook both use to run the
 * pipeline on a server's (merged) list, leave out what strict clients cannot read, and say which
 * instructions must reach the client's `initialize` result.
 */
import type { Options as AjvOptions } from 'ajv';
import { resolveSteps, transformTools, type TransformToolsOptions } from '../api.js';
import type { TransformStepInput } from '../core/preset.js';
import { ToolslimError } from '../core/errors.js';
import type { Diagnostic, Report } from '../core/report.js';
import type { TransformResult } from '../core/run-types.js';
import type { AnyTransform } from '../core/transform.js';
import { SCHEMA_SLOTS, type McpTool, type SchemaSlot } from '../core/tool.js';
import { locateTools } from '../engine/input.js';
import { hasOwn, isObject } from '../json/guards.js';
import { presetSafe } from '../presets/index.js';
import { INSTRUCTION_TRANSFORMS } from '../presets/for-profile.js';
import { loadAjv } from '../verify/ajv-loader.js';
import { describeValue, isOptionsObject } from './hot-set.js';
import { stringifyJson } from '../json/stringify.js';

/** Options of {@link serveToolsList}: the pipeline's, and what serving adds. */
export interface ServeToolsListOptions extends TransformToolsOptions {
  /**
   * Leave out every tool whose `inputSchema` or `outputSchema` a strict 2020-12 reader cannot read
   * (default false: such tools are served as they are, with an error diagnostic). See {@link findUnreadable}.
   */
  readonly dropUnreadable?: boolean;
  /**
   * Look for unreadable tools without dropping them: each gets an `error` diagnostic
   * (`serve/unreadable-schema`) and is listed in `unreadable` (default false; implied by
   * `dropUnreadable`). The check compiles every schema with ajv, which costs about as much as the
   * equivalence gate, so it is not done unless asked for.
   */
  readonly reportUnreadable?: boolean;
  /**
   * The toolslim instructions already delivered in this session's `initialize` result (`""` when it
   * was answered without any); leave it out before `initialize` is answered. When the pipeline now
   * writes other instructions, they cannot reach the client: see `onUndeliverable`.
   */
  readonly delivered?: string;
  /**
   * When the pipeline's instructions differ from `delivered` (default `throw`): `throw` an error naming
   * the steps; `omit-steps` runs the pipeline again without the steps that write instructions, so the
   * text they would have moved stays in the tools (named in {@link ServedList.omittedSteps}).
   */
  readonly onUndeliverable?: 'throw' | 'omit-steps';
}

/** A tool a strict reader cannot read: which slot, and why. */
export interface UnreadableTool {
  readonly name: string;
  /** Position in the pipeline's output. */
  readonly index: number;
  readonly slot: SchemaSlot;
  readonly error: string;
  /** The entry is no tool at all (not an object, or no string `name`): `name` is `''`, `slot` is `inputSchema`. */
  readonly notATool?: boolean;
}

/** How messages name an unreadable tool: its name in backticks, or `#<index>` for an entry without one. */
export function unreadableLabel(u: UnreadableTool): string {
  return u.notATool === true ? `#${u.index}` : `\`${u.name}\``;
}

/** What of it cannot be read: `it` (an entry that is no tool) or `its \`inputSchema\`` (without backticks: `plainSlot`, the CLI's lines). */
export function unreadablePart(u: UnreadableTool, plainSlot = false): string {
  return u.notATool === true ? 'it' : plainSlot ? `its ${u.slot}` : `its \`${u.slot}\``;
}

/** The line every caller writes for a tool it left out: `` `name`: a strict 2020-12 reader cannot read its … (why) ``. */
export function unreadableLine(u: UnreadableTool, plainSlot = false): string {
  return `${unreadableLabel(u)}: a strict 2020-12 reader cannot read ${unreadablePart(u, plainSlot)} (${u.error})`;
}

/** What {@link serveToolsList} returns. */
export interface ServedList {
  /** The envelope to send (the input's, with the served tools). */
  readonly result: unknown;
  /** The served tools, in order (without the dropped ones). */
  readonly tools: McpTool[];
  /**
   * The pipeline's report (its changes and stats describe the pipeline's output, before any drop), with
   * a `serve` diagnostic per unreadable tool: `unreadable-schema` (error, served anyway) or
   * `dropped-unreadable` (warning, left out).
   */
  readonly report: Report;
  /** The pipeline's own result. */
  readonly transformResult: TransformResult;
  /** Text to append to the `initialize` result's `instructions` (see {@link appendInstructions}). */
  readonly instructions?: string;
  /** The steps that wrote `instructions`, by name. */
  readonly instructionSteps: readonly string[];
  /** Every unreadable tool found (dropped or not; empty unless `dropUnreadable` or `reportUnreadable`). */
  readonly unreadable: readonly UnreadableTool[];
  /** The tools left out (with `dropUnreadable`). */
  readonly dropped: readonly UnreadableTool[];
  /** Steps left out because their instructions could not be delivered (`onUndeliverable: 'omit-steps'`). */
  readonly omittedSteps: readonly string[];
}

/**
 * Runs the pipeline on a server's `tools/list` result (a `ListToolsResult`, a tools array, or a JSON-RPC
 * response holding one), then finds the tools a strict reader cannot read and, with `dropUnreadable`,
 * leaves them out. Tool order is kept. Never drops anything silently: every dropped tool and every
 * omitted step is named in the result (and the report).
 *
 * @throws ToolslimError (`invalid-option`) for bad options; (`transform-failed`, naming the steps) when
 * instructions differ from `delivered` and `onUndeliverable` is `throw`
 */
export function serveToolsList(input: unknown, options: ServeToolsListOptions = {}): ServedList {
  if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `serveToolsList: options must be an object, got ${describeValue(options)}`);
  const { dropUnreadable = false, reportUnreadable = false, delivered, onUndeliverable = 'throw', ...run } = options;
  if (typeof dropUnreadable !== 'boolean') throw new ToolslimError('invalid-option', `serveToolsList: \`dropUnreadable\` must be true or false, got ${describeValue(dropUnreadable)}`);
  if (typeof reportUnreadable !== 'boolean') throw new ToolslimError('invalid-option', `serveToolsList: \`reportUnreadable\` must be true or false, got ${describeValue(reportUnreadable)}`);
  if (delivered !== undefined && typeof delivered !== 'string') throw new ToolslimError('invalid-option', `serveToolsList: \`delivered\` must be the instructions text already sent (a string), got ${describeValue(delivered)}`);
  if (onUndeliverable !== 'throw' && onUndeliverable !== 'omit-steps') throw new ToolslimError('invalid-option', `serveToolsList: \`onUndeliverable\` must be 'throw' or 'omit-steps', got ${describeValue(onUndeliverable)}`);

  const transforms = run.transforms ?? [presetSafe];
  let steps = resolveSteps(transforms);
  let result = transformTools(input, { ...run, transforms: steps });
  let instructionSteps = wroteInstructions(steps, result);
  let omittedSteps: string[] = [];
  // Instructions the client already has and no longer needs are harmless; new or other text is not.
  if (delivered !== undefined && result.instructions !== undefined && result.instructions !== delivered) {
    const writers = instructionSteps.length > 0 ? instructionSteps : stepsWritingInstructions(steps);
    if (onUndeliverable === 'throw') throw undeliverable(writers, delivered);
    omittedSteps = writers;
    steps = steps.filter(([t]) => !writesInstructions(t));
    result = transformTools(input, { ...run, transforms: steps });
    instructionSteps = [];
  }

  const unreadable = dropUnreadable || reportUnreadable ? findUnreadable(result.tools) : [];
  const droppedIndex = new Set(dropUnreadable ? unreadable.map((u) => u.index) : []);
  const tools = droppedIndex.size === 0 ? result.tools : result.tools.filter((_, i) => !droppedIndex.has(i));
  const located = locateTools(result.output);
  const extra: Diagnostic[] = unreadable.map((u) => ({
    severity: dropUnreadable ? 'warning' : 'error',
    tool: u.name,
    toolIndex: u.index,
    transform: 'serve',
    code: dropUnreadable ? 'dropped-unreadable' : 'unreadable-schema',
    path: `/${u.index}/${u.slot}`,
    message: dropUnreadable
      ? `Left tool ${unreadableLabel(u)} out of the served list: a strict 2020-12 reader cannot read ${unreadablePart(u)} (${u.error})`
      : `Found that a strict 2020-12 reader cannot read ${u.notATool === true ? `tool ${unreadableLabel(u)}` : `the \`${u.slot}\` of tool ${unreadableLabel(u)}`} (${u.error}); it is served as it is (\`dropUnreadable\` leaves such tools out)`,
  }));
  const report = extra.length === 0 ? result.report : { ...result.report, diagnostics: [...result.report.diagnostics, ...extra] };
  const served: ServedList = {
    result: droppedIndex.size === 0 ? result.output : located.wrap(tools),
    tools,
    report,
    transformResult: result,
    instructionSteps,
    unreadable,
    dropped: dropUnreadable ? unreadable : [],
    omittedSteps,
  };
  return result.instructions === undefined ? served : { ...served, instructions: result.instructions };
}

/**
 * Tools a strict 2020-12 reader cannot read, slot by slot: the schema is not an object schema with
 * `"type": "object"` at its root (MCP requires it, and the MCP SDK's `Client` refuses the whole list
 * otherwise; an absent `outputSchema` is fine), or `new Ajv2020({ strict: false })` cannot compile it
 * (a `$ref` to nowhere, a keyword value of the wrong shape, a `$schema` naming a dialect that reader
 * does not know). A tool is listed once per unreadable slot; an entry that is no tool (not an object, or
 * without a string `name`, which also makes that `Client` refuse the whole list) once, as `notATool`.
 */
export function findUnreadable(tools: readonly unknown[]): UnreadableTool[] {
  const out: UnreadableTool[] = [];
  let shared: { compile(schema: object): unknown } | undefined;
  // Tools of one server often share schemas: each distinct text is compiled once.
  const seen = new Map<string, string>();
  for (const [index, tool] of tools.entries()) {
    // The MCP SDK's Client refuses the whole list for one entry that is no object or has no string name.
    if (!isObject(tool) || typeof tool.name !== 'string') {
      const found = !isObject(tool) ? describeValue(tool) : hasOwn(tool, 'name') ? describeValue(tool.name) : 'none';
      out.push({ name: '', index, slot: 'inputSchema', error: `MCP requires each tool to be an object with a string \`name\`, found ${found}`, notATool: true });
      continue;
    }
    const name = tool.name;
    for (const slot of SCHEMA_SLOTS) {
      if (slot === 'outputSchema' && !hasOwn(tool, slot)) continue;
      const schema = hasOwn(tool, slot) ? tool[slot] : undefined;
      if (!isObject(schema) || schema.type !== 'object') {
        out.push({ name, index, slot, error: `MCP requires \`${slot}\` to be an object schema with \`"type": "object"\` at its root, found ${schema === undefined ? 'none' : describeValue(isObject(schema) ? { type: schema.type } : schema)}` });
        continue;
      }
      let text: string;
      try {
        text = stringifyJson(schema);
      } catch (e) {
        out.push({ name, index, slot, error: `not JSON (${(e as Error).message})` });
        continue;
      }
      let error = seen.get(text);
      if (error === undefined) {
        error = '';
        try {
          const ajv = text.includes('"$id":') ? strictReader() : (shared ??= strictReader());
          ajv.compile(schema);
        } catch (e) {
          if (e instanceof ToolslimError) throw e;
          error = e instanceof RangeError ? 'nesting too deep to compile' : String((e as Error)?.message ?? e);
        }
        seen.set(text, error);
      }
      if (error !== '') out.push({ name, index, slot, error });
    }
  }
  return out;
}

/**
 * The `initialize` result with toolslim's `instructions` appended: after the server's own text and a
 * blank line, or as the only text when the server sent none. Every other member is kept, in order; the
 * input is not changed. No text (or `""`) returns the result as it is.
 */
export function appendInstructions<T extends object>(initializeResult: T, text: string | undefined): T {
  if (text === undefined || text === '') return initializeResult;
  if (!isObject(initializeResult)) throw new ToolslimError('invalid-input', `appendInstructions: expected an initialize result object, got ${describeValue(initializeResult)}`);
  const own = hasOwn(initializeResult, 'instructions') && typeof initializeResult.instructions === 'string' ? initializeResult.instructions : '';
  // trimEnd removes what /\s+$/ matched (whitespace and line terminators), without retrying each start of a
  // long run of them (a server's instructions with 40,000 spaces inside: 0.56 s that way).
  const combined = own.trim() === '' ? text : `${own.trimEnd()}\n\n${text}`;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(initializeResult)) {
    const value = key === 'instructions' ? combined : initializeResult[key];
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  }
  if (!hasOwn(out, 'instructions')) out.instructions = combined;
  return out as T;
}

/** The names of the steps that may write instructions (a transform's `writesInstructions` flag, or the built-in list). */
export function stepsWritingInstructions(transforms: readonly TransformStepInput[]): string[] {
  const steps = resolveSteps(transforms);
  return [...new Set(steps.filter(([t]) => writesInstructions(t)).map(([t]) => t.name))];
}

function writesInstructions(t: AnyTransform): boolean {
  return (t as { writesInstructions?: unknown }).writesInstructions === true || INSTRUCTION_TRANSFORMS.includes(t.name);
}

/** The steps that wrote the run's instructions: those that may, and changed something (or all of them, when the run has instructions but none did). */
function wroteInstructions(steps: readonly (readonly [AnyTransform, object])[], result: TransformResult): string[] {
  if (result.instructions === undefined) return [];
  const writers = stepsWritingInstructions(steps);
  const active = writers.filter((name) => result.report.stats.transforms.some((s) => s.name === name && s.changes > 0));
  return active.length > 0 ? active : writers;
}

function undeliverable(steps: readonly string[], delivered: string): ToolslimError {
  const names = steps.length > 0 ? steps.map((s) => `\`${s}\``).join(', ') : 'a step';
  const what = delivered === '' ? 'the `initialize` result was already sent without them' : 'the `initialize` result was already sent with other instructions';
  return new ToolslimError(
    'transform-failed',
    `${names} moved text into the server instructions, but ${what}, so the client cannot receive them in this session (the server's tools changed). Start a new session (reconnect), or leave ${names} out of the pipeline.`,
    steps.length > 0 ? { transform: steps[0] } : {},
  );
}

/** `new Ajv2020({ strict: false })`, quiet; unoptimized code compiles about twice as fast and accepts the same schemas. */
const STRICT_OPTIONS: AjvOptions = { strict: false, logger: false, code: { optimize: false } };

function strictReader(): { compile(schema: object): unknown } {
  return new (loadAjv().Ajv2020)(STRICT_OPTIONS);
}
