/**
 * Values known to be `JSON.parse`'s own output: plain objects and dense arrays whose members are all data
 * properties (no accessor, no `Proxy`, no class instance). The CLI marks what it parses; the input checks
 * (the engine's and the lint's) then read such a value's members directly instead of asking for a property
 * descriptor of each one, which allocates an object per member: 280 MB of the 2.8 GB `toolslim report`
 * allocated on the 31,560-tool list of bench/check-scale.ts, in three walks of the input. Everything else the
 * checks look for (values JSON cannot hold, depth, cycles) is still checked.
 *
 * Internal: the package does not export it, so no caller can vouch for a live object; toolslim never
 * mutates its input, so a marked value stays as it was parsed.
 */
const PARSED = new WeakSet<object>();

/** `JSON.parse(text)`, marked as parsed when it is an object or an array. */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (typeof value === 'object' && value !== null) PARSED.add(value);
  return value;
}

/**
 * Marks `value`, a member of a value `JSON.parse` has just made (a message the proxy read off the wire), as
 * parsed, for a check further down that reads it on its own (response-records.ts `findRecords`).
 */
export function markParsed(value: unknown): void {
  if (typeof value === 'object' && value !== null) PARSED.add(value);
}

/**
 * True when `value` came from {@link parseJson} and no prototype a parsed value inherits from has an
 * enumerable key (a polluted `Object.prototype` shows its keys to `for…in`, which the checks walk with):
 * its members may be read without descriptors.
 */
export function isParsedJson(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !PARSED.has(value)) return false;
  for (const _ in EMPTY_OBJECT) return false;
  for (const _ in EMPTY_ARRAY) return false;
  return true;
}

const EMPTY_OBJECT = {};
const EMPTY_ARRAY: unknown[] = [];
