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
 */
const anchors: unknown[] = [];

/** Keeps `value` reachable for the life of the process (see the module comment); returns it. */
export function anchorShape<T>(value: T): T {
  anchors.push(value);
  return value;
}
