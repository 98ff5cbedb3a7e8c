import type { McpTool, SchemaSlot } from './tool.js';
import { getDeclaredDialect } from '../schema/dialect.js';
import { KEYWORD_TABLES, type Dialect, type KeywordTable } from '../schema/keywords.js';
import { refIndexOf, type RefIndex } from '../schema/refs.js';
import { hasOwn, isObject } from '../json/guards.js';
import { anchorShape } from '../json/shapes.js';

/** One schema document of a tool, with the dialect a reader reads it in. */
export interface SchemaDocument {
  /** Which schema of the tool. */
  readonly slot: SchemaSlot;
  /** Pointer of the document inside the tool (`/inputSchema`). */
  readonly base: string;
  /** The schema itself, as the step received it (read it; edit through `ctx`). */
  readonly schema: Record<string, unknown>;
  /** The dialect a reader reads it in: its `$schema`, or the assumed one. */
  readonly dialect: Dialect;
  /** `declared` or `assumed`; documents whose `$schema` names an unknown meta-schema are not listed. */
  readonly source: 'declared' | 'assumed';
  /** The dialect's keyword table. */
  readonly table: KeywordTable;
  /**
   * Every `$ref`, anchor and embedded resource of the document, each reference with its resolution:
   * walked on first use, then shared by every step and check of the run that reads this version of the
   * document (see {@link RefIndex}).
   */
  readonly refs: RefIndex;
}

/** A schema slot whose `$schema` names a meta-schema toolslim does not know (its keywords cannot be read safely). */
export interface UnknownDialectDocument {
  /** Which schema of the tool. */
  readonly slot: SchemaSlot;
  /** Pointer of the document inside the tool. */
  readonly base: string;
  /** The `$schema` value. */
  readonly uri: unknown;
}

/** What {@link getSchemaDocuments} found. */
export interface SchemaDocuments {
  readonly documents: readonly SchemaDocument[];
  /** Slots whose `$schema` names a meta-schema toolslim does not know (their keywords cannot be read safely). */
  readonly unknown: readonly UnknownDialectDocument[];
}

/**
 * The object-valued schema slots of a tool, each with its dialect (`$schema`, or `assume` when there is
 * none). Boolean and missing schemas are left out: there is nothing in them to rewrite.
 */
export function getSchemaDocuments(tool: McpTool, slots: readonly SchemaSlot[], assume: Dialect): SchemaDocuments {
  const documents: SchemaDocument[] = [];
  const unknown: UnknownDialectDocument[] = [];
  for (let s = 0; s < slots.length; s++) {
    const slot = slots[s]!;
    if (!hasOwn(tool, slot)) continue;
    const schema = (tool as Record<string, unknown>)[slot];
    if (!isObject(schema)) continue;
    const declared = getDeclaredDialect(schema, assume);
    const base = '/' + slot;
    if (declared.source === 'unknown') unknown.push({ slot, base, uri: declared.uri });
    else documents.push(new Document(slot, base, schema, declared.dialect, declared.source));
  }
  return { documents, unknown };
}

class Document implements SchemaDocument {
  readonly slot: SchemaSlot;
  readonly base: string;
  readonly schema: Record<string, unknown>;
  readonly dialect: Dialect;
  readonly source: 'declared' | 'assumed';
  readonly table: KeywordTable;
  /** What an earlier step's look found below the root (see {@link noteBelow}); undefined when none looked. */
  below: unknown = undefined;
  #refs: RefIndex | undefined;

  constructor(slot: SchemaSlot, base: string, schema: Record<string, unknown>, dialect: Dialect, source: 'declared' | 'assumed') {
    this.slot = slot;
    this.base = base;
    this.schema = schema;
    this.dialect = dialect;
    this.source = source;
    this.table = KEYWORD_TABLES[dialect];
  }

  get refs(): RefIndex {
    return (this.#refs ??= refIndexOf(this.schema, this.dialect));
  }
}

/**
 * Keeps what one step's look at a document found, for the later steps of the run that get the same document
 * (transforms/below-root.ts says what and why). Held by the document itself: a `WeakMap` keyed by the run's
 * documents cost about 0.8 µs a document to fill (1.2% of `safe` over bench/validation), a field a store. A
 * document the engine did not make keeps nothing.
 * @internal
 */
export function noteBelow(doc: SchemaDocument, facts: unknown): void {
  if (doc instanceof Document) doc.below = facts;
}

/** What {@link noteBelow} kept for `doc`, or undefined. @internal */
export function belowOf(doc: SchemaDocument): unknown {
  return doc instanceof Document ? doc.below : undefined;
}

// Keeps Document's shape (and the code optimised for it) alive between runs.
anchorShape(new Document('inputSchema', '', {}, 'draft-07', 'assumed'));
