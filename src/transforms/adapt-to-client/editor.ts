/**
 * The scratch editor adapt-to-client's steps edit through: a copy-on-write copy of one slot's schema that
 * records every edit and note, so the whole plan can be measured (the growth cap) before any of it is
 * replayed onto the tool through the pipeline's context.
 */
import { EditContext, type MessageData } from '../../core/context.js';
import type { Severity } from '../../core/report.js';
import type { StepEditor } from './step.js';

/** One recorded edit, relative to the schema of a slot. */
export interface Op {
  readonly op: 'replace' | 'remove' | 'add' | 'move' | 'rename';
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
  /** For `rename`: the member's new key. */
  readonly key?: string;
  readonly code: string;
  readonly data: MessageData;
}

/** One recorded diagnostic, relative to the schema of a slot. */
export interface Note {
  readonly severity: Severity;
  readonly code: string;
  readonly path: string;
  readonly data: MessageData;
}

export class Editor implements StepEditor {
  readonly ops: Op[] = [];
  readonly notes: Note[] = [];
  /** Set when a plan was abandoned for growing past the cap (sizes in bytes; `after` may be an estimate). */
  capped: { before: number; after: number } | undefined;
  readonly #ctx: EditContext;

  constructor(root: unknown) {
    this.#ctx = new EditContext(root, {});
  }

  get root(): unknown {
    return this.#ctx.root;
  }

  get(path: string): unknown {
    return path === '' ? this.#ctx.root : this.#ctx.get(path);
  }

  replace(path: string, value: unknown, code: string, data: MessageData): void {
    this.#ctx.replace(path, value, code);
    this.ops.push({ op: 'replace', path, value, code, data });
  }

  remove(path: string, code: string, data: MessageData): void {
    this.#ctx.remove(path, code);
    this.ops.push({ op: 'remove', path, code, data });
  }

  add(path: string, value: unknown, code: string, data: MessageData): void {
    this.#ctx.add(path, value, code);
    this.ops.push({ op: 'add', path, value, code, data });
  }

  rename(path: string, key: string, code: string, data: MessageData): void {
    this.#ctx.rename(path, key, code);
    this.ops.push({ op: 'rename', path, key, code, data });
  }

  move(from: string, path: string, code: string, data: MessageData): void {
    this.#ctx.move(from, path, code);
    this.ops.push({ op: 'move', from, path, code, data });
  }

  note(severity: Severity, code: string, path: string, data: MessageData): void {
    this.notes.push({ severity, code, path, data });
  }
}

/** Replays recorded edits onto the pipeline's context, each under `base` (the slot's pointer). */
export function replay(ops: readonly Op[], ctx: EditContext, base: string): void {
  for (const o of ops) {
    if (o.op === 'replace') ctx.replace(base + o.path, o.value, o.code, o.data);
    else if (o.op === 'remove') ctx.remove(base + o.path, o.code, o.data);
    else if (o.op === 'add') ctx.add(base + o.path, o.value, o.code, o.data);
    else if (o.op === 'rename') ctx.rename(base + o.path, o.key!, o.code, o.data);
    else ctx.move(base + o.from!, base + o.path, o.code, o.data);
  }
}
