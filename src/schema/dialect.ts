import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { DEPRECATED_REPLACEMENTS, DIALECTS, KEYWORD_TABLES, UNION_KEYWORDS, type Dialect, type KeywordTable } from './keywords.js';
import { someSubschema, walkSchema } from './walk.js';
import { anchorShape } from '../json/shapes.js';

/** The canonical `$schema` URI of each dialect (`openapi-3.0` has none). */
export const DIALECT_URIS: Readonly<Record<Dialect, string | undefined>> = Object.freeze({
  'draft-04': 'http://json-schema.org/draft-04/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'openapi-3.0': undefined,
});

// `draft-05` is no dialect (it was never published with a meta-schema): a `$schema` naming it is a URI
// toolslim does not know, like a custom meta-schema, not a key into the keyword tables.
const URI_PATTERN = /^https?:\/\/json-schema\.org\/(?:(draft-0[467])\/schema|draft\/(2019-09|2020-12)\/schema)\/?#?$/;

/**
 * The dialect a `$schema` value names, tolerant of http/https, a trailing `#` and a trailing slash;
 * undefined for anything else (a custom meta-schema).
 */
export function dialectFromUri(uri: unknown): Dialect | undefined {
  if (typeof uri !== 'string') return undefined;
  const m = URI_PATTERN.exec(uri.trim());
  if (!m) return undefined;
  return (m[1] ?? m[2]) as Dialect;
}

/** What a document declares about its dialect. */
export interface DeclaredDialect {
  /** The dialect used to read the document: the declared one, or `assume` when none is declared. */
  readonly dialect: Dialect;
  /** `declared`: `$schema` names a known dialect; `assumed`: no `$schema`; `unknown`: a `$schema` toolslim does not know. */
  readonly source: 'declared' | 'assumed' | 'unknown';
  /** The raw `$schema` value, when present. */
  readonly uri?: unknown;
}

/** Reads the root `$schema` of a document; `assume` (default 2020-12, the MCP default) fills in when absent. */
export function getDeclaredDialect(schema: unknown, assume: Dialect = '2020-12'): DeclaredDialect {
  if (!isObject(schema) || !hasOwn(schema, '$schema')) return { dialect: assume, source: 'assumed' };
  const uri = schema.$schema;
  const d = dialectFromUri(uri);
  return d ? { dialect: d, source: 'declared', uri } : { dialect: assume, source: 'unknown', uri };
}

/** The keyword table a dialect reads with. */
export function getKeywordTable(dialect: Dialect): KeywordTable {
  return KEYWORD_TABLES[dialect];
}

/** True when `dialect` has `$defs` and `prefixItems`-era semantics (2019-09 or later). */
export function isModernDialect(dialect: Dialect): boolean {
  return dialect === '2019-09' || dialect === '2020-12';
}

/** True for the dialects whose `$ref` ignores its siblings and whose tuples are array-form `items`. */
export function isLegacyDialect(dialect: Dialect): boolean {
  return dialect === 'draft-04' || dialect === 'draft-06' || dialect === 'draft-07' || dialect === 'openapi-3.0';
}

/**
 * How a keyword with this value fits a dialect: `fits` (a keyword of the dialect, in a form it accepts),
 * `unknown` (not a keyword there: a reader ignores it) or `misfit` (a keyword there, in a form it refuses,
 * such as array-form `items` in 2020-12 or a boolean `exclusiveMinimum` in draft-07).
 */
export function keywordFit(dialect: Dialect, name: string, value: unknown): 'fits' | 'unknown' | 'misfit' {
  const info = KEYWORD_TABLES[dialect].get(name);
  if (!info) return 'unknown';
  const isSchema = typeof value === 'boolean' || isObject(value);
  switch (info.shape) {
    case 'schema':
      return isSchema ? 'fits' : 'misfit';
    case 'schemaArray':
      return Array.isArray(value) ? 'fits' : 'misfit';
    case 'schemaMap':
    case 'schemaOrStrings':
      return isObject(value) ? 'fits' : 'misfit';
    case 'schemaOrArray':
      return isSchema || Array.isArray(value) ? 'fits' : 'misfit';
    default:
      if (info.valueType === undefined) return 'fits';
      return typeof value === info.valueType ? 'fits' : 'misfit';
  }
}

/** How the dialect a document is read in was decided: its `$schema` says so, or it has none and it is assumed. */
export type DialectSource = 'declared' | 'assumed';

/** A keyword whose presence or form belongs to another dialect than the one the document is read in. */
export interface DialectContradiction {
  /** The keyword. */
  readonly keyword: string;
  /** Pointer to the keyword's value, relative to the document. */
  readonly path: string;
  /** The dialect the enclosing schema is read in. */
  readonly dialect: Dialect;
  /** Whether `dialect` comes from a `$schema` or was assumed. */
  readonly source: DialectSource;
  /**
   * `foreign`: not a keyword of `dialect` (a reader ignores it) but one of `expected`; `misfit`: a keyword
   * of `dialect` in a form only `expected` accept; `deprecated`: accepted, but the name `expected` used.
   */
  readonly kind: 'foreign' | 'misfit' | 'deprecated';
  /** The dialects this usage belongs to. */
  readonly expected: readonly Dialect[];
  /** What was found and what was expected, for people. */
  readonly message: string;
}

/** Options of {@link findDialectContradictions}. */
export interface FindDialectContradictionsOptions {
  /** The dialect of a document without `$schema` (default `2020-12`, as MCP specifies). */
  readonly assume?: Dialect;
}

/**
 * Every keyword of a document that contradicts the dialect the document declares (or, without `$schema`,
 * the assumed one): keywords of another dialect that change verdicts (`$defs`, `prefixItems`,
 * `dependentRequired` in draft-07; `dependencies`, `additionalItems`, `nullable` in 2020-12), forms another
 * dialect uses (array `items` or boolean `exclusiveMinimum` in 2020-12), and `definitions` where `$defs` is
 * the name. Annotations of other dialects (`deprecated`, `$comment`) are not contradictions. A subschema
 * with its own `$schema` is judged by it. Pure; a document with an unknown `$schema` has none.
 * Unchecked, for the engine's checked input: the public entry (engine/checked.ts) first refuses a value that
 * contains itself.
 */
export function findDialectContradictions(schema: unknown, options: FindDialectContradictionsOptions = {}): DialectContradiction[] {
  const declared = getDeclaredDialect(schema, options.assume ?? '2020-12');
  if (declared.source === 'unknown' || !isObject(schema)) return [];
  // Nearly every document has none: one pointer-free look at the same positions decides, and only a
  // document with a keyword to report (or an embedded `$schema`, which changes the dialect below it) is walked.
  const root = declared.dialect;
  if (!someSubschema(schema, mayContradict, UNION_KEYWORDS, { dialect: root, suspects: suspectKeywords(root) })) return [];
  const walk = new ContradictionWalk(declared.dialect, declared.source === 'declared' ? 'declared' : 'assumed');
  walkSchema(schema, '', walk);
  return walk.out;
}

/**
 * {@link findDialectContradictions}' walk: the dialect in scope (an embedded `$schema` changes it below
 * itself) and what it finds. A class, not a closure made per call: V8 keeps a function's optimised code only
 * while one of its closures lives (src/json/shapes.ts).
 */
class ContradictionWalk {
  readonly out: DialectContradiction[] = [];
  readonly scopes: { path: string; dialect: Dialect; source: DialectSource }[];
  skipUnder: string | undefined = undefined;

  constructor(dialect: Dialect, source: DialectSource) {
    this.scopes = [{ path: '', dialect, source }];
  }

  onSchema(node: unknown, path: string): boolean | void {
    const scopes = this.scopes;
    const skipUnder = this.skipUnder;
    if (skipUnder !== undefined && (path === skipUnder || path.startsWith(skipUnder + '/'))) return false;
    this.skipUnder = undefined;
    while (scopes.length > 1 && !(path === scopes[scopes.length - 1]!.path || path.startsWith(scopes[scopes.length - 1]!.path + '/'))) scopes.pop();
    if (!isObject(node)) return;
    if (path !== '' && hasOwn(node, '$schema')) {
      const inner = dialectFromUri(node.$schema);
      if (inner === undefined) {
        this.skipUnder = path;
        return false;
      }
      scopes.push({ path, dialect: inner, source: 'declared' });
    }
    const scope = scopes[scopes.length - 1]!;
    for (const keyword of Object.keys(node)) {
      if (keyword === '$schema') continue;
      const found = judgeKeyword(scope.dialect, keyword, node[keyword]);
      if (!found) continue;
      const at = appendPointer(path, keyword);
      this.out.push({ keyword, path: at, dialect: scope.dialect, source: scope.source, kind: found.kind, expected: found.expected, message: contradictionMessage(keyword, at, node[keyword], scope.dialect, scope.source, found) });
    }
  }
}

/**
 * The keywords {@link judgeKeyword} can find fault with in `dialect`, for a value of some JSON type: its
 * verdict depends only on the dialect, the keyword and the value's type (object, array, null, string,
 * number, boolean), so one try of each type per keyword lists them all. Every other keyword (nearly all a
 * schema has) is passed over without a table look-up.
 */
function suspectKeywords(dialect: Dialect): ReadonlySet<string> {
  let set = SUSPECTS.get(dialect);
  if (set === undefined) {
    set = new Set([...UNION_KEYWORDS.keys()].filter((k) => VALUE_OF_EACH_TYPE.some((v) => judgeKeyword(dialect, k, v) !== undefined)));
    SUSPECTS.set(dialect, set);
  }
  return set;
}

const SUSPECTS = new Map<Dialect, ReadonlySet<string>>();
const VALUE_OF_EACH_TYPE: readonly unknown[] = [{}, [], null, 'text', 1, true, undefined];

/** Whether some own key of `node` passes `test`. */
/**
 * {@link findDialectContradictions}' look at one schema object: an embedded `$schema`, or a keyword to
 * report. A module function given its state, not closures made per call: V8 keeps a function's optimised
 * code only while one of its closures lives (src/json/shapes.ts).
 */
function mayContradict(node: Record<string, unknown>, isRoot: boolean, look: { readonly dialect: Dialect; readonly suspects: ReadonlySet<string> }): boolean {
  if (!isRoot && hasOwn(node, '$schema')) return true;
  for (const key in node) if (hasOwn(node, key) && look.suspects.has(key) && key !== '$schema' && judgeKeyword(look.dialect, key, node[key]) !== undefined) return true;
  return false;
}

/** Whether a keyword contradicts `dialect`, and which dialects its usage belongs to. */
export function judgeKeyword(dialect: Dialect, keyword: string, value: unknown): { kind: DialectContradiction['kind']; expected: Dialect[] } | undefined {
  // A name no dialect knows (`x-…`, most of what schemas carry beside keywords) fits none: nothing to judge.
  if (!UNION_KEYWORDS.has(keyword)) return undefined;
  const fit = keywordFit(dialect, keyword, value);
  if (fit === 'fits') {
    if (!KEYWORD_TABLES[dialect].get(keyword)!.deprecated) return undefined;
    return { kind: 'deprecated', expected: dialectsWhereFits(dialect, keyword, value, true) };
  }
  const expected = dialectsWhereFits(dialect, keyword, value, false);
  if (expected.length === 0) return undefined;
  return { kind: fit === 'unknown' ? 'foreign' : 'misfit', expected };
}

/**
 * The dialects other than `dialect` where `keyword` with `value` fits and is not deprecated (`current`) or is
 * not an annotation. A loop, not a closure made per call: that closure was compiled again after every full GC
 * (src/json/shapes.ts).
 */
function dialectsWhereFits(dialect: Dialect, keyword: string, value: unknown, current: boolean): Dialect[] {
  const out: Dialect[] = [];
  for (const d of DIALECTS) {
    if (d === dialect || keywordFit(d, keyword, value) !== 'fits') continue;
    const info = KEYWORD_TABLES[d].get(keyword)!;
    if (current ? !info.deprecated : info.role !== 'annotation') out.push(d);
  }
  return out;
}

function contradictionMessage(keyword: string, path: string, value: unknown, dialect: Dialect, source: DialectSource, found: { kind: DialectContradiction['kind']; expected: readonly Dialect[] }): string {
  const how = source === 'declared' ? 'declared by `$schema`' : 'no `$schema`, so assumed';
  const usage = found.kind === 'misfit' ? `\`${keyword}\` as ${describeValue(value)}` : `\`${keyword}\``;
  const where = found.expected.join(', ');
  if (found.kind === 'deprecated') {
    const replacement = DEPRECATED_REPLACEMENTS[keyword] ?? 'its replacement';
    return `Found \`${keyword}\` at \`${path}\`, ${where ? `${where} usage` : 'an older form'}; the schema is read as ${dialect} (${how}), which expects ${replacement}`;
  }
  return `Found ${usage} at \`${path}\`, which is ${where} usage; the schema is read as ${dialect} (${how})${found.kind === 'foreign' ? `, where \`${keyword}\` is not a keyword` : ''}`;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The contradictions of one schema of one tool. */
export interface ToolDialectContradictions {
  /** The tool's name (`""` when it has none). */
  readonly tool: string;
  /** The tool's position in the array. */
  readonly toolIndex: number;
  /** Which of the tool's schemas. */
  readonly slot: 'inputSchema' | 'outputSchema';
  /** At least one; paths are relative to the schema. */
  readonly contradictions: readonly DialectContradiction[];
}

/**
 * {@link findDialectContradictions} over every `inputSchema` and `outputSchema` of a tools array; only
 * schemas with at least one contradiction are listed. Pure: for benches and CI checks that count tools
 * whose declared dialect contradicts their keywords, before and after a pipeline.
 * Unchecked, for the engine's checked input: the public entry (engine/checked.ts) first refuses a value that
 * contains itself.
 */
export function findToolsDialectContradictions(tools: readonly unknown[], options: FindDialectContradictionsOptions = {}): ToolDialectContradictions[] {
  const out: ToolDialectContradictions[] = [];
  tools.forEach((tool, toolIndex) => {
    if (!isObject(tool)) return;
    for (const slot of ['inputSchema', 'outputSchema'] as const) {
      if (!hasOwn(tool, slot)) continue;
      const contradictions = findDialectContradictions(tool[slot], options);
      if (contradictions.length > 0) out.push({ tool: typeof tool.name === 'string' ? tool.name : '', toolIndex, slot, contradictions });
    }
  });
  return out;
}

// One instance kept, so its map outlives a full GC between runs (src/json/shapes.ts).
anchorShape(new ContradictionWalk('draft-07', 'assumed'));
