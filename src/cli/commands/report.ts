import { printable } from '../../core/safe-text.js';
import { stringifyJson } from '../../json/stringify.js';
import { loadTokenizers } from '../tokenizer.js';
import { locateTools } from '../../engine/input.js';
import { AFTER_TEXT, arrayElementKeeper, BEFORE_TEXT, countArray, editedCounter, RELEASE_MEMO, type Tokenizer } from '../../core/measure.js';
import { transformTools } from '../../api.js';
import { DEFAULT_MAX_DEPTH } from '../../engine/options.js';
import { CHECKED_PLAIN, textMayHoldHeaderKey, textMayHoldInventoryKey } from '../../lint/lint.js';
import type { ParsedArgs } from '../args.js';
import type { Command, Context } from '../command.js';
import { BUDGET_FLAGS, HELP, INPUT_FLAGS, INPUT_HELP, STEP_FLAGS, STEP_HELP } from '../command.js';
import { findingSettings, findingsOf, RULE_FLAGS, RULE_HELP } from '../findings.js';
import { makeStyle, plural, renderReport, type ReportData, type ToolRow } from '../format.js';
import { describeSteps, flagNumber, flagString, openInputs, stepsFrom } from '../inputs.js';
import { CliError } from '../errors.js';
import { writeOutput } from '../output.js';
import { collectSooner } from '../gc-schedule.js';
import type { HtmlParts } from '../html-parts.js';
import { measureReaders, readerLintOptions, readersOf, renderReaders, RENDER_FLAG, RENDER_HELP, type Reader } from '../rendered.js';

export const reportCommand: Command = {
  summary: 'sizes per tool (bytes, o200k and cl100k tokens), what each transform saves, findings',
  usage: 'toolslim report <inputs…> [--format text|markdown|json|html] [-o <file>] [--no-tokens] [--render typescript,…] [--preset …] [--transform …] | toolslim report --responses <stats file>',
  flags: [HELP, { name: 'format', short: 'f', type: 'string', choices: ['text', 'markdown', 'json', 'html'] }, { name: 'out', short: 'o', type: 'string' }, { name: 'top', type: 'number' }, { name: 'no-tokens', type: 'boolean' }, { name: 'responses', type: 'string' }, RENDER_FLAG, ...STEP_FLAGS, ...RULE_FLAGS, ...BUDGET_FLAGS, ...INPUT_FLAGS],
  help: `A table of tools, largest first, with bytes of compact JSON and tokens in o200k_base and
cl100k_base; what each transform of the preset would save; and the findings of \`check\` (with --profile,
what that client would reject, exactly as \`check --profile\` lists it).

Options:
  -f, --format <f>          text (default), markdown (for a PR comment), json (one object; an array
                            of them for several inputs, in their order, an input that cannot be
                            read in its place as { "source": "<input>", "error": "<why>" }; no
                            timings, so one input gives the same bytes every run) or html (one
                            self-contained page of bar charts: each tool's tokens by part —
                            description, parameters, definitions, output schema — and after the
                            preset, what each transform saves, and each reader's tokens with
                            --render/--profile; no script, no network; bytes with --no-tokens)
  -o, --out <file>          write the report to a file (atomically) instead of stdout
  --top <n>                 tools listed in text and markdown, charted in html (default 25; 0 = all)
  --no-tokens               bytes only: load no tokenizer (the fastest report of a large list)
${RENDER_HELP}
                            Per reader, per tool and in total: tokens before and after, and how
                            many parameter types the reader sees as \`any\` (typescript only); with
                            --format json, "rendered": { "<renderer>": { tokens, tokensAfter, any,
                            anyAfter } } in \`total\` and in each tool. A stand-in unit is labelled.
  --responses <file>        instead: per tool, the calls, median and largest results and the ratio of
                            response to definition bytes, from toolslim proxy --stats <file>
${STEP_HELP}
  --max-bytes, --max-tool-bytes, --max-tokens, --max-tool-tokens, --max-arguments <n>
                            budgets, as for \`check\`
${RULE_HELP}

Inputs: one or more files, directories (every .json file below them) and glob patterns, or - for
stdin, or one live server:

${INPUT_HELP}

Tokens are counted per tool and for the whole list; a run of more than 256 characters without a break
is counted in slices (an estimate, said so in the report), so counting stays linear in the input.
Progress appears on a terminal for large lists. Exit codes: 0, or 2 for bad usage or an input that
cannot be read (the others are still reported).

Examples:
  toolslim report tools.json
  toolslim report --format markdown tools.json > report.md
  toolslim report tools.json --format html -o report.html
  toolslim report captures/*.json --no-tokens
  toolslim report -- node server.mjs
  toolslim report tools.json --render typescript,json-indent4
  toolslim report tools.json --profile openai --format json
  toolslim report --responses calls.jsonl`,
  run: runReport,
};

async function runReport(args: ParsedArgs, ctx: Context): Promise<number> {
  // --responses: the stats lines of `toolslim proxy --stats` (src/cli/responses.ts), not a tools list.
  const responses = flagString(args, 'responses');
  if (responses !== undefined) {
    if (args.positional.length > 0 || args.rest !== undefined || args.flags.url !== undefined) throw new CliError('--responses <file> reads a stats file; give no other input', { usage: true });
    if (flagString(args, 'format') === 'html' || flagString(args, 'out') !== undefined) throw new CliError('--responses prints text, markdown or json to stdout: drop --format html and -o (redirect stdout instead)', { usage: true });
    const { printResponses } = await import('../responses.js');
    return printResponses(responses, (flagString(args, 'format') ?? 'text') as 'text' | 'markdown' | 'json', ctx, flagNumber(args, 'top') ?? 25);
  }
  const settings = findingSettings(args, ctx, 'report');
  collectSooner();
  const counting = args.flags['no-tokens'] !== true;
  if (!counting && (settings.lint.maxTokens !== undefined || settings.lint.maxToolTokens !== undefined)) {
    throw new CliError('--max-tokens and --max-tool-tokens need token counts: drop --no-tokens, or use --max-bytes', { usage: true });
  }
  const readers = readersOf(args, settings.profile);
  // --profile alone still runs its findings (renders-as-any) without tokens; --render asks for counts.
  if (!counting && args.flags.render !== undefined) throw new CliError('--render counts rendered tokens: drop --no-tokens', { usage: true });
  const tokenizers = counting ? await loadTokenizers('report counts tokens', 'run it with --no-tokens (bytes only)') : undefined;
  const steps = stepsFrom(args);
  const format = (flagString(args, 'format') ?? 'text') as 'text' | 'markdown' | 'json' | 'html';
  const outPath = flagString(args, 'out');
  const top = flagNumber(args, 'top') ?? 25;
  const { count, inputs } = openInputs(args, ctx);
  const reports: ReportData[] = [];
  // --format json: one entry per input, in the inputs' order; an input that cannot be read holds its place with
  // its error (`check --format json` lists it the same way), so that entry i is input i.
  const entries: (ReportData | UnreadableEntry)[] = [];
  const parts: HtmlParts[] = [];
  const chunks: string[] = [];
  let unreadable = 0;
  let first = true;
  for await (const input of inputs) {
    if ('error' in input) {
      unreadable++;
      ctx.io.stderr.write(`${ctx.name} report: ${printable(input.error)}\n`);
      if (format === 'json') entries.push({ source: input.label, error: input.error });
      continue;
    }
    // The input's text (kept for check's annotations) is not needed here: let it go before the run (on a
    // 50 MB list, over 100 MB of two-byte string).
    (input as { text?: string }).text = undefined;
    const data = reportOne(input.value, input.label, args, ctx, settings, steps, tokenizers, readers);
    if (format === 'json') {
      entries.push(data);
      continue;
    }
    if (format === 'html') {
      reports.push(data);
      parts.push(await (await import('../html-parts.js')).htmlParts(input.value, data, tokenizers));
      continue;
    }
    if (!first) chunks.push('\n');
    first = false;
    const style = format === 'text' && outPath === undefined ? ctx.style : makeStyle(false);
    chunks.push(renderReport(data, format, style, top));
    if (data.readers) chunks.push('\n' + renderReaders({ readers: data.readers, total: data.total.rendered ?? {}, perTool: toolsByIndex(data.tools), ...(data.alwaysPaid ? { alwaysPaid: data.alwaysPaid } : {}) }, names(data.tools), format, style, top));
  }
  // One input: its report alone (nothing when it cannot be read: exit 2 says so). Several: every input's entry.
  if (format === 'json' && (count > 1 ? entries.length > 0 : entries[0] !== undefined && !('error' in entries[0]))) chunks.push(JSON.stringify(count > 1 ? entries : entries[0], null, 2) + '\n');
  if (format === 'html' && reports.length > 0) {
    const { renderHtml } = await import('../html.js');
    chunks.push(renderHtml(reports.map((data, i) => ({ data, ...parts[i]! })), top));
  }
  if (chunks.length > 0) await writeOutput(outPath, chunks.join(''), ctx);
  return unreadable > 0 ? 2 : 0;
}

/** The place of an input that cannot be read in `--format json` with several inputs: its label and why. */
interface UnreadableEntry {
  readonly source: string;
  readonly error: string;
}

function reportOne(
  value: unknown,
  label: string,
  args: ParsedArgs,
  ctx: Context,
  settings: ReturnType<typeof findingSettings>,
  steps: ReturnType<typeof stepsFrom>,
  tokenizers: typeof import('../../tokens.js') | undefined,
  readers: readonly Reader[] = [],
): ReportData {
  const before = locateTools(value).tools;
  const large = before.length >= 1000;
  const say = (line: string) => {
    if (large) ctx.progress(`${ctx.name} report: ${label}: ${line}`);
  };
  const o200k: Tokenizer | undefined = tokenizers?.o200k;
  let after: readonly unknown[] = [];
  // cl100k_base before the run, counted as the run counts o200k_base: each tool's text is handed over right
  // after the run has counted it (BEFORE_TEXT), so it is not serialized again, and toolslim/tokens looks its
  // segments up without scanning it again. What the whole list's count needs of it is kept (its stand-in:
  // a few dozen characters), not the text.
  const cl100k = tokenizers?.cl100k;
  const keep = cl100k ? arrayElementKeeper(cl100k) : undefined;
  const cl100kRows = cl100k ? new Array<number>(before.length) : undefined;
  const kept = new Array<string>(cl100k ? before.length : 0);
  const counts = new Array<number | undefined>(cl100k ? before.length : 0);
  let estimated = 0;
  // Whether each tool's text may hold a key the findings' reference and header checks look for: where it holds
  // none, those checks (a walk of every schema each) are not run (CHECKED_PLAIN; lint.ts says why a false is exact).
  const inventoryKeys = new Array<boolean>(cl100k ? before.length : 0);
  const headerKeys = new Array<boolean>(cl100k ? before.length : 0);
  const countBefore = (i: number, text: string): void => {
    inventoryKeys[i] = textMayHoldInventoryKey(text);
    headerKeys[i] = textMayHoldHeaderKey(text);
    const n = cl100k!.count(text);
    cl100kRows![i] = n;
    // Asked of the tokenizer that has just counted the text: it knows the answer for most texts without reading them again.
    if (cl100k!.isEstimate ? cl100k!.isEstimate(text) : tokenizers!.hasLongPiece(text)) estimated++;
    // A value JSON has no text for reads `null` in the list (and has no count of its own there).
    kept[i] = jsonless(before[i]) ? 'null' : keep!(text);
    counts[i] = jsonless(before[i]) ? undefined : n;
  };
  // cl100k_base after the run, likewise: each changed tool's text is handed over after every step that
  // changed it (AFTER_TEXT), with the tool it is the text of; the count of the last one stands for the tool
  // the run ends with when it is that very object (a tool the gate sent back is the one before the run).
  const lastTool = new Array<unknown>(cl100k ? before.length : 0);
  const lastKept = new Array<string>(cl100k ? before.length : 0);
  const lastCount = new Array<number>(cl100k ? before.length : 0);
  // With the text handed over last for the tool and the windows where this one differs, only those are counted
  // (COUNT_EDITED, as the run counted o200k_base): that text's count is the last one taken, or the one before the run.
  const countEdited = cl100k ? editedCounter(cl100k) : undefined;
  const countAfter = (i: number, text: string, tool: unknown, previous?: string, windows?: readonly number[]): void => {
    if (i >= before.length) return;
    const was = lastTool[i] !== undefined ? lastCount[i] : counts[i];
    lastCount[i] = previous !== undefined && windows !== undefined && was !== undefined && countEdited ? countEdited(previous, was, text, windows) : cl100k!.count(text);
    lastKept[i] = keep!(text);
    lastTool[i] = tool;
  };
  const hooks = { [BEFORE_TEXT]: { value: (i: number, text: string) => i < before.length && countBefore(i, text) }, [AFTER_TEXT]: { value: countAfter } };
  const tokenizer = o200k && cl100k ? (Object.create(o200k, hooks) as Tokenizer) : o200k;
  say(`running ${describeSteps(args)} over ${plural(before.length, 'tool')}${o200k ? (cl100k ? ' and counting o200k_base and cl100k_base tokens' : ' and counting o200k_base tokens') : ''}…`);
  // Of the run, only the tools after it, the sizes and the skips are kept (its list of changes, the size
  // of the input on a large list, is let go), and the tools after it only until they are measured: the
  // findings come last, with the least held.
  const maxDepth = settings.lint.maxDepth ?? DEFAULT_MAX_DEPTH;
  const { stats, skipped, diagnostics } = (() => {
    const result = transformTools(value, { transforms: steps, maxDepth, ...(tokenizer ? { tokenizer } : {}) });
    after = result.tools;
    return result.report;
  })();
  // The run's input check found these tools plain JSON (not skipped by it, no `undefined` member): the
  // findings do not check them again (CHECKED_PLAIN).
  const plain = new Array<boolean>(before.length).fill(true);
  for (const s of skipped) if (s.transform === 'input') plain[s.toolIndex] = false;
  for (const d of diagnostics) if (d.transform === 'input') plain[d.toolIndex] = false;
  let cl100kTotal = 0;
  let cl100kAfter = 0;
  if (tokenizers && cl100k && keep && cl100kRows) {
    // One pass over the tools: a text the run did not hand over (its tool has none the run could write) is
    // counted here, and each tool's text after the run when it changed; the texts are dropped. The list's
    // text is never built, nor every tool's text kept.
    const keptAfter = new Array<string>(after.length);
    const countsAfter = new Array<number | undefined>(after.length);
    let next = Date.now() + 1000;
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      let text: string | undefined;
      // A row the run filled through BEFORE_TEXT has its count; one without (a tool the run could not write) is counted here.
      if (i < before.length && cl100kRows[i] === undefined) {
        text = stringifyJson(before[i]);
        countBefore(i, text);
        if (jsonless(before[i])) text = 'null';
      }
      if (i < after.length) {
        // A tool the run left alone is the same object (copy-on-write): its text is the one counted before.
        if (i < before.length && after[i] === before[i]) {
          keptAfter[i] = kept[i]!;
          countsAfter[i] = counts[i];
        } else if (i < before.length && lastTool[i] !== undefined && lastTool[i] === after[i]) {
          // Counted when the run handed its text over (the tools are never changed in place).
          keptAfter[i] = lastKept[i]!;
          countsAfter[i] = lastCount[i];
        } else {
          const textAfter = elementText(after[i]);
          const same = text !== undefined && textAfter === text;
          keptAfter[i] = same ? kept[i]! : keep(textAfter);
          countsAfter[i] = same ? counts[i] : cl100k.count(textAfter);
        }
      }
      if (large && Date.now() >= next) {
        say(`counting cl100k_base tokens: ${i.toLocaleString('en-US')} of ${before.length.toLocaleString('en-US')} tools`);
        next = Date.now() + 1000;
      }
    }
    if (large) say('counting cl100k_base tokens of the whole list…');
    // The whole list from the tools' counts (countArray adds the joins).
    cl100kTotal = countArray(cl100k, kept, counts);
    cl100kAfter = countArray(cl100k, keptAfter, countsAfter);
    // What the hand-over kept is counted now. The hooks that filled these arrays live as long as this function
    // does (so would the arrays), and `lastTool` holds every changed tool as the run left it: let them go
    // before the findings, where the report peaks.
    for (const a of [kept, counts, lastTool, lastKept, lastCount]) a.length = 0;
  }
  if (tokenizers && readers.length > 0) say('rendering for each reader…');
  const rendered = tokenizers && readers.length > 0 ? measureReaders(before, after, readers, tokenizers.getTokenizer) : undefined;
  after = [];
  // Everything is counted (the findings count tokens only for token budgets): the tokenizers' memos (up to
  // some 40 MB each on a large list) are let go before the findings' own structures are built.
  if (tokenizers && settings.lint.maxTokens === undefined && settings.lint.maxToolTokens === undefined) {
    for (const t of [tokenizers.o200k, tokenizers.cl100k]) (t as { [RELEASE_MEMO]?: () => void })[RELEASE_MEMO]?.();
  }
  say('checking…');
  // The same findings as `check` with the same flags, --profile included (findings.ts findingsOf).
  const lint = { ...settings.lint, ...(o200k ? { tokenizer: o200k } : {}), [CHECKED_PLAIN]: { maxDepth, plain, ...(cl100k ? { inventoryKeys, headerKeys } : {}) } };
  const findings = findingsOf(value, settings, readerLintOptions(lint, readers, (name) => tokenizers!.getTokenizer(name)));
  const rows: ToolRow[] = stats.tools.map((t) => ({
    index: t.index,
    name: t.name,
    bytes: t.before.bytes,
    ...(cl100kRows ? { o200k: t.before.tokens ?? 0, cl100k: cl100kRows[t.index]! } : {}),
    bytesAfter: t.after.bytes,
    ...(cl100kRows ? { o200kAfter: t.after.tokens ?? 0 } : {}),
    ...(rendered ? { rendered: rendered.perTool[t.index]! } : {}),
  }));
  rows.sort((a, b) => b.bytes - a.bytes || a.index - b.index);
  const total = tokenizers
    ? {
        bytes: stats.before.bytes,
        o200k: stats.before.tokens ?? 0,
        cl100k: cl100kTotal,
        bytesAfter: stats.after.bytes,
        o200kAfter: stats.after.tokens ?? 0,
        cl100kAfter,
        ...(rendered ? { rendered: rendered.total } : {}),
      }
    : { bytes: stats.before.bytes, bytesAfter: stats.after.bytes };
  return {
    source: label,
    steps: describeSteps(args),
    total,
    tools: rows,
    // Without each step's time: a report of the same input is the same bytes every run, so that it can be
    // committed or diffed in CI (the library's `report.stats.transforms` keeps `timeMs`).
    transforms: stats.transforms.map(({ timeMs: _time, ...row }) => row),
    skipped,
    findings,
    ...(estimated > 0 ? { estimatedTokens: estimated } : {}),
    ...(rendered ? { readers: rendered.readers, ...(rendered.alwaysPaid ? { alwaysPaid: rendered.alwaysPaid } : {}) } : {}),
  };
}

/** A value JSON has no text for: inside an array's text it reads `null`. */
function jsonless(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** An array element's compact JSON, as it reads inside its array's text. */
function elementText(value: unknown): string {
  return jsonless(value) ? 'null' : stringifyJson(value);
}

/** The rows' rendered figures by tool index (rows are sorted by size). */
function toolsByIndex(rows: readonly ToolRow[]): Record<string, import('../reader-types.js').RenderedFigures>[] {
  const out: Record<string, import('../reader-types.js').RenderedFigures>[] = [];
  for (const r of rows) out[r.index] = { ...r.rendered };
  return out;
}

function names(rows: readonly ToolRow[]): string[] {
  const out: string[] = [];
  for (const r of rows) out[r.index] = r.name;
  return out;
}
