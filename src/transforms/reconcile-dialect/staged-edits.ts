/**
 * The staged-edit recorder of reconcile-dialect. It is not `ctx.transaction()`: a transaction keeps a
 * rolled-back finding in the place it was made, while reconcile-dialect reports every staged finding after
 * the contradictions and unknown-dialect notes of all slots (the report's order, which fixtures and the
 * bytes snapshot hold). Moving it onto `ctx.transaction()` would change that order: left for a change of
 * its own.
 */
import type { EditContext, MessageData } from '../../core/context.js';
import type { Severity } from '../../core/report.js';
import { SOURCE_FINDINGS } from './messages.js';

/**
 * Edits applied to a scratch context and recorded, so that a document's rewrite can be dropped as a whole
 * (only its findings kept) or replayed onto the tool's context, with the same operations in the same order.
 */
export class StagedEdits {
  readonly #scratch: EditContext;
  readonly #calls: ((ctx: EditContext) => void)[] = [];
  readonly #findings: [code: string, replay: (ctx: EditContext) => void][] = [];

  constructor(scratch: EditContext) {
    this.#scratch = scratch;
  }

  /** The working copy's value at `path`. */
  get(path: string): unknown {
    return this.#scratch.get(path);
  }

  /** How many edits were staged so far. */
  get edits(): number {
    return this.#calls.length;
  }

  replace(path: string, value: unknown, code: string, data?: MessageData): void {
    this.#scratch.replace(path, value, code, data);
    this.#calls.push((c) => c.replace(path, value, code, data));
  }

  remove(path: string, code: string, data?: MessageData): void {
    this.#scratch.remove(path, code, data);
    this.#calls.push((c) => c.remove(path, code, data));
  }

  add(path: string, value: unknown, code: string, data?: MessageData): void {
    this.#scratch.add(path, value, code, data);
    this.#calls.push((c) => c.add(path, value, code, data));
  }

  rename(path: string, newKey: string, code: string, data?: MessageData): void {
    this.#scratch.rename(path, newKey, code, data);
    this.#calls.push((c) => c.rename(path, newKey, code, data));
  }

  move(from: string, path: string, code: string, data?: MessageData): void {
    this.#scratch.move(from, path, code, data);
    this.#calls.push((c) => c.move(from, path, code, data));
  }

  report(severity: Severity, code: string, path: string, data?: MessageData): void {
    this.#findings.push([code, (c) => c.report(severity, code, path, data)]);
  }

  /**
   * Replays the edits and findings onto `ctx`; when the rewrite is dropped (`keepEdits` false), only the
   * findings about the source itself (not about the rewrite that did not happen).
   */
  commit(ctx: EditContext, keepEdits: boolean): void {
    if (keepEdits) for (const call of this.#calls) call(ctx);
    for (const [code, call] of this.#findings) if (keepEdits || SOURCE_FINDINGS.has(code)) call(ctx);
  }
}
