// Why one file: not by design: the built-in checks share one ToolFindings collector; DESIGN.md's lint/rules/
// (one finding rule per file) is the intended split, not done yet.
import { code, formatCount } from '../core/format.js';
import { isOptionsObject } from '../core/describe.js';
import { editDistance } from '../core/edit-distance.js';
import { checkJsonTool, describe as describeValue, locateTools } from '../engine/input.js';
import { DEFAULT_MAX_DEPTH } from '../engine/options.js';
import { isParsedJson } from '../json/parsed.js';
import type { ToolsInput } from '../core/run-types.js';
import { ToolslimError } from '../core/errors.js';
import { arrayParts, countJoined, utf8Length, type Tokenizer } from '../core/measure.js';
import type { Severity, ToolFindingBase } from '../core/report.js';
import { toolName } from '../core/tool.js';
import { SCHEMA_SLOTS } from '../core/tool.js';
import { findDialectContradictions, getDeclaredDialect, type DialectContradiction } from '../schema/dialect.js';
import { DEFINITIONS_KEYWORDS, UNION_KEYWORDS, type Dialect } from '../schema/keywords.js';
import { appendPointer, getAt, parsePointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { parseRef } from '../schema/ref-syntax.js';
import { collectRefInventory, findUnresolvedRefs, INVENTORY_KEYS, resolveRefSite } from '../schema/refs.js';
import { walkSchema } from '../schema/walk.js';
import { isProfileFindingCode, PROFILE_FINDING_CODES } from '../profiles/codes.js';
import { findRefCycles, type ResolvedRef } from './rules/ref-cycle.js';
import { findReachedDefinitions } from '../transforms/prune-unreachable-defs.js';
import { saysOnlyItsName } from '../transforms/strip-noise/rules/restated-names.js';
import type { DescriptionFacts } from '../transforms/strip-noise/rule.js';
import { collisionText, DEFAULT_COLLISION_PARTNERS, DEFAULT_COLLISION_THRESHOLD, collisionMessage, collisionSearchStopped, findCollisions } from './collisions.js';
import { checkCollisionOptions, invalidToolMessage } from './surface.js';

/** What `lintTools` can find, by code. */
export type FindingCode =
  | 'invalid-tool'
  | 'missing-name'
  | 'invalid-name'
  | 'duplicate-name'
  | 'missing-input-schema'
  | 'root-not-object'
  | 'unresolved-ref'
  | 'ref-cycle'
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
  | 'empty-list'
  | 'renders-as-any'
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
  /**
   * Tools whose name+description similarity to another is at or above this get a
   * `description-collision` finding (default 0.30; `false` turns the check off, as does severity `off`).
   */
  readonly collisionThreshold?: number | false;
  /** How many of its most similar partners each collision finding names (default 3). */
  readonly collisionPartners?: number;
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
  'ref-cycle': 'error',
  'external-ref': 'warning',
  'contradicted-dialect': 'error',
  'unreachable-def': 'warning',
  'missing-description': 'warning',
  'missing-param-description': 'info',
  'indirect-mcp-header': 'warning',
  'invalid-mcp-header': 'error',
  'many-arguments': 'info',
  'description-collision': 'info',
  'over-budget': 'error',
  'empty-list': 'info',
  'renders-as-any': 'warning',
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
 * Tools whose name and description read alike (character-bigram Jaccard at or above
 * `collisionThreshold`, see `analyzeSurface`): one finding per such tool naming its closest partners,
 * then one whole-list summary. Skipped entirely when the threshold is `false` or the code is `off`.
 */
function checkDescriptionCollisions(tools: readonly unknown[], options: LintOptions): Finding[] {
  if (options.collisionThreshold === false || options.severity?.['description-collision'] === 'off' || tools.length < 2) return [];
  const threshold = options.collisionThreshold ?? DEFAULT_COLLISION_THRESHOLD;
  const partners = options.collisionPartners ?? DEFAULT_COLLISION_PARTNERS;
  const names = tools.map(toolName);
  const texts = tools.map((t, i) => collisionText(names[i], isObject(t) ? t.description : undefined));
  const found = findCollisions(texts, names, { threshold, partners });
  const severity = FINDING_SEVERITY['description-collision'];
  const out: Finding[] = found.tools.map((c) => ({ severity, code: 'description-collision', tool: c.tool, toolIndex: c.toolIndex, path: appendPointer('', c.toolIndex), message: collisionMessage(c, threshold) }));
  if (out.length > 0) {
    const of = found.complete ? `${out.length} of ${tools.length} tools` : `${out.length} of the first ${found.searched} tools`;
    // The tool-surface metric's summary: the pairs found, their mean similarity and the worst five.
    const mean = found.pairs.reduce((sum, p) => sum + p.score, 0) / found.pairs.length;
    const worst = found.pairs.slice(0, 5).map((p) => `${code(p.a || `#${p.aIndex}`)} ≈ ${code(p.b || `#${p.bIndex}`)} (${p.score.toFixed(2)})`).join(', ');
    out.push({
      severity,
      code: 'description-collision',
      tool: '',
      toolIndex: -1,
      path: '',
      message: `${of} read like another tool: ${found.pairs.length} pair${found.pairs.length === 1 ? '' : 's'} at or above ${threshold.toFixed(2)} (character-bigram similarity; each tool names up to ${partners} closest), mean ${mean.toFixed(2)}, worst ${worst}; raise the threshold (\`--collision-threshold\`) or turn the rule off (\`--rule description-collision=off\`) for servers with long, formulaic descriptions`,
    });
  }
  if (!found.complete) out.push({ severity, code: 'description-collision', tool: '', toolIndex: -1, path: '', message: collisionSearchStopped(found.searched, tools.length) });
  return out;
}

const DEFAULT_MAX_ARGUMENTS = 4;

/**
 * The option under which a caller that has already run the engine's input check over the same tools hands its
 * verdicts over (`{ maxDepth, plain }`: `plain[i]` true when tool `i` passed that check at that depth), so
 * that the lint does not walk those tools again for it (`report` runs the transform, then the findings, on
 * one list). Honoured only at the lint's own depth; a tool not marked plain is checked as always.
 *
 * With it, `inventoryKeys[i] === false` says tool `i` holds no key a `$ref` inventory records with a string
 * value (see {@link textMayHoldInventoryKey}), and `headerKeys[i] === false` that it holds no `x-mcp-header`
 * key ({@link textMayHoldHeaderKey}): its reference and header checks, which would find nothing, are not run.
 * @internal
 */
export const CHECKED_PLAIN: unique symbol = Symbol.for('toolslim.lint.checkedPlain') as never;

/** What a caller hands over under {@link CHECKED_PLAIN}. @internal */
export interface CheckedPlain {
  readonly maxDepth: number;
  readonly plain: readonly boolean[];
  readonly inventoryKeys?: readonly boolean[];
  readonly headerKeys?: readonly boolean[];
}

/**
 * Whether a value whose compact JSON (`JSON.stringify`) is `text` may hold a key of `INVENTORY_KEYS`
 * (schema/refs.ts) with a string value, the only members a `$ref` inventory records: false means every
 * inventory of its schemas is empty, so it has no reference to resolve. Such a member reads `"<key>":"` in the
 * text (these keys are written as they are), and nowhere else can that stretch stand but in a key (a quote
 * inside a string is written `\"`), so a false is exact; a true is only "maybe". A look at the text is far
 * cheaper than the walk it spares: `report` has each tool's text at hand (it counts its tokens), and on the
 * 31,560-tool list of bench/check-scale.ts 787 tools hold one; the reference checks' walks of the others
 * (`collectRefInventory`, with an array of keys and children per object) were some 2% of `report`'s CPU.
 * @internal
 */
export function textMayHoldInventoryKey(text: string): boolean {
  return INVENTORY_KEY_MEMBER.test(text);
}

/** As {@link textMayHoldInventoryKey}, for an `x-mcp-header` key (of any value), what the header checks look for. @internal */
export function textMayHoldHeaderKey(text: string): boolean {
  return text.includes('"x-mcp-header":');
}

const INVENTORY_KEY_MEMBER = new RegExp(`"(?:${INVENTORY_KEYS.map((k) => k.replace(/\$/g, '\\$')).join('|')})":"`);
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
  // One map of key sizes for the whole list, as the engine's input check keeps (a map per tool counted every
  // tool's keys afresh: `type`, `description` and the property names repeat across tools).
  const keyBytes = new Map<string, number>();
  // An input the CLI parsed is JSON.parse's own (src/json/parsed.ts): its members are read without descriptors.
  const parsed = isParsedJson(input);
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const handed = (options as { [CHECKED_PLAIN]?: CheckedPlain })[CHECKED_PLAIN];
  const checked = handed !== undefined && handed.maxDepth === maxDepth ? handed.plain : undefined;
  const inventoryKeys = checked !== undefined ? handed!.inventoryKeys : undefined;
  const headerKeys = checked !== undefined ? handed!.headerKeys : undefined;
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    const out = new ToolFindings(raw, names[i]!, i);
    const problem = checked?.[i] === true ? undefined : checkJsonTool(tool, maxDepth, undefined, undefined, keyBytes, parsed);
    if (problem) {
      out.add('invalid-tool', problem.path, invalidToolMessage(problem.message));
      if (budgets) texts.push(safeStringify(tool));
      continue;
    }
    const t = tool as Record<string, unknown>;
    try {
      checkName(t, out, firstIndex);
      checkToolDescription(t, out);
      checkSchemas(t, out, options, inventoryKeys?.[i] !== false, headerKeys?.[i] !== false);
    } catch (e) {
      out.add('lint-failed', '', `a check threw: ${(e as Error)?.message ?? String(e)}; the tool's other findings may be missing (please report this, with the tool)`);
    }
    if (!budgets) continue;
    let text: string | undefined;
    try {
      text = JSON.stringify(tool);
    } catch (e) {
      out.add('lint-failed', '', `cannot measure the tool: ${(e as Error)?.message ?? String(e)}; its budget is not checked (please report this, with the tool)`);
    }
    texts.push(text);
    if (text !== undefined) checkToolBudget(text, out, options, measureTokens);
  }
  if (budgets) checkListBudget(texts, names, raw, options, measureTokens);
  if (tools.length === 0) {
    raw.push({ severity: FINDING_SEVERITY['empty-list'], code: 'empty-list', tool: '', toolIndex: -1, path: '', message: 'the tools list is empty; a server that offers tools lists at least one (check that the capture ran against the intended server, with the arguments and credentials it needs)' });
  }
  for (const check of [...BUILTIN_CHECKS, ...(options.checks ?? [])]) {
    try {
      // One by one: a spread of 100,000+ findings overflows the call stack.
      for (const f of check(tools, options)) raw.push(f);
    } catch (e) {
      raw.push({ severity: 'error', code: 'lint-failed', tool: '', toolIndex: -1, path: '', message: `a whole-list check threw: ${(e as Error)?.message ?? String(e)}; its findings are missing (please report this, with the list)` });
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
  add(code: FindingCode, path: string, message: string, extra?: { bytes?: number; severity?: Severity }): void {
    this.out.push({ severity: FINDING_SEVERITY[code], code, tool: this.name, toolIndex: this.index, path: this.prefix + path, message, ...extra });
  }
  get label(): string {
    return this.name === '' ? `tool #${this.index}` : code(this.name);
  }
}

function checkName(tool: Record<string, unknown>, out: ToolFindings, firstIndex: Map<string, number>): void {
  if (!hasOwn(tool, 'name') || typeof tool.name !== 'string') {
    out.add('missing-name', hasOwn(tool, 'name') ? '/name' : '', `tool #${out.index} has ${hasOwn(tool, 'name') ? `a \`name\` that is ${describeValue(tool.name)}` : 'no `name`'}; expected a string: give it a unique name (1–128 of A–Z a–z 0–9 _ - .)`);
    return;
  }
  const name = tool.name;
  if (!MCP_TOOL_NAME.test(name)) {
    const why = name.length === 0 ? 'is empty' : name.length > 128 ? `is ${name.length} characters long` : `contains ${listBad(name)}`;
    out.add('invalid-name', '/name', `tool name ${JSON.stringify(name)} ${why}; expected 1–128 characters of A–Z a–z 0–9 _ - . (rename it${suggestName(name)})`);
  }
  const first = firstIndex.get(name);
  if (first === undefined) firstIndex.set(name, out.index);
  else out.add('duplicate-name', '/name', `tool name ${code(name)} is already used by tool #${first}; clients can call only one of them: rename one`);
}

/**
 * The characters of a name outside MCP's alphabet, each once: in backticks, but a blank or a backtick as a
 * JSON string (`" "`, `"`"`). Before, a backtick was written in backticks, as three backticks in a row, which
 * markdown reads as a code fence and a reader as nothing at all.
 */
function listBad(name: string): string {
  const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_.-]/.test(c)))];
  return bad.map((c) => (/\s/.test(c) ? JSON.stringify(c) : code(c))).join(', ');
}

function checkToolDescription(tool: Record<string, unknown>, out: ToolFindings): void {
  const d = hasOwn(tool, 'description') ? tool.description : undefined;
  if (typeof d !== 'string' || d.trim() === '') {
    out.add('missing-description', hasOwn(tool, 'description') ? '/description' : '', `${out.label} has ${d === undefined ? 'no description' : 'an empty description'}; models choose tools by their descriptions: add a sentence saying what it does and when to use it`);
  }
}

/** `refs`, `headers`: false when the tool holds no key the reference checks, or the header checks, look for (see {@link CHECKED_PLAIN}). */
function checkSchemas(tool: Record<string, unknown>, out: ToolFindings, options: LintOptions, refs = true, headers = true): void {
  if (!hasOwn(tool, 'inputSchema') || !isObject(tool.inputSchema)) {
    const what = hasOwn(tool, 'inputSchema') ? `an \`inputSchema\` that is ${describeSchema(tool.inputSchema)}` : 'no `inputSchema`';
    out.add('missing-input-schema', hasOwn(tool, 'inputSchema') ? '/inputSchema' : '', `${out.label} has ${what}; expected a JSON Schema object with \`type: "object"\` (\`{ "type": "object" }\` for a tool without arguments)`);
  }
  for (const slot of SCHEMA_SLOTS) {
    if (!hasOwn(tool, slot) || !isObject(tool[slot])) continue;
    const schema = tool[slot] as Record<string, unknown>;
    const base = '/' + slot;
    checkRootType(schema, base, slot, out);
    const declared = getDeclaredDialect(schema);
    if (refs) checkRefs(schema, declared.dialect, base, out);
    // An unstamped schema is read as 2020-12 (MCP's default): draft-07 keywords in it are found too, as a
    // warning (most readers still accept them; reconcile-dialect rewrites them).
    checkDialect(schema, declared.dialect, base, out, declared.source === 'declared' ? undefined : 'warning');
    checkUnreachable(schema, base, out);
    if (slot === 'inputSchema') {
      checkParameters(schema, base, out, options.maxArguments ?? DEFAULT_MAX_ARGUMENTS);
      if (headers) checkHeaders(schema, base, out);
    }
  }
}

function checkRootType(schema: Record<string, unknown>, base: string, slot: string, out: ToolFindings): void {
  if (schema.type === 'object' && hasOwn(schema, 'type')) return;
  const what = hasOwn(schema, 'type') ? `\`type\` ${JSON.stringify(schema.type)}` : 'no `type`';
  out.add('root-not-object', hasOwn(schema, 'type') ? base + '/type' : base, `\`${slot}\` of ${out.label} has ${what}; MCP requires \`type: "object"\` at the root (clients reject the list otherwise): put the arguments in the \`properties\` of an object`);
}

function checkRefs(schema: Record<string, unknown>, dialect: Dialect, base: string, out: ToolFindings): void {
  const inventory = collectRefInventory(schema, dialect);
  const keys = new Map<object, string[]>();
  for (const { site, reason } of findUnresolvedRefs(schema, dialect, inventory)) {
    out.add('unresolved-ref', base + site.path, `\`${site.keyword}\` ${code(site.ref)} cannot be resolved: ${reason}; ${nearbyTargets(schema, site.ref, keys)}`);
  }
  // Each in-schema site resolved once: for the external references here, and the cycles below.
  const resolved: ResolvedRef[] = [];
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    const r = resolveRefSite(schema, inventory, site);
    if (r.status === 'resolved') resolved.push({ site, target: r.path });
    if (r.status === 'external') out.add('external-ref', base + site.path, `\`${site.keyword}\` ${code(site.ref)} names another document (${code(r.uri)}); clients never fetch it, so the schema is incomplete: copy the referenced schema into \`$defs\` and point at it there`);
  }
  for (const cycle of findRefCycles(schema, resolved)) {
    const via = cycle.slice(1).map((site) => `${code(site.ref)} at ${code(site.path)}`);
    out.add(
      'ref-cycle',
      base + cycle[0]!.path,
      `\`$ref\` ${code(cycle[0]!.ref)} leads back to itself${via.length > 0 ? ` through ${via.join(', then ')}` : ''} without reading any part of the value: validating it never ends (ajv runs out of stack), so no client can check a call against this schema; make one of them say what the value is instead of referring on`,
    );
  }
}

function checkDialect(schema: Record<string, unknown>, dialect: Dialect, base: string, out: ToolFindings, severity?: Severity): void {
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
    out.add('contradicted-dialect', base + first.path, `${first.message}${more}; \`toolslim optimize\` rewrites the schema into one dialect (reconcile-dialect), or ${severity ? 'stamp the `$schema` it is written in' : 'fix the `$schema`'}`, severity ? { severity } : undefined);
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
      out.add('unreachable-def', appendPointer(appendPointer(base, container), name), `definition ${code(name)} in \`${container}\` is not reachable from any \`$ref\`: ${formatCount(bytes)} bytes wasted on every turn; remove it (\`toolslim optimize\` does)`, { bytes });
    }
  }
}

function checkParameters(schema: Record<string, unknown>, base: string, out: ToolFindings, maxArguments: number): void {
  if (!hasOwn(schema, 'properties') || !isObject(schema.properties)) return;
  const props = schema.properties;
  const names = Object.keys(props);
  if (names.length > maxArguments) {
    out.add('many-arguments', base + '/properties', `${out.label} takes ${names.length} arguments (more than ${maxArguments}); models fill long argument lists less reliably: group related ones into an object, or split the tool`);
  }
  // The parent's `required` as a set, read the first time a description needs it (null: not yet read).
  let required: ReadonlySet<unknown> | undefined | null = null;
  for (const name of names) {
    const p = props[name];
    const own = hasDescription(p);
    const target = own ? undefined : followLocalRef(schema, p);
    const text = own ? (p as Record<string, unknown>).description : hasDescription(target) ? (target as Record<string, unknown>).description : undefined;
    if (text === undefined) {
      out.add('missing-param-description', appendPointer(base + '/properties', name), `parameter ${code(name)} of ${out.label} has no description; say what it is for and what it takes (models fill it from this)`);
    } else if (own && saysOnlyItsName(name, text as string, () => factsOf((required ??= requiredOf(schema)), name, p as Record<string, unknown>))) {
      // A description that only restates the name tells a model nothing the name does not, and strip-noise
      // removes it (restatedNames): counted here too, so that `check` finds as much before `optimize` as after.
      out.add('missing-param-description', appendPointer(appendPointer(base + '/properties', name), 'description'), `parameter ${code(name)} of ${out.label} has a description that says no more than its name (${JSON.stringify(text)}); say what it is for and what it takes (models fill it from this)`);
    }
  }
}

/** What strip-noise is told about a property's description: its `default`, and whether `required` (as a set) lists it. */
function factsOf(required: ReadonlySet<unknown> | undefined, name: string, property: Record<string, unknown>): DescriptionFacts {
  const listed = required === undefined ? undefined : required.has(name);
  return { ...(hasOwn(property, 'default') ? { hasDefault: true, default: property.default } : {}), ...(listed === undefined ? {} : { required: listed }) };
}

/** A schema's `required` list as a set, or undefined when it has none. */
function requiredOf(schema: Record<string, unknown>): ReadonlySet<unknown> | undefined {
  return hasOwn(schema, 'required') && Array.isArray(schema.required) ? new Set(schema.required) : undefined;
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
        out.add('invalid-mcp-header', at, `\`x-mcp-header\` is ${typeof value === 'string' ? JSON.stringify(value) : describeValue(value)}; expected a non-empty HTTP token (letters, digits, !#$%&'*+-.^_\`|~); clients drop the tool: use a header name such as \`X-Region\``);
      } else {
        const lower = value.toLowerCase();
        const other = seen.get(lower);
        if (other !== undefined) out.add('invalid-mcp-header', at, `\`x-mcp-header\` ${JSON.stringify(value)} repeats the one at ${code(other)} (header names are case-insensitive); clients drop the tool: give each parameter its own header`);
        else seen.set(lower, at);
      }
      if (hasOwn(node, 'type')) {
        const types = Array.isArray(node.type) ? node.type : [node.type];
        const bad = types.filter((t) => t !== 'null' && !HEADER_TYPES.includes(t as string));
        if (bad.length > 0) out.add('invalid-mcp-header', at, `\`x-mcp-header\` is on a parameter of type ${bad.map((t) => JSON.stringify(t)).join(', ')}; only string, integer and boolean parameters can be headers; clients drop the tool: remove \`x-mcp-header\` or change the type`);
      }
      if (!isDirectProperty(path)) {
        out.add('indirect-mcp-header', at, `\`x-mcp-header\` sits at ${code(base + path)}, which is not reached by \`properties\` alone from the root; clients look for it only along \`properties\` and will not send the header: move the parameter into the root \`properties\` (inline its \`$ref\`)`);
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
    out.add('over-budget', '', `${out.label} is ${formatCount(bytes)} bytes of JSON; the budget is ${formatCount(options.maxToolBytes)} per tool: run \`toolslim optimize\` (\`toolslim report\` shows what each transform saves), or shorten its descriptions and schema`);
  }
  if (measureTokens && options.maxToolTokens !== undefined) {
    const tokens = options.tokenizer!.count(text);
    if (tokens > options.maxToolTokens) out.add('over-budget', '', `${out.label} is ${formatCount(tokens)} tokens (${options.tokenizer!.name}); the budget is ${formatCount(options.maxToolTokens)} per tool: run \`toolslim optimize\` (\`toolslim report\` shows what each transform saves), or shorten its descriptions and schema`);
  }
}

function checkListBudget(texts: readonly (string | undefined)[], names: readonly string[], out: Finding[], options: LintOptions, measureTokens: boolean): void {
  const whole = (message: string): Finding => ({ severity: FINDING_SEVERITY['over-budget'], code: 'over-budget', tool: '', toolIndex: -1, path: '', message });
  const sizes = texts.map((t) => (t === undefined ? 4 : utf8Length(t)));
  const hint = () => `; the largest: ${largest(sizes, names)}: run \`toolslim optimize\` (\`toolslim report\` shows what each transform saves), shorten their descriptions and schemas, or serve fewer tools`;
  if (options.maxBytes !== undefined) {
    let bytes = texts.length === 0 ? 2 : 1 + texts.length;
    for (const b of sizes) bytes += b;
    if (bytes > options.maxBytes) out.push(whole(`the tools list is ${formatCount(bytes)} bytes of JSON; the budget is ${formatCount(options.maxBytes)}${hint()}`));
  }
  if (measureTokens && options.maxTokens !== undefined) {
    const tokens = countJoined(options.tokenizer!, arrayParts(texts.map((t) => t ?? 'null')));
    if (tokens > options.maxTokens) out.push(whole(`the tools list is ${formatCount(tokens)} tokens (${options.tokenizer!.name}); the budget is ${formatCount(options.maxTokens)}${hint()}`));
  }
}

/** The three largest tools, largest first: "`a` (1,200 bytes), `b` (900 bytes), `c` (640 bytes)". */
function largest(sizes: readonly number[], names: readonly string[]): string {
  const top: number[] = [];
  for (let i = 0; i < sizes.length; i++) {
    top.push(i);
    top.sort((a, b) => sizes[b]! - sizes[a]! || a - b);
    if (top.length > 3) top.pop();
  }
  return top.map((i) => `${names[i] === '' ? `tool #${i}` : code(names[i]!)} (${sizes[i]!.toLocaleString('en-US')} bytes)`).join(', ');
}

/**
 * What a `$ref` that does not resolve could have meant: for a JSON Pointer, what the deepest part of it
 * that exists holds (names closest to the missing one first); otherwise the document's definitions. `keys`
 * keeps each object's keys for the schema's other references: read per reference, a schema with 20,000
 * definitions and as many dangling references took 108 s.
 */
function nearbyTargets(schema: Record<string, unknown>, ref: string, keys: Map<object, string[]>): string {
  const parsed = parseRef(ref);
  const defs = () => {
    const found = DEFINITIONS_KEYWORDS.filter((k) => hasOwn(schema, k) && isObject(schema[k]));
    if (found.length === 0) return 'the schema has no definitions (`$defs`): add the one it names, or inline the schema';
    return found.map((k) => `\`#/${k}\` holds ${listKeys(keysOf(schema[k] as object, keys), '')}`).join('; ') + ': point it at one of them, or add the one it names';
  };
  if (parsed.kind !== 'pointer' || parsed.tokens.length === 0) return defs();
  let depth = parsed.tokens.length - 1;
  while (depth > 0 && !isObject(getAt(schema, parsed.tokens.slice(0, depth)))) depth--;
  const at = getAt(schema, parsed.tokens.slice(0, depth));
  if (!isObject(at)) return defs();
  const missing = parsed.tokens[depth]!;
  const where = depth === 0 ? 'the schema root' : `\`#/${parsed.tokens.slice(0, depth).map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}\``;
  const names = keysOf(at, keys);
  if (names.length === 0) return `${where} is empty: add ${code(missing)} there, or point the reference elsewhere`;
  const best = closest(missing, names);
  return `${where} holds ${listKeys(names, missing)}, not ${code(missing)}${best !== undefined ? ` (did you mean ${code(best)}?)` : ''}`;
}

/** `Object.keys(object)`, read once per object for all of a schema's references (see {@link nearbyTargets}). */
function keysOf(object: object, keys: Map<object, string[]>): string[] {
  let out = keys.get(object);
  if (out === undefined) keys.set(object, (out = Object.keys(object)));
  return out;
}

/**
 * Up to five keys, those closest to `to` first, in backticks, with how many more there are. Only the first
 * 200 keys are ranked, so a finding costs bounded work however large the object; each key's distance is
 * measured once, not once per comparison of the sort (about 15 times as many: 20,000 dangling pointer
 * references took lintTools 32 s).
 */
function listKeys(keys: readonly string[], to: string): string {
  const sorted = to === '' ? keys.slice(0, 5) : rankByDistance(keys.slice(0, RANKED_KEYS), to).slice(0, 5);
  const more = keys.length - sorted.length;
  return sorted.map((k) => code(k)).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

const RANKED_KEYS = 200;

/** `keys` sorted by edit distance to `to`, then by code unit order. */
function rankByDistance(keys: readonly string[], to: string): string[] {
  const ranked = keys.map((key) => ({ key, d: editDistance(to, key) }));
  ranked.sort((a, b) => a.d - b.d || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return ranked.map((r) => r.key);
}

/** Among the first 200 keys, the one within a third of the length of `to` in edits (case ignored; fewer edits than `to` has characters), if one is. */
function closest(to: string, keys: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(1, Math.floor(to.length / 3)) + 1;
  for (const k of keys.slice(0, RANKED_KEYS)) {
    const d = editDistance(to.toLowerCase(), k.toLowerCase());
    if (d < bestD && d < to.length) {
      bestD = d;
      best = k;
    }
  }
  return best;
}

/** A hint for a name outside the MCP rule: the name with each character it does not allow made `_`. */
function suggestName(name: string): string {
  if (name.length === 0) return '';
  const fixed = name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128);
  return fixed !== name && fixed.replace(/_/g, '') !== '' ? `, e.g. \`${fixed}\`` : '';
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

/**
 * A code some built-in check reports: a lint finding's, or a profile checker's as the CLI and other callers
 * merge it with the lint's findings (`profile-<code>`, one of the closed list of profiles/codes.ts). What
 * `severity` / `--rule` / a config's `rules` may name.
 * @internal
 */
export function isKnownFindingCode(code: string): boolean {
  return hasOwn(FINDING_SEVERITY, code) || (code.startsWith('profile-') && isProfileFindingCode(code.slice('profile-'.length)));
}

/** The profile checker's codes as `severity` / `--rule` name them: `profile-<code>`. @internal */
export const PROFILE_RULE_CODES: readonly string[] = Object.freeze(PROFILE_FINDING_CODES.map((c) => `profile-${c}`));

/** Every key of {@link LintOptions}: a key outside it is refused, not ignored (plain JavaScript has no type check). */
const LINT_OPTION_KEYS: readonly string[] = Object.keys({ maxBytes: 1, maxToolBytes: 1, maxTokens: 1, maxToolTokens: 1, tokenizer: 1, maxArguments: 1, severity: 1, collisionThreshold: 1, collisionPartners: 1, checks: 1, maxDepth: 1 } satisfies Record<keyof LintOptions, 1>);

function validateOptions(options: LintOptions): void {
  if (!isOptionsObject(options)) throw new ToolslimError('invalid-option', `lint: options must be an object, got ${describeValue(options)}`);
  for (const key of Object.keys(options)) {
    if (LINT_OPTION_KEYS.includes(key)) continue;
    const hint = key === 'rules' ? ' (the config file\'s `rules` is `severity` here: lintTools(tools, { severity: { code: "off" } }))' : '';
    throw new ToolslimError('invalid-option', `lint: unknown option \`${key}\`${hint}; known: ${LINT_OPTION_KEYS.join(', ')}`);
  }
  for (const key of ['maxBytes', 'maxToolBytes', 'maxTokens', 'maxToolTokens', 'maxArguments', 'maxDepth'] as const) {
    const v = options[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) throw new ToolslimError('invalid-option', `lint: \`${key}\` must be a non-negative number, got ${JSON.stringify(v)}`);
  }
  if ((options.maxTokens !== undefined || options.maxToolTokens !== undefined) && options.tokenizer === undefined) {
    throw new ToolslimError('invalid-option', 'lint: `maxTokens` and `maxToolTokens` need a `tokenizer` (import { o200k } from "toolslim/tokens")');
  }
  if (options.collisionThreshold !== false) checkCollisionOptions('lint', options.collisionThreshold ?? DEFAULT_COLLISION_THRESHOLD, options.collisionPartners ?? DEFAULT_COLLISION_PARTNERS);
  if (options.severity !== undefined && !isOptionsObject(options.severity)) {
    throw new ToolslimError('invalid-option', 'lint: `severity` must be an object of finding codes, e.g. { "description-collision": "off" }');
  }
  // Without extra checks only the built-in codes can occur: any other name is a typo that would leave the
  // finding at its default severity, so it is refused (as ESLint refuses an unknown rule). Extra checks
  // name their own codes, which cannot be known before they run. `profile-…`: the profile checker's codes
  // (a closed list, profiles/codes.ts), which callers merge with these findings (the CLI does).
  const custom = (options.checks?.length ?? 0) > 0;
  for (const [code, s] of Object.entries(options.severity ?? {})) {
    if (s !== 'off' && !SEVERITIES.includes(s)) throw new ToolslimError('invalid-option', `lint: severity of \`${code}\` must be error, warning, info or off, got ${JSON.stringify(s)}`);
    if (!custom && !isKnownFindingCode(code)) {
      const known = code.startsWith('profile-') ? `known profile codes: ${PROFILE_RULE_CODES.join(', ')}` : `known: ${Object.keys(FINDING_SEVERITY).join(', ')}, and profile-… codes`;
      throw new ToolslimError('invalid-option', `lint: \`severity\` names \`${code}\`, which no check reports (${known})`);
    }
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
