import { appendPointer, formatPointer, isArrayIndex, parsePointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { CopyOnWrite, setOwn, type Container } from '../json/cow.js';
import { jsonBytes, utf8Length } from './measure.js';
import type { Severity } from './report.js';

/** An edit as recorded by a context, with its pointer relative to the tool. */
export interface RecordedChange {
  readonly op: 'add' | 'remove' | 'replace' | 'move';
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
  readonly oldValue?: unknown;
  readonly code: string;
  readonly message: string;
}

/** A finding as recorded by a context, with its pointer relative to the tool. */
export interface RecordedDiagnostic {
  readonly severity: Severity;
  readonly code: string;
  readonly path: string;
  readonly message: string;
}

/** Values substituted into a message template's `{name}` placeholders. */
export type MessageData = Readonly<Record<string, string | number | boolean>>;

/** Options of an {@link EditContext}. */
export interface EditContextOptions {
  /**
   * Keep {@link EditContext.bytesDelta}: how many bytes of compact JSON the edits added to the document
   * (negative when they removed more), counted from the edited values alone, so the engine never
   * serializes a whole tool again to measure a step.
   */
  readonly measure?: boolean;
}

/** Options of {@link EditContext.transaction}. */
export interface TransactionOptions {
  /**
   * Findings made inside a transaction that is rolled back are dropped, except those whose code this
   * accepts: a finding about the input stays true whether or not the rewrite happens.
   */
  readonly keep?: (code: string) => boolean;
}

/**
 * The only way a transform changes a tool. Each method edits the working copy (copy-on-write: only the
 * containers on the edited path are copied, everything else stays shared with the input) and records one
 * RFC 6902 operation. Pointers are relative to the tool (`/inputSchema/$defs/Foo`).
 *
 * Every code must be one of the transform's `messages` (as in ESLint, an unknown code is a bug in the
 * transform and throws); a context created without any messages (a scratch copy) records bare codes.
 */
export class EditContext {
  readonly #cow: CopyOnWrite;
  readonly #messages: Readonly<Record<string, string>>;
  readonly #strict: boolean;
  readonly #measure: boolean;
  #bytes = 0;
  readonly changes: RecordedChange[] = [];
  readonly diagnostics: RecordedDiagnostic[] = [];

  constructor(root: unknown, messages: Readonly<Record<string, string>>, options: EditContextOptions = {}) {
    this.#cow = new CopyOnWrite(root);
    this.#messages = messages;
    this.#strict = Object.keys(messages).length > 0;
    this.#measure = options.measure === true;
  }

  /**
   * With `measure`: the change in bytes of the document's compact JSON made by the edits so far
   * (`JSON.stringify(root)` minus `JSON.stringify` of the input, in UTF-8); 0 without it.
   */
  get bytesDelta(): number {
    return this.#bytes;
  }

  /** The working copy, with every edit so far. */
  get root(): unknown {
    return this.#cow.root;
  }

  /** True once any edit was made. */
  get changed(): boolean {
    return this.changes.length > 0;
  }

  /** The value at `path` in the working copy (own properties only), or undefined. */
  get(path: string): unknown {
    let cur = this.#cow.root;
    for (const token of parsePointer(path)) {
      if (Array.isArray(cur)) cur = isArrayIndex(token) ? cur[Number(token)] : undefined;
      else if (isObject(cur)) cur = hasOwn(cur, token) ? cur[token] : undefined;
      else return undefined;
    }
    return cur;
  }

  /**
   * Runs `edits` as one group. When it returns `false` the group is rolled back: the working copy, the
   * recorded changes and the findings are as they were before it (findings `options.keep` accepts
   * excepted); otherwise it is kept. When it throws, the group is rolled back and the error rethrown.
   * Transactions nest. Returns whether the group was kept.
   */
  transaction(edits: () => boolean | void, options: TransactionOptions = {}): boolean {
    const changes = this.changes.length;
    const diagnostics = this.diagnostics.length;
    const bytes = this.#bytes;
    this.#cow.checkpoint();
    let keep: boolean;
    try {
      keep = edits() !== false;
    } catch (e) {
      this.#cow.rollback();
      this.#bytes = bytes;
      this.changes.length = changes;
      this.diagnostics.length = diagnostics;
      throw e;
    }
    if (keep) {
      this.#cow.commit();
      return true;
    }
    this.#cow.rollback();
    this.#bytes = bytes;
    this.changes.length = changes;
    const kept = options.keep ? this.diagnostics.slice(diagnostics).filter((d) => options.keep!(d.code)) : [];
    this.diagnostics.length = diagnostics;
    this.diagnostics.push(...kept);
    return false;
  }

  /** Replaces the value at `path`. */
  replace(path: string, value: unknown, code: string, data?: MessageData): void {
    const tokens = parsePointer(path);
    const message = this.#format(code, data);
    let oldValue: unknown;
    if (tokens.length === 0) {
      oldValue = this.#cow.root;
      if (this.#measure) this.#bytes += jsonBytes(value) - jsonBytes(oldValue);
      this.#cow.root = value;
    } else {
      const [parent, key] = this.#parentOf(tokens, path, true);
      oldValue = Array.isArray(parent) ? parent[Number(key)] : (parent as Record<string, unknown>)[key];
      if (this.#measure) {
        if (Array.isArray(parent)) this.#bytes += elementBytes(value) - elementBytes(oldValue);
        else if (isPresent(oldValue) && isPresent(value)) this.#bytes += jsonBytes(value) - jsonBytes(oldValue);
        else {
          this.#bytes -= memberBytes(parent, key);
          this.#bytes += memberBytes(parent, key, value);
        }
      }
      setOwn(parent, key, value);
    }
    this.changes.push({ op: 'replace', path, value, oldValue, code, message });
  }

  /** Removes the value at `path` (an array element shifts the rest down). */
  remove(path: string, code: string, data?: MessageData): void {
    const tokens = parsePointer(path);
    if (tokens.length === 0) throw new Error('cannot remove the root');
    const message = this.#format(code, data);
    const [parent, key] = this.#parentOf(tokens, path, true);
    if (this.#measure) this.#bytes -= Array.isArray(parent) ? elementBytes(parent[Number(key)], parent.length) : memberBytes(parent, key);
    let oldValue: unknown;
    if (Array.isArray(parent)) oldValue = parent.splice(Number(key), 1)[0];
    else {
      oldValue = (parent as Record<string, unknown>)[key];
      delete (parent as Record<string, unknown>)[key];
    }
    this.changes.push({ op: 'remove', path, oldValue, code, message });
  }

  /**
   * Adds a value: a new object member (appended) or an array element (`-` appends). The change records
   * the element's actual index, never `-`, so the report can be inverted.
   */
  add(path: string, value: unknown, code: string, data?: MessageData): void {
    const tokens = parsePointer(path);
    if (tokens.length === 0) throw new Error('cannot add at the root');
    const message = this.#format(code, data);
    const [parent, key] = this.#parentOf(tokens, path, false);
    const at = this.#insert(parent, key, value, tokens, path);
    this.changes.push({ op: 'add', path: at, value, code, message });
  }

  /**
   * Renames an object member in place: the member keeps its position among its siblings (key order is
   * part of the output's bytes). Recorded as an RFC 6902 `move`.
   */
  rename(path: string, newKey: string, code: string, data?: MessageData): void {
    const tokens = parsePointer(path);
    if (tokens.length === 0) throw new Error('cannot rename the root');
    const message = this.#format(code, data);
    const parentTokens = tokens.slice(0, -1);
    const oldKey = tokens[tokens.length - 1]!;
    const parent = this.#ownPath(parentTokens, path);
    if (!isObject(parent) || !hasOwn(parent, oldKey)) throw new Error(`nothing at \`${path}\``);
    if (hasOwn(parent, newKey)) throw new Error(`\`${appendPointer(formatPointer(parentTokens), newKey)}\` already exists`);
    if (this.#measure && isPresent(parent[oldKey])) this.#bytes += keyBytes(newKey) - keyBytes(oldKey);
    const entries = Object.keys(parent).map((k) => [k === oldKey ? newKey : k, parent[k]] as const);
    for (const k of Object.keys(parent)) delete parent[k];
    for (const [k, v] of entries) setOwn(parent, k, v);
    const to = appendPointer(formatPointer(parentTokens), newKey);
    this.changes.push({ op: 'move', from: path, path: to, code, message });
  }

  /** Moves a value (removed at `from`, added at `path`). */
  move(from: string, path: string, code: string, data?: MessageData): void {
    // Checked before anything is removed, so a refused move leaves the working copy as it was.
    if (path === from || path.startsWith(from + '/')) throw new Error(`cannot move \`${from}\` into itself (\`${path}\`)`);
    const message = this.#format(code, data);
    const fromTokens = parsePointer(from);
    const [srcParent, srcKey] = this.#parentOf(fromTokens, from, true);
    if (this.#measure) this.#bytes -= Array.isArray(srcParent) ? elementBytes(srcParent[Number(srcKey)], srcParent.length) : memberBytes(srcParent, srcKey);
    let value: unknown;
    if (Array.isArray(srcParent)) value = srcParent.splice(Number(srcKey), 1)[0];
    else {
      value = (srcParent as Record<string, unknown>)[srcKey];
      delete (srcParent as Record<string, unknown>)[srcKey];
    }
    const tokens = parsePointer(path);
    const [parent, key] = this.#parentOf(tokens, path, false);
    const at = this.#insert(parent, key, value, tokens, path);
    this.changes.push({ op: 'move', from, path: at, code, message });
  }

  /** Inserts into an (owned) container; returns the pointer of the new member (an index instead of `-`). */
  #insert(parent: Container, key: string, value: unknown, tokens: readonly string[], path: string): string {
    if (Array.isArray(parent)) {
      const i = key === '-' ? parent.length : Number(key);
      if (!(key === '-' || isArrayIndex(key)) || i > parent.length) throw new Error(`no array position \`${path}\``);
      if (this.#measure) this.#bytes += elementBytes(value, parent.length + 1);
      parent.splice(i, 0, value);
      return key === '-' ? appendPointer(formatPointer(tokens.slice(0, -1)), i) : path;
    }
    if (hasOwn(parent, key)) throw new Error(`\`${path}\` already exists`);
    if (this.#measure) this.#bytes += memberBytes(parent as Record<string, unknown>, key, value);
    setOwn(parent, key, value);
    return path;
  }

  /** Records a finding without changing anything. */
  report(severity: Severity, code: string, path: string, data?: MessageData): void {
    this.diagnostics.push({ severity, code, path, message: this.#format(code, data) });
  }

  #format(code: string, data: MessageData | undefined): string {
    let template: string;
    if (hasOwn(this.#messages, code)) template = this.#messages[code]!;
    else if (this.#strict) throw new Error(`unknown message code \`${code}\` (the transform's messages are: ${Object.keys(this.#messages).join(', ')})`);
    else template = code;
    if (!data) return template;
    return template.replace(/\{(\w+)\}/g, (m, k: string) => (hasOwn(data, k) ? String(data[k]) : m));
  }

  /** The (owned) parent container of `tokens` and the last token; checks the target exists when asked. */
  #parentOf(tokens: readonly string[], path: string, mustExist: boolean): [Container, string] {
    const parent = this.#ownPath(tokens.slice(0, -1), path);
    const key = tokens[tokens.length - 1]!;
    if (mustExist) {
      const exists = Array.isArray(parent) ? isArrayIndex(key) && Number(key) < parent.length : hasOwn(parent, key);
      if (!exists) throw new Error(`nothing at \`${path}\``);
    }
    return [parent, key];
  }

  /** The container at `tokens`, owned by this context (copied on the way down as needed). */
  #ownPath(tokens: readonly string[], path: string): Container {
    const owned = this.#cow.own(tokens);
    if (typeof owned === 'number') throw new Error(`nothing at \`${path}\``);
    return owned;
  }
}

// ---- byte counting (EditContextOptions.measure) ------------------------------------------------------
// Compact JSON: `{` members joined by `,` `}`, a member `"key":value`; a member whose value JSON cannot
// hold (`undefined`, a function, a symbol) is omitted, with its comma. `[` elements joined by `,` `]`.

/** Whether `JSON.stringify` writes an object member with this value. */
function isPresent(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function keyBytes(key: string): number {
  return utf8Length(JSON.stringify(key));
}

/** Members of `obj` that JSON writes, not counting `except`. */
function presentMembers(obj: Record<string, unknown>, except: string): number {
  let n = 0;
  for (const k of Object.keys(obj)) if (k !== except && isPresent(obj[k])) n++;
  return n;
}

/**
 * The bytes member `key` with `value` (when none is given: its current value) takes in `obj`'s JSON, with the
 * comma that joins it to the other members: what removing it saves, or adding it costs.
 */
function memberBytes(obj: Record<string, unknown>, key: string, ...value: [unknown?]): number {
  const v = value.length > 0 ? value[0] : obj[key];
  if (!isPresent(v)) return 0;
  return keyBytes(key) + 1 + jsonBytes(v) + (presentMembers(obj, key) > 0 ? 1 : 0);
}

/** The bytes an array element takes, with its comma when the array (of `length` elements with it) has others. */
function elementBytes(value: unknown, length = 1): number {
  const text = JSON.stringify(value);
  return (text === undefined ? 4 /* null */ : utf8Length(text)) + (length > 1 ? 1 : 0);
}
