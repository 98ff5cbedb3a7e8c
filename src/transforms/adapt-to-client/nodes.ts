/** Helpers adapt-to-client's steps share: where nodes sit, keyword roles, own keys that may be `__proto__`. */
import { hasOwn, isObject } from '../../json/guards.js';
import { formatPointer, parsePointer } from '../../json/pointer.js';
import { isLegacyDialect } from '../../schema/dialect.js';
import { KEYWORD_TABLES, UNION_KEYWORDS, DEFINITIONS_KEYWORDS, type Dialect } from '../../schema/keywords.js';
import { parseRef } from '../../schema/ref-syntax.js';
import type { RefInventory, RefSite } from '../../schema/refs.js';
import { walkSchema } from '../../schema/walk.js';


/** Where each schema node sits: the nearest enclosing definition entry, if any. */
export interface NodeInfo {
  /** Pointer of the nearest node (itself included) that is an entry of a definitions container. */
  readonly defEntry: string | undefined;
}

export function indexNodes(schema: unknown): Map<string, NodeInfo> {
  const info = new Map<string, NodeInfo>();
  const stack: { path: string; defEntry: string | undefined }[] = [];
  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onSchema(_node, path, keyword) {
      while (stack.length > 0 && !path.startsWith(stack[stack.length - 1]!.path + '/')) stack.pop();
      const inherited = stack.length > 0 ? stack[stack.length - 1]!.defEntry : undefined;
      const defEntry = keyword !== undefined && DEFINITIONS_KEYWORDS.includes(keyword) ? path : inherited;
      info.set(path, { defEntry });
      stack.push({ path, defEntry });
    },
  });
  return info;
}

export function within(path: string, ancestor: string): boolean {
  return ancestor === '' || path === ancestor || path.startsWith(ancestor + '/');
}


export function isAnnotation(keyword: string): boolean {
  return UNION_KEYWORDS.get(keyword)?.role === 'annotation';
}


export function setOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

export function nameOf(path: string): string {
  if (path === '') return '#';
  const tokens = parsePointer(path);
  return tokens[tokens.length - 1]!;
}


/**
 * Why readers may disagree on what an anchor reference (`#name`) names, or undefined when they agree: the
 * name is declared by more than one schema of the document (which one is meant depends on the reader), or
 * only where `dialect` reads no schema (see {@link placeDoubt}). Rewriting such a reference to name one
 * schema would choose a reading; reconcile-dialect reports the same shapes (`ambiguous-anchor`,
 * `tuple-id`) and leaves the tool as it is.
 */
export function anchorDoubt(schema: unknown, inventory: RefInventory, site: RefSite, dialect: Dialect): string | undefined {
  const parsed = parseRef(site.ref);
  if (parsed.kind !== 'anchor') return undefined;
  const holders = [...new Set(inventory.anchors.filter((a) => a.name === parsed.name).map((a) => a.path))];
  if (holders.length > 1) return `\`${site.ref}\` is declared by ${holders.length} schemas, and readers disagree on which one it names`;
  return undefined;
}

/**
 * Why the value at `path` is not a schema the way `dialect` reads the document, or undefined when it is: it
 * lies inside a keyword the dialect does not know (`prefixItems` in draft-07: ajv registers no anchor
 * there, other readers do), or inside a sibling of `$ref` in a dialect whose `$ref` ignores its siblings
 * (draft-04/06/07: `properties` beside `$ref` is not read, yet a 2019-09+ reader, or the client, applies
 * it). Readers disagree on such a place; reconcile-dialect leaves a tool whose references name one as it
 * is (`referenced-ref-sibling`, `referenced-foreign-keyword`), and copying the target out would change
 * that decision on the next run. Definitions containers are read as such in every dialect (`$defs` in
 * draft-07 too, as ajv and every reader resolve pointers into them), also beside `$ref`.
 */
export function placeDoubt(root: unknown, path: string, dialect: Dialect): string | undefined {
  const table = KEYWORD_TABLES[dialect];
  const legacy = isLegacyDialect(dialect);
  const tokens = parsePointer(path);
  let node = root;
  for (let i = 0; i < tokens.length; ) {
    if (!isObject(node)) return `\`${path}\` is not inside a schema`;
    const k = tokens[i]!;
    const here = formatPointer(tokens.slice(0, i + 1));
    const defs = DEFINITIONS_KEYWORDS.includes(k);
    if (legacy && !defs && typeof node.$ref === 'string' && hasOwn(node, '$ref')) return `\`${path}\` lies in \`${here}\`, beside \`$ref\`, which ${dialect} readers ignore and others apply`;
    const shape = defs ? 'schemaMap' : table.get(k)?.shape;
    if (shape === undefined || shape === 'opaque' || !hasOwn(node, k)) return `\`${path}\` lies in \`${here}\`, which ${dialect} does not read as a schema`;
    const value = node[k];
    const entry = tokens[i + 1];
    const notRead = `\`${path}\` lies in \`${here}\`, which ${dialect} does not read as a schema`;
    if (shape === 'schema' || (shape === 'schemaOrArray' && !Array.isArray(value))) {
      node = value;
      i += 1;
    } else if (shape === 'schemaArray' || shape === 'schemaOrArray') {
      if (!Array.isArray(value) || entry === undefined || !/^(?:0|[1-9][0-9]*)$/.test(entry) || Number(entry) >= value.length) return notRead;
      node = value[Number(entry)];
      i += 2;
    } else {
      // schemaMap, or draft-07 `dependencies` (a schema, or a list of names that is no schema)
      if (!isObject(value) || entry === undefined || !hasOwn(value, entry)) return notRead;
      node = value[entry];
      if (shape === 'schemaOrStrings' && Array.isArray(node)) return notRead;
      i += 2;
    }
  }
  return undefined;
}
