/**
 * RFC 6901 JSON Pointers and `$ref` fragments.
 *
 * Every read goes through {@link hasOwn}, so `__proto__`, `constructor` and `prototype` are plain data
 * here: a token only ever names an own property.
 */

/** Own-property test that is safe for `__proto__` and objects without a prototype. */
export function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Escapes one reference token (`~` → `~0`, `/` → `~1`). */
export function escapeToken(token: string): string {
  if (token.indexOf('~') === -1 && token.indexOf('/') === -1) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Unescapes one reference token; throws on a `~` not followed by `0` or `1`. */
export function unescapeToken(token: string): string {
  if (token.indexOf('~') === -1) return token;
  if (/~(?![01])/.test(token)) throw new PointerError(`invalid escape in pointer token \`${token}\``);
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Error for a malformed pointer or `$ref`. */
export class PointerError extends Error {
  override name = 'PointerError';
}

/** Splits a pointer (`""` or `/a/b~1c`) into unescaped tokens. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (pointer.charCodeAt(0) !== 47 /* / */) throw new PointerError(`pointer \`${pointer}\` does not start with "/"`);
  const raw = pointer.slice(1).split('/');
  for (let i = 0; i < raw.length; i++) raw[i] = unescapeToken(raw[i]!);
  return raw;
}

/** Joins tokens into a pointer. */
export function formatPointer(tokens: readonly (string | number)[]): string {
  let out = '';
  for (const t of tokens) out += '/' + escapeToken(String(t));
  return out;
}

/** Appends one token to a pointer. */
export function appendPointer(pointer: string, token: string | number): string {
  return pointer + '/' + escapeToken(String(token));
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** True when `token` is a canonical array index (`0`, `12`; not `01`, `-`, `1e2`). */
export function isArrayIndex(token: string): boolean {
  return ARRAY_INDEX.test(token);
}

/** The value at `tokens` below `root`, or `undefined` when any step is missing. Own properties only. */
export function getAt(root: unknown, tokens: readonly string[]): unknown {
  let cur: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(cur)) {
      if (!isArrayIndex(token)) return undefined;
      const i = Number(token);
      if (i >= cur.length) return undefined;
      cur = cur[i];
    } else if (isObject(cur)) {
      if (!hasOwn(cur, token)) return undefined;
      cur = cur[token];
    } else {
      return undefined;
    }
  }
  return cur;
}

/** Whether `tokens` names an existing location below `root`. */
export function existsAt(root: unknown, tokens: readonly string[]): boolean {
  if (tokens.length === 0) return true;
  const parent = getAt(root, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) return isArrayIndex(last) && Number(last) < parent.length;
  return isObject(parent) && hasOwn(parent, last);
}

/** What a `$ref` string points at, as far as it can be told without fetching anything. */
export type ParsedRef =
  | { readonly kind: 'pointer'; readonly tokens: readonly string[] }
  | { readonly kind: 'anchor'; readonly name: string }
  | { readonly kind: 'external'; readonly uri: string; readonly fragment: string }
  | { readonly kind: 'invalid'; readonly reason: string };

/**
 * Parses a `$ref`. A fragment-only reference (`#`, `#/a/b`, `#name`) is local; anything with a URI part is
 * `external` (the caller decides whether that URI names the document itself). Percent-escapes in the
 * fragment are decoded; a malformed escape or pointer is `invalid`.
 */
export function parseRef(ref: string): ParsedRef {
  // An empty reference names the current document (RFC 3986 §4.4), like `#`.
  if (ref === '') return { kind: 'pointer', tokens: [] };
  const hash = ref.indexOf('#');
  if (hash !== 0) {
    return { kind: 'external', uri: hash === -1 ? ref : ref.slice(0, hash), fragment: hash === -1 ? '' : ref.slice(hash + 1) };
  }
  return parseFragment(ref.slice(1));
}

/** Parses the part of a `$ref` after `#`. */
export function parseFragment(fragment: string): ParsedRef {
  let decoded: string;
  try {
    decoded = fragment.indexOf('%') === -1 ? fragment : decodeURIComponent(fragment);
  } catch {
    return { kind: 'invalid', reason: `malformed percent-escape in \`#${fragment}\`` };
  }
  if (decoded === '' || decoded.charCodeAt(0) === 47) {
    try {
      return { kind: 'pointer', tokens: parsePointer(decoded) };
    } catch (e) {
      return { kind: 'invalid', reason: (e as Error).message };
    }
  }
  return { kind: 'anchor', name: decoded };
}

/**
 * Reads a `$ref` fragment the way ajv does: split on `/` first, then percent-decode and unescape each
 * token. Differs from {@link parseFragment} (RFC 6901 §6: decode, then split) only when the fragment holds
 * an encoded `/` (`%2F`). Returns undefined when the fragment is not a pointer, has no percent-escape, or
 * is malformed.
 */
export function parsePointerTokenwise(fragment: string): string[] | undefined {
  if (fragment.charCodeAt(0) !== 47 /* / */ || fragment.indexOf('%') === -1) return undefined;
  try {
    return fragment.slice(1).split('/').map((t) => unescapeToken(decodeURIComponent(t)));
  } catch {
    return undefined;
  }
}

/**
 * Writes tokens back as a `$ref` fragment (`#/a/b`), percent-encoding only what a URI fragment cannot
 * hold, so ordinary names stay readable.
 */
export function formatRefPointer(tokens: readonly string[]): string {
  return '#' + formatPointer(tokens).replace(/[%"<>\\^`{|}\s\u0000-\u001f\u007f-\uffff]/gu, (c) => encodeURIComponent(c));
}
