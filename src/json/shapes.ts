/**
 * Shape anchors: one small instance of each engine class a run makes many of, kept for the life of the process.
 *
 * Why: V8's optimised code depends on the hidden classes ("maps") of the objects it has seen, and holds them
 * weakly. Between two `transformTools` calls every instance of `EditContext`, `CopyOnWrite`, `Document`, … is
 * garbage, so a full GC collects their maps and deoptimises every function that used them ("weak objects" in
 * `node --trace-deopt`); the next call runs unoptimised and recompiles about 50 functions. A long-running proxy
 * or hook pays that after each major GC, and the bench's forced-GC rows paid it on every pass (about a third of
 * `safe`'s time). An anchor keeps each class's map alive, so the optimised code survives. Anchors hold only
 * the empty data they were built with, never a caller's tools.
 *
 * The same holds for functions: V8 keeps a function's optimised code only while one of its closures lives, so
 * a closure made per call (a visitor literal given to `walkSchema`, an arrow in a loop) is recompiled after
 * every full GC. Hot visitors are methods of anchored classes or module functions given their state instead
 * (`walkSchema` calls visitors as methods of its options for that). And a load reached only by rare data (a
 * `$ref`'s value behind `hasOwn`, the pairs of a conversion match) has no type feedback when its function is
 * optimised: it deoptimises the whole function on the first such datum of each run; such loads run on every
 * node, or read objects of an anchored class. Found with `node --trace-opt --trace-deopt` over repeated runs
 * with a full GC between them (the bench's rows of record), on the validation set the engine was not tuned on.
 */
const anchors: unknown[] = [];

/** Keeps `value` reachable for the life of the process (see the module comment); returns it. */
export function anchorShape<T>(value: T): T {
  anchors.push(value);
  return value;
}
