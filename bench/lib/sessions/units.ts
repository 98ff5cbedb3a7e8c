/**
 * The reader units bench:sessions prices in, all counted in o200k_base: compact JSON of each served tool (the
 * wire form and the main unit: the tables above the peers are in it), and `typescript`, the OpenAI-family
 * reader (src/render: harmony's `type name = (_: {…}) => any;` block of what a client forwards — name,
 * description, input schema — per tool; the `namespace functions { … }` wrapper, the same few tokens under
 * every policy, is left out).
 */
import type { McpTool } from '../../../src/index.js';
import { getRenderer } from '../../../src/render/index.js';
import type { CountTokens } from './replay.js';
import { jsonUnit, type ReaderUnit } from './unit.js';

const TS = getRenderer('typescript');
const TS_UNITS = new WeakMap<CountTokens, ReaderUnit>();

/** The `typescript` unit with a tokenizer (one object per tokenizer). */
export function typescriptUnit(count: CountTokens): ReaderUnit {
  let u = TS_UNITS.get(count);
  if (u === undefined) {
    const render = (tool: McpTool) => TS.renderTool({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
    TS_UNITS.set(count, (u = Object.freeze({ name: 'typescript', render, count })));
  }
  return u;
}

export function readerUnits(count: CountTokens): ReaderUnit[] {
  return [jsonUnit(count), typescriptUnit(count)];
}
