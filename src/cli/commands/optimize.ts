import { formatReport, type ReportFormat } from '../../core/format.js';
import { transformTools, type TransformToolsOptions } from '../../api.js';
import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { HELP, INPUT_FLAGS, INPUT_HELP, STEP_FLAGS, STEP_HELP } from '../command.js';
import { flagString, loadInput, outputJson, stepsFrom, writeFileOrFail, writeOutput } from '../inputs.js';

export const optimizeCommand: Command = {
  summary: 'write the optimized tools (same envelope as the input)',
  usage: 'toolslim optimize <input> [-o out.json] [--preset …] [--transform …] [--report r.md|r.json] [--instructions out.txt] [--verify verdicts|structural|off]',
  flags: [
    HELP,
    { name: 'out', short: 'o', type: 'string' },
    { name: 'report', type: 'string' },
    { name: 'instructions', type: 'string' },
    { name: 'verify', type: 'string', choices: ['verdicts', 'structural', 'off'] },
    ...STEP_FLAGS,
    ...INPUT_FLAGS,
  ],
  help: `Runs the preset (or the transforms given) and writes the result in the input’s envelope: a tools
array stays an array, a capture file stays a capture file. A summary goes to stderr.

Options:
  -o, --out <file>          where to write (default stdout)
${STEP_HELP}
  --report <file>           also write the report: .md → markdown, .json → JSON, else text
  --instructions <file>     write the text a transform proposes for the server’s \`instructions\`
                            (empty when none does)
  --verify <mode>           the equivalence gate: structural (default: every rewritten schema still
                            compiles, every $ref resolves), verdicts (also the same ajv verdict on
                            generated instances; slower), or off

${INPUT_HELP}

Examples:
  toolslim optimize tools.json -o slim.json --report report.md
  toolslim optimize tools.json --preset lossless -o slim.json
  cat tools.json | toolslim optimize - --transform prune-unreachable-defs='{"keep":["Error"]}' > slim.json
  toolslim optimize -o slim.json -- node server.mjs`,
  run: runOptimize,
};

async function runOptimize(args: ParsedArgs, ctx: Context): Promise<number> {
  const { value } = await loadInput(args, ctx);
  const reportPath = flagString(args, 'report');
  const verify = flagString(args, 'verify');
  const tokenizer = reportPath ? (await import('../../tokens.js')).o200k : undefined;
  // The equivalence gate: `off` is `verify: false`; without the flag the pipeline's default (structural).
  const options: TransformToolsOptions = {
    transforms: stepsFrom(args),
    ...(tokenizer ? { tokenizer } : {}),
    ...(verify ? { verify: verify === 'off' ? false : (verify as 'verdicts' | 'structural') } : {}),
  };
  const result = transformTools(value, options);
  await writeOutput(flagString(args, 'out'), outputJson(result.output), ctx);
  if (reportPath) {
    const fmt: ReportFormat = reportPath.endsWith('.json') ? 'json' : reportPath.endsWith('.md') ? 'markdown' : 'text';
    await writeFileOrFail(reportPath, formatReport(result.report, fmt));
  }
  const instructionsPath = flagString(args, 'instructions');
  if (instructionsPath) await writeFileOrFail(instructionsPath, result.instructions ?? '');
  const { before, after } = result.report.stats;
  const saved = before.bytes - after.bytes;
  const pct = before.bytes === 0 ? 0 : (100 * saved) / before.bytes;
  ctx.io.stderr.write(
    `${ctx.name}: ${before.bytes.toLocaleString('en-US')} → ${after.bytes.toLocaleString('en-US')} bytes (−${pct.toFixed(1)}%); ${result.report.changes.length} changes; ${result.report.skipped.length} skipped` +
      (instructionsPath && result.instructions === undefined ? '; no instructions proposed' : '') +
      '\n',
  );
  return 0;
}

