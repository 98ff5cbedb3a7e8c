import type { McpTool, SchemaSlot } from './tool.js';
import { getDeclaredDialect } from '../schema/dialect.js';
import { KEYWORD_TABLES, type Dialect, type KeywordTable } from '../schema/keywords.js';
import { hasOwn, isObject } from '../json/guards.js';

/** One schema document of a tool, with the dialect a reader reads it in. */
export interface SchemaDocument {
  readonly slot: SchemaSlot;
  /** Pointer of the document inside the tool (`/inputSchema`). */
  readonly base: string;
  readonly schema: Record<string, unknown>;
  readonly dialect: Dialect;
  /** `declared` or `assumed`; documents whose `$schema` names an unknown meta-schema are not listed. */
  readonly source: 'declared' | 'assumed';
  readonly table: KeywordTable;
}

/** What {@link getSchemaDocuments} found. */
export interface SchemaDocuments {
  readonly documents: readonly SchemaDocument[];
  /** Slots whose `$schema` names a meta-schema toolslim does not know (their keywords cannot be read safely). */
  readonly unknown: readonly { readonly slot: SchemaSlot; readonly base: string; readonly uri: unknown }[];
}

/**
 * The object-valued schema slots of a tool, each with its dialect (`$schema`, or `assume` when there is
 * none). Boolean and missing schemas are left out: there is nothing in them to rewrite.
 */
export function getSchemaDocuments(tool: McpTool, slots: readonly SchemaSlot[], assume: Dialect): SchemaDocuments {
  const documents: SchemaDocument[] = [];
  const unknown: { slot: SchemaSlot; base: string; uri: unknown }[] = [];
  for (const slot of slots) {
    if (!hasOwn(tool, slot)) continue;
    const schema = (tool as Record<string, unknown>)[slot];
    if (!isObject(schema)) continue;
    const declared = getDeclaredDialect(schema, assume);
    const base = '/' + slot;
    if (declared.source === 'unknown') unknown.push({ slot, base, uri: declared.uri });
    else documents.push({ slot, base, schema, dialect: declared.dialect, source: declared.source, table: KEYWORD_TABLES[declared.dialect] });
  }
  return { documents, unknown };
}
