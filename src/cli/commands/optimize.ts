import { formatReport, type ReportFormat } from '../../core/format.js';
import { transformTools, type TransformToolsOptions } from '../../api.js';
import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { HELP, INPUT_FLAGS, INPUT_HELP, STEP_FLAGS, STEP_HELP } from '../command.js';
import { lintTools } from '../../lint/index.js';
import { indentedStyle, COMPACT_STYLE, type JsonStyle } from '../../json/source.js';
import { CliError } from '../errors.js';
import { flagNumber, flagString, loadInput, stepsFrom } from '../inputs.js';
import { keepUnchangedOf, readToolsSource, renderOptimized, writeFileAtomic, writeOutput } from '../output.js';

export const optimizeCommand: Command = {
  summary: 'write the optimized tools (same envelope as the input)',
  usage: 'toolslim optimize <input> [-o out.json] [--indent <n> | --compact] [--preset …] [--transform …] [--report r.md|r.json] [--instructions out.txt] [--verify verdicts|structural|off]',
  flags: [
    HELP,
    { name: 'out', short: 'o', type: 'string' },
    { name: 'indent', type: 'number' },
    { name: 'compact', type: 'boolean' },
    { name: 'report', type: 'string' },
    { name: 'instructions', type: 'string' },
    { name: 'verify', type: 'string', choices: ['verdicts', 'structural', 'off'] },
    ...STEP_FLAGS,
    ...INPUT_FLAGS,
  ],
  help: `Runs the preset (or the transforms given) and writes the result in the input’s envelope: a tools
array stays an array, a capture file stays a capture file. The output is laid out as the input was
(compact stays compact, indented stays indented); every tool no step changed is written as its exact
input bytes, and a changed tool keeps its numbers' text (1.0, 1e2). A tool holding a number JavaScript
cannot hold (9223372036854775807, -0) is left unchanged and reported. Files are written atomically: on
failure the target is unchanged. A summary goes to stderr.

Options:
  -o, --out <file>          where to write (default stdout); may be the input file
  --indent <n>              lay the output out with n spaces (0 = compact) instead of the input's layout
  --compact                 the same as --indent 0
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
  const style = styleFrom(args);
  const { value, text } = await loadInput(args, ctx);
  const reportPath = flagString(args, 'report');
  const verify = flagString(args, 'verify');
  const tokenizer = reportPath ? (await import('../../tokens.js')).o200k : undefined;
  // The input text, followed so that unchanged tools are written as their bytes; tools whose numbers a
  // rewrite could not keep (unsafe integers, -0, one value written two ways) are left unchanged.
  const source = text === undefined ? undefined : readToolsSource(text, value);
  const keepUnchanged = source ? keepUnchangedOf([source]) : undefined;
  // The equivalence gate: `off` is `verify: false`; without the flag the pipeline's default (structural).
  const options: TransformToolsOptions = {
    transforms: stepsFrom(args),
    ...(tokenizer ? { tokenizer } : {}),
    ...(verify ? { verify: verify === 'off' ? false : (verify as 'verdicts' | 'structural') } : {}),
    ...(keepUnchanged ? { keepUnchanged } : {}),
  };
  const result = transformTools(value, options);
  const out = flagString(args, 'out');
  const written = renderOptimized(source, result, style);
  await writeOutput(out, written, ctx);
  if (reportPath) {
    const fmt: ReportFormat = reportPath.endsWith('.json') ? 'json' : reportPath.endsWith('.md') ? 'markdown' : 'text';
    await writeFileAtomic(reportPath, formatReport(result.report, fmt));
  }
  const instructionsPath = flagString(args, 'instructions');
  if (instructionsPath) await writeFileAtomic(instructionsPath, result.instructions ?? '');
  const { before, after } = result.report.stats;
  const saved = before.bytes - after.bytes;
  const pct = before.bytes === 0 ? 0 : (100 * saved) / before.bytes;
  const fileBytes = Buffer.byteLength(written, 'utf8');
  const inputBytes = text === undefined ? undefined : Buffer.byteLength(text, 'utf8');
  const { changes, skipped } = result.report;
  ctx.io.stderr.write(
    `${ctx.name}: ${num(before.bytes)} → ${num(after.bytes)} bytes of compact JSON (${pct > 0 ? '−' : pct < 0 ? '+' : '±'}${Math.abs(pct).toFixed(1)}%); ` +
      `wrote ${num(fileBytes)} bytes${inputBytes === undefined ? '' : ` (input ${num(inputBytes)})`}; ` +
      `${plural(changes.length, 'change')}; ${skipped.length} skipped; ${remaining(result.output)}` +
      (instructionsPath && result.instructions === undefined ? '; no instructions proposed' : '') +
      '\n',
  );
  return 0;
}

/** The layout asked for: undefined to follow the input. */
function styleFrom(args: ParsedArgs): JsonStyle | undefined {
  const indent = flagNumber(args, 'indent');
  const compact = args.flags.compact === true;
  if (indent !== undefined && compact) throw new CliError('give either --indent <n> or --compact, not both', { usage: true });
  if (compact) return COMPACT_STYLE;
  if (indent === undefined) return undefined;
  if (!Number.isInteger(indent) || indent < 0 || indent > 10) throw new CliError(`--indent ${indent}: expected a whole number of spaces from 0 to 10`, { usage: true });
  return indentedStyle(indent);
}

/** What \`toolslim check\` would still find in the output (errors and warnings; description collisions not compared). */
function remaining(output: unknown): string {
  let errors = 0;
  let warnings = 0;
  for (const f of lintTools(output, { collisionThreshold: false })) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'warning') warnings++;
  }
  return `left for check: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

function num(n: number): string {
  return n.toLocaleString('en-US');
}

function plural(n: number, word: string): string {
  return `${num(n)} ${word}${n === 1 ? '' : 's'}`;
}
