import { printable } from '../../core/safe-text.js';
import type { Severity } from '../../core/report.js';
import { loadTokenizers } from '../tokenizer.js';
import type { Finding } from '../../lint/index.js';
import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { BUDGET_FLAGS, HELP, INPUT_FLAGS, INPUT_HELP, PROFILE_FLAG } from '../command.js';
import { countBySeverity, findingSettings, findingsOf, RULE_FLAGS, RULE_HELP } from '../findings.js';
import { renderFindingLines, renderVerdict } from '../format.js';
import { flagString, liveTarget, openInputs } from '../inputs.js';
import { githubLines, sarifLog, type CheckedInput, type UnreadableInput } from '../sarif.js';
import { readerLintOptions, readersOf, RENDER_FLAG, RENDER_HELP, unitLabel } from '../rendered.js';

export const checkCommand: Command = {
  summary: 'findings for CI; exit 1 when one is at or above --fail-on',
  usage: 'toolslim check <inputs…> [--max-bytes N] [--max-tokens N] [--profile client] [--rule code=severity] [--fail-on error|warning|info] [--max-warnings N] [--quiet] [--format text|json|sarif|github]',
  flags: [
    HELP,
    { name: 'fail-on', type: 'string', choices: ['error', 'warning', 'info'] },
    { name: 'max-warnings', type: 'number' },
    { name: 'quiet', short: 'q', type: 'boolean' },
    { name: 'format', short: 'f', type: 'string', choices: ['text', 'json', 'sarif', 'github'] },
    PROFILE_FLAG,
    RENDER_FLAG,
    ...RULE_FLAGS,
    ...BUDGET_FLAGS,
    ...INPUT_FLAGS,
  ],
  help: `Checks the tools for what breaks clients or wastes tokens: unresolvable \`$ref\`s, \`$schema\` stamps
contradicted by the keywords used, unreachable definitions (bytes wasted), duplicate names, names
outside the MCP rule (1–128 of A–Z a–z 0–9 _ - .), a root inputSchema without \`type: "object"\`,
missing descriptions, \`x-mcp-header\` parameters behind \`$ref\`/composition or invalid, more than 4
arguments (info), tools whose name and description read alike (info), an empty list (info), and
budgets. With --profile, also what that client would reject (codes \`profile-…\`), before a user finds
out at run time. Findings are listed most severe first, each saying what to do, then one line of counts.

Options:
  --max-bytes <n>           budget for the whole list (compact JSON bytes)
  --max-tool-bytes <n>      budget for any one tool
  --max-tokens <n>          budget for the whole list in o200k_base tokens of its compact JSON; with
                            --profile, in that client's unit: the tools as its model reads them
                            (its renderer and tokenizer: openai counts the typescript rendering in
                            o200k_base), and for a client that defers schemas (claude-code) what
                            every request pays (the tool names); with --render, the first
                            renderer's text in o200k_base. Findings name the unit.
  --max-tool-tokens <n>     budget for any one tool, in the same unit (a deferred tool: when loaded)
  --max-arguments <n>       arguments above which a tool gets an info finding (default 4)
  --profile <client>        also check against a client: claude, openai, openai-strict, gemini, kimi,
                            ref-free, mcp, claude-code, qwen, llama; a client whose model reads
                            TypeScript (openai, openai-strict) also gets \`renders-as-any\` findings:
                            each parameter whose type that reader cannot see, and why
${RENDER_HELP}
                            (--render typescript adds the renders-as-any findings)
${RULE_HELP}
  --fail-on <severity>      error (default), warning or info
  --max-warnings <n>        also fail when there are more than n warnings
  -q, --quiet               show only what decides the exit code: errors, and warnings too with
                            --fail-on warning or --max-warnings (the counts still include everything)
  -f, --format <f>          text (default), json, sarif (SARIF 2.1.0 for code scanning: the JSON
                            Pointer and, for files, the line and column of each finding) or github
                            (GitHub Actions ::error/::warning/::notice lines, then the summary)

Inputs: one or more files, directories (every .json file below them) and glob patterns (*, **, ?;
quote them to let toolslim expand them), or - for stdin, or one live server:

${INPUT_HELP}

Config file (toolslim.config.json, or a "toolslim" key in package.json, found from the input's
directory upward; schema: node_modules/toolslim/toolslim.config.schema.json), e.g.
  { "rules": { "description-collision": "off" }, "failOn": "warning", "maxWarnings": 0,
    "maxTokens": 20000, "collisionThreshold": 0.8, "profile": "gemini" }
Keys: rules, collisionThreshold, collisionPartners, maxBytes, maxToolBytes, maxTokens, maxToolTokens,
maxArguments, failOn, maxWarnings, profile.

Exit codes: 0 nothing at or above --fail-on (and no more than --max-warnings warnings) in any input;
1 otherwise; 2 bad usage, or an input that cannot be read (the others are still checked).

Examples:
  toolslim check tools.json
  toolslim check tools.json --max-tokens 20000 --max-tool-bytes 4000 --fail-on warning
  toolslim check captures/ 'servers/**/tools.json' --rule description-collision=off --max-warnings 0
  toolslim check --format json -- node server.mjs
  toolslim check tools.json --profile gemini`,
  run: runCheck,
};

interface InputResult {
  readonly source: string;
  readonly counts?: Record<Severity, number>;
  readonly error?: string;
}

async function runCheck(args: ParsedArgs, ctx: Context): Promise<number> {
  const settings = findingSettings(args, ctx, 'check');
  const format = flagString(args, 'format') ?? 'text';
  const json = format === 'json';
  const annotated: CheckedInput[] = [];
  const quiet = args.flags.quiet === true;
  const { failOn, maxWarnings } = settings;
  const needsTokens = settings.lint.maxTokens !== undefined || settings.lint.maxToolTokens !== undefined;
  const tokens = needsTokens ? await loadTokenizers('--max-tokens and --max-tool-tokens count tokens', 'use --max-bytes') : undefined;
  const tokenizer = tokens?.o200k;
  const readers = readersOf(args, settings.profile);
  const options = readerLintOptions({ ...settings.lint, ...(tokenizer ? { tokenizer } : {}) }, readers, (name) => tokens!.getTokenizer(name));
  // The unit the token budgets count in, said in the output (and in each over-budget finding).
  const unit = needsTokens && readers.length > 0 ? `tokens ${unitLabel(readers[0]!)}` : undefined;
  const { count, inputs } = openInputs(args, ctx);
  const totals = { error: 0, warning: 0, info: 0 };
  const results: InputResult[] = [];
  const all: (Finding & { source: string })[] = [];
  let unreadable = 0;
  const unread: UnreadableInput[] = [];
  let hidden = 0;
  for await (const input of inputs) {
    if ('error' in input) {
      unreadable++;
      ctx.io.stderr.write(`${ctx.name} check: ${printable(input.error)}\n`);
      results.push({ source: input.label, error: input.error });
      unread.push({ source: input.label, error: input.error, file: liveTarget(args) === undefined && input.label !== '<stdin>' });
      continue;
    }
    // Only the annotated formats place findings in the input's text; the others let it go before the findings
    // (on a 50 MB list, over 100 MB of two-byte string held through the collision search).
    if (format !== 'sarif' && format !== 'github') (input as { text?: string }).text = undefined;
    const findings = findingsOf(input.value, settings, options);
    const counts = countBySeverity(findings);
    for (const s of ['error', 'warning', 'info'] as const) totals[s] += counts[s];
    results.push({ source: input.label, counts });
    // --quiet keeps what decides the exit code: findings at or above --fail-on, and warnings under --max-warnings.
    const shown = quiet ? findings.filter((f) => f.severity === 'error' || (f.severity === 'warning' && (failOn !== 'error' || maxWarnings !== undefined)) || failOn === 'info') : findings;
    hidden += findings.length - shown.length;
    if (format === 'sarif' || format === 'github') annotated.push({ source: input.label, value: input.value, text: (input as { text?: string }).text, file: liveTarget(args) === undefined && input.label !== '<stdin>', findings: shown });
    else if (json) for (const f of shown) all.push({ ...f, source: input.label });
    else if (shown.length > 0) {
      // One input: its findings alone. Several: each one's findings under its name (as ESLint does).
      if (count > 1) ctx.io.stdout.write(`${ctx.style.bold(input.label)}\n${renderFindingLines(shown, ctx.style, '  ')}\n`);
      else ctx.io.stdout.write(`${renderFindingLines(shown, ctx.style)}\n`);
    }
  }
  const failing = failOn === 'error' ? totals.error : failOn === 'warning' ? totals.error + totals.warning : totals.error + totals.warning + totals.info;
  const failed = failing > 0 || (maxWarnings !== undefined && totals.warning > maxWarnings);
  if (format === 'sarif') ctx.io.stdout.write(JSON.stringify(sarifLog(annotated, unread), null, 2) + '\n');
  else if (format === 'github') ctx.io.stdout.write(githubLines(annotated, unread) + renderVerdict({ counts: totals, failing, failOn, maxWarnings, inputs: count, unreadable, hidden }, ctx.style));
  else if (json) {
    // `failed` says what the exit code says: an input that could not be read fails the run (exit 2) as the text verdict does.
    const out = { failOn, ...(maxWarnings !== undefined ? { maxWarnings } : {}), ...(unit !== undefined ? { tokenUnit: unit } : {}), failed: failed || unreadable > 0, counts: totals, inputs: results, findings: all };
    ctx.io.stdout.write(JSON.stringify(out, null, 2) + '\n');
  } else {
    if (unit !== undefined) ctx.io.stdout.write(ctx.style.dim(`token budgets counted in ${unit}`) + '\n');
    ctx.io.stdout.write(renderVerdict({ counts: totals, failing, failOn, maxWarnings, inputs: count, unreadable, hidden }, ctx.style));
  }
  return unreadable > 0 ? 2 : failed ? 1 : 0;
}
