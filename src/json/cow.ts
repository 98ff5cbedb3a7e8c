/**
 * Copy-on-write: THE applier behind every edit toolslim makes (`EditContext` in core, `applyPatch`). A
 * container is copied the first time an edit goes through it and then owned, so later edits on the same
 * path change the copy in place; everything off the edited paths stays shared with the input, which is
 * never written to.
 *
 * Checkpoints make groups of edits undoable: after {@link CopyOnWrite.checkpoint}, nothing owned before it
 * is written again (an edit copies it anew), so {@link CopyOnWrite.rollback} only has to put the old root
 * back, and {@link CopyOnWrite.commit} only has to keep the new copies.
 */
import { isArrayIndex } from './pointer.js';

/** A mutable JSON container: an object or an array. */
export type Container = Record<string, unknown> | unknown[];

/** A working copy of a JSON document, edited copy-on-write. */
export class CopyOnWrite {
  #root: unknown;
  /** The container holding the one the last {@link own} returned, and its key there (undefined: it was the root). */
  #above: Container | undefined;
  #aboveKey = '';
  /**
   * Sets of owned containers per open checkpoint level; only the innermost level may be written. Made on
   * the first copy or checkpoint: most working copies are never edited.
   */
  #levels: WeakSet<object>[][] | undefined;
  #saved: unknown[] | undefined;
  /**
   * The last {@link own}'s path: its tokens, and the owned containers along it (`#chain[i]` is the one at the
   * first `i` tokens, `#chain[0]` the root; empty: start from the root). Between two calls only the container
   * the last one returned is written (a member set, added, removed, or the container itself replaced through
   * {@link replaceOwned}, which updates the chain), so the containers above it stay owned and linked: the next
   * call starts where its path leaves this one. The edits of one tool mostly share a prefix
   * (`/inputSchema/properties/…`), which was parsed and walked again, one ownership test per token, for each.
   * A new root, a checkpoint, a commit and a rollback start the chain over.
   */
  #chainTokens: readonly string[] = NO_TOKENS;
  /** How many of `#chainTokens` the last path had (its caller's tokens may name a member below it). */
  #chainLength = 0;
  /** Made on the first {@link own}: most working copies are never edited. */
  #chain: Container[] | undefined;
  /**
   * What the last {@link ownWithout} took a member out of: the object as it was (undefined when it took
   * nothing), and the member's position among that object's keys (-1: the last).
   */
  takenFrom: Record<string, unknown> | undefined;
  takenAt = -1;

  constructor(root: unknown) {
    this.#root = root;
  }

  /** The working copy. */
  get root(): unknown {
    return this.#root;
  }

  /** Replaces the whole document (the new value is not owned: a later edit inside it copies it). */
  set root(value: unknown) {
    this.#root = value;
    if (this.#chain !== undefined) this.#chain.length = 0;
  }

  /**
   * The container at `tokens`, owned (it and every container above it copied unless already owned, each
   * copy linked into its parent), ready to be written. Returns the index of the first token whose value is
   * not a container (`-1`: the root is not one) instead when there is none. `tokens` is kept (the next call
   * starts where its path leaves this one, see #chain): the caller does not change the array afterwards.
   * With `length`, the container at the first `length` tokens (the parent of a member the rest names).
   */
  own(tokens: readonly string[], length: number = tokens.length): Container | number {
    const chain = (this.#chain ??= []);
    let cur: unknown;
    let i = 0;
    if (chain.length === 0) {
      cur = this.#root;
      if (typeof cur !== 'object' || cur === null) return -1;
      if (!this.#owns(cur)) {
        cur = shallowCopy(cur);
        this.#adopt(cur as object);
        this.#root = cur;
      }
      chain.push(cur as Container);
    } else {
      // The containers of the last path that this one shares are owned and in place (see #chain).
      const last = this.#chainTokens;
      const shared = Math.min(this.#chainLength, length);
      while (i < shared && last[i] === tokens[i]) i++;
      chain.length = i + 1;
      cur = chain[i];
    }
    if (i === 0) this.#above = undefined;
    else {
      this.#above = chain[i - 1];
      this.#aboveKey = tokens[i - 1]!;
    }
    for (; i < length; i++) {
      const token = tokens[i]!;
      const parent = cur as Container;
      let child: unknown;
      if (Array.isArray(parent)) child = isArrayIndex(token) ? parent[Number(token)] : undefined;
      else child = Object.prototype.hasOwnProperty.call(parent, token) ? parent[token] : undefined;
      if (typeof child !== 'object' || child === null) {
        chain.length = 0;
        return i;
      }
      if (!this.#owns(child)) {
        child = shallowCopy(child);
        this.#adopt(child as object);
        setOwn(parent, token, child);
      }
      chain.push(child as Container);
      this.#above = parent;
      this.#aboveKey = token;
      cur = child;
    }
    this.#chainTokens = tokens;
    this.#chainLength = length;
    return cur as Container;
  }

  /**
   * Takes member `key` out of the object at the first `length` tokens by making that object anew without
   * it, owned and linked where it was (see {@link replaceOwned}: never `delete`): one copy whether or not the
   * object was owned, where owning it and then making it anew took two. {@link takenFrom} and
   * {@link takenAt} say what was taken. Takes nothing (`takenFrom` undefined) and returns the container
   * owned as {@link own} does when it is an array, lacks `key`, or has more than `maxKeys` keys (or is in
   * `large`, which says so without counting them); returns what `own` returns when there is no container there.
   */
  ownWithout(tokens: readonly string[], length: number, key: string, maxKeys: number, large: WeakSet<object> | undefined): Container | number {
    this.takenFrom = undefined;
    if (length === 0) {
      const root = this.own(tokens, 0);
      if (typeof root === 'number') return root;
      const fresh = this.#without(root, key, maxKeys, large);
      if (fresh === undefined) return root;
      this.#root = fresh;
      this.#adopt(fresh);
      this.#chain![0] = fresh;
      return fresh;
    }
    const above = this.own(tokens, length - 1);
    if (typeof above === 'number') return above;
    const token = tokens[length - 1]!;
    let child: unknown;
    if (Array.isArray(above)) child = isArrayIndex(token) ? above[Number(token)] : undefined;
    else child = Object.prototype.hasOwnProperty.call(above, token) ? above[token] : undefined;
    const fresh = typeof child === 'object' && child !== null ? this.#without(child, key, maxKeys, large) : undefined;
    if (fresh === undefined) return this.own(tokens, length);
    setOwn(above, token, fresh);
    this.#adopt(fresh);
    this.#chain!.push(fresh);
    this.#chainLength = length;
    this.#above = above;
    this.#aboveKey = token;
    return fresh;
  }

  /** `obj` made anew without member `key`, noted in {@link takenFrom} and {@link takenAt}; undefined when it cannot be (see {@link ownWithout}). */
  #without(obj: object, key: string, maxKeys: number, large: WeakSet<object> | undefined): Record<string, unknown> | undefined {
    if (Array.isArray(obj) || !Object.prototype.hasOwnProperty.call(obj, key) || large?.has(obj) === true) return undefined;
    const src = obj as Record<string, unknown>;
    const keys = Object.keys(src);
    if (keys.length > maxKeys) return undefined;
    const out: Record<string, unknown> = {};
    let at = -1;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k === key) at = i;
      // What setOwn does for an object target: an own `__proto__` is defined, never set.
      else if (k === '__proto__') Object.defineProperty(out, k, { value: src[k], writable: true, enumerable: true, configurable: true });
      else out[k] = src[k];
    }
    this.takenFrom = src;
    this.takenAt = at === keys.length - 1 ? -1 : at;
    return out;
  }

  /**
   * Puts `fresh`, a container the caller has just made, where the container the last {@link own} returned
   * is, owned (the next edit through it writes it in place). For an edit that rebuilds an object rather
   * than `delete` a member from it: V8 turns an object a member is deleted from into a slow dictionary, which
   * every later step, the gate and the caller's `JSON.stringify` read more slowly. Call it right after
   * {@link own}, before any other call.
   */
  replaceOwned(fresh: Container): void {
    if (this.#above === undefined) this.#root = fresh;
    else setOwn(this.#above, this.#aboveKey, fresh);
    this.#adopt(fresh);
    const chain = this.#chain;
    if (chain !== undefined && chain.length > 0) chain[chain.length - 1] = fresh;
  }

  /** Starts a group of edits that {@link rollback} can undo. Checkpoints nest. */
  checkpoint(): void {
    (this.#saved ??= []).push(this.#root);
    (this.#levels ??= [[]]).push([]);
    // What the chain holds is owned by the level below now: the next edit copies it anew.
    if (this.#chain !== undefined) this.#chain.length = 0;
  }

  /** Keeps the edits since the last checkpoint. */
  commit(): void {
    if (this.#saved === undefined || this.#saved.length === 0) throw new Error('commit without a checkpoint');
    if (this.#chain !== undefined) this.#chain.length = 0;
    this.#saved.pop();
    const levels = this.#levels!;
    const inner = levels.pop()!;
    // What the inner level copied is owned by the outer one from now on; what the outer level owned and
    // the inner level left shared was never written since the checkpoint, and is still the outer level's.
    levels[levels.length - 1]!.push(...inner);
  }

  /** Puts the document back as it was at the last checkpoint. */
  rollback(): void {
    if (this.#saved === undefined || this.#saved.length === 0) throw new Error('rollback without a checkpoint');
    if (this.#chain !== undefined) this.#chain.length = 0;
    this.#root = this.#saved.pop();
    this.#levels!.pop();
  }

  #owns(value: object): boolean {
    const levels = this.#levels;
    if (levels === undefined) return false;
    for (const set of levels[levels.length - 1]!) if (set.has(value)) return true;
    return false;
  }

  #adopt(value: object): void {
    const levels = (this.#levels ??= [[]]);
    const level = levels[levels.length - 1]!;
    // A level's set is made on its first copy: most contexts never edit anything.
    if (level.length === 0) level.push(new WeakSet());
    level[level.length - 1]!.add(value);
  }
}

const NO_TOKENS: readonly string[] = Object.freeze([]);

/**
 * A shallow copy that keeps key order and treats `__proto__` as an ordinary own key. An object is copied by
 * spread syntax, which defines each member (an own `__proto__` stays an own member, never the prototype; it
 * is not `Object.assign`, which sets) and which V8 does in one step for an object parsed from JSON, where
 * setting the members one by one went through a map transition per key (copying every object of the
 * validation set: 1.4 ms against 0.9 ms a pass, measured in one process).
 */
export function shallowCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.slice() as T;
  return { ...(value as Record<string, unknown>) } as T;
}

/** Sets an own property; `__proto__` becomes data, never the prototype. */
export function setOwn(target: object, key: string, value: unknown): void {
  if (Array.isArray(target) && isArrayIndex(key)) {
    target[Number(key)] = value;
    return;
  }
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
}
