import { DIALECTS, KEYWORD_TABLES, UNION_KEYWORDS, type Dialect, type KeywordShape } from '../schema/keywords.js';
import { appendPointer, isObject } from '../schema/pointer.js';
import { walkSchema } from '../schema/walk.js';

/**
 * One keyword that contradicts a schema's declared dialect, grouped over every place it occurs.
 * `kind` is `unknown-keyword` when the declared dialect has no such keyword (draft-07 and `$defs`) and
 * `wrong-shape` when it has the keyword but another dialect's form of its value is used (an array
 * `items` under 2020-12).
 */
export interface DialectContradiction {
  readonly keyword: string;
  readonly kind: 'unknown-keyword' | 'wrong-shape';
  /** The dialects in which the keyword, in the form used, means something. */
  readonly dialects: readonly Dialect[];
  /** Pointer (relative to the schema) of the first schema object using it this way. */
  readonly path: string;
  readonly count: number;
}

/**
 * Finds keywords a validator of `declared` would ignore or misread because they belong to another
 * dialect. Table-driven (the keyword tables in `schema/keywords.ts`): a keyword counts when the declared
 * dialect lacks it (or expects another shape of value) while some other dialect has it in the form used.
 * Annotation keywords are left out: ignoring them changes no verdict. Iterative, one walk.
 */
export function findDialectContradictions(schema: unknown, declared: Dialect): DialectContradiction[] {
  const table = KEYWORD_TABLES[declared];
  const found = new Map<string, { keyword: string; kind: DialectContradiction['kind']; dialects: Dialect[]; path: string; count: number }>();
  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path) {
      if (!isObject(node)) return;
      for (const keyword of Object.keys(node)) {
        const union = UNION_KEYWORDS.get(keyword);
        if (union === undefined || union.role === 'annotation') continue;
        const value = node[keyword];
        const info = table.get(keyword);
        let kind: DialectContradiction['kind'];
        if (info === undefined) kind = 'unknown-keyword';
        else if (!fitsShape(info.shape, value)) kind = 'wrong-shape';
        else continue;
        const dialects = DIALECTS.filter((d) => d !== declared && fitsIn(d, keyword, value));
        if (dialects.length === 0) continue;
        const key = kind + '\u0000' + keyword;
        const hit = found.get(key);
        if (hit) hit.count++;
        else found.set(key, { keyword, kind, dialects, path: appendPointer(path, keyword), count: 1 });
      }
    },
  });
  return [...found.values()];
}

function fitsIn(dialect: Dialect, keyword: string, value: unknown): boolean {
  const info = KEYWORD_TABLES[dialect].get(keyword);
  return info !== undefined && fitsShape(info.shape, value);
}

/** Whether a value has the form a keyword of this shape takes (opaque keywords take anything). */
function fitsShape(shape: KeywordShape, value: unknown): boolean {
  switch (shape) {
    case 'schema':
      return isObject(value) || typeof value === 'boolean';
    case 'schemaArray':
      return Array.isArray(value);
    case 'schemaMap':
    case 'schemaOrStrings':
      return isObject(value);
    case 'schemaOrArray':
      return isObject(value) || typeof value === 'boolean' || Array.isArray(value);
    default:
      return true;
  }
}
