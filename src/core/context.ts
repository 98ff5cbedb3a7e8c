// Why one file: one class (EditContext, the only way a transform edits) with its byte counting; splitting it
// would expose its private copy-on-write state.
import { appendPointer, formatPointer, getAt, isArrayIndex, parsePointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';
import { CopyOnWrite, setOwn, type Container } from '../json/cow.js';
import { jsonBytes, jsonStringBytes, utf8Length } from './measure.js';
import type { Severity } from './report.js';
import { anchorShape } from '../json/shapes.js';

/** An edit as recorded by a context, with its pointer relative to the tool. */
export interface RecordedChange {
  readonly op: 'add' | 'remove' | 'replace' | 'move';
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
  readonly oldValue?: unknown;
  /** See `PatchOperation.index`: the member's position among its object's keys, when not the last. */
  readonly index?: number;
  /** See `PatchOperation.fromIndex`: where a moved member sat among its object's keys, when not the last. */
  readonly fromIndex?: number;
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
  /**
   * The document as the run received it (before any step). A member added (or moved) to an object where
   * `origin` has the same key at the same pointer goes back to its place there, before the first of the
   * keys that followed it in `origin` and are still present — so a key one step removes and a later step
   * adds anew (`$defs` emptied by normalize-schema, filled again by dedupe-repeated-subtrees) keeps its
   * place, and no run reorders the keys it keeps. Without it, an added member is appended.
   */
  readonly origin?: unknown;
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
  readonly #measure: boolean;
  readonly #origin: unknown;
  #bytes = 0;
  /**
   * Key positions of objects members are removed from (see {@link KeyOrder}; `undefined`: one member was
   * removed, the index is built at the next), dropped when they change otherwise.
   */
  #orders: WeakMap<object, KeyOrder | undefined> | undefined;
  /** Owned objects too large to be made anew when a member leaves (see {@link EditContext.#takeOut}). */
  #large: WeakSet<object> | undefined;
  /**
   * With `measure`: how many members JSON writes each owned object has, for the objects members were added to
   * or deleted from (see {@link EditContext.#hasOther}); kept up to date by every edit of them.
   */
  #counts: WeakMap<object, number> | undefined;
  // Set in the constructor, not by initializers: the CommonJS build's splitting pass (sucrase) renames a class
  // with public field initializers `_class`.
  readonly changes: RecordedChange[];
  readonly diagnostics: RecordedDiagnostic[];

  constructor(root: unknown, messages: Readonly<Record<string, string>>, options: EditContextOptions = {}) {
    this.changes = [];
    this.diagnostics = [];
    this.#cow = new CopyOnWrite(root);
    this.#messages = messages;
    this.#measure = options.measure === true;
    this.#origin = options.origin;
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
          this.#bytes -= this.#memberBytes(parent, key);
          this.#bytes += this.#memberBytes(parent, key, value);
        }
      }
      const count = this.#counts?.get(parent);
      if (count !== undefined) this.#counts!.set(parent, count + (isPresent(value) ? 1 : 0) - (isPresent(oldValue) ? 1 : 0));
      setOwn(parent, key, value);
    }
    this.changes.push({ op: 'replace', path, value, oldValue, code, message });
  }

  /** Removes the value at `path` (an array element shifts the rest down). */
  remove(path: string, code: string, data?: MessageData): void {
    const tokens = parsePointer(path);
    const n = tokens.length;
    if (n === 0) throw new Error('cannot remove the root');
    const message = this.#format(code, data);
    const key = tokens[n - 1]!;
    // An object member: the object is made anew without it in one copy (see CopyOnWrite.ownWithout).
    const cow = this.#cow;
    const owned = cow.ownWithout(tokens, n - 1, key, REBUILD_MAX_KEYS, this.#large);
    const source = cow.takenFrom;
    if (source !== undefined) {
      const oldValue = source[key];
      if (this.#measure) this.#bytes -= this.#memberBytes(source, key);
      const index = cow.takenAt;
      this.changes.push(index < 0 ? { op: 'remove', path, oldValue, code, message } : { op: 'remove', path, oldValue, index, code, message });
      return;
    }
    if (typeof owned === 'number') throw new Error(`nothing at \`${path}\``);
    const parent = owned;
    const exists = Array.isArray(parent) ? isArrayIndex(key) && Number(key) < parent.length : hasOwn(parent, key);
    if (!exists) throw new Error(`nothing at \`${path}\``);
    if (this.#measure) this.#bytes -= Array.isArray(parent) ? elementBytes(parent[Number(key)], parent.length) : this.#memberBytes(parent, key);
    let oldValue: unknown;
    let index: number | undefined;
    if (Array.isArray(parent)) oldValue = parent.splice(Number(key), 1)[0];
    else {
      index = this.#removeKey(parent, key);
      oldValue = (parent as Record<string, unknown>)[key];
      this.#takeOut(parent, key);
    }
    this.changes.push(index === undefined ? { op: 'remove', path, oldValue, code, message } : { op: 'remove', path, oldValue, index, code, message });
  }

  /**
   * Adds a value: a new object member (appended, or put back in its place when the context's `origin` has
   * it) or an array element (`-` appends). The change records the element's actual index, never `-`, so the
   * report can be inverted, and an object member's position when it is not the last.
   */
  add(path: string, value: unknown, code: string, data?: MessageData): void {
    const tokens = parsePointer(path);
    if (tokens.length === 0) throw new Error('cannot add at the root');
    const message = this.#format(code, data);
    const [parent, key] = this.#parentOf(tokens, path, false);
    const [at, index] = this.#insert(parent, key, value, tokens, path);
    this.changes.push(index === undefined ? { op: 'add', path: at, value, code, message } : { op: 'add', path: at, value, index, code, message });
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
    const parent = this.#ownPath(tokens, tokens.length - 1, path);
    if (!isObject(parent) || !hasOwn(parent, oldKey)) throw new Error(`nothing at \`${path}\``);
    if (hasOwn(parent, newKey)) throw new Error(`\`${appendPointer(formatPointer(parentTokens), newKey)}\` already exists`);
    if (this.#measure && isPresent(parent[oldKey])) this.#bytes += keyBytes(newKey) - keyBytes(oldKey);
    this.#orders?.delete(parent);
    const fromIndex = notLast(parent, oldKey);
    // A new object with the members in their order, the one renamed (see CopyOnWrite.replaceOwned: never `delete`).
    const fresh: Record<string, unknown> = {};
    for (const k of Object.keys(parent)) setOwn(fresh, k === oldKey ? newKey : k, parent[k]);
    this.#cow.replaceOwned(fresh);
    // Where the member landed: its old place, unless the new key is an integer (JavaScript orders those first).
    const index = notLast(fresh, newKey);
    const to = appendPointer(formatPointer(parentTokens), newKey);
    this.changes.push({ op: 'move', from: path, path: to, ...positions(index, fromIndex), code, message });
  }

  /** Moves a value (removed at `from`, added at `path`). */
  move(from: string, path: string, code: string, data?: MessageData): void {
    // Checked before anything is removed, so a refused move leaves the working copy as it was.
    if (path === from || path.startsWith(from + '/')) throw new Error(`cannot move \`${from}\` into itself (\`${path}\`)`);
    const message = this.#format(code, data);
    // A member of an object moved to a new member of an object that is there: nothing can fail once it is out
    // (no array shifts, the destination is not inside it), so no group is needed. A group is a checkpoint,
    // after which every container on the edited paths is copied anew: moving thousands of definitions out of
    // one `definitions` (or out from under one `properties`) copied that object once per move (4,000: 22 s).
    if (this.#movesSafely(from, path)) {
      this.#move(from, path, code, message);
      return;
    }
    // The removal and the insertion as one group: a destination found taken only after the removal (an
    // existing key, an array position past the end) leaves the working copy as it was.
    this.transaction(() => this.#move(from, path, code, message));
  }

  /**
   * Whether moving `from` to `path` cannot fail once the value is removed: `from` is a member of an object,
   * and `path` names a member an object at its parent pointer does not have. Read in the working copy
   * without copying anything. (`path` is not `from` nor inside it: `move` refused those.)
   */
  #movesSafely(from: string, path: string): boolean {
    const source = parsePointer(from);
    const target = parsePointer(path);
    if (source.length === 0 || target.length === 0) return false;
    const root = this.#cow.root;
    const sourceParent = getAt(root, source.slice(0, -1));
    if (!isObject(sourceParent) || !hasOwn(sourceParent, source[source.length - 1]!)) return false;
    const targetParent = getAt(root, target.slice(0, -1));
    return isObject(targetParent) && !hasOwn(targetParent, target[target.length - 1]!);
  }

  #move(from: string, path: string, code: string, message: string): void {
    const fromTokens = parsePointer(from);
    const [srcParent, srcKey] = this.#parentOf(fromTokens, from, true);
    if (this.#measure) this.#bytes -= Array.isArray(srcParent) ? elementBytes(srcParent[Number(srcKey)], srcParent.length) : this.#memberBytes(srcParent, srcKey);
    let value: unknown;
    let fromIndex: number | undefined;
    if (Array.isArray(srcParent)) value = srcParent.splice(Number(srcKey), 1)[0];
    else {
      fromIndex = this.#removeKey(srcParent, srcKey);
      value = (srcParent as Record<string, unknown>)[srcKey];
      this.#takeOut(srcParent, srcKey);
    }
    const tokens = parsePointer(path);
    const [parent, key] = this.#parentOf(tokens, path, false);
    const [at, index] = this.#insert(parent, key, value, tokens, path);
    this.changes.push({ op: 'move', from, path: at, ...positions(index, fromIndex), code, message });
  }

  /**
   * Inserts into an (owned) container; returns the pointer of the new member (an index instead of `-`)
   * and, for an object member that is not the last, its position among the keys.
   */
  #insert(parent: Container, key: string, value: unknown, tokens: readonly string[], path: string): [string, number?] {
    if (Array.isArray(parent)) {
      const i = key === '-' ? parent.length : Number(key);
      if (!(key === '-' || isArrayIndex(key)) || i > parent.length) throw new Error(`no array position \`${path}\``);
      if (this.#measure) this.#bytes += elementBytes(value, parent.length + 1);
      parent.splice(i, 0, value);
      return [key === '-' ? appendPointer(formatPointer(tokens.slice(0, -1)), i) : path];
    }
    if (hasOwn(parent, key)) throw new Error(`\`${path}\` already exists`);
    this.#orders?.delete(parent);
    if (this.#measure) {
      // Counted from the first member added on (one pass over its keys): an object thousands of members are
      // added to becomes a dictionary to V8, whose keys are all read to list even the first.
      const counts = (this.#counts ??= new WeakMap());
      if (!counts.has(parent)) counts.set(parent, presentMembers(parent as Record<string, unknown>));
      this.#bytes += this.#memberBytes(parent as Record<string, unknown>, key, value);
    }
    const before = this.#originSuccessor(parent, key, tokens);
    if (before === undefined) {
      const count = this.#counts?.get(parent);
      if (count !== undefined && isPresent(value)) this.#counts!.set(parent, count + 1);
      setOwn(parent, key, value);
      return [path];
    }
    // A new object: the members before `before`, the new one, the rest (see CopyOnWrite.replaceOwned).
    const fresh: Record<string, unknown> = {};
    for (const k of Object.keys(parent)) {
      if (k === before) setOwn(fresh, key, value);
      setOwn(fresh, k, parent[k]);
    }
    this.#cow.replaceOwned(fresh);
    return [path, notLast(fresh, key)];
  }

  /**
   * Takes member `key` out of `parent`, the (owned) object the last `own` returned: an object of up to
   * {@link REBUILD_MAX_KEYS} keys is made anew without it (see CopyOnWrite.replaceOwned: `delete` would turn it
   * into a slow dictionary for every later reader), a larger one loses it by `delete` (so that many removals
   * from one big object stay linear). Its key positions (see {@link KeyOrder}) go with it.
   */
  #takeOut(parent: Container, key: string): void {
    const obj = parent as Record<string, unknown>;
    // A large object is counted once (then remembered): removing all of its members stays linear.
    if (this.#large?.has(obj)) {
      const count = this.#counts?.get(obj);
      if (count !== undefined && isPresent(obj[key])) this.#counts!.set(obj, count - 1);
      delete obj[key];
      return;
    }
    const keys = Object.keys(obj);
    if (keys.length > REBUILD_MAX_KEYS) {
      (this.#large ??= new WeakSet()).add(obj);
      // Counted now when measuring (see #counts): deleting turns it into a dictionary to V8.
      if (this.#measure) {
        const count = this.#counts?.get(obj) ?? presentMembers(obj);
        (this.#counts ??= new WeakMap()).set(obj, count - (isPresent(obj[key]) ? 1 : 0));
      }
      delete obj[key];
      return;
    }
    const fresh: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k !== key) setOwn(fresh, k, obj[k]);
    }
    this.#cow.replaceOwned(fresh);
    const orders = this.#orders;
    if (orders !== undefined && orders.has(obj)) {
      orders.set(fresh, orders.get(obj));
      orders.delete(obj);
    }
  }

  /**
   * With an `origin` that has `key` in the object at the same pointer as `parent`: the first key that
   * followed it there and is in `parent` now (the new member goes before it); otherwise undefined (append).
   */
  #originSuccessor(parent: Record<string, unknown>, key: string, tokens: readonly string[]): string | undefined {
    let cur = this.#origin;
    if (cur === undefined) return undefined;
    for (let i = 0; i < tokens.length - 1; i++) {
      const t = tokens[i]!;
      if (Array.isArray(cur)) cur = isArrayIndex(t) ? cur[Number(t)] : undefined;
      else if (isObject(cur)) cur = hasOwn(cur, t) ? cur[t] : undefined;
      else return undefined;
    }
    if (!isObject(cur) || !hasOwn(cur, key)) return undefined;
    const keys = Object.keys(cur);
    for (let i = keys.indexOf(key) + 1; i < keys.length; i++) if (hasOwn(parent, keys[i]!)) return keys[i];
    return undefined;
  }

  /**
   * The bytes member `key` with `value` (when none is given: its current value) takes in `obj`'s JSON, with the
   * comma that joins it to the other members: what removing it saves, or adding it costs.
   */
  #memberBytes(obj: Record<string, unknown>, key: string, ...value: [unknown?]): number {
    const v = value.length > 0 ? value[0] : obj[key];
    if (!isPresent(v)) return 0;
    return keyBytes(key) + 1 + jsonBytes(v) + (this.#hasOther(obj, key) ? 1 : 0);
  }

  /**
   * Whether `obj` has a member JSON writes other than `except`. An object thousands of members were added to
   * or deleted from is a dictionary to V8, and listing its keys (even to the first) reads them all: its count
   * is kept instead (see #counts). Without it, moving 4,000 definitions from `definitions` to `$defs` took
   * 2.7 s, 2.4 s of it here; hoisting 4,000 nested `$defs` 1 s, 0.7 s of it here.
   */
  #hasOther(obj: Record<string, unknown>, except: string): boolean {
    const count = this.#counts?.get(obj);
    if (count === undefined) return hasOtherMember(obj, except);
    return count - (hasOwn(obj, except) && isPresent(obj[except]) ? 1 : 0) > 0;
  }

  /**
   * The position of `key` among `obj`'s keys before it is removed (undefined when it is the last), kept
   * track of per object so that removing many members of one big object stays near linear.
   */
  #removeKey(obj: Container, key: string): number | undefined {
    // Made on the first removal: most contexts never remove anything.
    const orders = (this.#orders ??= new WeakMap());
    const order = orders.get(obj);
    if (order !== undefined) return order.remove(key);
    // Most objects lose one member at most: the first removal counts the keys before `key` (one scan, as
    // building the index would take); the second builds the index over the keys then left.
    if (orders.has(obj)) {
      const built = new KeyOrder(Object.keys(obj));
      orders.set(obj, built);
      return built.remove(key);
    }
    orders.set(obj, undefined);
    return notLast(obj, key);
  }

  /** Records a finding without changing anything. */
  report(severity: Severity, code: string, path: string, data?: MessageData): void {
    this.diagnostics.push({ severity, code, path, message: this.#format(code, data) });
  }

  #format(code: string, data: MessageData | undefined): string {
    let template: string;
    if (hasOwn(this.#messages, code)) template = this.#messages[code]!;
    // A context with messages is strict; one without (a scratch copy) records bare codes.
    else if (hasMembers(this.#messages)) throw new Error(`unknown message code \`${code}\` (the transform's messages are: ${Object.keys(this.#messages).join(', ')})`);
    else template = code;
    if (!data) return template;
    return fillTemplate(template, data);
  }

  /** The (owned) parent container of `tokens` and the last token; checks the target exists when asked. */
  #parentOf(tokens: readonly string[], path: string, mustExist: boolean): [Container, string] {
    const parent = this.#ownPath(tokens, tokens.length - 1, path);
    const key = tokens[tokens.length - 1]!;
    if (mustExist) {
      const exists = Array.isArray(parent) ? isArrayIndex(key) && Number(key) < parent.length : hasOwn(parent, key);
      if (!exists) throw new Error(`nothing at \`${path}\``);
    }
    return [parent, key];
  }

  /** The container at the first `length` tokens, owned by this context (copied on the way down as needed). */
  #ownPath(tokens: readonly string[], length: number, path: string): Container {
    const owned = this.#cow.own(tokens, length);
    if (typeof owned === 'number') throw new Error(`nothing at \`${path}\``);
    return owned;
  }
}

/**
 * Objects up to this many keys are made anew by an edit that takes a member out; larger ones lose it by
 * `delete` (see `EditContext.#takeOut`). Schema objects have a handful of keys; a `properties` or `$defs`
 * map may have thousands, and rebuilding one per removal would make removing many of them quadratic.
 */
const REBUILD_MAX_KEYS = 64;

/**
 * A message template split at its `{name}` placeholders once: even slots are text, odd slots names.
 * Templates are a transform's constants, so the cache stays as small as the transforms' message tables.
 */
const TEMPLATE_PARTS = new Map<string, readonly string[]>();

/** `template` with each `{name}` that `data` has replaced by its value (others stay as written). */
function fillTemplate(template: string, data: MessageData): string {
  let parts = TEMPLATE_PARTS.get(template);
  if (parts === undefined) {
    parts = template.split(/\{(\w+)\}/);
    // Only templates with placeholders (a code without a message is its own template: do not keep those).
    if (parts.length > 1 && TEMPLATE_PARTS.size < 4096) TEMPLATE_PARTS.set(template, parts);
  }
  if (parts.length === 1) return template;
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const k = parts[i]!;
    let next = parts[i + 1]!;
    if (!hasOwn(data, k)) out += `{${k}}`;
    else {
      const value = String(data[k]);
      // A value with a backtick in a code span (`` `{name}` ``) would close it early (a name `` a`b `` read as
      // three backticks in a row): it is written as a JSON string instead, without the span.
      if (value.indexOf('`') !== -1 && out.endsWith('`') && next.startsWith('`')) {
        out = out.slice(0, -1) + JSON.stringify(value);
        next = next.slice(1);
      } else out += value;
    }
    out += next;
  }
  return out;
}

/** Whether `obj` has an own enumerable member (what `Object.keys(obj).length > 0` says, without the array). */
function hasMembers(obj: object): boolean {
  for (const k in obj) if (hasOwn(obj, k)) return true;
  return false;
}

/** How many members of `obj` JSON writes. */
function presentMembers(obj: Record<string, unknown>): number {
  let n = 0;
  for (const k in obj) if (hasOwn(obj, k) && isPresent(obj[k])) n++;
  return n;
}

/** The position of `key` among `obj`'s keys, or undefined when it is the last one (what an `add` gives). */
function notLast(obj: Container, key: string): number | undefined {
  const keys = Object.keys(obj);
  const i = keys.indexOf(key);
  return i < 0 || i === keys.length - 1 ? undefined : i;
}

/**
 * The keys of an object as members are removed from it: each key's position among the remaining ones in
 * O(log n) (a Fenwick tree counts the removed keys before a position).
 */
class KeyOrder {
  readonly #at = new Map<string, number>();
  readonly #tree: Int32Array;
  #alive: number;

  constructor(keys: readonly string[]) {
    for (let i = 0; i < keys.length; i++) this.#at.set(keys[i]!, i);
    this.#tree = new Int32Array(keys.length + 1);
    this.#alive = keys.length;
  }

  /** Removes `key`; returns where it was among the remaining keys, or undefined when it was the last. */
  remove(key: string): number | undefined {
    const at = this.#at.get(key)!;
    let before = 0;
    for (let i = at; i > 0; i -= i & -i) before += this.#tree[i]!;
    const index = at - before;
    for (let i = at + 1; i < this.#tree.length; i += i & -i) this.#tree[i]!++;
    this.#alive--;
    return index === this.#alive ? undefined : index;
  }
}

function positions(index: number | undefined, fromIndex: number | undefined): { index?: number; fromIndex?: number } {
  return { ...(index === undefined ? {} : { index }), ...(fromIndex === undefined ? {} : { fromIndex }) };
}

// ---- byte counting (EditContextOptions.measure) ------------------------------------------------------
// Compact JSON: `{` members joined by `,` `}`, a member `"key":value`; a member whose value JSON cannot
// hold (`undefined`, a function, a symbol) is omitted, with its comma. `[` elements joined by `,` `]`.

/** Whether `JSON.stringify` writes an object member with this value. */
function isPresent(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function keyBytes(key: string): number {
  return jsonStringBytes(key);
}

/**
 * Whether `obj` has a member JSON writes other than `except` (then `except`'s member has a comma). Stops at
 * the first one, without a key array: removing many members of one big object stays linear.
 */
function hasOtherMember(obj: Record<string, unknown>, except: string): boolean {
  for (const k in obj) if (k !== except && hasOwn(obj, k) && isPresent(obj[k])) return true;
  return false;
}


/** The bytes an array element takes, with its comma when the array (of `length` elements with it) has others. */
function elementBytes(value: unknown, length = 1): number {
  if (typeof value === 'string') return jsonStringBytes(value) + (length > 1 ? 1 : 0);
  const text = JSON.stringify(value);
  return (text === undefined ? 4 /* null */ : utf8Length(text)) + (length > 1 ? 1 : 0);
}

// Keeps EditContext's, CopyOnWrite's and KeyOrder's shapes (and the code optimised for them) alive between runs.
anchorShape([new EditContext({}, {}), new KeyOrder([])]);

/**
 * One recorded change of every shape a context makes (each op, with and without `index` and `fromIndex`), their
 * `value` and `oldValue` fields given values of every JSON kind. A change is an object literal, and its map dies
 * with a run's last change: every function that reads changes (the engine's `keysAfter`, `addsInventoryKeys`,
 * `stamped`) then lost its optimised code at each full GC ('weak objects' in `node --trace-deopt`) and was
 * compiled again, about a quarter of `safe`'s CPU time per pass on the validation set (compiler threads).
 * The engine makes and keeps them (and their report forms) on its first run, not at import: making them costs
 * about a millisecond of cold code, which every process importing toolslim would pay.
 * @internal
 */
export function exampleChanges(): readonly RecordedChange[] {
  const kinds: readonly unknown[] = [1, 'x', 0.5, { k: 1 }, [1], null, true];
  const ctx = new EditContext({ o: { z: 1 } }, {}, { origin: { o: { a: 1, z: 1 } } });
  for (let i = 0; i < kinds.length; i++) {
    const v = kinds[i];
    const w = kinds[(i + 1) % kinds.length];
    ctx.add('/k', v, 'x'); // appended: no index
    ctx.replace('/k', w, 'x');
    ctx.add('/l', w, 'x');
    ctx.remove('/k', 'x'); // not the last: index
    ctx.remove('/l', 'x'); // the last: no index
    ctx.add('/o/a', v, 'x'); // back before \`z\`, as in the origin: index
    ctx.move('/o/a', '/m', 'x'); // fromIndex; appended
    ctx.move('/m', '/o/a', 'x'); // the last; back before \`z\`: index
    ctx.move('/o/z', '/q', 'x'); // the last; appended
    ctx.move('/q', '/o/z', 'x');
    ctx.add('/n', v, 'x');
    ctx.add('/p', v, 'x');
    ctx.remove('/o/a', 'x');
    ctx.move('/n', '/o/a', 'x'); // fromIndex and index
    ctx.remove('/p', 'x');
    ctx.remove('/o/a', 'x');
  }
  return ctx.changes;
}
