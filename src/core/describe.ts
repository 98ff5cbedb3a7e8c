/** How option checks name what they were given (every layer's messages say it the same way). */

/** A value as an error message shows it. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    return `a ${(value as object).constructor?.name ?? 'non-plain'} object`;
  }
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 80 ? text.slice(0, 77) + '…' : text;
  } catch {
    // A value JSON cannot write (one that contains itself, a throwing getter): its kind, never String()'s
    // `[object Object],[object Object]`.
    if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'} that is not plain JSON`;
    if (typeof value === 'object' && value !== null) return 'an object that is not plain JSON';
    return String(value);
  }
}

/** True for an object that can hold options (not null, not an array); not a type guard, so option types stay. */
export function isOptionsObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
