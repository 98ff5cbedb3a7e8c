/**
 * The shape of one adapt-to-client step (each lives in steps/<id>.ts) and the editor it edits through.
 * A step reads one schema of one slot and edits it and notes what it could not do; the transform runs the
 * steps of a tool in one transaction, measured against the growth cap, and rolls it back when it is over.
 */
import type { MessageData } from '../../core/context.js';
import type { Severity } from '../../core/report.js';
import type { ClientProfile } from '../../profiles/profiles.js';
import type { Dialect } from '../../schema/keywords.js';

/** What a step edits through: one slot's schema, pointers relative to it (editor.ts). */
export interface StepEditor {
  readonly root: unknown;
  /** How many edits were made so far (a step may compare counts to see whether it did anything). */
  readonly edits: number;
  get(path: string): unknown;
  replace(path: string, value: unknown, code: string, data: MessageData): void;
  remove(path: string, code: string, data: MessageData): void;
  add(path: string, value: unknown, code: string, data: MessageData): void;
  /** Renames an object member in place (it keeps its position among its siblings). */
  rename(path: string, newKey: string, code: string, data: MessageData): void;
  move(from: string, path: string, code: string, data: MessageData): void;
  /** Set by a step that gave up for growing far past the cap (sizes in bytes; `after` may be an estimate). */
  capped: { before: number; after: number } | undefined;
  /** A diagnostic about the schema (`path` relative to it). */
  note(severity: Severity, code: string, path: string, data: MessageData): void;
  /**
   * Runs `edits` at a fresh copy-on-write level: nothing an earlier edit made (and may have put inside the
   * value a change recorded, such as a node wrapped in `anyOf`) is written in place, so every recorded
   * change keeps the value it had and the report replays. For edits that follow others on the same nodes.
   */
  group(edits: () => void): void;
}

/** What a step is told about the schema it adapts. */
export interface StepInput {
  readonly profile: ClientProfile;
  /** The dialect the schema is read in (its `$schema`, else the profile's). */
  readonly dialect: Dialect;
  /** Whether `$schema` was declared, assumed or unknown. */
  readonly source: 'declared' | 'assumed' | 'unknown';
  /** True for `inputSchema` (the arguments: always a JSON object in MCP). */
  readonly isArguments: boolean;
  /** The most bytes a schema of `before` bytes may grow to (the growth cap and allowance). */
  readonly growthLimit: (before: number) => number;
}

/** One step of adapt-to-client. */
export interface AdaptStep {
  /** kebab-case: its module (steps/<id>.ts) and its fixtures folder (test/fixtures/adapt-to-client/rules/<id>/). */
  readonly id: string;
  /** The boolean option of adapt-to-client that turns it on or off (lossy steps; the others run whenever the profile asks for them). */
  readonly option?: string;
  /** `lossy` steps accept instances the original refused (or refuse ones it accepted); off by default. */
  readonly safety: 'annotation' | 'lossy';
  /** Whether the profile asks for this step at all (read from the profile's data, never its name). */
  readonly applies: (p: ClientProfile) => boolean;
  readonly run: (ed: StepEditor, input: StepInput) => void;
}
