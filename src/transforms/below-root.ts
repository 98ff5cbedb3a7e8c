/**
 * What one step's look at a document found below its root, handed to the later steps of the same run that
 * read the same version of the document, so that they skip a walk with nothing to do.
 *
 * reconcile-dialect's look visits every subschema of nearly every document anyway (for contradictions
 * and conversion triggers); on the way it notes whether any subschema below the root holds a definitions
 * container (hoist-nested-defs' work) or a keyword normalize-schema might remove or rewrite. When
 * reconcile-dialect leaves the tool as it was, the next steps get the very same {@link SchemaDocument}
 * objects from the engine (one reading per tool version and run), and find the facts on them.
 *
 * Held by those objects, the facts live exactly as long as the run's documents: a new run reads its tools
 * anew (new objects), so a caller who changes a schema between runs never meets facts about its old
 * contents, and a document the look did not finish has none.
 */
import { belowOf, noteBelow, type SchemaDocument } from '../core/documents.js';

/** The subschemas below a document's root, as every dialect's reader would descend into them. */
export interface BelowRoot {
  /** Some subschema below the root holds a definitions container (an object under `$defs` or `definitions`). */
  readonly definitions: boolean;
  /** Some subschema below the root has a keyword normalize-schema may remove or rewrite (see `mayTidy`). */
  readonly tidy: boolean;
}

/** Records what a complete look over `doc`'s subschemas found (only for a document the step left as it was). */
export function noteBelowRoot(doc: SchemaDocument, facts: BelowRoot): void {
  noteBelow(doc, facts);
}

/** What a look earlier in the run found below `doc`'s root, or undefined when none looked. */
export function belowRoot(doc: SchemaDocument): BelowRoot | undefined {
  return belowOf(doc) as BelowRoot | undefined;
}
