/**
 * The overlay: a reviewable file that says what a proxy serves for one server. `toolslim optimize
 * --overlay overlay.json …` writes it; `toolslim proxy --overlay overlay.json -- <cmd>` serves it, after
 * checking that the server still lists exactly the tools the overlay was made from (its *pin*).
 *
 * The pin hashes each original tool: `sha256` of the UTF-8 bytes of `JSON.stringify(tool)`, where `tool`
 * is the value `JSON.parse` gives for the tool as the server sent it (so whitespace does not matter;
 * member order, every member and every value do). The same function is used by every path (a file, a
 * live server through the CLI, the proxy's live list), so they agree. `bodySha256` hashes the tool
 * without its `name` member, so a renamed tool is recognized as renamed.
 */
import { ToolslimError } from '../core/errors.js';
import type { McpTool } from '../core/tool.js';
import type { Step } from '../core/transform.js';
import { hasOwn, isObject } from '../json/guards.js';
import { describeValue } from './hot-set.js';
import { parseResponsePolicies, type ResponsePolicies } from './response-policy.js';
import { checkOverlayContent, overlayContentSha256 } from './overlay-content.js';
import { sha256Hex } from './sha256.js';
import { majorOf, TOOLSLIM_VERSION } from './version.js';
import { stringifyForCaller, stringifyJson } from '../json/stringify.js';
import { findJsonProblem } from '../json/plain.js';

/** The overlay format this toolslim writes and reads. */
export const OVERLAY_FORMAT = 1;

/** One pinned tool. */
export interface OverlayPinEntry {
  /** The tool's name (`""` for a tool without a string name). */
  readonly name: string;
  /** sha256 (hex) of the tool's compact JSON. */
  readonly sha256: string;
  /** sha256 (hex) of the tool's compact JSON without its `name` member. */
  readonly bodySha256: string;
}

/** One pipeline step, as the overlay records it. */
export interface OverlayStep {
  readonly transform: string;
  /** The options given to the step (the transform's defaults apply to the rest). */
  readonly options: Readonly<Record<string, unknown>>;
}

/** A tool left out of the overlay's list (by `dropUnreadable`), with why. */
export interface OverlayDroppedTool {
  readonly name: string;
  readonly slot: string;
  readonly error: string;
}

/** The overlay file (JSON). */
export interface Overlay {
  /** Marks the file as an overlay, and its format ({@link OVERLAY_FORMAT}). */
  readonly toolslimOverlay: number;
  /** The toolslim that wrote it. An overlay is served only by a toolslim of the same major version. */
  readonly toolslimVersion: string;
  /**
   * The command that rebuilt this overlay, for the reader of the file, when the writer knew it. Never
   * shown by the proxy, which builds its own from the file in use and its own command.
   */
  readonly rebuild?: string;
  /** The server's `serverInfo` from its `initialize` result, when known. */
  readonly server?: { readonly name?: string; readonly version?: string };
  /** The pipeline that made `tools`, in order. */
  readonly steps: readonly OverlayStep[];
  /**
   * The original list (each tool's name and hashes, in the server's order) and `contentSha256`, the hash
   * that ties the rest of the overlay to it (overlay-content.ts).
   */
  readonly pin: { readonly algorithm: 'sha256'; readonly tools: readonly OverlayPinEntry[]; readonly contentSha256: string };
  /** Text to append to the server's `initialize` result `instructions`, when a step wrote some. */
  readonly instructions?: string;
  /** Tools the overlay leaves out, with the reason (they are still in the pin). */
  readonly dropped?: readonly OverlayDroppedTool[];
  /**
   * Tools served under another name than the server's (the profile-tuned preset's rename-tools): `to` is
   * served, and calls of it reach the server as `from` (a pinned name).
   */
  readonly renamed?: readonly { readonly from: string; readonly to: string }[];
  /** Response policies by the server's tool name (see response-policy.ts), reviewed with the rest. */
  readonly responses?: ResponsePolicies;
  /** What the proxy serves. */
  readonly tools: readonly McpTool[];
}

/** What {@link createOverlay} is made from. */
export interface CreateOverlayInput {
  /** The server's tools as received (parsed JSON): what the pin records. */
  readonly original: readonly unknown[];
  /** The tools to serve (the pipeline's output, after any drop). */
  readonly tools: readonly McpTool[];
  /** The resolved pipeline steps (`resolveSteps`) or their recorded form. */
  readonly steps: readonly (Step | OverlayStep)[];
  /** The pipeline's instructions (`TransformResult.instructions`). */
  readonly instructions?: string;
  /** The command that rebuilds the overlay, e.g. `toolslim optimize --overlay overlay.json -- node server.js`. */
  readonly rebuild?: string;
  /** The server's `serverInfo`. */
  readonly server?: { readonly name?: string; readonly version?: string };
  /** Tools left out of `tools`, with why. */
  readonly dropped?: readonly OverlayDroppedTool[];
  /** Tools served under another name (`toolRenamesOf(report)`): `from` the server's, `to` the served one. */
  readonly renamed?: readonly { readonly from: string; readonly to: string }[];
}

/** Options of {@link parseOverlay} and {@link readOverlay}. */
export interface ReadOverlayOptions {
  /** The command a refusal suggests to rebuild the overlay (default: a template). Never read from the file. */
  readonly rebuild?: string;
}

/**
 * The pin entry of one tool: its name and the two hashes (see the module comment for the exact input).
 *
 * @throws ToolslimError (`invalid-input`) for a tool that is not JSON (a cycle, a BigInt)
 */
export function pinTool(tool: unknown): OverlayPinEntry {
  const name = isObject(tool) && typeof tool.name === 'string' ? tool.name : '';
  let text: string | undefined;
  let body: string | undefined;
  try {
    text = stringifyJson(tool);
    body = isObject(tool) && hasOwn(tool, 'name') ? stringifyJson(withoutName(tool)) : text;
  } catch (e) {
    // Name the place (the walk runs only when writing failed): V8's message says what, not where.
    const problem = findJsonProblem(tool, Infinity, [], undefined, 'tool');
    const who = `tool ${name === '' ? '(unnamed)' : `\`${name}\``} cannot be pinned`;
    if (problem !== undefined) throw new ToolslimError('invalid-input', `${who}: it is not plain JSON: ${problem.message} at \`${problem.path}\``, { tool: name, path: problem.path });
    throw new ToolslimError('invalid-input', `${who}: it is not JSON (${(e as Error).message})`, { tool: name });
  }
  if (text === undefined || body === undefined) throw new ToolslimError('invalid-input', `tool ${name === '' ? '(unnamed)' : `\`${name}\``} cannot be pinned: it is not JSON`, { tool: name });
  return { name, sha256: sha256Hex(text), bodySha256: sha256Hex(body) };
}

/** Builds an overlay (a plain JSON-ready object; write it with `JSON.stringify(overlay, null, 2)`). */
export function createOverlay(input: CreateOverlayInput): Overlay {
  if (!isObject(input)) throw new ToolslimError('invalid-option', `createOverlay: expected { original, tools, steps, … }, got ${describeValue(input)}`);
  if (!Array.isArray(input.original)) throw new ToolslimError('invalid-option', `createOverlay: \`original\` must be the server's tools array, got ${describeValue(input.original)}`);
  if (!Array.isArray(input.tools)) throw new ToolslimError('invalid-option', `createOverlay: \`tools\` must be the tools to serve, got ${describeValue(input.tools)}`);
  if (!Array.isArray(input.steps)) throw new ToolslimError('invalid-option', `createOverlay: \`steps\` must be the pipeline's steps, got ${describeValue(input.steps)}`);
  if (input.instructions !== undefined && typeof input.instructions !== 'string') throw new ToolslimError('invalid-option', `createOverlay: \`instructions\` must be a string, got ${describeValue(input.instructions)}`);
  const overlay: Record<string, unknown> = { toolslimOverlay: OVERLAY_FORMAT, toolslimVersion: TOOLSLIM_VERSION };
  if (input.rebuild !== undefined) overlay.rebuild = String(input.rebuild);
  if (input.server !== undefined) {
    const server: Record<string, string> = {};
    if (typeof input.server.name === 'string') server.name = input.server.name;
    if (typeof input.server.version === 'string') server.version = input.server.version;
    overlay.server = server;
  }
  overlay.steps = input.steps.map(recordStep);
  overlay.pin = { algorithm: 'sha256', tools: input.original.map(pinTool) };
  if (input.instructions !== undefined && input.instructions !== '') overlay.instructions = input.instructions;
  if (input.dropped !== undefined && input.dropped.length > 0) overlay.dropped = input.dropped.map((d) => ({ name: d.name, slot: d.slot, error: d.error }));
  if (input.renamed !== undefined && input.renamed.length > 0) overlay.renamed = input.renamed.map((r) => ({ from: String(r.from), to: String(r.to) }));
  overlay.tools = jsonCopy(input.tools, 'tools');
  const names = new Set<string>();
  for (const t of overlay.tools as readonly McpTool[]) {
    if (names.has(t.name)) throw new ToolslimError('invalid-input', `createOverlay: two tools to serve are named \`${t.name}\`; a client could not tell them apart`, { tool: t.name });
    names.add(t.name);
  }
  (overlay.pin as Record<string, unknown>).contentSha256 = overlayContentSha256(overlay);
  return overlay as unknown as Overlay;
}

/**
 * Reads an overlay file's text. `file` names it in errors.
 *
 * @throws ToolslimError (`invalid-input`) when the text is not JSON or not an overlay this toolslim serves
 */
export function readOverlay(text: string, file = 'the overlay', options: ReadOverlayOptions = {}): Overlay {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ToolslimError('invalid-input', `${file} is not JSON (${(e as Error).message}), so it is not a toolslim overlay; build one with \`toolslim optimize --overlay ${file} …\``, { cause: e });
  }
  return parseOverlay(json, file, options);
}

/**
 * Checks that `json` is an overlay this toolslim can serve and returns it typed: the `toolslimOverlay`
 * marker and format, a toolslim version of the same major version as this one, the pin, the steps, the
 * tools (every one of them pinned, no two with one name) and the instructions, and last that the content
 * hash matches (an overlay edited since it was written is refused as tampered: overlay-content.ts).
 * `file` names it in errors; `options.rebuild` is the command a refusal suggests.
 *
 * @throws ToolslimError (`invalid-input`) naming the file and the JSON pointer of what is wrong
 */
export function parseOverlay(json: unknown, file = 'the overlay', options: ReadOverlayOptions = {}): Overlay {
  const rebuild = options.rebuild ?? `toolslim optimize --overlay ${file} … -- <server command>`;
  const fail = (path: string, what: string): never => {
    throw new ToolslimError('invalid-input', `${file}: ${what}${path === '' ? '' : ` at \`${path}\``}`, { path });
  };
  if (!isObject(json) || !hasOwn(json, 'toolslimOverlay')) {
    return fail('', `not a toolslim overlay (no \`toolslimOverlay\` member); build one with \`toolslim optimize --overlay ${file} …\``);
  }
  if (json.toolslimOverlay !== OVERLAY_FORMAT) {
    const newer = typeof json.toolslimOverlay === 'number' && json.toolslimOverlay > OVERLAY_FORMAT;
    fail('/toolslimOverlay', `written in overlay format ${describeValue(json.toolslimOverlay)}; this toolslim (${TOOLSLIM_VERSION}) reads format ${OVERLAY_FORMAT}${newer ? ': upgrade toolslim, or rebuild the overlay with this one' : ''}`);
  }
  const version = json.toolslimVersion;
  if (typeof version !== 'string' || majorOf(version) === undefined) fail('/toolslimVersion', `expected the semver version of the toolslim that wrote it, got ${describeValue(version)}`);
  const theirs = majorOf(version as string)!;
  const ours = majorOf(TOOLSLIM_VERSION);
  if (ours !== undefined && theirs !== ours) {
    fail('/toolslimVersion', `written by toolslim ${version as string} (major ${theirs}); this is toolslim ${TOOLSLIM_VERSION} (major ${ours}): rebuild the overlay with this toolslim: ${rebuild}`);
  }
  if (hasOwn(json, 'rebuild') && typeof json.rebuild !== 'string') fail('/rebuild', 'expected a string (the command that rebuilds the overlay)');
  if (hasOwn(json, 'server') && !isObject(json.server)) fail('/server', 'expected an object ({ name, version })');
  if (!Array.isArray(json.steps)) fail('/steps', 'expected an array of { transform, options }');
  for (const [i, step] of (json.steps as unknown[]).entries()) {
    if (!isObject(step) || typeof step.transform !== 'string' || !isObject(step.options)) fail(`/steps/${i}`, 'expected { "transform": name, "options": { … } }');
  }
  const pin = json.pin;
  if (!isObject(pin) || pin.algorithm !== 'sha256' || !Array.isArray(pin.tools)) fail('/pin', 'expected { "algorithm": "sha256", "tools": [ … ] }');
  const pinned = new Set<string>();
  for (const [i, entry] of ((pin as { tools: unknown[] }).tools).entries()) {
    if (!isObject(entry) || typeof entry.name !== 'string' || !isHash(entry.sha256) || !isHash(entry.bodySha256)) fail(`/pin/tools/${i}`, 'expected { "name", "sha256", "bodySha256" } with 64 hex digits per hash');
    pinned.add((entry as { name: string }).name);
  }
  if (hasOwn(json, 'instructions') && typeof json.instructions !== 'string') fail('/instructions', 'expected a string');
  if (hasOwn(json, 'dropped')) {
    if (!Array.isArray(json.dropped)) fail('/dropped', 'expected an array');
    for (const [i, d] of (json.dropped as unknown[]).entries()) {
      if (!isObject(d) || typeof d.name !== 'string' || typeof d.slot !== 'string' || typeof d.error !== 'string') fail(`/dropped/${i}`, 'expected { "name", "slot", "error" }');
    }
  }
  const renamedTo = new Set<string>();
  if (hasOwn(json, 'renamed')) {
    if (!Array.isArray(json.renamed)) fail('/renamed', 'expected an array of { "from", "to" }');
    for (const [i, r] of (json.renamed as unknown[]).entries()) {
      if (!isObject(r) || typeof r.from !== 'string' || typeof r.to !== 'string') fail(`/renamed/${i}`, 'expected { "from": server name, "to": served name }');
      if (!pinned.has((r as { from: string }).from)) fail(`/renamed/${i}/from`, `\`${(r as { from: string }).from}\` is not in the pin`);
      renamedTo.add((r as { to: string }).to);
    }
  }
  if (hasOwn(json, 'responses')) parseResponsePolicies(json.responses, file);
  if (!Array.isArray(json.tools)) fail('/tools', 'expected the array of tools to serve');
  const served = new Set<string>();
  for (const [i, tool] of (json.tools as unknown[]).entries()) {
    if (!isObject(tool) || typeof tool.name !== 'string') fail(`/tools/${i}`, 'expected a tool with a string `name`');
    const name = (tool as { name: string }).name;
    if (!pinned.has(name) && !renamedTo.has(name)) fail(`/tools/${i}`, `tool \`${name}\` is not in the pin: the overlay does not say which server tool it stands for`);
    if (served.has(name)) fail(`/tools/${i}`, `a second tool named \`${name}\`: a client cannot tell two tools of one name apart (a tampered overlay; rebuild it: ${rebuild})`);
    served.add(name);
  }
  checkOverlayContent(json, file, rebuild);
  return json as unknown as Overlay;
}

function withoutName(tool: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(tool)) {
    if (key === 'name') continue;
    Object.defineProperty(out, key, { value: tool[key], writable: true, enumerable: true, configurable: true });
  }
  return out;
}

function recordStep(step: Step | OverlayStep, index: number): OverlayStep {
  if (Array.isArray(step)) {
    const [transform, options] = step as Step;
    if (typeof transform !== 'function' || typeof transform.name !== 'string') throw new ToolslimError('invalid-option', `createOverlay: step ${index} is not a [transform, options] pair`);
    return { transform: transform.name, options: jsonCopy(options ?? {}, `steps/${index}/options`) as Record<string, unknown> };
  }
  if (isObject(step) && typeof step.transform === 'string' && isObject(step.options)) return { transform: step.transform, options: jsonCopy(step.options, `steps/${index}/options`) as Record<string, unknown> };
  throw new ToolslimError('invalid-option', `createOverlay: step ${index} must be a resolved step or { transform, options }, got ${describeValue(step)}`);
}

/** A JSON copy (what the file will hold); throws naming the member for what JSON cannot hold. */
function jsonCopy<T>(value: T, what: string): T {
  // A value that cannot be written is named with the pointer of the problem (stringifyForCaller).
  const text = stringifyForCaller(value, 'createOverlay', `\`${what}\``);
  if (text === undefined) throw new ToolslimError('invalid-input', `createOverlay: \`${what}\` is not JSON`);
  return JSON.parse(text) as T;
}

function isHash(value: unknown): boolean {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}
