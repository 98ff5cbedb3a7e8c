import { checkJsonTool, describe as describeValue, locateTools } from '../engine/input.js';
import type { ToolsInput } from '../core/run-types.js';
import { ToolslimError } from '../core/errors.js';
import { utf8Length, type Tokenizer } from '../core/measure.js';
import type { Severity, ToolFindingBase } from '../core/report.js';
import { toolName } from '../core/tool.js';
import { SCHEMA_SLOTS } from '../core/tool.js';
import { findDialectContradictions, getDeclaredDialect, type DialectContradiction } from '../schema/dialect.js';
import { DEFINITIONS_KEYWORDS, UNION_KEYWORDS, type Dialect } from '../schema/keywords.js';
import { appendPointer, getAt, parsePointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { parseRef } from '../schema/ref-syntax.js';
import { collectRefInventory, findUnresolvedRefs, resolveRefSite } from '../schema/refs.js';
import { walkSchema } from '../schema/walk.js';
import { findReachedDefinitions } from '../transforms/prune-unreachable-defs.js';
import { analyzeSurface } from './surface.js';

/** What `lintTools` can find, by code. */
export type FindingCode =
  | 'invalid-tool'
  | 'missing-name'
  | 'invalid-name'
  | 'duplicate-name'
  | 'missing-input-schema'
  | 'root-not-object'
  | 'unresolved-ref'
  | 'external-ref'
  | 'contradicted-dialect'
  | 'unreachable-def'
  | 'missing-description'
  | 'missing-param-description'
  | 'indirect-mcp-header'
  | 'invalid-mcp-header'
  | 'many-arguments'
  | 'over-budget'
  | 'description-collision'
  | 'lint-failed';

/** One problem `lintTools` found; `code` is a {@link FindingCode} or the code of a check passed in `LintOptions.checks`. */
export interface Finding extends ToolFindingBase {
  /** For `unreachable-def`: bytes of compact JSON the definition costs. */
  readonly bytes?: number;
}

/**
 * An extra check run by `lintTools` after the built-in ones (for example the tool-surface analysis).
 * It gets the located tools array and the options; its findings go through the same severity overrides.
 */
export type LintCheck = (tools: readonly unknown[], options: LintOptions) => readonly Finding[];

/** Options of {@link lintTools}. */
export interface LintOptions {
  /** Limit on the compact JSON bytes of the whole tools array. */
  readonly maxBytes?: number;
  /** Limit on the compact JSON bytes of any one tool. */
  readonly maxToolBytes?: number;
  /** Limit on the tokens of the whole tools array (needs `tokenizer`). */
  readonly maxTokens?: number;
  /** Limit on the tokens of any one tool (needs `tokenizer`). */
  readonly maxToolTokens?: number;
  /** Counts tokens for the token limits (see `toolslim/tokens`). */
  readonly tokenizer?: Tokenizer;
  /** Tools with more top-level arguments than this get a `many-arguments` finding (default 4). */
  readonly maxArguments?: number;
  /** Changes the severity of a code, or turns it `off`. */
  readonly severity?: Readonly<Record<string, Severity | 'off'>>;
  /** Pairs at or above this name+description similarity are reported (default 0.30; `false` turns the check off). */
  readonly collisionThreshold?: number | false;
  /** Reported pairs at or above this similarity are warnings, the rest `info` (default 0.60). */
  readonly collisionWarningThreshold?: number;
  /** Extra checks, run after the built-in ones. */
  readonly checks?: readonly LintCheck[];
  /** Tools nested deeper than this are reported as `invalid-tool` and not checked further (default 1000). */
  readonly maxDepth?: number;
}

/** The default severity of each built-in finding. */
export const FINDING_SEVERITY: Readonly<Record<FindingCode, Severity>> = Object.freeze({
  'invalid-tool': 'error',
  'missing-name': 'error',
  'invalid-name': 'warning',
  'duplicate-name': 'error',
  'missing-input-schema': 'error',
  'root-not-object': 'error',
  'unresolved-ref': 'error',
  'external-ref': 'warning',
  'contradicted-dialect': 'error',
  'unreachable-def': 'warning',
  'missing-description': 'warning',
  'missing-param-description': 'info',
  'indirect-mcp-header': 'warning',
  'invalid-mcp-header': 'error',
  'many-arguments': 'info',
  'description-collision': 'warning',
  'over-budget': 'error',
  'lint-failed': 'error',
});

/** The MCP rule for tool names: 1–128 characters of `A–Z a–z 0–9 _ - .`. */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Severities from most to least severe. */
export const SEVERITIES: readonly Severity[] = Object.freeze(['error', 'warning', 'info']);

/** True when `severity` is at least as severe as `threshold`. */
export function isAtLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);
}

/**
 * Whole-list analyses `lintTools` always runs after its per-tool rules, before `options.checks`. The
 * tool-surface analysis (description collisions, argument counts across tools) plugs in here.
 */
export const BUILTIN_CHECKS: readonly LintCheck[] = Object.freeze([checkDescriptionCollisions]);

/**
 * Pairs of tools whose name and description read alike (character-bigram Jaccard, see
 * `analyzeSurface`): each pair at or above `collisionThreshold`, then one whole-list finding with the
 * mean similarity and the number of pairs.
 */
function checkDescriptionCollisions(tools: readonly unknown[], options: LintOptions): Finding[] {
  if (options.collisionThreshold === false || tools.length < 2) return [];
  const analysis = analyzeSurface(tools, {
    ...(options.collisionThreshold !== undefined ? { collisionThreshold: options.collisionThreshold } : {}),
    ...(options.collisionWarningThreshold !== undefined ? { collisionWarningThreshold: options.collisionWarningThreshold } : {}),
  });
  const out: Finding[] = analysis.findings.filter((f) => f.code === 'description-collision').map((f) => ({ ...f }));
  const { pairs, mean, compared, threshold } = analysis.collisions;
  if (pairs.length > 0) {
    out.push({
      severity: 'info',
      code: 'description-collision',
      tool: '',
      toolIndex: -1,
      path: '',
      message: `${pairs.length} of ${compared} tool pairs read alike (similarity ≥ ${threshold}); mean similarity over all pairs ${mean.toFixed(3)}`,
    });
  }
  return out;
}

const DEFAULT_MAX_ARGUMENTS = 4;
const DEFAULT_MAX_DEPTH = 1000;
// RFC 9110 `token` (tchar+), the form an `x-mcp-header` value must take.
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES: readonly string[] = ['string', 'integer', 'boolean'];

/**
 * Checks a `tools/list` result for what breaks clients or wastes tokens, for CI. Accepts every input
 * `transformTools` accepts; pointers are into the tools array. Pure; a tool that cannot be checked is
 * reported (`invalid-tool`, `lint-failed`) without stopping the others. Findings come in tool order,
 * whole-list findings last.
 */
export function lintTools(input: ToolsInput, options: LintOptions = {}): Finding[] {
  validateOptions(options);
  const tools = locateTools(input).tools;
  const raw: Finding[] = [];
  const names = tools.map(toolName);
  const firstIndex = new Map<string, number>();
  const measureTokens = options.tokenizer !== undefined && (options.maxTokens !== undefined || options.maxToolTokens !== undefined);
  const texts: (string | undefined)[] = [];
  const budgets = options.maxBytes !== undefined || options.maxToolBytes !== undefined || measureTokens;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    const out = new ToolFindings(raw, names[i]!, i);
    const problem = checkJsonTool(tool, options.maxDepth ?? DEFAULT_MAX_DEPTH);
    if (problem) {
      out.add('invalid-tool', problem.path, `tool cannot be checked: ${problem.message}`);
      if (budgets) texts.push(safeStringify(tool));
      continue;
    }
    const t = tool as Record<string, unknown>;
    try {
      checkName(t, out, firstIndex);
      checkToolDescription(t, out);
      checkSchemas(t, out, options);
    } catch (e) {
      out.add('lint-failed', '', `a check threw: ${(e as Error)?.message ?? String(e)}`);
    }
    if (!budgets) continue;
    let text: string | undefined;
    try {
      text = JSON.stringify(tool);
    } catch (e) {
      out.add('lint-failed', '', `cannot measure the tool: ${(e as Error)?.message ?? String(e)}`);
    }
    texts.push(text);
    if (text !== undefined) checkToolBudget(text, out, options, measureTokens);
  }
  if (budgets) checkListBudget(texts, raw, options, measureTokens);
  for (const check of [...BUILTIN_CHECKS, ...(options.checks ?? [])]) {
    try {
      raw.push(...check(tools, options));
    } catch (e) {
      raw.push({ severity: 'error', code: 'lint-failed', tool: '', toolIndex: -1, path: '', message: `a check threw: ${(e as Error)?.message ?? String(e)}` });
    }
  }
  return applySeverities(raw, options.severity);
}

/** Collects the findings of one tool, with its prefix and name filled in. */
class ToolFindings {
  readonly prefix: string;
  constructor(
    private readonly out: Finding[],
    readonly name: string,
    readonly index: number,
  ) {
    this.prefix = appendPointer('', index);
  }
  add(code: FindingCode, path: string, message: string, extra?: { bytes: number }): void {
    this.out.push({ severity: FINDING_SEVERITY[code], code, tool: this.name, toolIndex: this.index, path: this.prefix + path, message, ...extra });
  }
  get label(): string {
    return this.name === '' ? `tool #${this.index}` : `\`${this.name}\``;
  }
}

function checkName(tool: Record<string, unknown>, out: ToolFindings, firstIndex: Map<string, number>): void {
  if (!hasOwn(tool, 'name') || typeof tool.name !== 'string') {
    out.add('missing-name', hasOwn(tool, 'name') ? '/name' : '', `tool #${out.index} has ${hasOwn(tool, 'name') ? `a \`name\` that is ${describeValue(tool.name)}` : 'no `name`'}; expected a string`);
    return;
  }
  const name = tool.name;
  if (!MCP_TOOL_NAME.test(name)) {
    const why = name.length === 0 ? 'is empty' : name.length > 128 ? `is ${name.length} characters long` : `contains ${listBad(name)}`;
    out.add('invalid-name', '/name', `tool name ${JSON.stringify(name)} ${why}; expected 1–128 characters of A–Z a–z 0–9 _ - .`);
  }
  const first = firstIndex.get(name);
  if (first === undefined) firstIndex.set(name, out.index);
  else out.add('duplicate-name', '/name', `tool name \`${name}\` is already used by tool #${first}; clients can call only one of them`);
}

function listBad(name: string): string {
  const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_.-]/.test(c)))];
  return bad.map((c) => (/\s/.test(c) ? JSON.stringify(c) : `\`${c}\``)).join(', ');
}

function checkToolDescription(tool: Record<string, unknown>, out: ToolFindings): void {
  const d = hasOwn(tool, 'description') ? tool.description : undefined;
  if (typeof d !== 'string' || d.trim() === '') {
    out.add('missing-description', hasOwn(tool, 'description') ? '/description' : '', `${out.label} has ${d === undefined ? 'no description' : 'an empty description'}; models choose tools by their descriptions`);
  }
}

function checkSchemas(tool: Record<string, unknown>, out: ToolFindings, options: LintOptions): void {
  if (!hasOwn(tool, 'inputSchema') || !isObject(tool.inputSchema)) {
    const what = hasOwn(tool, 'inputSchema') ? `an \`inputSchema\` that is ${describeSchema(tool.inputSchema)}` : 'no `inputSchema`';
    out.add('missing-input-schema', hasOwn(tool, 'inputSchema') ? '/inputSchema' : '', `${out.label} has ${what}; expected a JSON Schema object with \`type: "object"\``);
  }
  for (const slot of SCHEMA_SLOTS) {
    if (!hasOwn(tool, slot) || !isObject(tool[slot])) continue;
    const schema = tool[slot] as Record<string, unknown>;
    const base = '/' + slot;
    checkRootType(schema, base, slot, out);
    const declared = getDeclaredDialect(schema);
    checkRefs(schema, declared.dialect, base, out);
    if (declared.source === 'declared') checkDialect(schema, declared.dialect, base, out);
    checkUnreachable(schema, base, out);
    if (slot === 'inputSchema') {
      checkParameters(schema, base, out, options.maxArguments ?? DEFAULT_MAX_ARGUMENTS);
      checkHeaders(schema, base, out);
    }
  }
}

function checkRootType(schema: Record<string, unknown>, base: string, slot: string, out: ToolFindings): void {
  if (schema.type === 'object' && hasOwn(schema, 'type')) return;
  const what = hasOwn(schema, 'type') ? `\`type\` ${JSON.stringify(schema.type)}` : 'no `type`';
  out.add('root-not-object', hasOwn(schema, 'type') ? base + '/type' : base, `\`${slot}\` of ${out.label} has ${what}; MCP requires \`type: "object"\` at the root (clients reject the list otherwise)`);
}

function checkRefs(schema: Record<string, unknown>, dialect: Dialect, base: string, out: ToolFindings): void {
  const inventory = collectRefInventory(schema, dialect);
  for (const { site, reason } of findUnresolvedRefs(schema, dialect, inventory)) {
    out.add('unresolved-ref', base + site.path, `\`${site.keyword}\` \`${site.ref}\` cannot be resolved: ${reason}`);
  }
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    const r = resolveRefSite(schema, inventory, site);
    if (r.status === 'external') out.add('external-ref', base + site.path, `\`${site.keyword}\` \`${site.ref}\` names another document (\`${r.uri}\`); clients never fetch it, so the schema is incomplete`);
  }
}

function checkDialect(schema: Record<string, unknown>, dialect: Dialect, base: string, out: ToolFindings): void {
  // One finding per keyword and kind: the first place, and how many more there are.
  const groups = new Map<string, { first: DialectContradiction; count: number }>();
  for (const c of findDialectContradictions(schema, { assume: dialect })) {
    const key = `${c.kind}\u0000${c.keyword}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { first: c, count: 1 });
  }
  for (const { first, count } of groups.values()) {
    const more = count === 1 ? '' : ` (${count} places, first shown)`;
    out.add('contradicted-dialect', base + first.path, `${first.message}${more}`);
  }
}

function checkUnreachable(schema: Record<string, unknown>, base: string, out: ToolFindings): void {
  const containers = DEFINITIONS_KEYWORDS.filter((k) => hasOwn(schema, k) && isObject(schema[k]));
  if (containers.length === 0) return;
  const reached = findReachedDefinitions(schema);
  if ('undecidable' in reached) return;
  for (const container of containers) {
    const defs = schema[container] as Record<string, unknown>;
    for (const name of Object.keys(defs)) {
      if (reached.keys.has(container + '\u0000' + name)) continue;
      // The member `"name":value` and its separating comma.
      const bytes = utf8Length(JSON.stringify(name)) + 1 + utf8Length(JSON.stringify(defs[name]) ?? '') + 1;
      out.add('unreachable-def', appendPointer(appendPointer(base, container), name), `definition \`${name}\` in \`${container}\` is not reachable from any \`$ref\`: ${bytes} bytes wasted on every turn`, { bytes });
    }
  }
}

function checkParameters(schema: Record<string, unknown>, base: string, out: ToolFindings, maxArguments: number): void {
  if (!hasOwn(schema, 'properties') || !isObject(schema.properties)) return;
  const props = schema.properties;
  const names = Object.keys(props);
  if (names.length > maxArguments) {
    out.add('many-arguments', base + '/properties', `${out.label} takes ${names.length} arguments (more than ${maxArguments}); models fill long argument lists less reliably`);
  }
  for (const name of names) {
    const p = props[name];
    if (hasDescription(p) || hasDescription(followLocalRef(schema, p))) continue;
    out.add('missing-param-description', appendPointer(base + '/properties', name), `parameter \`${name}\` of ${out.label} has no description`);
  }
}

function hasDescription(schema: unknown): boolean {
  return isObject(schema) && hasOwn(schema, 'description') && typeof schema.description === 'string' && schema.description.trim() !== '';
}

/** The target of a schema's local pointer `$ref` within the document, one hop. */
function followLocalRef(root: Record<string, unknown>, schema: unknown): unknown {
  if (!isObject(schema) || typeof schema.$ref !== 'string' || !hasOwn(schema, '$ref')) return undefined;
  const parsed = parseRef(schema.$ref);
  return parsed.kind === 'pointer' ? getAt(root, parsed.tokens) : undefined;
}

/**
 * `x-mcp-header` (SEP-2243): clients find annotated parameters by following `properties` from the root;
 * one reached any other way (through `$defs`/`$ref`, `allOf`/`anyOf`/`oneOf`, `items`) is invisible to
 * them. Values must be unique HTTP tokens on string, integer or boolean parameters, or clients drop the tool.
 */
function checkHeaders(schema: Record<string, unknown>, base: string, out: ToolFindings): void {
  const seen = new Map<string, string>();
  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path) {
      if (!isObject(node) || !hasOwn(node, 'x-mcp-header')) return;
      const value = node['x-mcp-header'];
      const at = base + path + '/x-mcp-header';
      if (typeof value !== 'string' || !HTTP_TOKEN.test(value)) {
        out.add('invalid-mcp-header', at, `\`x-mcp-header\` is ${typeof value === 'string' ? JSON.stringify(value) : describeValue(value)}; expected a non-empty HTTP token (letters, digits, !#$%&'*+-.^_\`|~); clients drop the tool`);
      } else {
        const lower = value.toLowerCase();
        const other = seen.get(lower);
        if (other !== undefined) out.add('invalid-mcp-header', at, `\`x-mcp-header\` ${JSON.stringify(value)} repeats the one at \`${other}\` (header names are case-insensitive); clients drop the tool`);
        else seen.set(lower, at);
      }
      if (hasOwn(node, 'type')) {
        const types = Array.isArray(node.type) ? node.type : [node.type];
        const bad = types.filter((t) => t !== 'null' && !HEADER_TYPES.includes(t as string));
        if (bad.length > 0) out.add('invalid-mcp-header', at, `\`x-mcp-header\` is on a parameter of type ${bad.map((t) => JSON.stringify(t)).join(', ')}; only string, integer and boolean parameters can be headers; clients drop the tool`);
      }
      if (!isDirectProperty(path)) {
        out.add('indirect-mcp-header', at, `\`x-mcp-header\` sits at \`${base}${path}\`, which is not reached by \`properties\` alone from the root; clients look for it only along \`properties\` and will not send the header`);
      }
    },
  });
}

function isDirectProperty(path: string): boolean {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return false;
  for (let i = 0; i < tokens.length; i += 2) if (tokens[i] !== 'properties' || tokens[i + 1] === undefined) return false;
  return true;
}

function checkToolBudget(text: string, out: ToolFindings, options: LintOptions, measureTokens: boolean): void {
  const bytes = utf8Length(text);
  if (options.maxToolBytes !== undefined && bytes > options.maxToolBytes) {
    out.add('over-budget', '', `${out.label} is ${bytes} bytes of JSON; the budget is ${options.maxToolBytes} per tool`);
  }
  if (measureTokens && options.maxToolTokens !== undefined) {
    const tokens = options.tokenizer!.count(text);
    if (tokens > options.maxToolTokens) out.add('over-budget', '', `${out.label} is ${tokens} tokens (${options.tokenizer!.name}); the budget is ${options.maxToolTokens} per tool`);
  }
}

function checkListBudget(texts: readonly (string | undefined)[], out: Finding[], options: LintOptions, measureTokens: boolean): void {
  const whole = (message: string): Finding => ({ severity: FINDING_SEVERITY['over-budget'], code: 'over-budget', tool: '', toolIndex: -1, path: '', message });
  if (options.maxBytes !== undefined) {
    let bytes = texts.length === 0 ? 2 : 1 + texts.length;
    for (const t of texts) bytes += t === undefined ? 4 : utf8Length(t);
    if (bytes > options.maxBytes) out.push(whole(`the tools list is ${bytes} bytes of JSON; the budget is ${options.maxBytes}`));
  }
  if (measureTokens && options.maxTokens !== undefined) {
    const tokens = options.tokenizer!.count('[' + texts.map((t) => t ?? 'null').join(',') + ']');
    if (tokens > options.maxTokens) out.push(whole(`the tools list is ${tokens} tokens (${options.tokenizer!.name}); the budget is ${options.maxTokens}`));
  }
}

function applySeverities(findings: readonly Finding[], overrides: LintOptions['severity']): Finding[] {
  if (!overrides) return findings.slice();
  const out: Finding[] = [];
  for (const f of findings) {
    const o = hasOwn(overrides, f.code) ? overrides[f.code] : undefined;
    if (o === 'off') continue;
    out.push(o === undefined ? f : { ...f, severity: o });
  }
  return out;
}

function validateOptions(options: LintOptions): void {
  for (const key of ['maxBytes', 'maxToolBytes', 'maxTokens', 'maxToolTokens', 'maxArguments', 'maxDepth'] as const) {
    const v = options[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) throw new ToolslimError('invalid-option', `lint: \`${key}\` must be a non-negative number, got ${JSON.stringify(v)}`);
  }
  if ((options.maxTokens !== undefined || options.maxToolTokens !== undefined) && options.tokenizer === undefined) {
    throw new ToolslimError('invalid-option', 'lint: `maxTokens` and `maxToolTokens` need a `tokenizer` (import { o200k } from "toolslim/tokens")');
  }
  for (const [code, s] of Object.entries(options.severity ?? {})) {
    if (s !== 'off' && !SEVERITIES.includes(s)) throw new ToolslimError('invalid-option', `lint: severity of \`${code}\` must be error, warning, info or off, got ${JSON.stringify(s)}`);
  }
}

function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function describeSchema(value: unknown): string {
  if (typeof value === 'boolean') return `the boolean ${value}`;
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
