/**
 * `toolslim optimize --overlay overlay.json <input | -- cmd | --url …>`: writes a reviewable overlay
 * (the session library's format: the tools to serve, any instructions, a pin of the original list, the
 * steps) that `toolslim proxy --overlay` serves. The tools are written as the input had them wherever no
 * step changed them (number lexemes included), indented for review.
 */
import { resolveSteps } from '../api.js';
import { formatReport, type ReportFormat } from '../core/format.js';
import type { TransformStepInput } from '../core/preset.js';
import { oneLine } from '../core/safe-text.js';
import { locateTools } from '../engine/input.js';
import { isObject } from '../json/guards.js';
import { indentedStyle, renderTool, restyleJson, type ToolsSource } from '../json/source.js';
import { stringifyJson } from '../json/stringify.js';
import { createOverlay } from '../session/overlay.js';
import { toolRenamesOf } from '../transforms/adapt-to-client/steps/rename-tools.js';
import { serveToolsList, unreadableLine } from '../session/serve.js';
import type { ParsedArgs } from './args.js';
import type { Context } from './command.js';
import { flagString } from './inputs.js';
import { changedTools, keepUnchangedOf, readToolsSource, writeFileAtomic } from './output.js';
import { memberSpans } from './proxy/json-text.js';
import { shellWord } from './proxy/upstream.js';
import { redactArgs, redactUrl } from './redact.js';

/** Options of {@link writeOverlayFile}. */
export interface OverlayFileInput {
  readonly path: string;
  readonly value: unknown;
  /** The input's text, when it came from a file or stdin (so unchanged tools keep their bytes). */
  readonly text: string | undefined;
  readonly steps: readonly TransformStepInput[];
  readonly dropUnreadable: boolean;
  readonly verify?: 'structural' | 'verdicts' | false;
}

/** Runs the pipeline, writes the overlay atomically, and says on stderr what it holds and how to serve it. */
export async function writeOverlayFile(input: OverlayFileInput, args: ParsedArgs, ctx: Context): Promise<number> {
  const located = locateTools(input.value);
  const source = input.text === undefined ? undefined : readToolsSource(input.text, input.value);
  const keepUnchanged = source ? keepUnchangedOf([source]) : undefined;
  const steps = resolveSteps(input.steps);
  const served = serveToolsList(input.value, {
    transforms: steps,
    dropUnreadable: input.dropUnreadable,
    ...(keepUnchanged ? { keepUnchanged } : {}),
    ...(input.verify !== undefined ? { verify: input.verify } : {}),
  });
  const init = isObject(input.value) && isObject(input.value.initialize) ? input.value.initialize : undefined;
  const serverInfo = isObject(init?.serverInfo) ? (init.serverInfo as { name?: string; version?: string }) : undefined;
  const overlay = createOverlay({
    original: located.tools as unknown[],
    tools: served.tools,
    steps,
    ...(served.instructions !== undefined ? { instructions: served.instructions } : {}),
    rebuild: rebuildCommand(input.path, args),
    ...(serverInfo ? { server: serverInfo } : {}),
    dropped: served.dropped,
    renamed: toolRenamesOf(served.transformResult.report).map(({ from, to }) => ({ from, to })),
  });
  const text = overlayText(overlay, served.transformResult, served.dropped.map((d) => d.index), source);
  await writeFileAtomic(input.path, text);
  const reportPath = flagString(args, 'report');
  if (reportPath) {
    const fmt: ReportFormat = reportPath.endsWith('.json') ? 'json' : reportPath.endsWith('.md') ? 'markdown' : 'text';
    await writeFileAtomic(reportPath, formatReport(served.report, fmt));
  }
  const instructionsPath = flagString(args, 'instructions');
  if (instructionsPath) await writeFileAtomic(instructionsPath, served.instructions ?? '');
  const { before, after } = served.transformResult.report.stats;
  const name = serverInfo?.name ? ` of ${serverInfo.name}${serverInfo.version ? ` ${serverInfo.version}` : ''}` : '';
  const lines = [
    `${ctx.name}: wrote ${input.path}: ${served.tools.length} tool${served.tools.length === 1 ? '' : 's'} to serve (${before.bytes.toLocaleString('en-US')} → ${after.bytes.toLocaleString('en-US')} bytes), a pin of the ${located.tools.length} tool${located.tools.length === 1 ? '' : 's'}${name} it was made from`,
  ];
  for (const d of served.dropped) lines.push(`${ctx.name}: left out ${oneLine(unreadableLine(d, true))}`);
  if (served.instructions !== undefined) lines.push(`${ctx.name}: ${served.instructionSteps.join(', ') || 'a step'} moved text into the server's instructions: it is in the overlay's "instructions", and toolslim proxy --overlay appends it to the initialize result`);
  const renamed = (overlay as { renamed?: readonly { from: string; to: string }[] }).renamed ?? [];
  if (renamed.length > 0) lines.push(`${ctx.name}: it serves ${renamed.length} tool${renamed.length === 1 ? '' : 's'} under another name (its "renamed": ${renamed.map((r) => `\`${r.from}\` → \`${r.to}\``).join(', ')}); toolslim proxy --overlay calls the server by its own names`);
  lines.push(`${ctx.name}: review it, then serve it: toolslim proxy --overlay ${shellWord(input.path)} ${serveTarget(args)}`);
  ctx.io.stderr.write(lines.join('\n') + '\n');
  return 0;
}

/**
 * The overlay as JSON for review (indented 2), its tools as the input had them wherever no step changed
 * them (number lexemes included).
 */
function overlayText(overlay: object, result: { tools: unknown[]; report: { changes: readonly { toolIndex: number }[] } }, dropped: readonly number[], source: ToolsSource | undefined): string {
  const style = indentedStyle(2);
  const skip = new Set(dropped);
  const rewritten = changedTools(result as never);
  const texts: string[] = [];
  result.tools.forEach((tool, i) => {
    if (skip.has(i)) return;
    const span = source?.tools[i];
    if (source && span && !rewritten.has(i)) texts.push(restyleJson(source.text.slice(span.start, span.end), style, 2));
    else texts.push(renderTool(tool, style, 2, span?.numbers?.lexemes, stringifyJson));
  });
  const head = JSON.stringify({ ...overlay, tools: [] }, null, 2);
  const at = memberSpans(head).get('tools')!;
  const array = texts.length === 0 ? '[]' : `[\n    ${texts.join(',\n    ')}\n  ]`;
  return `${head.slice(0, at.start)}${array}${head.slice(at.end)}\n`;
}

/**
 * The command that rebuilds the overlay, with its secrets (header values, URL userinfo and query values,
 * secret-looking arguments: redact.ts) replaced by `***`; then a shell comment says so.
 */
function rebuildCommand(path: string, args: ParsedArgs): string {
  const words = ['toolslim', 'optimize', '--overlay', path];
  const flag = (name: string) => args.flags[name];
  if (typeof flag('preset') === 'string') words.push('--preset', flag('preset') as string);
  for (const t of (flag('transform') as readonly string[] | undefined) ?? []) words.push('--transform', t);
  if (typeof flag('profile') === 'string') words.push('--profile', flag('profile') as string);
  if (flag('drop-unreadable') === true) words.push('--drop-unreadable');
  if (typeof flag('verify') === 'string') words.push('--verify', flag('verify') as string);
  words.push(...sourceWords(args));
  const text = words.map(shellWord).join(' ');
  return text.includes('***') ? `${text} # secrets replaced with ***: put them back before you run it` : text;
}

function sourceWords(args: ParsedArgs): string[] {
  if (typeof args.flags.url === 'string') {
    const headers = ((args.flags.header as readonly string[] | undefined) ?? []).map((h) => `${h.slice(0, h.indexOf(':'))}: ***`);
    return ['--url', redactUrl(args.flags.url), ...headers.flatMap((h) => ['-H', h])];
  }
  if (args.rest !== undefined) return ['--', ...redactArgs(args.rest)];
  return args.positional.slice(0, 1);
}

/** How the proxy reaches the same server, for the closing hint. */
function serveTarget(args: ParsedArgs): string {
  if (typeof args.flags.url === 'string' || args.rest !== undefined) return sourceWords(args).map(shellWord).join(' ');
  return '-- <server command>';
}
