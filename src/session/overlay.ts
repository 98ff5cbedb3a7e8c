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
import { sha256Hex } from './sha256.js';
import { majorOf, TOOLSLIM_VERSION } from './version.js';
import { stringifyJson } from '../json/stringify.js';

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
  /** The command that rebuilds this overlay (shown when the server drifted), when the writer knew it. */
  readonly rebuild?: string;
  /** The server's `serverInfo` from its `initialize` result, when known. */
  readonly server?: { readonly name?: string; readonly version?: string };
  /** The pipeline that made `tools`, in order. */
  readonly steps: readonly OverlayStep[];
  /** The original list: each tool's name and hashes, in the server's order. */
  readonly pin: { readonly algorithm: 'sha256'; readonly tools: readonly OverlayPinEntry[] };
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

/** How the live list differs from an overlay's pin. */
export interface OverlayDrift {
  /** True when anything below is non-empty (the order of tools alone is not drift). */
  readonly drifted: boolean;
  /** Live tools the pin does not know, by name. */
  readonly added: readonly string[];
  /** Pinned tools the server no longer lists. */
  readonly removed: readonly string[];
  /** Tools listed under the same name with other bytes. */
  readonly changed: readonly string[];
  /** A pinned tool that is listed under another name, and otherwise the same. */
  readonly renamed: readonly { readonly from: string; readonly to: string }[];
  /** One message naming each difference and the command that rebuilds the overlay (empty when none). */
  readonly message: string;
}

/** Options of {@link findDrift}. */
export interface FindDriftOptions {
  /** The overlay's path, for the message. */
  readonly file?: string;
  /** The rebuild command for the message (default: the overlay's `rebuild`, else a template). */
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
    throw new ToolslimError('invalid-input', `tool ${name === '' ? '(unnamed)' : `\`${name}\``} cannot be pinned: it is not JSON (${(e as Error).message})`, { tool: name });
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
  return overlay as unknown as Overlay;
}

/**
 * Reads an overlay file's text. `file` names it in errors.
 *
 * @throws ToolslimError (`invalid-input`) when the text is not JSON or not an overlay this toolslim serves
 */
export function readOverlay(text: string, file = 'the overlay'): Overlay {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ToolslimError('invalid-input', `${file} is not JSON (${(e as Error).message}), so it is not a toolslim overlay; build one with \`toolslim optimize --overlay ${file} …\``, { cause: e });
  }
  return parseOverlay(json, file);
}

/**
 * Checks that `json` is an overlay this toolslim can serve and returns it typed: the `toolslimOverlay`
 * marker and format, a toolslim version of the same major version as this one, the pin, the steps, the
 * tools (every one of them pinned) and the instructions. `file` names it in errors.
 *
 * @throws ToolslimError (`invalid-input`) naming the file and the JSON pointer of what is wrong
 */
export function parseOverlay(json: unknown, file = 'the overlay'): Overlay {
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
    fail('/toolslimVersion', `written by toolslim ${version as string} (major ${theirs}); this is toolslim ${TOOLSLIM_VERSION} (major ${ours}): rebuild the overlay with this toolslim${typeof json.rebuild === 'string' ? ` (${json.rebuild})` : ''}`);
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
  for (const [i, tool] of (json.tools as unknown[]).entries()) {
    if (!isObject(tool) || typeof tool.name !== 'string') fail(`/tools/${i}`, 'expected a tool with a string `name`');
    if (!pinned.has((tool as { name: string }).name) && !renamedTo.has((tool as { name: string }).name)) fail(`/tools/${i}`, `tool \`${(tool as { name: string }).name}\` is not in the pin: the overlay does not say which server tool it stands for`);
  }
  return json as unknown as Overlay;
}

/**
 * Compares the server's live tools with the overlay's pin: tools added, removed, changed (same name,
 * other bytes) and renamed (a removed and an added tool that are the same but for the name). The order
 * of the tools is not compared. Duplicate names are compared occurrence by occurrence.
 */
export function findDrift(overlay: Overlay, liveTools: readonly unknown[], options: FindDriftOptions = {}): OverlayDrift {
  if (!Array.isArray(liveTools)) throw new ToolslimError('invalid-input', `findDrift: the live tools must be an array, got ${describeValue(liveTools)}`);
  const live = liveTools.map(pinTool);
  const pinnedByName = groupByName(overlay.pin.tools);
  const liveByName = groupByName(live);
  const changed: string[] = [];
  let removed: OverlayPinEntry[] = [];
  let added: OverlayPinEntry[] = [];
  for (const [name, entries] of pinnedByName) {
    const now = liveByName.get(name) ?? [];
    for (let i = 0; i < entries.length; i++) {
      if (i >= now.length) removed.push(entries[i]!);
      else if (now[i]!.sha256 !== entries[i]!.sha256) changed.push(name);
    }
  }
  for (const [name, entries] of liveByName) {
    const before = pinnedByName.get(name) ?? [];
    for (let i = before.length; i < entries.length; i++) added.push(entries[i]!);
  }
  const renamed: { from: string; to: string }[] = [];
  if (removed.length > 0 && added.length > 0) {
    const takenAdded = new Set<number>();
    const takenRemoved = new Set<number>();
    for (const [r, gone] of removed.entries()) {
      const a = added.findIndex((x, k) => !takenAdded.has(k) && x.bodySha256 === gone.bodySha256);
      if (a < 0) continue;
      takenAdded.add(a);
      takenRemoved.add(r);
      renamed.push({ from: gone.name, to: added[a]!.name });
    }
    removed = removed.filter((_, k) => !takenRemoved.has(k));
    added = added.filter((_, k) => !takenAdded.has(k));
  }
  const result = { added: added.map((e) => e.name), removed: removed.map((e) => e.name), changed: [...new Set(changed)], renamed };
  const drifted = result.added.length + result.removed.length + result.changed.length + result.renamed.length > 0;
  return { drifted, ...result, message: drifted ? driftMessage(overlay, result, options) : '' };
}

function driftMessage(overlay: Overlay, d: Pick<OverlayDrift, 'added' | 'removed' | 'changed' | 'renamed'>, options: FindDriftOptions): string {
  const file = options.file ?? 'the overlay';
  const list = (names: readonly string[]) => names.map((n) => (n === '' ? '(unnamed)' : `\`${n}\``)).join(', ');
  const lines = [`toolslim: the server's tools differ from ${file} (pinned by toolslim ${overlay.toolslimVersion}${overlay.server?.name ? ` for ${overlay.server.name}${overlay.server.version ? ' ' + overlay.server.version : ''}` : ''}):`];
  if (d.changed.length > 0) lines.push(`  changed: ${list(d.changed)}`);
  if (d.added.length > 0) lines.push(`  added: ${list(d.added)}`);
  if (d.removed.length > 0) lines.push(`  removed: ${list(d.removed)}`);
  if (d.renamed.length > 0) lines.push(`  renamed: ${d.renamed.map((r) => `${list([r.from])} → ${list([r.to])}`).join(', ')}`);
  const rebuild = options.rebuild ?? overlay.rebuild ?? `toolslim optimize --overlay ${options.file ?? 'overlay.json'} -- <server command>`;
  lines.push(`Review what changed, then rebuild the overlay: ${rebuild}`);
  return lines.join('\n');
}

function groupByName(entries: readonly OverlayPinEntry[]): Map<string, OverlayPinEntry[]> {
  const out = new Map<string, OverlayPinEntry[]>();
  for (const e of entries) {
    const list = out.get(e.name);
    if (list) list.push(e);
    else out.set(e.name, [e]);
  }
  return out;
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
  let text: string | undefined;
  try {
    text = stringifyJson(value);
  } catch (e) {
    throw new ToolslimError('invalid-input', `createOverlay: \`${what}\` is not JSON (${(e as Error).message})`);
  }
  if (text === undefined) throw new ToolslimError('invalid-input', `createOverlay: \`${what}\` is not JSON`);
  return JSON.parse(text) as T;
}

function isHash(value: unknown): boolean {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}
