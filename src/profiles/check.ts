/**
 * What a client would reject of a `tools/list`, found before a user meets it as an error at run time.
 * Reads a {@link ClientProfile} (data) and reports findings; changes nothing.
 */
import { loadAjv } from '../verify/ajv-loader.js';
import { checkJsonTool, locateTools } from '../engine/input.js';
import { DEFAULT_MAX_DEPTH } from '../engine/options.js';
import { isParsedJson } from '../json/parsed.js';
import { isProxy } from '../json/plain.js';
import type { ToolsInput } from '../core/run-types.js';
import type { Severity, ToolFindingBase } from '../core/report.js';
import { toolName } from '../core/tool.js';
import { SCHEMA_SLOTS } from '../core/tool.js';
import { getDeclaredDialect } from '../schema/dialect.js';
import { DEFINITIONS_KEYWORDS, UNION_KEYWORDS, isExtensionKeyword } from '../schema/keywords.js';
import { appendPointer, parsePointer, getAt } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { collectRefInventory, resolveRefSite, type RefInventory, type RefSite } from '../schema/refs.js';
import { walkSchema } from '../schema/walk.js';
import { withHint } from './hints.js';
import { getProfile, type ClientProfile } from './profiles.js';
import type { ProfileFindingCode } from './codes.js';

/** One thing a client would reject (or, as a warning, advises against). */
export type ProfileFinding = ToolFindingBase;

/** A finding about one tool, with its pointer relative to the tool (`/inputSchema/…`). */
export interface ToolFinding {
  readonly severity: Severity;
  readonly code: string;
  readonly path: string;
  readonly message: string;
}

/** A {@link ToolFinding} as the checker makes it: its code drawn from the closed list (codes.ts). */
type CodedFinding = ToolFinding & { readonly code: ProfileFindingCode };

/**
 * Everything `profile` (a name or a profile object; default `mcp`) would reject in `input` (a tools array,
 * a `ListToolsResult`, a JSON-RPC response or a capture file), in tool order.
 */
export function checkToolsForProfile(input: ToolsInput, profile: string | ClientProfile = 'mcp'): ProfileFinding[] {
  return checkList(input, profile, false);
}

/**
 * {@link checkToolsForProfile} of toolslim's own output for `profile` (what a refused `optimize --profile` or
 * `proxy --profile` lists): the hints say why toolslim left each finding and what has to change instead of
 * naming the command that has just run (hints.ts `PROFILE_HINTS_AFTER_OPTIMIZE`).
 * @internal
 */
export function checkOptimizedForProfile(input: ToolsInput, profile: string | ClientProfile): ProfileFinding[] {
  return checkList(input, profile, true);
}

function checkList(input: ToolsInput, profile: string | ClientProfile, optimized: boolean): ProfileFinding[] {
  const p = getProfile(profile);
  const { tools } = locateTools(input);
  const out: ProfileFinding[] = [];
  if (p.maxTools !== undefined && tools.length > p.maxTools) {
    out.push({
      severity: 'error',
      code: 'tool-count' satisfies ProfileFindingCode,
      tool: '',
      toolIndex: -1,
      path: '',
      message: withHint('tool-count', `Found ${tools.length} tools; \`${p.name}\` accepts at most ${p.maxTools} per request`, p),
    });
  }
  // One map of key sizes for the whole list, as the lint keeps; a list the CLI parsed is read without descriptors.
  const keyBytes = new Map<string, number>();
  const parsed = isParsedJson(input);
  for (let i = 0; i < tools.length; i++) {
    const name = toolName(tools[i]);
    const prefix = appendPointer('', i);
    const unreadable = notPlainJson(tools[i], p, keyBytes, parsed);
    for (const f of unreadable ?? profileFindings(tools[i], p, optimized)) out.push({ severity: f.severity, code: f.code, tool: name, toolIndex: i, path: prefix + f.path, message: f.message });
  }
  return out;
}

/**
 * What `profile` would reject in one tool; pointers are relative to the tool. Each message ends with a fix
 * hint. A tool that is not plain JSON (one that contains itself: a reference cycle, which a tool built in
 * code can have) is one `tool-invalid` finding at the pointer of the problem, and is not checked further; so
 * is one nested deeper than 1000 levels, for a profile that checks schemas against the meta-schema.
 */
export function checkToolForProfile(tool: unknown, profile: string | ClientProfile): ToolFinding[] {
  const p = getProfile(profile);
  return notPlainJson(tool, p, new Map(), false) ?? profileFindings(tool, p);
}

/**
 * {@link checkToolForProfile} without the input check, for a tool the engine has checked (adapt-to-client
 * checks each tool it rewrote: checked input, edited with JSON values).
 */
export function profileFindings(tool: unknown, profile: ClientProfile, optimized = false): ToolFinding[] {
  return findingsOf(tool, profile).map((f) => ({ ...f, message: withHint(f.code, f.message, profile, optimized) }));
}

/**
 * The `tool-invalid` finding for a tool that is not plain JSON (the lint's `invalid-tool`), or undefined.
 * Nesting is bounded (by the engine's 1000 levels) only for a profile that checks schemas against the
 * meta-schema: ajv's validator recurses, and overflowed the stack on a deep one. The other checks read every
 * depth (test/profiles/depth.test.ts): for their profiles, a tool deeper than that is walked again, without
 * the bound (the rare path; the common one is the engine's fast check).
 */
function notPlainJson(tool: unknown, p: ClientProfile, keyBytes: Map<string, number>, parsed: boolean): CodedFinding[] | undefined {
  // Not an object: said by findingsOf, as it always was.
  if (!isProxy(tool) && !isObject(tool)) return undefined;
  let problem = checkJsonTool(tool, DEFAULT_MAX_DEPTH, [], undefined, keyBytes, parsed);
  if (problem !== undefined && !p.metaSchema) problem = checkJsonTool(tool, Infinity, [], undefined, keyBytes, parsed);
  if (problem === undefined) return undefined;
  return [{ severity: 'error', code: 'tool-invalid', path: problem.path, message: withHint('tool-invalid', `Found a tool that is not plain JSON: ${problem.message}; it is not checked against \`${p.name}\``, p) }];
}

function findingsOf(tool: unknown, p: ClientProfile): CodedFinding[] {
  const out: CodedFinding[] = [];
  if (!isObject(tool)) {
    out.push({ severity: 'error', code: 'tool-invalid', path: '', message: 'Found a tool that is not an object' });
    return out;
  }
  checkName(tool, p, out);
  for (const slot of SCHEMA_SLOTS) {
    if (!p.slots.includes(slot) || !hasOwn(tool, slot)) continue;
    checkSchema(tool[slot], '/' + slot, p, out);
  }
  return out;
}

function checkName(tool: Record<string, unknown>, p: ClientProfile, out: CodedFinding[]): void {
  const finding = toolNameFinding(tool.name, p);
  if (finding !== undefined) out.push(finding);
}

/** What `p` says of a tool named `name` (no hint added), if it refuses or warns of that name. */
export function toolNameFinding(name: unknown, p: ClientProfile): CodedFinding | undefined {
  const rule = p.toolName;
  if (!rule) return undefined;
  if (typeof name !== 'string' || name.length === 0) return { severity: 'error', code: 'tool-name', path: '/name', message: `Found a tool without a name; \`${p.name}\` needs one matching \`${rule.pattern}\`` };
  if (name.length > rule.maxLength) return { severity: rule.severity, code: 'tool-name', path: '/name', message: `Found tool name \`${name}\` of ${name.length} characters; \`${p.name}\` accepts at most ${rule.maxLength}` };
  if (!new RegExp(rule.pattern, 'u').test(name)) return { severity: rule.severity, code: 'tool-name', path: '/name', message: `Found tool name \`${name}\`; \`${p.name}\` expects names matching \`${rule.pattern}\`` };
  return undefined;
}

function checkSchema(schema: unknown, base: string, p: ClientProfile, out: CodedFinding[]): void {
  if (!isObject(schema)) {
    if (p.rootObject) out.push({ severity: 'error', code: 'root-not-object', path: base, message: `Found ${schema === null ? 'null' : typeof schema} as the schema; \`${p.name}\` expects an object schema with \`type: "object"\`` });
    return;
  }
  if (p.rootObject && schema.type !== 'object') {
    out.push({ severity: 'error', code: 'root-not-object', path: base, message: `Found root \`type\` ${JSON.stringify(schema.type) ?? 'missing'}; \`${p.name}\` expects \`"object"\`` });
  }
  if (p.rootCombinators === false) {
    for (const k of ['anyOf', 'oneOf', 'allOf']) {
      if (hasOwn(schema, k)) out.push({ severity: 'error', code: 'root-combinator', path: appendPointer(base, k), message: `Found \`${k}\` at the root; \`${p.name}\` expects a plain object schema there` });
    }
  }
  if (p.metaSchema) checkMetaSchema(schema, base, p, out);
  const dialect = getDeclaredDialect(schema, p.dialect).dialect;
  const inventory = collectRefInventory(schema, dialect);
  checkRefs(schema, inventory, base, p, out);
  checkNodes(schema, base, p, out);
}

function checkRefs(schema: Record<string, unknown>, inventory: RefInventory, base: string, p: ClientProfile, out: CodedFinding[]): void {
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    const at = base + site.path;
    const problem = refProblem(schema, inventory, site, p);
    if (problem) out.push({ ...problem, path: at });
    if (site.keyword === '$ref' && p.refSiblings !== 'any') {
      const node = getAt(schema, parsePointer(site.schemaPath));
      if (isObject(node)) {
        const extra = Object.keys(node).filter((k) => k !== '$ref' && !(p.refSiblings as readonly string[]).includes(k));
        if (extra.length > 0) {
          out.push({
            severity: 'error',
            code: 'ref-sibling',
            path: base + site.schemaPath,
            message: `Found ${extra.map((k) => `\`${k}\``).join(', ')} beside \`$ref\` \`${site.ref}\`; \`${p.name}\` accepts only ${listOrNothing(p.refSiblings as readonly string[])} there`,
          });
        }
      }
    }
  }
}

/** Why `profile` cannot use one reference, or undefined when it can. */
export function refProblem(schema: unknown, inventory: RefInventory, site: RefSite, p: ClientProfile): Omit<CodedFinding, 'path'> | undefined {
  const kw = `\`${site.keyword}\` \`${site.ref}\``;
  const resolution = resolveRefSite(schema, inventory, site);
  // A client that reads no reference refuses every one, but one that resolves to nothing here (or names another
  // document) cannot be inlined either: it gets the finding whose fix says what has to change, not `inline it`.
  if (p.refs === 'none' && resolution.status === 'resolved') return { severity: 'error', code: 'ref-unsupported', message: `Found ${kw}; \`${p.name}\` cannot resolve references (expected none)` };
  if (resolution.status === 'unresolved' || resolution.status === 'undecidable') {
    return { severity: 'error', code: 'ref-unresolvable', message: `Found ${kw}, which does not resolve (${resolution.reason}); expected a reference to a schema in the document` };
  }
  if (resolution.status === 'external') {
    return { severity: p.refs === 'any' ? 'warning' : 'error', code: 'ref-external', message: `Found ${kw}, which names another document; \`${p.name}\` never fetches one` };
  }
  if (p.refs === 'top-level-defs-only') {
    if (site.keyword !== '$ref' || !isTopLevelDefinitionPath(schema, resolution.path) || !TOP_LEVEL_REF.test(site.ref)) {
      const elsewhere = site.keyword === '$ref' && TOP_LEVEL_REF.test(site.ref) && !isTopLevelDefinitionPath(schema, resolution.path) ? inResource(site, resolution.path) : '';
      return { severity: 'error', code: 'ref-not-top-level', message: `Found ${kw}${elsewhere}; \`${p.name}\` accepts only references to definitions at the top level (\`#/$defs/<name>\`) or to \`#\`` };
    }
  } else if (p.refs === 'defs-prefix-only') {
    if (site.keyword !== '$ref' || !site.ref.startsWith('#/$defs/') || !resolution.path.startsWith('/$defs/')) {
      // Spelled as the client asks, but read against an embedded resource (a `$id` below the root): say where it lands.
      const elsewhere = site.keyword === '$ref' && site.ref.startsWith('#/$defs/') ? `${inResource(site, resolution.path)}, not to the root's \`$defs\`` : '';
      return { severity: 'error', code: 'ref-not-defs-prefix', message: `Found ${kw}${elsewhere}; \`${p.name}\` accepts only references that start with \`#/$defs/\`${elsewhere ? ' and name the root\'s `$defs`' : ''}` };
    }
  }
  return undefined;
}

/** A reference spelled as a top-level definition (`#/$defs/<name>`, `#/definitions/<name>`) or the root (`#`). */
const TOP_LEVEL_REF = /^#(?:\/(?:\$defs|definitions)\/[^/]+)?$/;

/** Where a reference spelled for the root lands instead: read against the embedded resource it sits in. */
function inResource(site: RefSite, path: string): string {
  return `, which resolves against the embedded resource at \`${site.resource}\` (its \`$id\`) to \`${path}\``;
}

/** `""` (the root) or `/$defs/<name>` / `/definitions/<name>` of the root. */
export function isTopLevelDefinitionPath(schema: unknown, path: string): boolean {
  if (path === '') return true;
  const tokens = parsePointer(path);
  return tokens.length === 2 && DEFINITIONS_KEYWORDS.includes(tokens[0]!) && isObject(schema) && hasOwn(schema, tokens[0]!);
}

function checkNodes(schema: Record<string, unknown>, base: string, p: ClientProfile, out: CodedFinding[]): void {
  const rejected = new Set(p.rejected);
  const annotations = new Set(p.rejectedAnnotations);
  const allowed = p.allowedKeywords ? new Set(p.allowedKeywords) : undefined;
  const formats = p.formats ? new Set(p.formats) : undefined;
  // Object-nesting depth: each schema's, from its parent's. Noted by node: a subschema shared by two places is
  // visited at each in turn, its parent's entry always the current place's (the walk is preorder and the
  // input acyclic). It replaced a stack of enclosing paths tested with `startsWith`, which read each path whole:
  // quadratic in depth (an array nested 40,000 deep took 36 s).
  const depths = new Map<object, number>();
  let depthReported = false;
  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path, _keyword, parent) {
      if (!isObject(node)) return;
      const isObj = isObjectSchema(node);
      const depth = (parent !== undefined ? (depths.get(parent) ?? 0) : 0) + (isObj ? 1 : 0);
      depths.set(node, depth);
      const at = base + path;
      if (p.maxDepth !== undefined && depth > p.maxDepth && !depthReported) {
        depthReported = true;
        out.push({ severity: 'error', code: 'depth-exceeded', path: at, message: `Found object schemas nested ${depth} levels deep; \`${p.name}\` accepts at most ${p.maxDepth}` });
      }
      for (const key of Object.keys(node)) {
        if (rejected.has(key)) {
          const role = annotations.has(key) ? 'annotation' : 'keyword';
          out.push({ severity: 'error', code: 'keyword-rejected', path: appendPointer(at, key), message: `Found ${role} \`${key}\`; \`${p.name}\` rejects it` });
        } else if (p.unknownKeywords === 'reject' && !UNION_KEYWORDS.has(key) && !(allowed?.has(key) ?? false)) {
          out.push({ severity: 'error', code: 'keyword-unknown', path: appendPointer(at, key), message: `Found \`${key}\`${isExtensionKeyword(key) ? ' (an extension)' : ''}; \`${p.name}\` rejects fields it does not know` });
        } else if (p.refs === 'none' && (DEFINITIONS_KEYWORDS.includes(key) || key === '$anchor' || key === '$dynamicAnchor' || key === '$recursiveAnchor')) {
          out.push({ severity: 'error', code: 'defs-unsupported', path: appendPointer(at, key), message: `Found \`${key}\`; \`${p.name}\` cannot use definitions or anchors (expected every schema inline)` });
        }
      }
      if (formats && typeof node.format === 'string' && !formats.has(node.format) && !rejected.has('format')) {
        out.push({ severity: 'error', code: 'format-unsupported', path: appendPointer(at, 'format'), message: `Found \`format\` \`${node.format}\`; \`${p.name}\` accepts only ${[...formats].map((f) => `\`${f}\``).join(', ')}` });
      }
      if (p.strict && isObj) {
        if (p.strict.closedObjects && node.additionalProperties !== false) {
          out.push({ severity: 'error', code: 'strict-additional-properties', path: at, message: `Found an object schema without \`additionalProperties: false\`; \`${p.name}\` requires it on every object` });
        }
        if (p.strict.allPropertiesRequired && isObject(node.properties)) {
          const required = Array.isArray(node.required) ? new Set(node.required) : new Set<unknown>();
          const missing = Object.keys(node.properties).filter((k) => !required.has(k));
          if (missing.length > 0) {
            out.push({ severity: 'error', code: 'strict-required', path: at, message: `Found properties ${missing.map((k) => `\`${k}\``).join(', ')} not listed in \`required\`; \`${p.name}\` requires every property there` });
          }
        }
      }
    },
  });
}

/** A schema that describes objects: `type` says `object`, or it has `properties`. */
export function isObjectSchema(node: Record<string, unknown>): boolean {
  const t = node.type;
  return t === 'object' || (Array.isArray(t) && t.includes('object')) || (hasOwn(node, 'properties') && isObject(node.properties));
}

let metaValidator: (((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null }) | undefined;

/**
 * Where `schema` breaks the JSON Schema 2020-12 meta-schema (one entry per place, in document order).
 * Compiles the meta-schema once, on first use.
 */
export function metaSchemaErrors(schema: unknown): { readonly path: string; readonly message: string }[] {
  if (!metaValidator) {
    // ajv is loaded on first use (as the gate does), so importing toolslim does not load it.
    const { Ajv2020 } = loadAjv();
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
    metaValidator = ajv.getSchema('https://json-schema.org/draft/2020-12/schema') as typeof metaValidator;
    if (!metaValidator) return [];
  }
  if (metaValidator(schema)) return [];
  const seen = new Set<string>();
  const out: { path: string; message: string }[] = [];
  for (const e of metaValidator.errors ?? []) {
    if (seen.has(e.instancePath)) continue;
    seen.add(e.instancePath);
    out.push({ path: e.instancePath, message: e.message ?? 'invalid' });
  }
  return out;
}

function checkMetaSchema(schema: Record<string, unknown>, base: string, p: ClientProfile, out: CodedFinding[]): void {
  for (const e of metaSchemaErrors(schema).slice(0, 5)) {
    out.push({
      severity: 'error',
      code: 'schema-invalid',
      path: base + e.path,
      message: `Found a value that is not valid JSON Schema 2020-12 here (${e.message}); \`${p.name}\` requires every schema to match the 2020-12 meta-schema`,
    });
  }
}

function listOrNothing(keys: readonly string[]): string {
  return keys.length === 0 ? 'nothing' : keys.map((k) => `\`${k}\``).join(', ');
}
