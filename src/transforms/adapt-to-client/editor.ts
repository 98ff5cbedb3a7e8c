/**
 * What adapt-to-client's steps edit through: one slot's schema (`/inputSchema`, `/outputSchema`) of the
 * pipeline's context, with pointers relative to it. Edits go straight to the context, inside the
 * transaction the transform opens per tool (rolled back whole when a slot grows past the cap); notes are
 * kept here and reported once the transaction is decided, so they survive a roll-back and keep their order.
 */
import type { EditContext, MessageData } from '../../core/context.js';
import type { Severity } from '../../core/report.js';
import type { StepEditor } from './step.js';

/** One diagnostic a step noted, relative to the slot's schema. */
export interface Note {
  readonly severity: Severity;
  readonly code: string;
  readonly path: string;
  readonly data: MessageData;
}

export class SlotEditor implements StepEditor {
  readonly notes: Note[] = [];
  capped: { before: number; after: number } | undefined;
  #edits = 0;
  readonly #ctx: EditContext;
  readonly #base: string;

  /** `base`: the slot's pointer in the context's document (`''` when the context holds the schema itself). */
  constructor(ctx: EditContext, base: string) {
    this.#ctx = ctx;
    this.#base = base;
  }

  get edits(): number {
    return this.#edits;
  }

  get root(): unknown {
    return this.get('');
  }

  get(path: string): unknown {
    const at = this.#base + path;
    return at === '' ? this.#ctx.root : this.#ctx.get(at);
  }

  replace(path: string, value: unknown, code: string, data: MessageData): void {
    this.#ctx.replace(this.#base + path, value, code, data);
    this.#edits++;
  }

  remove(path: string, code: string, data: MessageData): void {
    this.#ctx.remove(this.#base + path, code, data);
    this.#edits++;
  }

  add(path: string, value: unknown, code: string, data: MessageData): void {
    this.#ctx.add(this.#base + path, value, code, data);
    this.#edits++;
  }

  rename(path: string, key: string, code: string, data: MessageData): void {
    this.#ctx.rename(this.#base + path, key, code, data);
    this.#edits++;
  }

  move(from: string, path: string, code: string, data: MessageData): void {
    this.#ctx.move(this.#base + from, this.#base + path, code, data);
    this.#edits++;
  }

  note(severity: Severity, code: string, path: string, data: MessageData): void {
    this.notes.push({ severity, code, path, data });
  }

  group(edits: () => void): void {
    this.#ctx.transaction(() => {
      edits();
      return true;
    });
  }

  /**
   * Runs `edits` as a group the context can undo (nested in the tool's transaction): when it returns
   * false, its edits, their count, its notes and a `capped` it set are undone.
   */
  attempt(edits: () => boolean): boolean {
    const count = this.#edits;
    const notes = this.notes.length;
    const capped = this.capped;
    const kept = this.#ctx.transaction(edits);
    if (!kept) {
      this.#edits = count;
      this.notes.length = notes;
      this.capped = capped;
    }
    return kept;
  }
}
