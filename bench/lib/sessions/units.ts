/**
 * The reader units bench:sessions prices in: compact JSON (the wire form, the main unit) and each renderer's
 * text of what a client forwards of a tool (src/render), all counted in o200k_base.
 */
import { jsonUnit, type ReaderUnit } from './unit.js';
import type { CountTokens } from './replay.js';

export function readerUnits(count: CountTokens): ReaderUnit[] {
  return [jsonUnit(count)];
}
