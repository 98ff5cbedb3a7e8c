/**
 * `over-budget` in a reader's unit: `check --profile P --max-tokens N` counts what P's model reads and pays
 * (P's renderer, P's tokenizer, the fields P forwards) instead of the compact JSON of the list. For a client
 * that defers schemas, `--max-tokens` budgets what every request pays (the names, or the names and
 * descriptions) and `--max-tool-tokens` what loading one tool costs.
 */
import { code, formatCount } from '../../core/format.js';
import type { Tokenizer } from '../../core/measure.js';
import { toolName } from '../../core/tool.js';
import { isObject } from '../../json/guards.js';
import { appendPointer } from '../../json/pointer.js';
import type { AlwaysPaid, ForwardedField } from '../../profiles/define.js';
import type { ForwardedTool, Renderer } from '../../render/index.js';
import { FINDING_SEVERITY, type Finding, type LintCheck } from '../lint.js';

/** The unit a budget is counted in. */
export interface ReaderUnit {
  readonly renderer: Renderer;
  readonly tokenizer: Tokenizer;
  readonly forwards: readonly ForwardedField[];
  readonly alwaysPaid: AlwaysPaid;
  /** How the unit reads in a message: `as \`openai\` reads it (typescript rendering, o200k_base)`. */
  readonly label: string;
}

/** What a client forwards of one tool (a non-object tool forwards an empty name). */
export function forwardedTool(tool: unknown, forwards: readonly ForwardedField[] = ['name', 'description', 'inputSchema']): ForwardedTool {
  if (!isObject(tool)) return { name: '' };
  const out: { name: string; description?: string; inputSchema?: unknown } = { name: typeof tool.name === 'string' ? tool.name : '' };
  if (forwards.includes('description') && typeof tool.description === 'string') out.description = tool.description;
  if (forwards.includes('inputSchema') && tool.inputSchema !== undefined) out.inputSchema = tool.inputSchema;
  return out;
}

/** The text every request pays for (the whole rendering, or only the names / names and descriptions). */
export function alwaysPaidText(tools: readonly ForwardedTool[], unit: Pick<ReaderUnit, 'renderer' | 'alwaysPaid'>): string {
  switch (unit.alwaysPaid) {
    case 'everything':
      return unit.renderer.renderTools(tools);
    case 'names':
      return tools.map((t) => t.name).join('\n');
    case 'names+descriptions':
      return tools.map((t) => (t.description === undefined ? t.name : `${t.name}: ${t.description}`)).join('\n');
    case 'nothing':
      return '';
  }
}

/** The budget check of `maxTokens` / `maxToolTokens` counted in `unit`. */
export function renderedBudget(unit: ReaderUnit, budget: { readonly maxTokens?: number; readonly maxToolTokens?: number }): LintCheck {
  return (tools) => {
    const out: Finding[] = [];
    const severity = FINDING_SEVERITY['over-budget'];
    const forwarded = tools.map((t) => forwardedTool(t, unit.forwards));
    if (budget.maxToolTokens !== undefined) {
      for (let i = 0; i < tools.length; i++) {
        const tokens = unit.tokenizer.count(unit.renderer.renderTool(forwarded[i]!));
        if (tokens <= budget.maxToolTokens) continue;
        const name = toolName(tools[i]);
        const what = unit.alwaysPaid === 'everything' ? '' : ' when loaded';
        out.push({ severity, code: 'over-budget', tool: name, toolIndex: i, path: appendPointer('', i), message: `${name === '' ? `tool #${i}` : code(name)} is ${formatCount(tokens)} tokens${what} ${unit.label}; the budget is ${formatCount(budget.maxToolTokens)} per tool: run \`toolslim optimize\` (\`toolslim report --render …\` shows what each reader pays), or shorten its descriptions and schema` });
      }
    }
    if (budget.maxTokens !== undefined) {
      const tokens = unit.tokenizer.count(alwaysPaidText(forwarded, unit));
      if (tokens > budget.maxTokens) {
        const what = unit.alwaysPaid === 'everything' ? 'the tools list is' : `what every request pays (${unit.alwaysPaid === 'nothing' ? 'nothing' : `the tool ${unit.alwaysPaid === 'names' ? 'names' : 'names and descriptions'}`}, plus the server's instructions) is`;
        out.push({ severity, code: 'over-budget', tool: '', toolIndex: -1, path: '', message: `${what} ${formatCount(tokens)} tokens ${unit.label}; the budget is ${formatCount(budget.maxTokens)}: run \`toolslim optimize\` (\`toolslim report --render …\` shows what each reader pays), or split the server` });
      }
    }
    return out;
  };
}
