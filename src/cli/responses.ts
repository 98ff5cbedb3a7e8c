/**
 * `toolslim report --responses FILE`: what the stats lines of `toolslim proxy --stats FILE` add up to,
 * per tool — calls, median and largest result, and how many definitions one typical response is worth
 * (the session library's `summarizeResponses`; this module renders it).
 */
import { oneLine } from '../core/safe-text.js';
import { readFile } from 'node:fs/promises';
import { parseStatsLines, summarizeResponses, type ResponsesSummary } from '../session/stats.js';
import { suggestionSnippet, suggestPolicies, type PolicySuggestion } from '../session/response-suggest.js';
import type { Context } from './command.js';
import { CliError } from './errors.js';
import type { Style } from './format.js';
import { markdownText, renderTable } from '../core/format.js';

/** Reads the stats file and prints the summary as a table (text or markdown) or JSON. */
export async function printResponses(file: string, format: 'text' | 'markdown' | 'json', ctx: Context, top: number): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new CliError(code === 'ENOENT' ? `--responses ${file}: no such file (write one with toolslim proxy --stats ${file} -- <server>)` : `--responses ${file}: ${(e as Error).message}`);
  }
  const lines = parseStatsLines(text, file);
  const summary = summarizeResponses(lines);
  const suggestions = suggestPolicies(lines);
  if (format === 'json') ctx.io.stdout.write(JSON.stringify({ ...summary, suggestions }, null, 2) + '\n');
  else ctx.io.stdout.write(renderResponses(file, summary, format, ctx.style, top) + renderSuggestions(suggestions, format));
  return 0;
}

/** The summary as a table: largest total first; `top` limits the tools listed (0 = all). */
export function renderResponses(file: string, summary: ResponsesSummary, format: 'text' | 'markdown', style: Style, top: number): string {
  const md = format === 'markdown';
  const head = `${oneLine(file)}: ${summary.calls} tools/call${summary.calls === 1 ? '' : 's'} of ${summary.tools.length} tool${summary.tools.length === 1 ? '' : 's'}, ${num(summary.totalResultBytes)} result bytes`;
  const header = ['tool', 'calls', 'median result', 'max result', 'definition', 'served', 'response/definition'];
  const shown = top > 0 ? summary.tools.slice(0, top) : summary.tools;
  const rows = shown.map((t) => [
    oneLine(t.tool) + (t.answered > 0 ? ` (${t.answered} answered by toolslim)` : ''),
    num(t.calls) + (t.errors > 0 ? ` (${t.errors} error${t.errors === 1 ? '' : 's'})` : ''),
    num(t.medianResultBytes),
    num(t.maxResultBytes),
    num(t.originalBytes),
    num(t.servedBytes),
    t.originalBytes > 0 ? `${t.responseToDefinition.toFixed(2)}×` : '–',
  ]);
  const lines: string[] = md ? [`## toolslim responses\n\n${head}\n`] : [style.bold(head), ''];
  lines.push(...renderTable(header, rows, md ? { markdown: true } : { indent: '  ' }));
  if (shown.length < summary.tools.length) lines.push(md ? `\n… and ${summary.tools.length - shown.length} more tools` : `  … and ${summary.tools.length - shown.length} more tools (--top 0 lists all)`);
  lines.push(
    '',
    'Sizes are UTF-8 bytes of compact JSON; "definition" is the tool as the server sent it, "served" as the proxy served it; response/definition is the median result over the definition.',
  );
  return lines.join('\n') + '\n';
}

/**
 * The proposed response policies (tools whose median result is ≥ 10× their definition) as an overlay
 * snippet, with what each is based on; `""` when no tool qualifies.
 */
export function renderSuggestions(suggestions: readonly PolicySuggestion[], format: 'text' | 'markdown'): string {
  if (suggestions.length === 0) return '';
  const md = format === 'markdown';
  const out = [md ? '\n### Proposed response policies\n' : '\nProposed response policies (median result ≥ 10× the definition):'];
  for (const s of suggestions) {
    const head = `${md ? '- ' : '  '}${md ? markdownText(oneLine(s.tool)) : oneLine(s.tool)}: median result ${num(s.medianResultBytes)} bytes, ${s.ratio.toFixed(1)}× its ${num(s.definitionBytes)}-byte definition`;
    out.push(s.policy ? `${head}; fields seen: ${(s.policy.project ?? []).join(', ')}; a budget of ${num(s.policy.budget!)} bytes keeps 95% of its results on one page` : `${head}; ${s.why}`);
  }
  const snippet = suggestionSnippet(suggestions);
  if (snippet !== '') {
    out.push('', 'Add to the overlay (remove the fields the caller does not need), or pass --project / --response-budget:', md ? `\n\`\`\`json\n${snippet}\n\`\`\`` : snippet);
  }
  return out.join('\n') + '\n';
}

function num(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
