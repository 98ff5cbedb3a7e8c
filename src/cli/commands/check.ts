import type { Severity } from '../../core/report.js';
import { isAtLeast, lintTools } from '../../lint/index.js';
import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { BUDGET_FLAGS, HELP, INPUT_FLAGS, INPUT_HELP, PROFILE_FLAG } from '../command.js';
import { renderFindings } from '../format.js';
import { budgetOptions, flagString, loadInput, profileFindings } from '../inputs.js';

export const checkCommand: Command = {
  summary: 'findings for CI; exit 1 when one is at or above --fail-on',
  usage: 'toolslim check <input> [--max-bytes N] [--max-tool-bytes N] [--max-tokens N] [--profile client] [--fail-on error|warning|info] [--format text|json]',
  flags: [HELP, { name: 'fail-on', type: 'string', choices: ['error', 'warning', 'info'] }, { name: 'format', short: 'f', type: 'string', choices: ['text', 'json'] }, PROFILE_FLAG, ...BUDGET_FLAGS, ...INPUT_FLAGS],
  help: `Checks the tools for what breaks clients or wastes tokens: unresolvable \`$ref\`s, \`$schema\` stamps
contradicted by the keywords used, unreachable definitions (bytes wasted), duplicate names, names
outside the MCP rule (1–128 of A–Z a–z 0–9 _ - .), a root inputSchema without \`type: "object"\`,
missing descriptions, \`x-mcp-header\` parameters behind \`$ref\`/composition or invalid, more than 4
arguments (info), tools whose name and description read alike, and budgets. With --profile, also what
that client would reject (codes \`profile-…\`), before a user finds out at run time.

Options:
  --max-bytes <n>           budget for the whole list (compact JSON bytes)
  --max-tool-bytes <n>      budget for any one tool
  --max-tokens <n>          budget for the whole list in o200k_base tokens
  --max-tool-tokens <n>     budget for any one tool in o200k_base tokens
  --max-arguments <n>       arguments above which a tool gets an info finding (default 4)
  --profile <client>        also check against a client: claude, openai, openai-strict, gemini, kimi,
                            ref-free, mcp
  --fail-on <severity>      error (default), warning or info
  -f, --format <f>          text (default) or json

Exit codes: 0 no finding at or above --fail-on; 1 at least one; 2 bad usage or input.

${INPUT_HELP}

Examples:
  toolslim check tools.json
  toolslim check tools.json --max-tokens 20000 --max-tool-bytes 4000 --fail-on warning
  toolslim check --format json -- node server.mjs
  toolslim check tools.json --profile gemini`,
  run: runCheck,
};

async function runCheck(args: ParsedArgs, ctx: Context): Promise<number> {
  const { value } = await loadInput(args, ctx);
  const budgets = budgetOptions(args);
  const tokenizer = budgets.maxTokens !== undefined || budgets.maxToolTokens !== undefined ? (await import('../../tokens.js')).o200k : undefined;
  const profile = flagString(args, 'profile');
  const findings = [...lintTools(value, { ...budgets, ...(tokenizer ? { tokenizer } : {}) }), ...(profile ? profileFindings(value, profile) : [])];
  const failOn = (flagString(args, 'fail-on') ?? 'error') as Severity;
  const failing = findings.filter((f) => isAtLeast(f.severity, failOn)).length;
  if (flagString(args, 'format') === 'json') {
    const counts = { error: 0, warning: 0, info: 0 };
    for (const f of findings) counts[f.severity]++;
    ctx.io.stdout.write(JSON.stringify({ failOn, failed: failing > 0, counts, findings }, null, 2) + '\n');
  } else {
    ctx.io.stdout.write(renderFindings(findings, ctx.style, failing, failOn));
  }
  return failing > 0 ? 1 : 0;
}

