/**
 * Names for what a transform adds beside what is there (a hoisted or deduplicated definition, a merged
 * one): one rule, so that every transform names a clash the same way and a second run finds the same name.
 */

/** `name`, or `name_2`, `name_3`…: the first that `taken` does not have (a Set, or anything with `has`). */
export function uniqueName(name: string, taken: { has(name: string): boolean }): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) {
    const candidate = `${name}_${i}`;
    if (!taken.has(candidate)) return candidate;
  }
}
