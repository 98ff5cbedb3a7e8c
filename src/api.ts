/**
 * The public entry points of the pipeline: `transformTools` over a tools list, `transformSchema` over one
 * schema, and `resolveSteps`, which turns names, presets and tuples into ordered steps. The only module
 * above the presets that knows every transform by name (through the presets' `lookup`).
 */
import type { Change, Diagnostic, Report, Skip } from './core/report.js';
import { describeValue, isOptionsObject } from './core/describe.js';
import { ToolslimError } from './core/errors.js';
import type { Preset, PresetOptions, TransformStepInput } from './core/preset.js';
import type { RunOptions, ToolsInput, TransformResult } from './core/run-types.js';
import type { JsonSchema, McpTool } from './core/tool.js';
import type { AnyTransform, Step } from './core/transform.js';
import { resolveRunOptions } from './engine/options.js';
import { runSteps } from './engine/run.js';
import { anchorShape } from './json/shapes.js';
import { lookup, presetSafe } from './presets/index.js';
import type { PruneUnreachableDefsOptions } from './transforms/prune-unreachable-defs.js';
import { pruneUnreachableDefs } from './transforms/prune-unreachable-defs.js';

/** Options of {@link transformTools}. */
export interface TransformToolsOptions extends RunOptions {
  /** What to run, in order (default: the `safe` preset). */
  readonly transforms?: readonly TransformStepInput[];
}

/**
 * Rewrites a `tools/list` result. `input` may be a tools array, a `ListToolsResult`, a JSON-RPC response
 * holding one, or a capture file. The input is never changed; the output shares every unchanged subtree
 * with it (copy-on-write), so treat both as immutable or clone before editing.
 */
export function transformTools(input: ToolsInput, options: TransformToolsOptions = {}): TransformResult {
  if (!anchored) anchorExampleRuns();
  if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `transformTools: options must be an object, got ${describeValue(options)}`);
  const { transforms = [presetSafe], ...run } = options;
  checkStepsAndRun(transforms, run);
  return runSteps(input, resolveSteps(transforms), run);
}

let anchored = false;

/**
 * Shape anchors for a run's report (json/shapes.ts; docs/architecture.md, "Shape anchors"): on the first call,
 * the default steps run over a few built-in example tools, with the gate at its default level and off, and
 * their results live as long as the process. A report is object literals (changes, findings, skips, per-tool
 * sizes, the stats), and each literal's hidden class died with the last report that had one: every function
 * that made or read them (`runStep`, `runWithAnalysis`, `ToolSizes.toolStats`, `EditContext.report`) lost its
 * optimised code at each full GC and was compiled again, on a compiler thread (about 20 ms per forced-GC pass
 * of the validation set). The examples hold only their own data, never a caller's tools, and call no
 * caller's code; the runs cost a few milliseconds once.
 */
function anchorExampleRuns(): void {
  anchored = true;
  // Only a speed-up: should the examples ever throw, the caller's run goes on as if they had not been made.
  try {
    anchorShape(exampleRuns());
  } catch {
    // nothing to anchor
  }
}

/**
 * The example runs {@link anchorExampleRuns} keeps: the default steps over {@link exampleTools}, with the gate at
 * its default level and off.
 * @internal
 */
export function exampleRuns(): TransformResult[] {
  const steps = resolveSteps([presetSafe]);
  return [runSteps(exampleTools(), steps), runSteps(exampleTools(), steps, { verify: false })];
}

/** What the example runs read: a change for each default step, findings (an unknown dialect, a kept description), and a skipped tool. */
function exampleTools(): unknown[] {
  return [
    {
      name: 'example',
      description: 'Gets  an item.\nSee https://example.com/docs for details.',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        title: 'Example',
        properties: {
          id: { type: 'string', description: 'The id', nullable: true, example: 'a1', 'x-location': 'path' },
          count: { type: 'integer', default: 1, description: 'How many. Defaults to 1.' },
          tags: { type: 'array', items: [{ type: 'string' }], description: 'Optional: https://example.com' },
        },
        required: ['id'],
        definitions: { unused: { type: 'string' } },
        'x-vendor': true,
      },
    },
    // Moves of the last member (no positions): `definitions` renamed, a tuple's `items`.
    { name: 'last-members', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { $ref: '#/definitions/A' }, t: { type: 'array', items: [{ type: 'string' }] } }, definitions: { A: { type: 'string' } } } },
    { name: 'unknown-dialect', inputSchema: { $schema: 'https://example.com/schema', type: 'object', 'x-a': 1 } },
    { name: 'undefined-member', inputSchema: { type: 'object', properties: { a: { type: 'string', default: undefined } } } },
    // An accessor (never called): not plain JSON, so the tool is passed through and listed as skipped.
    { name: 'not-json', inputSchema: Object.defineProperty({ type: 'object' }, 'x', { get: () => 1, enumerable: true }) },
  ];
}

/** Expands names, presets and tuples into ordered `[transform, options]` steps. */
export function resolveSteps(inputs: readonly TransformStepInput[]): Step[] {
  const steps: Step[] = [];
  for (const input of inputs) {
    const [target, options] = Array.isArray(input) ? (input as readonly [unknown, object]) : [input, undefined];
    const resolved = typeof target === 'string' ? lookup(target) : target;
    if (isPreset(resolved)) steps.push(...expandPreset(resolved, (options ?? {}) as PresetOptions));
    else if (isTransform(resolved)) steps.push([resolved, options ?? {}]);
    else throw new ToolslimError('unknown-transform', `not a transform or preset: ${describeStep(target)} (expected a transform such as stripNoise, a preset such as 'safe', either's name, or [transform, options])`);
  }
  return steps;
}

const PRESET_OPTION_KEYS: readonly string[] = ['overrides'];

function expandPreset(preset: Preset, options: PresetOptions): Step[] {
  // Checked like a transform's options: a misspelt key would otherwise be accepted and do nothing.
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ToolslimError('invalid-option', `preset ${preset.name}: options must be an object like { overrides: { … } }`);
  }
  for (const key of Object.keys(options)) {
    if (!PRESET_OPTION_KEYS.includes(key)) {
      throw new ToolslimError('invalid-option', `preset ${preset.name}: unknown option \`${key}\` (known: ${PRESET_OPTION_KEYS.join(', ')}; a step's options go in overrides: { '<transform>': { … } })`);
    }
  }
  const overrides = options.overrides ?? {};
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    throw new ToolslimError('invalid-option', `preset ${preset.name}: \`overrides\` must be an object of transform name → false or options`);
  }
  for (const name of Object.keys(overrides)) {
    if (!preset.steps.some((t) => t.name === name)) {
      throw new ToolslimError('invalid-option', `preset \`${preset.name}\` has no transform \`${name}\` (it has: ${preset.steps.map((t) => t.name).join(', ')})`);
    }
    const o = overrides[name];
    if (o !== false && (typeof o !== 'object' || o === null || Array.isArray(o))) {
      throw new ToolslimError('invalid-option', `preset ${preset.name}: override \`${name}\` must be false (leave it out) or an options object, not ${o === null ? 'null' : Array.isArray(o) ? 'an array' : typeof o}`);
    }
  }
  const steps: Step[] = [];
  for (const t of preset.steps) {
    const o = Object.prototype.hasOwnProperty.call(overrides, t.name) ? overrides[t.name] : undefined;
    if (o === false) continue;
    const base = preset.options !== undefined && Object.prototype.hasOwnProperty.call(preset.options, t.name) ? preset.options[t.name] : undefined;
    steps.push([t, base === undefined ? (o ?? {}) : { ...base, ...o }]);
  }
  return steps;
}

/**
 * The options of `transformTools` and `transformSchema` beside the steps: `transforms` an array when given,
 * and the run's keys checked before the steps are looked up (a misspelt key names `transforms` among the known).
 */
function checkStepsAndRun(transforms: unknown, run: RunOptions): void {
  if (transforms !== undefined && !Array.isArray(transforms)) throw new ToolslimError('invalid-option', '`transforms` must be an array of transforms, presets or their names (e.g. [stripNoise] or [\'safe\'])');
  resolveRunOptions(run, ['transforms']);
}

/** What was given where a step was expected, for the message. */
function describeStep(x: unknown): string {
  if (x === null || x === undefined) return String(x);
  if (typeof x === 'function') return `a function${x.name ? ` \`${x.name}\`` : ''} that is not a transform (make one with defineTransform)`;
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'object') {
    const keys = Object.keys(x).slice(0, 4);
    return keys.length === 0 ? 'an empty object' : `an object with ${keys.map((k) => `\`${k}\``).join(', ')}${Object.keys(x).length > 4 ? ', …' : ''}`;
  }
  return `${typeof x} ${JSON.stringify(x)}`;
}

function isPreset(x: unknown): x is Preset {
  return typeof x === 'object' && x !== null && (x as Preset).kind === 'preset';
}

function isTransform(x: unknown): x is AnyTransform {
  return typeof x === 'function' && (x as unknown as AnyTransform).kind === 'transform';
}

// ---- single schemas ------------------------------------------------------------------------------------

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
  if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `transformSchema: options must be an object, got ${describeValue(options)}`);
  const { transforms, ...run } = options;
  checkStepsAndRun(transforms, run);
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
