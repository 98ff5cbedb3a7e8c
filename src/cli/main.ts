import { readFile, writeFile } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { ToolslimError } from '../core/errors.js';
import { formatReport, type ReportFormat } from '../core/format.js';
import { locateTools } from '../engine/input.js';
import { stringifyJson } from '../json/stringify.js';
import { transformTools, type TransformToolsOptions } from '../api.js';
import type { TransformStepInput } from '../core/preset.js';
import type { Severity } from '../core/report.js';
import { isAtLeast, lintTools, type Finding, type LintOptions } from '../lint/index.js';
import { checkToolsForProfile } from '../profiles/check.js';
import { presetForProfile } from '../presets/for-profile.js';
import { builtinProfiles } from '../profiles/profiles.js';
import { parseArgs, type FlagSpec, type ParsedArgs } from './args.js';
import { CliError } from './errors.js';
import { parseJsonText } from './json.js';
import type { LiveTarget } from './live.js';
import { makeStyle, renderFindings, renderReport, type ReportData, type Style, type ToolRow } from './format.js';

/** The streams (and environment) the CLI talks through, injected so `main` is unit-testable. */
export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Environment variables (default `process.env`): `NO_COLOR`, `FORCE_COLOR`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

interface Command {
  readonly summary: string;
  readonly usage: string;
  readonly flags: readonly FlagSpec[];
  readonly help: string;
  run(args: ParsedArgs, ctx: Context): Promise<number>;
}

interface Context {
  readonly io: CliIo;
  readonly name: string;
  /** Styling for stdout (colours only when stdout is a terminal). */
  readonly style: Style;
  /** Styling for stderr. */
  readonly errStyle: Style;
  /** A progress line on stderr, shown only when stderr is a terminal. */
  progress(line: string): void;
}

const HELP: FlagSpec = { name: 'help', short: 'h', type: 'boolean' };
const INPUT_FLAGS: readonly FlagSpec[] = [
  { name: 'url', type: 'string' },
  { name: 'header', short: 'H', type: 'string', repeat: true },
  { name: 'timeout', type: 'number' },
];
const PROFILE_FLAG: FlagSpec = { name: 'profile', type: 'string' };
const STEP_FLAGS: readonly FlagSpec[] = [{ name: 'preset', type: 'string' }, { name: 'transform', short: 't', type: 'string', repeat: true }, PROFILE_FLAG];
const BUDGET_FLAGS: readonly FlagSpec[] = [
  { name: 'max-bytes', type: 'number' },
  { name: 'max-tool-bytes', type: 'number' },
  { name: 'max-tokens', type: 'number' },
  { name: 'max-tool-tokens', type: 'number' },
  { name: 'max-arguments', type: 'number' },
];

const INPUT_HELP = `Input (one of):
  <file>                    a JSON file: a tools array, a ListToolsResult, a JSON-RPC response or a
                            capture file (a leading BOM is fine)
  -                         the same, from stdin
  -- <command> [args…]      a live server over stdio, started and stopped by toolslim
  --url <http(s)://…/mcp>   a live server over streamable HTTP
  -H, --header "K: V"       an HTTP header for --url (repeatable), e.g. an Authorization header
  --timeout <seconds>       limit for a live server to answer initialize and tools/list (default 30)
Live servers are read with the official @modelcontextprotocol/sdk client (initialize, then
tools/list following nextCursor).`;

const STEP_HELP = `  --preset <name>           safe (default), lossless or max
  -t, --transform <name>[=<json-options>]
                            run this transform (repeatable, in order; after --preset if both given)
  --profile <client>        then make the tools acceptable to one client (adapt-to-client): mcp,
                            claude, openai, openai-strict, gemini, kimi, ref-free`;

const COMMANDS: Record<string, Command> = {
  capture: {
    summary: 'save a live server’s initialize result and exact tools/list result',
    usage: 'toolslim capture [-o tools.json] (-- <command> [args…] | --url <url>)',
    flags: [HELP, { name: 'out', short: 'o', type: 'string' }, ...INPUT_FLAGS],
    help: `Starts the server (or connects to --url), initializes, lists every page of tools, and closes it.
Writes { server, initialize, toolsList }: the results as the server sent them (pages merged).
The child process never outlives the command, also on timeout or failure.

Options:
  -o, --out <file>          where to write (default stdout)

${INPUT_HELP}

Examples:
  toolslim capture -o tools.json -- node server.mjs
  toolslim capture -o tools.json -- npx -y @modelcontextprotocol/server-memory
  toolslim capture --url http://localhost:3000/mcp -H "Authorization: Bearer $TOKEN" -o tools.json`,
    run: runCapture,
  },
  report: {
    summary: 'sizes per tool (bytes, o200k and cl100k tokens), what each transform saves, findings',
    usage: 'toolslim report <input> [--format text|markdown|json] [--preset …] [--transform …]',
    flags: [HELP, { name: 'format', short: 'f', type: 'string', choices: ['text', 'markdown', 'json'] }, { name: 'top', type: 'number' }, ...STEP_FLAGS, ...BUDGET_FLAGS, ...INPUT_FLAGS],
    help: `A table of tools, largest first, with bytes of compact JSON and tokens in o200k_base and
cl100k_base; what each transform of the preset would save; and the findings of \`check\`.

Options:
  -f, --format <f>          text (default), markdown (for a PR comment) or json
  --top <n>                 tools listed in text and markdown (default 25; 0 = all)
${STEP_HELP}
  --max-bytes, --max-tool-bytes, --max-tokens, --max-tool-tokens, --max-arguments <n>
                            budgets, as for \`check\`

${INPUT_HELP}

Examples:
  toolslim report tools.json
  toolslim report --format markdown tools.json > report.md
  toolslim report -- node server.mjs`,
    run: runReport,
  },
  optimize: {
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
  },
  check: {
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
  },
  proxy: {
    summary: 'a stdio MCP proxy that serves the optimized tools/list for a server you cannot change',
    usage: 'toolslim proxy [--preset …] [--transform …] -- <command> [args…]',
    flags: [HELP, ...STEP_FLAGS, { name: 'verbose', short: 'v', type: 'boolean' }],
    help: `Put it where the client would start the server. tools/list is answered from the optimized list
(fetched from the server, optimized once, cached until the server sends
notifications/tools/list_changed). Everything else, tools/call included, passes through byte for
byte; initialize is forwarded untouched, so capabilities are exactly the server’s. The proxy exits
when the server does, with its exit code.

Options:
${STEP_HELP}
  -v, --verbose             one stderr line per optimization

Example (an MCP client configuration):
  { "command": "npx", "args": ["-y", "toolslim", "proxy", "--", "npx", "-y", "some-vendor-mcp"] }
  toolslim proxy --preset lossless -- node server.mjs`,
    run: runProxyCommand,
  },
};

function usage(name: string): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const list = Object.entries(COMMANDS)
    .map(([c, cmd]) => `  ${c.padEnd(width)}  ${cmd.summary}`)
    .join('\n');
  return `${name} — make MCP tools/list results smaller and correct

Usage: ${name} <command> [options]

Commands:
${list}

Run \`${name} <command> --help\` for a command’s options and examples.

Examples:
  ${name} capture -o tools.json -- node server.mjs
  ${name} report tools.json
  ${name} optimize tools.json -o slim.json --report report.md
  ${name} check tools.json --max-tokens 20000
  ${name} proxy -- npx -y some-vendor-mcp
`;
}

/** Runs the CLI; resolves to the exit code (0 ok, 1 `check` found something, 2 bad usage or input). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const name = 'toolslim';
  const env = io.env ?? process.env;
  const colour = (stream: Writable) => env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' ? true : env.NO_COLOR === undefined && (stream as { isTTY?: boolean }).isTTY === true;
  const stderrTty = (io.stderr as { isTTY?: boolean }).isTTY === true;
  const ctx: Context = {
    io,
    name,
    style: makeStyle(colour(io.stdout)),
    errStyle: makeStyle(colour(io.stderr)),
    progress: (line) => {
      if (stderrTty) io.stderr.write(line + '\n');
    },
  };
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr.write(usage(name));
    return 2;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = rest[0];
    if (topic !== undefined && Object.prototype.hasOwnProperty.call(COMMANDS, topic)) return printHelp(topic, ctx);
    io.stdout.write(usage(name));
    return 0;
  }
  if (!Object.prototype.hasOwnProperty.call(COMMANDS, first)) {
    io.stderr.write(`${name}: unknown command \`${first}\`\n\n${usage(name)}`);
    return 2;
  }
  const command = COMMANDS[first]!;
  let args: ParsedArgs;
  try {
    args = parseArgs(rest, command.flags);
  } catch (e) {
    io.stderr.write(`${name} ${first}: ${(e as Error).message}\nUsage: ${command.usage}\nRun \`${name} ${first} --help\` for more.\n`);
    return 2;
  }
  if (args.flags.help === true) return printHelp(first, ctx);
  try {
    return await command.run(args, ctx);
  } catch (e) {
    if (e instanceof CliError) {
      io.stderr.write(`${name} ${first}: ${e.message}\n${e.usage ? `Usage: ${command.usage}\n` : ''}`);
      return 2;
    }
    if (e instanceof ToolslimError) {
      io.stderr.write(`${name} ${first}: ${e.path ? `at ${e.path}: ` : ''}${e.message}\n`);
      return 2;
    }
    io.stderr.write(`${name} ${first}: unexpected failure (please report it): ${(e as Error)?.stack ?? String(e)}\n`);
    return 2;
  }
}

function printHelp(command: string, ctx: Context): number {
  const c = COMMANDS[command]!;
  ctx.io.stdout.write(`${ctx.name} ${command} — ${c.summary}\n\nUsage: ${c.usage}\n\n${c.help}\n`);
  return 0;
}

// ---------------------------------------------------------------------------------------------------
// Commands

async function runCapture(args: ParsedArgs, ctx: Context): Promise<number> {
  const target = liveTarget(args);
  if (!target) throw new CliError('capture needs a live server: -- <command> [args…] or --url <url>', { usage: true });
  if (args.positional.length > 0) throw new CliError(`unexpected argument ${JSON.stringify(args.positional[0])} (the server command goes after --)`, { usage: true });
  const capture = await readLive(target, args, ctx);
  const text = outputJson(capture);
  const out = flagString(args, 'out');
  await writeOutput(out, text, ctx);
  const n = countTools(capture);
  ctx.io.stderr.write(`${ctx.name}: captured ${n} tool${n === 1 ? '' : 's'}${out ? ` to ${out}` : ''}\n`);
  return 0;
}

async function runReport(args: ParsedArgs, ctx: Context): Promise<number> {
  const { value, label } = await loadInput(args, ctx);
  const { o200k, cl100k } = await import('../tokens.js');
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

async function runOptimize(args: ParsedArgs, ctx: Context): Promise<number> {
  const { value } = await loadInput(args, ctx);
  const reportPath = flagString(args, 'report');
  const verify = flagString(args, 'verify');
  const tokenizer = reportPath ? (await import('../tokens.js')).o200k : undefined;
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

async function runCheck(args: ParsedArgs, ctx: Context): Promise<number> {
  const { value } = await loadInput(args, ctx);
  const budgets = budgetOptions(args);
  const tokenizer = budgets.maxTokens !== undefined || budgets.maxToolTokens !== undefined ? (await import('../tokens.js')).o200k : undefined;
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

async function runProxyCommand(args: ParsedArgs, ctx: Context): Promise<number> {
  const rest = args.rest;
  if (!rest || rest.length === 0) throw new CliError('proxy needs the server command after --', { usage: true });
  if (args.positional.length > 0) throw new CliError(`unexpected argument ${JSON.stringify(args.positional[0])} (the server command goes after --)`, { usage: true });
  const steps = stepsFrom(args);
  // Names and options are checked now, not on the first tools/list.
  try {
    transformTools([], { transforms: steps, measure: false });
  } catch (e) {
    if (e instanceof ToolslimError && (e.code === 'unknown-transform' || e.code === 'invalid-option')) throw e;
  }
  const { runProxy } = await import('./proxy.js');
  return runProxy({
    command: rest[0]!,
    args: rest.slice(1),
    input: ctx.io.stdin,
    output: ctx.io.stdout,
    errors: ctx.io.stderr,
    verbose: args.flags.verbose === true,
    optimize: (list) => {
      const r = transformTools(list, { transforms: steps });
      const { before, after } = r.report.stats;
      return { result: r.output, summary: `optimized ${r.tools.length} tools: ${before.bytes} → ${after.bytes} bytes, ${r.report.changes.length} changes, ${r.report.skipped.length} skipped` };
    },
  });
}

// ---------------------------------------------------------------------------------------------------
// Input and output

function liveTarget(args: ParsedArgs): LiveTarget | undefined {
  const url = flagString(args, 'url');
  const headers = (args.flags.header as readonly string[] | undefined) ?? [];
  if (url !== undefined && args.rest !== undefined) throw new CliError('give either --url or -- <command>, not both', { usage: true });
  if (headers.length > 0 && url === undefined) throw new CliError('--header goes with --url', { usage: true });
  if (url !== undefined) return { kind: 'http', url, headers: parseHeaders(headers) };
  if (args.rest !== undefined) {
    if (args.rest.length === 0) throw new CliError('-- must be followed by the server command', { usage: true });
    return { kind: 'stdio', command: args.rest[0]!, args: args.rest.slice(1) };
  }
  return undefined;
}

async function readLive(target: LiveTarget, args: ParsedArgs, ctx: Context) {
  const { captureServer } = await import('./live.js');
  const timeout = flagNumber(args, 'timeout') ?? 30;
  if (timeout <= 0) throw new CliError('--timeout must be more than 0 seconds', { usage: true });
  return captureServer(target, { timeoutMs: Math.round(timeout * 1000), progress: ctx.progress });
}

async function loadInput(args: ParsedArgs, ctx: Context): Promise<{ value: unknown; label: string }> {
  const target = liveTarget(args);
  if (target) {
    if (args.positional.length > 0) throw new CliError(`give either an input file or a live server, not both (got ${JSON.stringify(args.positional[0])})`, { usage: true });
    const { describeTarget } = await import('./live.js');
    return { value: await readLive(target, args, ctx), label: describeTarget(target) };
  }
  if (flagNumber(args, 'timeout') !== undefined) throw new CliError('--timeout goes with a live server (-- <command> or --url)', { usage: true });
  const source = args.positional[0];
  if (source === undefined) throw new CliError('missing input: a file, - for stdin, -- <command> or --url <url>', { usage: true });
  if (args.positional.length > 1) throw new CliError(`one input at a time (got ${args.positional.map((p) => JSON.stringify(p)).join(', ')})`, { usage: true });
  const label = source === '-' ? '<stdin>' : source;
  let text: string;
  try {
    text = source === '-' ? await readStream(ctx.io.stdin) : await readFile(source, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new CliError(code === 'ENOENT' ? `${source}: no such file` : code === 'EISDIR' ? `${source}: is a directory` : `${label}: ${(e as Error).message}`);
  }
  const value = parseJsonText(text, label);
  try {
    locateTools(value);
  } catch (e) {
    if (e instanceof ToolslimError) throw new CliError(`${label}: ${e.message}`);
    throw e;
  }
  return { value, label };
}

async function writeOutput(path: string | undefined, text: string, ctx: Context): Promise<void> {
  if (path === undefined || path === '-') ctx.io.stdout.write(text);
  else await writeFileOrFail(path, text);
}

async function writeFileOrFail(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (e) {
    throw new CliError(`cannot write ${path}: ${(e as Error).message}`);
  }
}

/**
 * JSON for a file or stdout: indented, or compact when the value is too deep to indent (a tool nested
 * 100,000 levels passes through unchanged and must still be written; its indentation alone would not
 * fit in a string).
 */
function outputJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) + '\n';
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return stringifyJson(value) + '\n';
  }
}

function stepsFrom(args: ParsedArgs): TransformStepInput[] {
  const profile = flagString(args, 'profile');
  const steps = baseSteps(args);
  if (profile === undefined) return steps;
  checkProfileName(profile);
  const transforms = (args.flags.transform as readonly string[] | undefined) ?? [];
  // A preset alone is tuned for the client (no ref-creating steps for ref-free clients, …) then adapted.
  if (transforms.length === 0) return presetForProfile(flagString(args, 'preset') ?? 'safe', profile);
  return [...steps, ['adapt-to-client', { profile }]];
}

/** What a client profile would reject, as check findings. */
function profileFindings(value: unknown, profile: string): Finding[] {
  checkProfileName(profile);
  return checkToolsForProfile(value, profile).map((f) => ({ ...f, code: `profile-${f.code}` }));
}

function checkProfileName(profile: string): void {
  if (!builtinProfiles.some((p) => p.name === profile)) {
    throw new CliError(`unknown profile \`${profile}\` (known: ${builtinProfiles.map((p) => p.name).join(', ')})`, { usage: true });
  }
}

function baseSteps(args: ParsedArgs): TransformStepInput[] {
  const preset = flagString(args, 'preset');
  const transforms = (args.flags.transform as readonly string[] | undefined) ?? [];
  if (transforms.length === 0) return [preset ?? 'safe'];
  const steps: TransformStepInput[] = preset ? [preset] : [];
  for (const spec of transforms) {
    const eq = spec.indexOf('=');
    if (eq === -1) {
      steps.push(spec);
      continue;
    }
    let options: unknown;
    try {
      options = JSON.parse(spec.slice(eq + 1));
    } catch (e) {
      throw new CliError(`--transform ${spec}: the options after = are not JSON (${(e as Error).message})`, { usage: true });
    }
    if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new CliError(`--transform ${spec}: the options after = must be a JSON object`, { usage: true });
    steps.push([spec.slice(0, eq), options]);
  }
  return steps;
}

function describeSteps(args: ParsedArgs): string {
  const preset = flagString(args, 'preset');
  const profile = flagString(args, 'profile');
  const transforms = (args.flags.transform as readonly string[] | undefined) ?? [];
  const tail = profile ? ` + adapt-to-client (${profile})` : '';
  if (transforms.length === 0) return `preset ${preset ?? 'safe'}${tail}`;
  const names = transforms.map((t) => (t.includes('=') ? t.slice(0, t.indexOf('=')) : t));
  return [...(preset ? [`preset ${preset}`] : []), ...names].join(' + ') + tail;
}

function budgetOptions(args: ParsedArgs): LintOptions {
  const pick = (flag: string) => flagNumber(args, flag);
  const out: Record<string, number> = {};
  const map: Record<string, string> = { 'max-bytes': 'maxBytes', 'max-tool-bytes': 'maxToolBytes', 'max-tokens': 'maxTokens', 'max-tool-tokens': 'maxToolTokens', 'max-arguments': 'maxArguments' };
  for (const [flag, key] of Object.entries(map)) {
    const v = pick(flag);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function parseHeaders(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new CliError(`--header ${JSON.stringify(line)}: expected "Name: value"`, { usage: true });
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  return typeof v === 'string' ? v : undefined;
}

function flagNumber(args: ParsedArgs, name: string): number | undefined {
  const v = args.flags[name];
  return typeof v === 'number' ? v : undefined;
}

function countTools(capture: { toolsList: unknown }): number {
  const list = capture.toolsList as { tools?: unknown[] } | undefined;
  return Array.isArray(list?.tools) ? list.tools.length : 0;
}

async function readStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
