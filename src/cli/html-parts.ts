/**
 * Where a tool's size goes, for `report --format html`: its description, its parameters (the input schema
 * without its definitions), its definitions (`$defs` / `definitions` at the root of the input and output
 * schemas), its output schema (without its definitions) and the rest (name, title, annotations, `_meta`,
 * punctuation). Each part is the compact JSON of its member (`"description":"…"`), counted alone, in
 * UTF-8 bytes or in tokens; the rest is the tool's own count minus the parts, never below 0. Bytes add up
 * (to a comma); tokens only nearly (a token can span two members).
 */
import { utf8Length } from '../core/measure.js';
import { locateTools } from '../engine/input.js';
import type { ReportData } from './format.js';
import { hasOwn, isObject } from '../json/guards.js';
import { stringifyJson } from '../json/stringify.js';
import { forwardedTool } from '../lint/rules/rendered-budget.js';
import type { ForwardedField } from '../profiles/define.js';
import type { ForwardedTool } from '../render/index.js';

/** The parts, in the order the chart stacks them. */
export const PART_NAMES = ['description', 'parameters', 'definitions', 'outputSchema', 'other'] as const;
export type PartName = (typeof PART_NAMES)[number];

/** One tool's size per part, in the unit of the count given to {@link measureParts}. */
export type PartFigures = Readonly<Record<PartName, number>>;

const DEFS_KEYS = ['$defs', 'definitions'] as const;

/**
 * The parts of one tool whose whole compact JSON counts `total` in the unit of `count` (bytes when
 * `count` is omitted).
 */
export function measureParts(tool: unknown, total: number, count: (text: string) => number = utf8Length): PartFigures {
  const out = { description: 0, parameters: 0, definitions: 0, outputSchema: 0, other: 0 };
  if (isObject(tool)) {
    const member = (key: string, value: unknown) => count(JSON.stringify(key) + ':' + stringifyJson(value));
    if (hasOwn(tool, 'description') && tool.description !== undefined) out.description = member('description', tool.description);
    for (const [key, part] of [['inputSchema', 'parameters'], ['outputSchema', 'outputSchema']] as const) {
      if (!hasOwn(tool, key) || tool[key] === undefined) continue;
      const schema = tool[key];
      if (!isObject(schema) || !DEFS_KEYS.some((k) => hasOwn(schema, k))) {
        out[part] = member(key, schema);
        continue;
      }
      const rest: Record<string, unknown> = {};
      for (const k of Object.keys(schema)) {
        if ((DEFS_KEYS as readonly string[]).includes(k)) out.definitions += count(JSON.stringify(k) + ':' + stringifyJson(schema[k])) + 1;
        else rest[k] = schema[k];
      }
      out[part] = member(key, rest);
    }
  }
  out.other = Math.max(0, total - out.description - out.parameters - out.definitions - out.outputSchema);
  return out;
}

/**
 * The parts of one tool as a reader counts it (`total`: the tokens of its rendering): each part is what the
 * reader's text loses without it — the description; the definitions (`$defs`, `definitions`); the rest of
 * the parameters schema — measured by rendering the tool again without that part. A part the reader does
 * not see costs 0 (the typescript reader drops `$defs`; no reader here shows the output schema).
 */
export function measureReaderParts(tool: unknown, total: number, render: (tool: ForwardedTool) => string, count: (text: string) => number, forwards: readonly ForwardedField[]): PartFigures {
  const out = { description: 0, parameters: 0, definitions: 0, outputSchema: 0, other: 0 };
  const full = forwardedTool(tool, forwards);
  const without = (t: ForwardedTool) => Math.max(0, total - count(render(t)));
  if (full.description !== undefined) {
    const { description: _d, ...rest } = full;
    out.description = without(rest);
  }
  const schema = full.inputSchema;
  if (schema !== undefined) {
    const defs: Record<string, unknown> = {};
    const params: Record<string, unknown> = {};
    if (isObject(schema)) for (const k of Object.keys(schema)) ((DEFS_KEYS as readonly string[]).includes(k) ? defs : params)[k] = schema[k];
    if (isObject(schema) && Object.keys(defs).length > 0) out.definitions = without({ ...full, inputSchema: params });
    const { inputSchema: _s, ...bare } = full;
    out.parameters = Math.max(0, without(bare) - out.definitions);
  }
  out.other = Math.max(0, total - out.description - out.parameters - out.definitions);
  return out;
}

/** Each tool's parts, and per reader its parts in that reader's tokens (by tool index; see {@link htmlParts}). */
export interface HtmlParts {
  readonly parts: PartFigures[];
  readonly readerParts: Record<string, (PartFigures | undefined)[]>;
}

/**
 * Each tool's size by part (html), by tool index: in o200k tokens of compact JSON when counting, else bytes;
 * and per reader, in its tokens (a tool its renderer cannot render has none: its bar is not split).
 */
export async function htmlParts(value: unknown, data: ReportData, tokenizers: typeof import('../tokens.js') | undefined): Promise<HtmlParts> {
  const { getRenderer } = await import('../render/index.js');
  const tools = locateTools(value).tools;
  const o200k = tokenizers?.o200k;
  const parts: PartFigures[] = [];
  for (const r of data.tools) parts[r.index] = measureParts(tools[r.index], o200k ? r.o200k! : r.bytes, o200k ? (t) => o200k.count(t) : undefined);
  const readerParts: Record<string, (PartFigures | undefined)[]> = {};
  for (const reader of tokenizers ? (data.readers ?? []) : []) {
    const renderer = getRenderer(reader.renderer);
    const tokenizer = tokenizers!.getTokenizer(reader.tokenizer);
    const list: (PartFigures | undefined)[] = (readerParts[reader.renderer] = []);
    for (const r of data.tools) {
      const total = r.rendered?.[reader.renderer]?.tokens;
      if (total === undefined) continue;
      try {
        list[r.index] = measureReaderParts(tools[r.index], total, (t) => renderer.renderTool(t), (t) => tokenizer.count(t), reader.forwards);
      } catch {
        list[r.index] = undefined;
      }
    }
  }
  return { parts, readerParts };
}
