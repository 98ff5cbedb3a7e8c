/**
 * One step of a run: one transform over every usable tool. `prepare` once, then for each tool the
 * transform's `apply` through a fresh `EditContext`, the post-conditions, and the stamping of what the
 * context recorded (tool, transform, pointers into the tools array) into the run's report; `finish` last.
 * One tool that fails is left as the step found it and listed in `skipped`; the rest go on.
 */
import { EditContext, exampleChanges, type RecordedChange } from '../core/context.js';
import { getSchemaDocuments, type SchemaDocument, type SchemaDocuments, type UnknownDialectDocument } from '../core/documents.js';
import { ToolslimError } from '../core/errors.js';
import type { Change, Diagnostic, Skip } from '../core/report.js';
import { SCHEMA_SLOTS, type McpTool, type SchemaSlot } from '../core/tool.js';
import { isExtensionKeyword, REFERENCE_KEYWORDS, type Dialect } from '../schema/keywords.js';
import { hasOwn, isObject } from '../json/guards.js';
import { currentAnalysis, INVENTORY_KEYS } from '../schema/refs.js';
import type { AnyTransform, KeyKinds, ToolDoc, TransformExtras } from '../core/transform.js';
import { appendPointer } from '../json/pointer.js';
import type { ToolVersion } from '../verify/policy.js';
import { documentOptions, type ResolvedRunOptions } from './options.js';
import { checkPostConditions } from './post-conditions.js';
import type { ToolSizes } from './stats.js';
import { anchorShape } from '../json/shapes.js';

/** A version of a changed tool, with what its step contributed to the stats (taken back if the gate reverts it). */
export interface StepVersion extends ToolVersion {
  readonly changes: number;
  readonly bytesSaved: number;
  readonly tokensSaved: number;
}

/** What a run accumulates across its steps. */
export interface RunState {
  readonly options: ResolvedRunOptions;
  /** The current version of every tool (replaced, never written, as steps change them). */
  readonly tools: McpTool[];
  /** Every tool as the run received it: where a key a step adds back goes (`EditContextOptions.origin`). */
  readonly origin: readonly unknown[];
  readonly names: readonly string[];
  readonly usable: readonly boolean[];
  /**
   * Per tool: the kinds of key its current version may hold (see {@link ToolDoc.mayHold}). No reference
   * keyword: no `$ref` of it can be broken, and the post-condition has nothing to walk. From the input
   * check, kept by steps whose edits add none.
   */
  readonly keys: KeyKinds[];
  /**
   * Per tool: its current version may hold a key a `$ref` inventory records (`INVENTORY_KEYS` of
   * schema/refs.ts, with a string value; an edit is judged by its keys alone, which only says "maybe" more often). Where false, the run's analysis knows each of its schemas' inventories is empty
   * ({@link noteVersion}): no step and not the gate walks them for one. From the input check, kept by
   * steps whose edits add none (a step that fails leaves it true: "maybe" is always safe).
   */
  readonly inventoryKeys: boolean[];
  /** Every tool is usable (then `prepare` and `finish` see the list itself). */
  readonly allUsable: boolean;
  readonly changes: Change[];
  readonly diagnostics: Diagnostic[];
  readonly skipped: Skip[];
  /** Sizes, when the run measures. */
  readonly sizes: ToolSizes | undefined;
  /** With the gate on: every version of every changed tool. */
  readonly histories: (StepVersion[] | undefined)[] | undefined;
  instructions: string | undefined;
  /**
   * Each tool version's documents read with the default slots and dialect, for every step of the run that
   * reads them so. A tool version is never written (a step makes a new object for a tool it changes), and
   * this lives only as long as the run (the caller may change its objects between runs).
   */
  readonly documents: WeakMap<McpTool, SchemaDocuments>;
}

/** Runs step `step` (`transform` with resolved `options`) over the run's tools; returns the step's stats. */
export function runStep(state: RunState, step: number, transform: AnyTransform, options: object): StepCounts {
  const { tools, names, usable, options: run } = state;
  const onError = run.onError;
  // A throwing `prepare` (it reads the whole list, bad tools included) leaves every tool unchanged by this
  // transform, named in `skipped`; the rest of the pipeline still runs.
  let stepState: unknown;
  let prepareFailure: string | undefined;
  if (transform.prepare) {
    try {
      stepState = transform.prepare(visible(state), options);
    } catch (e) {
      prepareFailure = `prepare threw: ${(e as Error)?.message ?? String(e)}`;
      if (onError === 'throw') throw new ToolslimError('transform-failed', `${transform.name}: ${prepareFailure}`, { transform: transform.name });
    }
  }
  const { slots, assume } = documentOptions(options);
  // What the gate holds this step's rewrites to: an option can make a transform less safe than it says.
  const safety = transform.safetyWith ? transform.safetyWith(options) : transform.safety;
  let count = 0;
  let toolsChanged = 0;
  let bytesSaved = 0;
  let tokensSaved = 0;
  for (let i = 0; i < tools.length; i++) {
    if (!usable[i]) continue;
    if (prepareFailure !== undefined) {
      state.skipped.push({ tool: names[i]!, toolIndex: i, transform: transform.name, reason: prepareFailure });
      continue;
    }
    const tool = tools[i]!;
    const ctx = new EditContext(tool, transform.messages, { measure: state.sizes !== undefined, origin: state.origin[i] });
    let failure: string | undefined;
    let keys = state.keys[i]!;
    let doc: LazyToolDoc | undefined;
    try {
      doc = new LazyToolDoc(tool, i, names[i]!, stepState, slots, assume, state.documents, keys);
      transform.apply(doc, ctx, options);
      if (ctx.changed) {
        keys = keysAfter(keys, ctx.changes);
        if (!state.inventoryKeys[i] && addsInventoryKeys(ctx.changes)) state.inventoryKeys[i] = true;
        failure = checkPostConditions(tool, ctx.root, keys.referenceKeys);
      }
    } catch (e) {
      failure = `threw: ${(e as Error)?.message ?? String(e)}`;
    }
    if (failure !== undefined) {
      if (onError === 'throw') {
        throw new ToolslimError('transform-failed', `${transform.name} failed on tool ${quote(names[i]!)} (index ${i}): ${failure}`, { tool: names[i], path: appendPointer('', i), transform: transform.name });
      }
      state.skipped.push({ tool: names[i]!, toolIndex: i, transform: transform.name, reason: failure });
      continue;
    }
    // Most tools come through a step with nothing to say: their pointer prefix is not even spelt out.
    if (ctx.diagnostics.length === 0 && !ctx.changed) continue;
    const prefix = appendPointer('', i);
    for (const d of ctx.diagnostics) state.diagnostics.push({ severity: d.severity, tool: names[i]!, toolIndex: i, transform: transform.name, code: d.code, path: prefix + d.path, message: d.message });
    if (!ctx.changed) continue;
    const next = ctx.root as McpTool;
    const previous = tools[i];
    tools[i] = next;
    state.keys[i] = keys;
    if (!state.inventoryKeys[i]) noteVersion(next);
    toolsChanged++;
    stampChanges(state.changes, ctx, prefix, names[i]!, i, transform.name);
    count += ctx.changes.length;
    const saved = state.sizes ? state.sizes.update(i, next, ctx.bytesDelta, previous) : { bytes: 0, tokens: 0 };
    bytesSaved += saved.bytes;
    tokensSaved += saved.tokens;
    if (state.histories) {
      const toolSafety = (transform.safetyFor && doc ? transform.safetyFor(doc, options) : undefined) ?? safety;
      (state.histories[i] ??= []).push({ step, transform: transform.name, safety: toolSafety, tool: next, changes: ctx.changes.length, bytesSaved: saved.bytes, tokensSaved: saved.tokens });
    }
  }
  let extras: TransformExtras | undefined;
  if (transform.finish && prepareFailure === undefined) {
    try {
      extras = transform.finish(stepState, visible(state), options);
    } catch (e) {
      const message = `finish threw: ${(e as Error)?.message ?? String(e)}`;
      if (onError === 'throw') throw new ToolslimError('transform-failed', `${transform.name}: ${message}`, { transform: transform.name });
      state.diagnostics.push({ severity: 'error', tool: '', toolIndex: -1, transform: transform.name, code: 'finish-failed', path: '', message });
    }
  }
  if (extras?.instructions) state.instructions = state.instructions ? `${state.instructions}\n\n${extras.instructions}` : extras.instructions;
  return { changes: count, toolsChanged, bytesSaved, tokensSaved };
}

/** What one step did over the whole list. */
export interface StepCounts {
  readonly changes: number;
  readonly toolsChanged: number;
  readonly bytesSaved: number;
  readonly tokensSaved: number;
}

/**
 * What `prepare` and `finish` see of the list: only the tools the steps may change (a Proxy that throws, or
 * a tool kept for its numbers, does not take a transform down for every tool).
 */
function visible(state: RunState): McpTool[] {
  return state.allUsable ? state.tools : state.tools.filter((_, i) => state.usable[i]);
}

/** What a transform sees of one tool; its documents are read (and their `$ref` indexes built) on first use. */
class LazyToolDoc implements ToolDoc {
  readonly tool: McpTool;
  readonly index: number;
  readonly name: string;
  readonly state: unknown;
  readonly #slots: readonly SchemaSlot[];
  readonly #assume: Dialect;
  readonly mayHold: KeyKinds;
  readonly #shared: WeakMap<McpTool, SchemaDocuments>;
  #documents: SchemaDocuments | undefined;

  constructor(tool: McpTool, index: number, name: string, state: unknown, slots: readonly SchemaSlot[], assume: Dialect, shared: WeakMap<McpTool, SchemaDocuments>, mayHold: KeyKinds) {
    this.tool = tool;
    this.index = index;
    this.name = name;
    this.state = state;
    this.mayHold = mayHold;
    this.#slots = slots;
    this.#assume = assume;
    this.#shared = shared;
  }

  get documents(): readonly SchemaDocument[] {
    return (this.#documents ??= this.#read()).documents;
  }

  get unknownDialects(): readonly UnknownDialectDocument[] {
    return (this.#documents ??= this.#read()).unknown;
  }

  #read(): SchemaDocuments {
    // With the default slots and dialect (nearly every step), one reading per tool version serves every step.
    if (this.#slots !== SCHEMA_SLOTS || this.#assume !== '2020-12') return getSchemaDocuments(this.tool, this.#slots, this.#assume);
    let docs = this.#shared.get(this.tool);
    if (docs === undefined) this.#shared.set(this.tool, (docs = getSchemaDocuments(this.tool, SCHEMA_SLOTS, '2020-12')));
    return docs;
  }
}

/**
 * The context's recorded edits as report changes: pointers into the tools array, tool and transform named.
 * Each change is one object literal per kind (its keys in the report's order), not one built key by key: a
 * literal's hidden class lives as long as the code that makes it, so no full GC takes it and with it this
 * function's optimised code (see json/shapes.ts).
 */
function stampChanges(out: Change[], ctx: EditContext, prefix: string, tool: string, toolIndex: number, transform: string): void {
  for (const c of ctx.changes) out.push(stamped(c, prefix, tool, toolIndex, transform));
}

function stamped(c: RecordedChange, prefix: string, tool: string, toolIndex: number, transform: string): Change {
  const path = prefix + c.path;
  const { code, message } = c;
  let change: object;
  switch (c.op) {
    case 'add':
      change = c.index === undefined ? { op: c.op, path, value: c.value, tool, toolIndex, transform, code, message } : { op: c.op, path, value: c.value, index: c.index, tool, toolIndex, transform, code, message };
      break;
    case 'remove':
      change = c.index === undefined ? { op: c.op, path, oldValue: c.oldValue, tool, toolIndex, transform, code, message } : { op: c.op, path, oldValue: c.oldValue, index: c.index, tool, toolIndex, transform, code, message };
      break;
    case 'replace':
      change = c.index === undefined ? { op: c.op, path, value: c.value, oldValue: c.oldValue, tool, toolIndex, transform, code, message } : { op: c.op, path, value: c.value, oldValue: c.oldValue, index: c.index, tool, toolIndex, transform, code, message };
      break;
    case 'move': {
      const from = c.from === undefined ? undefined : prefix + c.from;
      if (c.index === undefined) change = c.fromIndex === undefined ? { op: c.op, path, from, tool, toolIndex, transform, code, message } : { op: c.op, path, from, fromIndex: c.fromIndex, tool, toolIndex, transform, code, message };
      else change = c.fromIndex === undefined ? { op: c.op, path, from, index: c.index, tool, toolIndex, transform, code, message } : { op: c.op, path, from, index: c.index, fromIndex: c.fromIndex, tool, toolIndex, transform, code, message };
      break;
    }
  }
  return change as Change;
}

/** The four {@link KeyKinds} by mask (bit 0: reference keys, bit 1: extension keys), so that none is made per tool. */
const REFERENCE_KEY = 1;
const EXTENSION_KEY = 2;
const KINDS: readonly KeyKinds[] = [0, 1, 2, 3].map((m) => Object.freeze({ referenceKeys: (m & REFERENCE_KEY) !== 0, extensionKeys: (m & EXTENSION_KEY) !== 0 }));

function maskOf(referenceKeys: boolean, extensionKeys: boolean): number {
  return (referenceKeys ? REFERENCE_KEY : 0) | (extensionKeys ? EXTENSION_KEY : 0);
}

/** The {@link KeyKinds} the input check found a tool may hold. */
export function keyKindsOf(referenceKeys: boolean, extensionKeys: boolean): KeyKinds {
  return KINDS[maskOf(referenceKeys, extensionKeys)]!;
}

/** The kinds of key a tool that may hold `kinds` may hold after a step's edits. */
function keysAfter(kinds: KeyKinds, changes: readonly RecordedChange[]): KeyKinds {
  let mask = maskOf(kinds.referenceKeys, kinds.extensionKeys);
  for (let i = 0; i < changes.length && mask !== 3; i++) mask |= addedKinds(changes[i]!, 3 & ~mask);
  return KINDS[mask]!;
}

/**
 * The kinds of key among `want` (a mask) an edit may put in: an added or replaced value holding one, or a
 * member added, replaced or renamed to one. (Removing or moving what is there adds none.)
 */
function addedKinds(change: RecordedChange, want: number): number {
  if (change.op === 'remove') return 0;
  // A reference keyword has no `~` or `/`, so the raw last token is the key itself; an extension keyword
  // with one of them still starts with `x-` raw.
  let found = kindOf(change.path.slice(change.path.lastIndexOf('/') + 1)) & want;
  if (found !== want && change.op !== 'move') found |= kindsIn(change.value, want & ~found);
  return found;
}

/** The kind of key `key` is (a mask; 0 for neither). */
function kindOf(key: string): number {
  return REFERENCE_KEYWORDS.includes(key) ? REFERENCE_KEY | INVENTORY_KEY : isExtensionKeyword(key) ? EXTENSION_KEY : INVENTORY_KEYS.includes(key) ? INVENTORY_KEY : 0;
}

/** Not a {@link KeyKinds} bit: a key `INVENTORY_KEYS` lists (see `RunState.inventoryKeys`). */
const INVENTORY_KEY = 4;

/** Whether a step's edits may put in a key a `$ref` inventory records (see {@link addedKinds}). */
function addsInventoryKeys(changes: readonly RecordedChange[]): boolean {
  for (let i = 0; i < changes.length; i++) if (addedKinds(changes[i]!, INVENTORY_KEY) !== 0) return true;
  return false;
}

/**
 * Tells the run's analysis that the schemas of a tool version holding no inventory key (see
 * `RunState.inventoryKeys`) have empty inventories, so none of them is walked for one.
 */
export function noteVersion(tool: McpTool): void {
  const analysis = currentAnalysis();
  if (analysis === undefined) return;
  for (let s = 0; s < SCHEMA_SLOTS.length; s++) {
    const slot = SCHEMA_SLOTS[s]!;
    const schema = (tool as Record<string, unknown>)[slot];
    if (isObject(schema) && hasOwn(tool, slot)) analysis.noteNoInventoryKeys(schema);
  }
}

/** The kinds among `want` that some object inside `value` has a key of. */
function kindsIn(value: unknown, want: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  let found = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'object' && x !== null) stack.push(x);
    } else if (isObject(v)) {
      for (const k of Object.keys(v)) {
        found |= kindOf(k) & want;
        if (found === want) return found;
        const x = v[k];
        if (typeof x === 'object' && x !== null) stack.push(x);
      }
    }
  }
  return found;
}

function quote(name: string): string {
  return name === '' ? '(unnamed)' : `\`${name}\``;
}

// Keeps LazyToolDoc's shape (and the code optimised for it) alive between runs.
anchorShape(new LazyToolDoc({ name: '', inputSchema: {} } as McpTool, 0, '', undefined, [], 'draft-07', new WeakMap(), KINDS[3]!));

/**
 * The recorded changes of every shape (see exampleChanges in core/context.ts) and their report forms, made and
 * kept for the life of the process by the engine's first run (a run, not the import: importing toolslim should
 * cost as little as it can).
 */
export function anchorChangeShapes(): void {
  if (changeShapesAnchored) return;
  changeShapesAnchored = true;
  const recorded = exampleChanges();
  anchorShape([recorded, recorded.map((c) => stamped(c, '/0', '', 0, ''))]);
}

let changeShapesAnchored = false;
