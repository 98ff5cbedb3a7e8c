/**
 * `pattern` and `patternProperties`, run on a model's arguments in time V8 can bound. A server writes the
 * pattern and the model writes the text, so a pattern with nested quantifiers (`^(a+)+$`, common in
 * hand-written e-mail and URL patterns) met with `"aaaa…a!"` backtracks exponentially: 28 characters
 * took 1.4 s in the proxy's argument check, 40 would take hours, on the one thread every message of the
 * session waits on.
 *
 * V8 can leave its backtracking engine for a linear one once a match backtracks too much (the flag
 * {@link REGEXP_FALLBACK_FLAG}), but not for a unicode (`u`) expression, and JSON Schema patterns are read
 * with `u` (ajv's `unicodeRegExp`). Without `u` a pattern reads differently only where the text holds a
 * character outside the Basic Multilingual Plane (a surrogate pair, one character with `u`, two without)
 * or the pattern holds what only `u` gives meaning: `\u{…}`, `\p{…}` / `\P{…}`, or a surrogate (a
 * character outside the plane, or a surrogate written `\uD8xx`). So each pattern is compiled both ways,
 * and a text without surrogates meets the expression without `u` when the pattern has none of those: the
 * same answer, in bounded time when the flag is on.
 *
 * A text with surrogates too, mostly: a pattern with none of the above mentions no character outside the
 * plane, so every such character (and a lone surrogate) meets each of its atoms alike — `.`, a negated class,
 * `\S`, `\W`, `\D` match it, nothing else does — and so does U+E000 when the pattern mentions nothing at or
 * above it (no character, no `\uExxx`/`\uFxxx` escape, hence no range reaching it). Each is replaced by
 * U+E000 and the text met without `u`. Not with a backreference (`\1`, `\k<…>`): it tells two such
 * characters apart. Nor with `\b`, `\B` or a lookbehind: V8's `u` expression also tries a match from the
 * middle of a surrogate pair (`/\B/u` matches `"x😁_"` at 2), where what lies before is the pair's first
 * half, a position the text with the stand-in does not have. Anything else meets the `u` expression,
 * unbounded.
 *
 * Used by the proxy's argument check (session/validate-arguments.ts) and its call mapping (session/call-map.ts:
 * `patternProperties` met with a model's keys), and the gate (gate.ts: its instances hold a server's own defaults
 * and examples; instances.ts: its probes, met with a server's patterns). The CLI turns the flag on for its own process
 * (cli/bin.ts sets {@link REGEXP_FALLBACK_FLAG}); a library call and the MCP SDK hook run in the caller's
 * process and leave its flags alone (`node --enable-experimental-regexp-engine-on-excessive-backtracks`
 * gives them the same bound).
 */
/** The V8 flag: a non-unicode expression that backtracks too much is run again by the linear engine. */
export const REGEXP_FALLBACK_FLAG = '--enable-experimental-regexp-engine-on-excessive-backtracks';

/** What ajv's `code.regExp` returns: the expression's `test`, and a text naming it (ajv's cache key). */
export interface PatternTest {
  test(text: string): boolean;
  toString(): string;
}

/** Only `u` gives these a meaning of their own: `\u{`, `\p{`, `\P{`, and a surrogate written or escaped. */
const UNICODE_ONLY = /\\u\{|\\[pP]\{|[\uD800-\uDFFF]|\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
const SURROGATE = /[\uD800-\uDFFF]/;
/** What makes U+E000 unfit to stand for every character outside the plane (see the module comment). */
const NO_STAND_IN = /[\uE000-\uFFFF]|\\u[eEfF][0-9a-fA-F]{3}|\\[1-9]|\\k<|\\[bB]|\(\?<[=!]/;
const OUTSIDE_PLANE = /[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g;

/**
 * ajv's `code.regExp` for argument checks: `pattern` compiled with `flags` (ajv passes `u`), tested
 * without `u` where that reads the same (see the module comment). Throws for a pattern the `u` reading
 * refuses, as `new RegExp` would.
 */
export function boundedRegExp(pattern: string, flags: string): PatternTest {
  const unicode = new RegExp(pattern, flags);
  if (!flags.includes('u') || UNICODE_ONLY.test(pattern)) return unicode;
  let plain: RegExp;
  try {
    plain = new RegExp(pattern, flags.replace('u', ''));
  } catch {
    return unicode;
  }
  const standIn = !NO_STAND_IN.test(pattern);
  return {
    test(text: string): boolean {
      if (!SURROGATE.test(text)) return plain.test(text);
      return standIn ? plain.test(text.replace(OUTSIDE_PLANE, '\uE000')) : unicode.test(text);
    },
    toString: () => unicode.toString(),
  };
}
// ajv writes `code.regExp.code` into standalone code; these validators are never written out.
boundedRegExp.code = 'boundedRegExp';
