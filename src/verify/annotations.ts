/**
 * The gate's annotation checks: what a `lossless` rewrite may do to annotations (drop or move them, never
 * write one the original lacks), each schema version's annotation set collected once per history, and the
 * cheap path that skips what a rewrite shares with its original.
 */
import { UNION_KEYWORDS } from '../schema/keywords.js';
import { hasOwn, isObject } from '../json/guards.js';
import { walkSchema } from '../schema/walk.js';
import { jsonEqual } from '../json/equal.js';
import { canonicalJson } from '../json/canonical.js';
import { anchorShape } from '../json/shapes.js';

/** An annotation a rewrite wrote: where (a pointer inside the schema) and what. */
export interface WrittenAnnotation {
  readonly path: string;
  readonly message: string;
}

/**
 * For a `lossless` rewrite: every annotation value in the rewritten schema (wherever it sits, under
 * whichever annotation keyword) is one the original holds somewhere, whole or as an element of an
 * array-valued annotation; an array-valued annotation may also gather such values (OpenAPI's
 * `example: x` read as `examples: [x]`). Dropping an annotation (normalize-schema drops `title` and
 * `$comment`) or moving one (into `$defs`) passes; writing new text or altering a value does not. Read
 * with every dialect's keywords, so a dialect rewrite that renames the keyword holding it still finds it.
 */
export function noAnnotationWritten(a: unknown, b: unknown, annotations: AnnotationSets): WrittenAnnotation | undefined {
  if (annotationsKept(a, b, () => annotations.of(a).values)) return undefined;
  return firstWrittenAnnotation(a, b, annotations);
}

/** The full check of {@link noAnnotationWritten}: every annotation of `b` looked up in `a`'s set; the first one missing, in document order. */
export function firstWrittenAnnotation(a: unknown, b: unknown, annotations: AnnotationSets): WrittenAnnotation | undefined {
  const have = annotations.of(a).values;
  const after = annotations.of(b);
  const found = after.found.find((f) => !have.has(f.value) && !(f.elements !== undefined && f.elements.every((v) => have.has(v))));
  if (!found) return undefined;
  return { path: found.path, message: `a lossless rewrite wrote an annotation the original does not have: \`${found.keyword}\` at \`${found.path}\`` };
}

/**
 * The cheap way to {@link noAnnotationWritten}'s "nothing written": true when every annotation of `b` is
 * shown to be one `a` holds, walking the two in step (the same positions {@link collectAnnotations} reads)
 * and skipping every subtree `b` shares with `a` at the same place (copy-on-write keeps an untouched
 * subtree the very same object, and its annotations are `a`'s own). An annotation beside which `a` holds an
 * equal value under the same keyword is `a`'s too; any other is looked up in `a`'s whole set (`have`, built
 * only then). False means "not shown", never "written": the full check then decides and names the place.
 */
export function annotationsKept(a: unknown, b: unknown, have: () => ReadonlySet<string>): boolean {
  const pending: unknown[] = [];
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y || typeof y === 'boolean') continue;
    // An array where a subschema belongs is data the full walk reads by its keyword: leave it to that walk.
    if (!isObject(y)) return false;
    const px = isObject(x) ? x : undefined;
    for (const k of Object.keys(y)) {
      const v = y[k];
      const info = UNION_KEYWORDS.get(k);
      if (info === undefined || info.shape === 'opaque') {
        if (info?.role === 'annotation' && !(px !== undefined && hasOwn(px, k) && jsonEqual(px[k], v))) pending.push(v);
        continue;
      }
      const u = px !== undefined && hasOwn(px, k) ? px[k] : undefined;
      if (info.shape === 'schema' || (info.shape === 'schemaOrArray' && !Array.isArray(v))) {
        stack.push([Array.isArray(u) ? undefined : u, v]);
      } else if (info.shape === 'schemaArray' || info.shape === 'schemaOrArray') {
        if (!Array.isArray(v)) continue;
        const ua = Array.isArray(u) ? u : undefined;
        for (let i = 0; i < v.length; i++) stack.push([ua?.[i], v[i]]);
      } else if (isObject(v)) {
        const um = isObject(u) ? u : undefined;
        for (const name of Object.keys(v)) {
          const entry = v[name];
          if (info.shape === 'schemaOrStrings' && Array.isArray(entry)) continue;
          stack.push([um !== undefined && hasOwn(um, name) ? um[name] : undefined, entry]);
        }
      }
    }
  }
  if (pending.length === 0) return true;
  const values = have();
  return pending.every((v) => values.has(canonicalJson(v)) || (Array.isArray(v) && v.every((e) => values.has(canonicalJson(e)))));
}

/** One schema version's annotations: every value (and element of an array value) by canonical JSON, and where each sits. */
interface AnnotationSet {
  readonly values: ReadonlySet<string>;
  readonly found: readonly { readonly keyword: string; readonly path: string; readonly value: string; readonly elements?: readonly string[] }[];
}

/**
 * Each schema version's annotation set, collected once: a history compares every version with the one
 * before it, so each intermediate version would otherwise be walked twice (as the rewrite, then as the
 * original of the next step).
 */
export class AnnotationSets {
  readonly #sets = new WeakMap<object, AnnotationSet>();

  of(schema: unknown): AnnotationSet {
    const key = typeof schema === 'object' && schema !== null ? schema : undefined;
    const known = key ? this.#sets.get(key) : undefined;
    if (known) return known;
    const values = new Set<string>();
    const found: { keyword: string; path: string; value: string; elements?: string[] }[] = [];
    collectAnnotations(schema, (keyword, value, path) => {
      const text = canonicalJson(value);
      values.add(text);
      if (Array.isArray(value)) {
        const elements = value.map((v) => canonicalJson(v));
        for (const e of elements) values.add(e);
        found.push({ keyword, path, value: text, elements });
      } else found.push({ keyword, path, value: text });
    });
    const set: AnnotationSet = { values, found };
    if (key) this.#sets.set(key, set);
    return set;
  }
}

function collectAnnotations(schema: unknown, visit: (keyword: string, value: unknown, path: string) => void): void {
  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onOpaque(keyword, value, path, owner) {
      // onOpaque also reports malformed applicator values; only annotation keywords of a schema object count.
      const info = UNION_KEYWORDS.get(keyword);
      if (!info || info.role !== 'annotation' || owner[keyword] !== value) return;
      visit(keyword, value, path);
    },
  });
}

// One instance kept, so its map outlives a full GC between runs (src/json/shapes.ts).
anchorShape(new AnnotationSets());
