/** How the CLI's `report` asks V8 to schedule its collections (see {@link collectSooner}). */
import { setFlagsFromString } from 'node:v8';

/**
 * Asks V8 to collect its old generation when it has grown by 30% since the last full collection, not by
 * up to 4× (its default on a machine with a few GB). A report of a large list makes much short-lived
 * garbage that outlives a young-generation pass (per-tool texts, counts, the lint's per-tool sets): on
 * the bench's 52 MB list the default let the heap grow to ~600 MB around ~200 MB of live data, the last
 * full collection having run while the input text and the list were both live (peak RSS before and
 * after in bench/check-scale.md and the commit that added this; CPU the same within noise). Only the
 * GC's schedule changes, never a result; on a V8 without the flag it does nothing. Node documents setting
 * flags after start-up as unsupported in general; this one is read each time the heap's limit is
 * recomputed. It stays set for the rest of the process (the CLI exits after the report).
 */
export function collectSooner(): void {
  setFlagsFromString('--heap-growing-percent=30');
}
