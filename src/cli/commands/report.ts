import { stringifyJson } from '../../json/stringify.js';
import { locateTools } from '../../engine/input.js';
import { transformTools } from '../../api.js';
import { lintTools } from '../../lint/index.js';
import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { BUDGET_FLAGS, HELP, INPUT_FLAGS, INPUT_HELP, STEP_FLAGS, STEP_HELP } from '../command.js';
import { makeStyle, renderReport, type ReportData, type ToolRow } from '../format.js';
import { CliError } from '../errors.js';
import { budgetOptions, describeSteps, flagNumber, flagString, loadInput, stepsFrom } from '../inputs.js';

export const reportCommand: Command = {
  summary: 'sizes per tool (bytes, o200k and cl100k tokens), what each transform saves, findings',
  usage: 'toolslim report <input> [--format text|markdown|json] [--preset …] [--transform …] | toolslim report --responses <stats file>',
  flags: [HELP, { name: 'format', short: 'f', type: 'string', choices: ['text', 'markdown', 'json'] }, { name: 'top', type: 'number' }, { name: 'responses', type: 'string' }, ...STEP_FLAGS, ...BUDGET_FLAGS, ...INPUT_FLAGS],
  help: `A table of tools, largest first, with bytes of compact JSON and tokens in o200k_base and
cl100k_base; what each transform of the preset would save; and the findings of \`check\`.

Options:
  -f, --format <f>          text (default), markdown (for a PR comment) or json
  --top <n>                 tools listed in text and markdown (default 25; 0 = all)
  --responses <file>        instead: per tool, the calls, median and largest results and the ratio of
                            response to definition bytes, from toolslim proxy --stats <file>
${STEP_HELP}
  --max-bytes, --max-tool-bytes, --max-tokens, --max-tool-tokens, --max-arguments <n>
                            budgets, as for \`check\`

${INPUT_HELP}

Examples:
  toolslim report tools.json
  toolslim report --format markdown tools.json > report.md
  toolslim report -- node server.mjs
  toolslim report --responses calls.jsonl`,
  run: runReport,
};

async function runReport(args: ParsedArgs, ctx: Context): Promise<number> {
  // --responses: the stats lines of `toolslim proxy --stats` (src/cli/responses.ts), not a tools list.
  const responses = flagString(args, 'responses');
  if (responses !== undefined) {
    if (args.positional.length > 0 || args.rest !== undefined || args.flags.url !== undefined) throw new CliError('--responses <file> reads a stats file; give no other input', { usage: true });
    const { printResponses } = await import('../responses.js');
    return printResponses(responses, (flagString(args, 'format') ?? 'text') as 'text' | 'markdown' | 'json', ctx, flagNumber(args, 'top') ?? 25);
  }
  const { value, label } = await loadInput(args, ctx);
  const { o200k, cl100k } = await import('../../tokens.js');
  const steps = stepsFrom(args);
  const result = transformTools(value, { transforms: steps, tokenizer: o200k });
  const findings = lintTools(value, { ...budgetOptions(args), tokenizer: o200k });
  const before = locateTools(value).tools;
  const rows: ToolRow[] = result.report.stats.tools.map((t) => ({
    index: t.index,
    name: t.name,
    bytes: t.before.bytes,
    o200k: t.before.tokens ?? 0,
    cl100k: cl100k.count(stringifyJson(before[t.index])),
    bytesAfter: t.after.bytes,
    o200kAfter: t.after.tokens ?? 0,
  }));
  rows.sort((a, b) => b.bytes - a.bytes || a.index - b.index);
  const { stats } = result.report;
  const data: ReportData = {
    source: label,
    steps: describeSteps(args),
    total: {
      bytes: stats.before.bytes,
      o200k: stats.before.tokens ?? 0,
      cl100k: cl100k.count(stringifyJson(before)),
      bytesAfter: stats.after.bytes,
      o200kAfter: stats.after.tokens ?? 0,
      cl100kAfter: cl100k.count(stringifyJson(result.tools)),
    },
    tools: rows,
    transforms: stats.transforms,
    skipped: result.report.skipped,
    findings,
  };
  const format = (flagString(args, 'format') ?? 'text') as 'text' | 'markdown' | 'json';
  if (format === 'json') ctx.io.stdout.write(JSON.stringify(data, null, 2) + '\n');
  else ctx.io.stdout.write(renderReport(data, format, format === 'text' ? ctx.style : makeStyle(false), flagNumber(args, 'top') ?? 25));
  return 0;
}

