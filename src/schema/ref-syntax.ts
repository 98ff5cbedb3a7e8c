/**
 * The syntax of a `$ref` value: a URI reference whose fragment is a JSON Pointer or a plain-name anchor.
 * Parsing and writing only; what a reference resolves to is schema/refs.ts.
 */
import { formatPointer, parsePointer, unescapeToken } from '../json/pointer.js';

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
