import { isObject, hasOwn } from './pointer.js';
import { KEYWORD_TABLES, type Dialect, type KeywordTable } from './keywords.js';

/** The canonical `$schema` URI of each dialect (`openapi-3.0` has none). */
export const DIALECT_URIS: Readonly<Record<Dialect, string | undefined>> = Object.freeze({
  'draft-04': 'http://json-schema.org/draft-04/schema#',
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'openapi-3.0': undefined,
});

const URI_PATTERN = /^https?:\/\/json-schema\.org\/(?:(draft-0[4-7])\/schema|draft\/(2019-09|2020-12)\/schema)\/?#?$/;

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
