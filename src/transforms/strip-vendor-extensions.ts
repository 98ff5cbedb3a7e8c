import { defineTransform } from '../engine/define-transform.js';
import { SCHEMA_SLOTS, type SchemaSlot } from '../core/tool.js';
import { DIALECTS, REFERENCE_KEYWORDS, isExtensionKeyword, type Dialect, type KeywordTable } from '../schema/keywords.js';
import type { SchemaDocument } from '../core/documents.js';
import { anchorShape } from '../json/shapes.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { collectRefTargets, holdsRefTarget, type RefTargets } from '../schema/ref-targets.js';
import { someSubschema, walkJson, walkSchema } from '../schema/walk.js';

/** Options of {@link stripVendorExtensions}. */
export interface StripVendorExtensionsOptions {
  /**
   * Extension keywords that stay (each starts with `x-`). `x-mcp-header` always stays: MCP 2026-07-28
   * clients mirror the argument it marks into an `Mcp-Param-*` HTTP header, so it is protocol, not a note.
   */
  readonly keep?: readonly string[];
  /** Which schemas of each tool to clean (default both). */
  readonly slots?: readonly SchemaSlot[];
  /** The dialect of a schema without `$schema` (MCP: 2020-12); decides where schema positions are. */
  readonly assume?: Dialect;
}

/**
 * Removes vendor-extension keywords (`x-…`) at schema positions: what an OpenAPI converter leaves behind
 * (`x-parameter-location`, `x-content-type`, …). An unknown keyword is an annotation in JSON Schema
 * 2020-12 and ignored by draft-04/-07 readers, so no verdict changes. Never touches data (`default`,
 * `const`, `enum`, `examples`, an unknown keyword's value), names (a property called `x-id`), tool-level
 * fields, `x-mcp-header` or the names in `keep`, an extension a `$ref` points into, or one whose value
 * holds a `$ref`-shaped object (other transforms keep that reference's target alive).
 */
export const stripVendorExtensions = defineTransform<StripVendorExtensionsOptions, undefined>({
  name: 'strip-vendor-extensions',
  description: 'Remove vendor-extension keywords (x-…) from schemas, except x-mcp-header and the ones listed in keep',
  safety: 'annotation',
  defaultOptions: { keep: ['x-mcp-header'], slots: SCHEMA_SLOTS, assume: '2020-12' },
  messages: {
    'removed-extension': 'Removed the vendor extension `{name}`: an unknown keyword is an annotation no validator reads',
    'kept-ref-target': 'Kept the vendor extension `{name}`: a `$ref` points into it',
    'kept-ref-shaped': 'Kept the vendor extension `{name}`: its value holds a `$ref`-shaped object that other transforms treat as a reference',
    'unknown-dialect': 'Left the schema unchanged: `$schema` `{uri}` names a meta-schema toolslim does not know (expected a JSON Schema draft URI)',
  },
  validateOptions(options) {
    if (!Array.isArray(options.keep) || options.keep.some((k) => typeof k !== 'string' || !isExtensionKeyword(k))) throw new Error('`keep` must list extension keywords, each starting with `x-` (e.g. ["x-mcp-header"])');
    if (!Array.isArray(options.slots) || options.slots.some((s) => !SCHEMA_SLOTS.includes(s))) throw new Error('`slots` must list `inputSchema` and/or `outputSchema`');
    if (!DIALECTS.includes(options.assume as Dialect)) throw new Error(`\`assume\` must be one of ${DIALECTS.join(', ')}`);
  },
  apply(doc, ctx, options) {
    for (const u of doc.unknownDialects) ctx.report('info', 'unknown-dialect', u.base + '/$schema', { uri: String(u.uri) });
    // No `x-` key anywhere in the tool (the engine knows it from its input check): nothing to strip or keep.
    if (!doc.mayHold.extensionKeys) return;
    const { keep, holdsStrippable } = keepOf(options);
    const documents = doc.documents;
    for (const d of documents) {
      const { schema, table, base } = d;
      // Most schemas have none: look without building a pointer first, and before telling schema positions
      // from data, for any `x-` key at all. A tool's only schema needs no such look: the engine's input check
      // found an `x-` key in the tool (or it would not be here), and a reference keyword only if
      // `mayHold.referenceKeys` says so; the look at schema positions alone decides (a second walk over a
      // schema with extensions, 483 of bench/validation's 1,430 tools, saved).
      const keys = documents.length === 1 ? (doc.mayHold.referenceKeys ? EXTENSION_KEY | REFERENCE_KEY : EXTENSION_KEY) : scanKeys(schema);
      if ((keys & EXTENSION_KEY) === 0 || !someSubschema(schema, holdsStrippable, table)) continue;
      // Without a reference keyword anywhere no `$ref` lands in an extension, and its `$ref` index is not built.
      const finder = new ExtensionFinder(d, keep, (keys & REFERENCE_KEY) === 0 ? NO_TARGETS : undefined);
      walkSchema(schema, '', finder);
      for (const f of finder.found) {
        if (f.code === 'removed-extension') ctx.remove(base + f.path, f.code, { name: f.name });
        else ctx.report('info', f.code, base + f.path, { name: f.name });
      }
    }
  },
});

type Found = { path: string; name: string; code: 'removed-extension' | 'kept-ref-target' | 'kept-ref-shaped' };

/**
 * The walk's visitor for one document: every extension keyword that goes, or stays and why. A class, not a
 * closure made per document: V8 keeps a function's optimised code only while one of its closures lives
 * (src/json/shapes.ts).
 */
class ExtensionFinder {
  /** The document's keyword table: `walkSchema` reads it from its options (this object) to know where subschemas are. */
  readonly table: KeywordTable;
  readonly found: Found[] = [];

  constructor(
    readonly doc: SchemaDocument,
    readonly keep: ReadonlySet<string>,
    public targets: RefTargets | undefined,
  ) {
    this.table = doc.table;
  }

  onSchema(node: unknown, path: string): void {
    if (!isObject(node)) return;
    for (const key of Object.keys(node)) {
      // A dialect's own keyword is never an extension (no table has one; the check keeps it so).
      if (!isExtensionKeyword(key) || this.keep.has(key) || this.table.has(key)) continue;
      const at = appendPointer(path, key);
      this.targets ??= collectRefTargets(this.doc.schema, this.doc.dialect, this.doc.refs);
      const code = holdsRefTarget(this.targets, at) ? 'kept-ref-target' : holdsRefShaped(node[key]) ? 'kept-ref-shaped' : 'removed-extension';
      this.found.push({ path: at, name: key, code });
    }
  }
}

/** The names that stay, and the test for a schema object holding one that goes. */
interface Keep {
  readonly keep: ReadonlySet<string>;
  readonly holdsStrippable: (node: Record<string, unknown>) => boolean;
}

/** Made once per options object (a run hands every tool the same one), not once a tool. */
function keepOf(options: StripVendorExtensionsOptions): Keep {
  let found = KEEPS.get(options);
  if (found === undefined) {
    found = keepFor(options.keep ?? []);
    KEEPS.set(options, found);
  }
  return found;
}

/**
 * One {@link Keep} per list of names, kept for the life of the process (a bounded number of them): every run
 * resolves its options anew, and a test made per run was a closure that took its optimised code with it at
 * every full GC (src/json/shapes.ts): the default `keep: ['x-mcp-header']` was compiled again on every pass
 * of the bench.
 */
function keepFor(names: readonly string[]): Keep {
  const keep: ReadonlySet<string> = new Set([MCP_HEADER, ...names]);
  // JSON of the sorted names: unambiguous whatever characters a name holds.
  const key = JSON.stringify([...keep].sort());
  let found = KEEP_BY_NAMES.get(key);
  if (found === undefined) {
    found = { keep, holdsStrippable: (node) => holdsStrippable(node, keep) };
    if (KEEP_BY_NAMES.size < KEEP_BY_NAMES_MAX) KEEP_BY_NAMES.set(key, found);
  }
  return found;
}

const KEEPS = new WeakMap<object, Keep>();
const KEEP_BY_NAMES = new Map<string, Keep>();
/** A process that makes ever new `keep` lists (a proxy configured per session) does not grow the cache without end. */
const KEEP_BY_NAMES_MAX = 64;

/** What {@link scanKeys} found among the keys of every object in a document. */
const EXTENSION_KEY = 1;
const REFERENCE_KEY = 2;

/**
 * Which kinds of key some object anywhere in `value` (at a schema position or inside data) has as its own:
 * an extension keyword ({@link EXTENSION_KEY}; without one there is nothing to strip) and a reference
 * keyword ({@link REFERENCE_KEY}; without one no `$ref` of the document can point anywhere, since every
 * reference the inventory lists is the value of such a key). One loop over keys and values, with no keyword
 * table and no pointers.
 */
function scanKeys(value: unknown): number {
  let found = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'object' && x !== null) stack.push(x);
      }
    } else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      // `for…in` with the own-key test: the keys without an array of them.
      for (const key in o) {
        if (!hasOwn(o, key)) continue;
        if (isExtensionKeyword(key)) found |= EXTENSION_KEY;
        else if (key.charCodeAt(0) === 36 /* $ */ && REFERENCE_KEYWORDS.includes(key)) found |= REFERENCE_KEY;
        const x = o[key];
        if (typeof x === 'object' && x !== null) stack.push(x);
      }
    }
  }
  return found;
}

/** Whether some own key of `node` is an extension keyword not in `keep` (without listing the keys). */
function holdsStrippable(node: Record<string, unknown>, keep: ReadonlySet<string>): boolean {
  for (const key in node) if (isExtensionKeyword(key) && !keep.has(key) && hasOwn(node, key)) return true;
  return false;
}

/** What {@link collectRefTargets} finds in a document without references. */
const NO_TARGETS: RefTargets = { exact: new Set(), ancestors: new Set(), inventory: { refs: [], anchors: [], resources: [], rootUri: undefined } };

/** MCP 2026-07-28 (SEP-2243): a property carrying it is mirrored into an `Mcp-Param-<value>` HTTP header. */
const MCP_HEADER = 'x-mcp-header';

/** True when `value` holds an object with a string `$ref` (or `$dynamicRef`, `$recursiveRef`) anywhere. */
function holdsRefShaped(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  let hit = false;
  walkJson(value, '', (v) => {
    if (!hit && isObject(v)) for (const k of REFERENCE_KEYWORDS) if (hasOwn(v, k) && typeof v[k] === 'string') hit = true;
  });
  return hit;
}

// One instance kept, so its map outlives a full GC between runs (src/json/shapes.ts).
anchorShape(new ExtensionFinder({ table: new Map() } as unknown as SchemaDocument, new Set(), undefined));
