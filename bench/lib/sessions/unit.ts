/**
 * The unit a session is priced in: what the model reads of a tool definition (a reader's rendering of it)
 * and the tokenizer that counts it. `json` is the compact JSON of the tool as served (the MCP wire form, the
 * bench's unit before the renderers). A rendered unit (`typescript`, …) renders what a client forwards of a
 * tool (name, description, input schema) the way its model's prompt does; see units.ts.
 */
import type { McpTool } from '../../../src/index.js';
import type { CountTokens } from './replay.js';

export interface ReaderUnit {
  /** `json`, `typescript`, …: the renderer's name. */
  readonly name: string;
  /** The text the model reads for one tool. */
  render(tool: McpTool): string;
  /** Tokens of a text (o200k_base in the bench). */
  readonly count: CountTokens;
}

const JSON_TEXT = new WeakMap<object, string>();
/** Compact JSON of a tool, once per tool object (served lists share their tool objects). */
export function jsonOf(tool: McpTool): string {
  let text = JSON_TEXT.get(tool);
  if (text === undefined) JSON_TEXT.set(tool, (text = JSON.stringify(tool)));
  return text;
}

const JSON_UNITS = new WeakMap<CountTokens, ReaderUnit>();
/** The compact-JSON unit with a tokenizer (one object per tokenizer, so memos keyed on it are shared). */
export function jsonUnit(count: CountTokens): ReaderUnit {
  let u = JSON_UNITS.get(count);
  if (u === undefined) JSON_UNITS.set(count, (u = Object.freeze({ name: 'json', render: jsonOf, count })));
  return u;
}
