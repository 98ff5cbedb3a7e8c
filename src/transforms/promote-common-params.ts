import { defineTransform } from '../engine/define-transform.js';
import { utf8Length } from '../core/measure.js';
import type { McpTool } from '../core/tool.js';
import type { Dialect } from '../schema/keywords.js';
import { appendPointer } from '../json/pointer.js';
import { hasOwn, isObject } from '../json/guards.js';

/** Options of {@link promoteCommonParams}. */
export interface PromoteCommonParamsOptions {
  /** How many tools must share a parameter's name and description before it is promoted (at least 2). */
  readonly minTools?: number;
  /** The dialect of a schema without `$schema` (MCP: 2020-12). */
  readonly assume?: Dialect;
}

/** What `prepare` found: the description promoted for each parameter name. */
export interface PromotedParams {
  /** Parameter name → the description written once into the instructions. */
  readonly descriptions: ReadonlyMap<string, string>;
}

/**
 * Writes the description of a parameter that many tools share (same name, same description) once into a
 * dictionary returned as `result.instructions`, and removes it from each tool. Only names whose every
 * occurrence has a description are promoted, so "a parameter of this name without a description of its
 * own means …" reads back exactly. Opt-in: the information survives only for clients that show the
 * server's `instructions` to the model.
 */
export const promoteCommonParams = defineTransform<PromoteCommonParamsOptions, PromotedParams>({
  name: 'promote-common-params',
  description: 'Move descriptions of parameters shared by many tools into one dictionary for the server instructions',
  safety: 'annotation',
  writesInstructions: true,
  defaultOptions: { minTools: 3, assume: '2020-12' },
  messages: {
    promoted: 'Removed the description of `{name}`: it is written once in the server instructions',
  },
  validateOptions(options) {
    if (!Number.isInteger(options.minTools) || (options.minTools as number) < 2) throw new Error('`minTools` must be an integer of at least 2');
  },
  prepare(tools, options) {
    return { descriptions: choosePromotions(tools, options.minTools ?? 3) };
  },
  apply(doc, ctx) {
    const { descriptions } = doc.state;
    if (descriptions.size === 0) return;
    for (const d of doc.documents) {
      if (d.slot !== 'inputSchema') continue;
      const properties = hasOwn(d.schema, 'properties') ? d.schema.properties : undefined;
      if (!isObject(properties) || !d.table.has('description')) continue;
      for (const name of Object.keys(properties)) {
        const param = properties[name];
        if (!descriptions.has(name) || !isObject(param) || !hasOwn(param, 'description') || param.description !== descriptions.get(name)) continue;
        ctx.remove(appendPointer(appendPointer(appendPointer(d.base, 'properties'), name), 'description'), 'promoted', { name });
      }
    }
  },
  finish(state, tools) {
    // Only names some tool now relies on (a tool that failed keeps its own description).
    const used = [...state.descriptions.keys()].filter((name) => tools.some((t) => lacksDescription(t, name)));
    if (used.length === 0) return undefined;
    return { instructions: formatDictionary(used.sort(compareCodeUnits).map((name) => [name, state.descriptions.get(name)!] as const)) };
  },
});

const HEADER = 'Parameters shared by several tools. A parameter with one of these names and no description of its own means:';

/** Each parameter name's promoted description: shared by `minTools` tools, and worth the bytes. */
function choosePromotions(tools: readonly McpTool[], minTools: number): Map<string, string> {
  // name → description → number of tools; names with an undescribed occurrence are ruled out.
  const counts = new Map<string, Map<string, number>>();
  const ruledOut = new Set<string>();
  for (const tool of tools) {
    const properties = rootProperties(tool);
    if (!properties) continue;
    for (const name of Object.keys(properties)) {
      const param = properties[name];
      const description = isObject(param) && hasOwn(param, 'description') ? param.description : undefined;
      if (typeof description !== 'string' || description === '') {
        ruledOut.add(name);
        continue;
      }
      let byText = counts.get(name);
      if (!byText) counts.set(name, (byText = new Map()));
      byText.set(description, (byText.get(description) ?? 0) + 1);
    }
  }
  const chosen: [string, string, number][] = [];
  for (const [name, byText] of counts) {
    if (ruledOut.has(name)) continue;
    let best: string | undefined;
    let bestCount = 0;
    for (const [text, n] of byText) {
      if (n > bestCount || (n === bestCount && best !== undefined && compareCodeUnits(text, best) < 0)) {
        best = text;
        bestCount = n;
      }
    }
    if (best === undefined || bestCount < minTools) continue;
    // Bytes removed from the tools against the bytes of its line in the dictionary.
    const saved = bestCount * utf8Length(`"description":${JSON.stringify(best)}`);
    const cost = utf8Length(formatLine(name, best)) + 1;
    if (saved > cost) chosen.push([name, best, saved - cost]);
  }
  const net = chosen.reduce((sum, [, , gain]) => sum + gain, 0);
  if (net <= utf8Length(HEADER) + 1) return new Map();
  return new Map(chosen.map(([name, text]) => [name, text]));
}

function rootProperties(tool: unknown): Record<string, unknown> | undefined {
  if (!isObject(tool) || !hasOwn(tool, 'inputSchema')) return undefined;
  const schema = tool.inputSchema;
  if (!isObject(schema) || !hasOwn(schema, 'properties') || !isObject(schema.properties)) return undefined;
  return schema.properties;
}

function lacksDescription(tool: unknown, name: string): boolean {
  const properties = rootProperties(tool);
  if (!properties || !hasOwn(properties, name)) return false;
  const param = properties[name];
  return isObject(param) && !hasOwn(param, 'description');
}

function formatDictionary(entries: readonly (readonly [string, string])[]): string {
  return [HEADER, ...entries.map(([name, text]) => formatLine(name, text))].join('\n');
}

/** `- "name": description`, continuation lines indented so the list stays a list. */
function formatLine(name: string, text: string): string {
  return `- ${JSON.stringify(name)}: ${text.replace(/\r\n?/g, '\n').replace(/\n/g, '\n  ')}`;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
