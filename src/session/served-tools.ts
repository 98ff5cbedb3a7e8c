/**
 * The list a session serves: hot tools exactly as optimized, every other tool in its cold form.
 */
import { ToolslimError } from '../core/errors.js';
import type { McpTool } from '../core/tool.js';
import { isObject } from '../json/guards.js';
import { compressColdTools, findSharedPreambles } from '../transforms/compress-cold-tools.js';
import { describeValue, isOptionsObject } from './hot-set.js';
import { PREAMBLE_MODES, type ColdFormOptions, type PreambleMode } from './types.js';

export type { ColdFormOptions, PreambleMode } from './types.js';

/**
 * The served tools: each tool named in `hot` exactly as it is in `tools` (the same object), every other
 * tool in its cold form. No tool moves and none is removed. The result depends only on the list, the
 * *set* of hot names and the options, and a tool's cold form does not depend on the hot set, so making
 * one more tool hot changes that tool's bytes and nothing else.
 *
 * A cold form keeps the tool's `execution` when it lets or makes the client run the tool as a task
 * (`taskSupport` `optional` or `required`, or any member MCP does not define yet): without it a client
 * takes the tool as `forbidden` (MCP's default) and calls a `required` one plainly, which the server
 * refuses. The default form (`{"taskSupport":"forbidden"}`, which SDK servers write on every tool) goes.
 * compress-cold-tools itself keeps it, in its place among the members the form keeps.
 *
 * @param tools - the full list as it is to be served hot (the pipeline's output)
 * @param hot - the names served in full (any iterable; order and duplicates do not matter)
 * @param cold - how cold tools are compressed
 * @param preamble - `once`: a shared preamble stays only on the first tool holding it, hot tools included
 *   (see {@link PreambleMode}; default `each`)
 * @throws ToolslimError (`invalid-option`) for an unknown or unusable cold-form option
 */
export function buildServedTools(tools: readonly McpTool[], hot: Iterable<string>, cold: ColdFormOptions = {}, preamble: PreambleMode = 'each'): McpTool[] {
  if (!Array.isArray(tools)) throw new ToolslimError('invalid-input', `buildServedTools: \`tools\` must be an array of tools, got ${describeValue(tools)}`);
  const keep = checkHot(hot, 'buildServedTools');
  checkColdForm(cold, 'buildServedTools');
  checkPreamble(preamble, cold, 'buildServedTools');
  let allHot = true;
  for (const t of tools) {
    if (!(isObject(t) && typeof t.name === 'string' && keep.has(t.name))) {
      allHot = false;
      break;
    }
  }
  // No measuring and no gate: the cold forms are built, not rewritten, and always compile.
  const served = allHot ? tools.slice() : compressColdTools(tools, { ...cold, keep: [...keep] }, { measure: false, verify: false, onError: 'report' }).tools;
  return preamble === 'once' ? preambleOnce(tools, served, keep, cold) : served;
}

/**
 * `preamble: 'once'`: the first tool holding each shared preamble (found over the whole list, as
 * compress-cold-tools finds it, so the choice does not depend on the hot set) keeps it — a cold one gets it
 * back in front of its cold description — and every other hot tool loses it (cold ones already have).
 */
function preambleOnce(tools: readonly McpTool[], served: McpTool[], keep: ReadonlySet<string>, cold: ColdFormOptions): McpTool[] {
  const descriptions = tools.map((t) => (isObject(t) && typeof t.description === 'string' ? t.description : undefined));
  const lengths = findSharedPreambles(descriptions, cold.preambleMinTools ?? 2, cold.preambleMinLength ?? 40);
  const carried = new Set<string>();
  for (let i = 0; i < tools.length; i++) {
    const length = lengths.get(i);
    if (length === undefined) continue;
    const text = descriptions[i]!.slice(0, length);
    const tool = tools[i];
    const isHot = isObject(tool) && typeof tool.name === 'string' && keep.has(tool.name);
    if (!carried.has(text)) {
      carried.add(text);
      const form = served[i] as McpTool;
      if (!isHot && typeof form.description === 'string') served[i] = { ...form, description: text + form.description };
      continue;
    }
    if (isHot) served[i] = { ...(tool as McpTool), description: descriptions[i]!.slice(length) };
  }
  return served;
}

/** Throws for a preamble mode that is not one, or `once` without `cold.dropSharedPreamble`. */
export function checkPreamble(preamble: unknown, cold: ColdFormOptions | undefined, where: string): void {
  if (!PREAMBLE_MODES.includes(preamble as PreambleMode)) throw new ToolslimError('invalid-option', `${where}: \`preamble\` must be one of ${PREAMBLE_MODES.map((m) => `'${m}'`).join(', ')}, got ${describeValue(preamble)}`);
  if (preamble === 'once' && cold?.dropSharedPreamble !== true) throw new ToolslimError('invalid-option', `${where}: \`preamble: 'once'\` needs a cold form that drops the shared preamble (\`dropSharedPreamble: true\`)`);
}

/** `hot` as a set of names; throws naming the first entry that is not a string. */
export function checkHot(hot: Iterable<string>, where: string): Set<string> {
  if (hot === null || typeof hot !== 'object' || typeof (hot as Iterable<string>)[Symbol.iterator] !== 'function' || typeof hot === 'string') {
    throw new ToolslimError('invalid-option', `${where}: the hot set must be an array or set of tool names, got ${describeValue(hot)}`);
  }
  const out = new Set<string>();
  let i = 0;
  for (const name of hot) {
    if (typeof name !== 'string') throw new ToolslimError('invalid-option', `${where}: hot-set entry ${i} must be a tool name (a string), got ${describeValue(name)}`);
    out.add(name);
    i++;
  }
  return out;
}

/** Checks cold-form options now (compress-cold-tools' own validation), so a bad one fails at setup. */
export function checkColdForm(cold: ColdFormOptions, where: string): void {
  if (!isObject(cold)) throw new ToolslimError('invalid-option', `${where}: the cold form must be an object of compress-cold-tools options, got ${describeValue(cold)}`);
  if (Object.prototype.hasOwnProperty.call(cold, 'keep')) throw new ToolslimError('invalid-option', `${where}: the cold form takes no \`keep\`: the hot set is given separately`);
  try {
    compressColdTools([], cold, { measure: false, verify: false });
  } catch (e) {
    throw new ToolslimError('invalid-option', `${where}: cold form: ${(e as Error).message}`, { cause: e, transform: 'compress-cold-tools' });
  }
}
