import { oneLine } from '../../core/safe-text.js';
import { formatReport, type ReportFormat } from '../../core/format.js';
import { loadTokenizers } from '../tokenizer.js';
import { resolveSteps, transformTools, type TransformToolsOptions } from '../../api.js';
import { toolRenamesOf, type ToolRename } from '../../transforms/adapt-to-client/steps/rename-tools.js';
import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { HELP, INPUT_FLAGS, INPUT_HELP, STEP_FLAGS, STEP_HELP } from '../command.js';
import { lintTools, type Finding } from '../../lint/index.js';
import type { Severity } from '../../core/report.js';
import { configSeverities } from '../findings.js';
import { readerLintOptions, readersOf } from '../rendered.js';
import { indentedStyle, COMPACT_STYLE, type JsonStyle } from '../../json/source.js';
import { CliError } from '../errors.js';
import { checkInstructionsPlace, placeInstructions } from '../instructions.js';
import { flagNumber, flagString, loadInput, profileFindings, stepsFrom } from '../inputs.js';
import { ALLOW_REJECTED_FLAG, ALLOW_REJECTED_HELP, formatRejections } from '../profile-verdict.js';
import { keepUnchangedOf, readToolsSource, renderOptimized, writeFileAtomic, writeOutput } from '../output.js';

export const optimizeCommand: Command = {
  summary: 'write the optimized tools (same envelope as the input)',
  usage: 'toolslim optimize <input> [-o out.json | --write | --check] [--indent <n> | --compact] [--preset …] [--transform …] [--report r.md|r.json] [--instructions out.txt] [--verify verdicts|structural|off]',
  flags: [
    HELP,
    { name: 'out', short: 'o', type: 'string' },
    { name: 'check', type: 'boolean' },
    { name: 'write', short: 'w', type: 'boolean' },
    { name: 'indent', type: 'number' },
    { name: 'compact', type: 'boolean' },
    { name: 'report', type: 'string' },
    { name: 'instructions', type: 'string' },
    { name: 'verify', type: 'string', choices: ['verdicts', 'structural', 'off'] },
    { name: 'overlay', type: 'string' },
    { name: 'drop-unreadable', type: 'boolean' },
    ...STEP_FLAGS,
    ALLOW_REJECTED_FLAG,
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
  -w, --write               write the result over the input file (atomically), as prettier --write
  --check                   write nothing; exit 1 naming the file when optimizing would change it,
                            0 when it is already optimized (as prettier --check)
  --indent <n>              lay the output out with n spaces (0 = compact) instead of the input's layout
  --compact                 the same as --indent 0
${STEP_HELP}
                            (a result the client would still reject is not written: exit 1, the
                            findings of check --profile on stderr)
${ALLOW_REJECTED_HELP}
  --report <file>           also write the report: .md → markdown, .json → JSON, else text
  --instructions <file>     write the text a transform proposes for the server’s \`instructions\`
                            (empty when none does). Without it, a capture file's output gets the
                            text in initialize.instructions; any other output fails, naming the step
                            (--preset max's promote-common-params), rather than lose descriptions
  --overlay <file>          write an overlay instead: the tools to serve, any instructions, a pin of
                            the original list (name and sha256 of each tool) and the steps; review
                            it, then serve it with toolslim proxy --overlay <file> -- <command>
  --drop-unreadable         (with --overlay) leave out each tool whose inputSchema or outputSchema a
                            strict 2020-12 reader cannot read, named in the overlay and on stderr
  --verify <mode>           the equivalence gate: structural (default: every rewritten schema still
                            compiles, every $ref resolves), verdicts (also the same ajv verdict on
                            generated instances; slower), or off

${INPUT_HELP}

Examples:
  toolslim optimize tools.json -o slim.json --report report.md
  toolslim optimize tools.json --preset lossless -o slim.json
  toolslim optimize --check tools.json          # in CI: fails when tools.json is not optimized
  toolslim optimize --write tools.json
  cat tools.json | toolslim optimize - --transform prune-unreachable-defs='{"keep":["Error"]}' > slim.json
  toolslim optimize -o slim.json -- node server.mjs
  toolslim optimize --overlay overlay.json --preset max -- node server.mjs`,
  run: runOptimize,
};

async function runOptimize(args: ParsedArgs, ctx: Context): Promise<number> {
  const style = styleFrom(args);
  const overlayPath = flagString(args, 'overlay');
  if (overlayPath !== undefined && flagString(args, 'out') !== undefined) throw new CliError('give either -o <file> (the optimized tools) or --overlay <file> (an overlay for toolslim proxy), not both', { usage: true });
  if (args.flags['allow-rejected'] === true && (flagString(args, 'profile') === undefined || overlayPath !== undefined)) throw new CliError('--allow-rejected goes with --profile <client> (and not with --overlay)', { usage: true });
  if (overlayPath === undefined && args.flags['drop-unreadable'] === true) throw new CliError('--drop-unreadable goes with --overlay <file> (and with toolslim proxy)', { usage: true });
  const mode = inPlaceMode(args, overlayPath);
  const { value, text } = await loadInput(args, ctx);
  const reportPath = flagString(args, 'report');
  const verify = flagString(args, 'verify');
  // --overlay: a reviewable overlay for `toolslim proxy --overlay` (src/cli/overlay-file.ts).
  if (overlayPath !== undefined) {
    const { writeOverlayFile } = await import('../overlay-file.js');
    const gate = verify === undefined ? undefined : verify === 'off' ? false : (verify as 'verdicts' | 'structural');
    return writeOverlayFile({ path: overlayPath, value, text, steps: stepsFrom(args), dropUnreadable: args.flags['drop-unreadable'] === true, ...(gate !== undefined ? { verify: gate } : {}) }, args, ctx);
  }
  // The output's envelope must have a place for what the plan's steps write for the instructions: checked
  // before the work, not after it (src/cli/instructions.ts).
  checkInstructionsPlace(value, stepsFrom(args), flagString(args, 'instructions'), mode ? args.positional[0] : flagString(args, 'out'));
  const tokenizer = reportPath ? (await loadTokenizers('--report counts tokens', 'leave out --report')).o200k : undefined;
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
  const out = mode ? args.positional[0] : flagString(args, 'out');
  // --profile keeps its word: the result is checked as `check --profile` would (profile-verdict.ts).
  const profile = flagString(args, 'profile');
  // What the client finds in the result: its errors decide whether to write, all of it counts in the summary.
  const clientFindings = profile === undefined ? [] : profileFindings(result.tools, profile, true);
  const rejected = clientFindings.filter((f) => f.severity === 'error');
  if (rejected.length > 0) {
    const go = args.flags['allow-rejected'] === true;
    ctx.io.stderr.write(`${ctx.name}: ${formatRejections(rejected, profile!)}\n${ctx.name}: ${go ? 'writing it anyway (--allow-rejected)' : 'nothing written (--allow-rejected writes it anyway)'}\n`);
    if (!go) return 1;
  }
  // Text steps moved out of the tools goes into the envelope (a capture file's initialize) or --instructions;
  // with neither, the run fails naming the step (src/cli/instructions.ts).
  const placed = placeInstructions(renderOptimized(source, result, style), value, result, resolveSteps(options.transforms ?? []), flagString(args, 'instructions'), out);
  const written = placed.text;
  if (mode === 'check') {
    if (written === text) return 0;
    ctx.io.stderr.write(`${ctx.name}: ${out} would change (${plural(result.report.changes.length, 'change')}): run toolslim optimize --write ${out}\n`);
    return 1;
  }
  const instructionsPath = flagString(args, 'instructions');
  // The instructions first: tools without their descriptions are never written without the text that replaces them.
  if (instructionsPath) await writeFileAtomic(instructionsPath, result.instructions ?? '');
  await writeOutput(out, written, ctx);
  if (reportPath) {
    const fmt: ReportFormat = reportPath.endsWith('.json') ? 'json' : reportPath.endsWith('.md') ? 'markdown' : 'text';
    await writeFileAtomic(reportPath, formatReport(result.report, fmt));
  }
  const { before, after } = result.report.stats;
  const saved = before.bytes - after.bytes;
  const pct = before.bytes === 0 ? 0 : (100 * saved) / before.bytes;
  const fileBytes = Buffer.byteLength(written, 'utf8');
  const inputBytes = text === undefined ? undefined : Buffer.byteLength(text, 'utf8');
  const { changes, skipped } = result.report;
  const config = configSeverities(ctx, out !== undefined && out !== '-' ? [out] : args.positional);
  ctx.io.stderr.write(
    `${ctx.name}: ${num(before.bytes)} → ${num(after.bytes)} bytes of compact JSON (${pct > 0 ? '−' : pct < 0 ? '+' : '±'}${Math.abs(pct).toFixed(1)}%); ` +
      `wrote ${num(fileBytes)} bytes${inputBytes === undefined ? '' : ` (input ${num(inputBytes)})`}; ` +
      `${plural(changes.length, 'change')}; ${skipped.length} skipped; ${remaining(result.output, args, profile, clientFindings, config.severities)}` +
      (instructionsPath && result.instructions === undefined ? '; no instructions proposed' : '') +
      '\n',
  );
  if (config.note) ctx.io.stderr.write(`${ctx.name}: ${config.note}\n`);
  if (placed.note) ctx.io.stderr.write(`${ctx.name}: ${placed.note}\n`);
  const renamed = toolRenamesOf(result.report);
  if (renamed.length > 0) ctx.io.stderr.write(`${ctx.name}: ${renameNote(renamed)}\n`);
  return 0;
}

/**
 * What a renamed list means for whoever uses the file: calls name the new names, which the server does
 * not know, so only a caller that maps them back can use it (toolslim proxy does).
 */
export function renameNote(renamed: readonly ToolRename[]): string {
  const shown = renamed.slice(0, 5).map((r) => `\`${oneLine(r.from)}\` → \`${oneLine(r.to)}\``).join(', ');
  const more = renamed.length > 5 ? `, … (${renamed.length - 5} more in the report: adapt-to-client/renamed-tool)` : '';
  return (
    `renamed ${plural(renamed.length, 'tool')} whose name the client refuses: ${shown}${more}. ` +
    'Calls will name the new names, which the server does not know: use this output only through toolslim proxy --profile (it maps calls back) ' +
    'or a caller that maps them back itself (toolRenamesOf(report)); --keep-names keeps every name'
  );
}

/** `--check` or `--write` (both act on the one input file), after checking they are given with a file. */
function inPlaceMode(args: ParsedArgs, overlayPath: string | undefined): 'check' | 'write' | undefined {
  const check = args.flags.check === true;
  const write = args.flags.write === true;
  if (!check && !write) return undefined;
  const flag = check ? '--check' : '--write';
  if (check && write) throw new CliError('give either --check or --write, not both', { usage: true });
  if (flagString(args, 'out') !== undefined || overlayPath !== undefined) throw new CliError(`${flag} acts on the input file: leave out -o and --overlay`, { usage: true });
  const input = args.positional[0];
  if (input === undefined || input === '-' || args.rest !== undefined || flagString(args, 'url') !== undefined) throw new CliError(`${flag} needs an input file (not stdin or a live server)`, { usage: true });
  return check ? 'check' : 'write';
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

/**
 * What \`toolslim check\` (with the same \`--profile\`) would still find in the output: errors and warnings, description
 * collisions not compared. With a profile that is what that client rejects and, for a \`typescript\` reader, the
 * types it shows as \`any\` (\`renders-as-any\`): the findings \`check --profile\` lists (\`findingsOf\`: the lint, then the
 * client's findings, here the ones already made to decide whether to write).
 */
function remaining(output: unknown, args: ParsedArgs, profile: string | undefined, clientFindings: readonly Finding[], severity: Record<string, Severity | 'off'> | undefined): string {
  let errors = 0;
  let warnings = 0;
  // The configuration file `check` would read for the written file sets the rules' severities here too (found
  // as a user: a rule raised to `warning` there, `optimize` said "0 warnings" and `check` then failed on 84).
  const lint = readerLintOptions({ collisionThreshold: false, ...(severity !== undefined ? { severity } : {}) }, readersOf(args, profile), () => {
    throw new Error('no token budget here');
  });
  for (const f of [...lintTools(output, lint), ...clientFindings]) {
    if (f.severity === 'error') errors++;
    else if (f.severity === 'warning') warnings++;
  }
  return `left for check${profile === undefined ? '' : ` --profile ${profile}`}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

function num(n: number): string {
  return n.toLocaleString('en-US');
}

function plural(n: number, word: string): string {
  return `${num(n)} ${word}${n === 1 ? '' : 's'}`;
}
