/**
 * Stats lines: one JSON line per `tools/call` that passes through a proxy (`proxy --stats FILE`), and the
 * per-tool summary `toolslim report --responses FILE` prints — how large responses are next to the
 * definitions that sit in every prompt. Pure: the caller does the file I/O.
 */
import { ToolslimError } from '../core/errors.js';
import { isObject } from '../json/guards.js';
import { describeValue } from './hot-set.js';

/** The stats line format this toolslim writes (`v` member of every line). */
export const STATS_FORMAT = 1;

/** One `tools/call`, as a stats line records it. Sizes are UTF-8 bytes of compact JSON. */
export interface CallStats {
  /** The called tool's name. */
  readonly tool: string;
  /** The request's `params` (name and arguments). */
  readonly requestBytes: number;
  /** The response's `result` (or `error`), as the client received it. */
  readonly resultBytes: number;
  /** The tool's definition as served in the list at the time (cold or hot). */
  readonly servedBytes: number;
  /** The tool's definition as the server sent it. */
  readonly originalBytes: number;
  /** From the request leaving the proxy to the response arriving (whole milliseconds are fine; not rounded here). */
  readonly ms: number;
  /** Set when toolslim answered the call itself (invalid arguments of a cold tool) and the server never saw it. */
  readonly answered?: boolean;
  /** Set when the response was an error (`isError: true` or a JSON-RPC error). */
  readonly error?: boolean;
  /** Records the server's result held (see response-records.ts for the shapes), when it held some. */
  readonly records?: number;
  /** UTF-8 bytes of the compact JSON of the records with what holds them: a one-page result's page size. */
  readonly recordsBytes?: number;
  /** The records' top-level fields, in the order first seen (at most 64). */
  readonly fields?: readonly string[];
  /** The server's `result` bytes, when a response policy changed what the client received. */
  readonly upstreamBytes?: number;
  /** The page served and how many the result has (a paged tool). */
  readonly page?: number;
  readonly pages?: number;
  /** Why a tool's response policy did not cover this result (it passed through untouched). */
  readonly uncovered?: string;
}

const NUMBER_FIELDS = ['requestBytes', 'resultBytes', 'servedBytes', 'originalBytes', 'ms'] as const;
const FLAG_FIELDS = ['answered', 'error'] as const;
const OPTIONAL_NUMBERS = ['records', 'recordsBytes', 'upstreamBytes', 'page', 'pages'] as const;

/**
 * The stats line of one call: compact JSON with a fixed member order
 * (`v, tool, requestBytes, resultBytes, servedBytes, originalBytes, ms[, answered][, error]`, then those of
 * `records, recordsBytes, upstreamBytes, page, pages, fields, uncovered` that are set), no newline.
 *
 * @throws ToolslimError (`invalid-input`) naming the member that is not what the format says
 */
export function formatStatsLine(stats: CallStats): string {
  checkStats(stats, 'formatStatsLine');
  const line: Record<string, unknown> = { v: STATS_FORMAT, tool: stats.tool };
  for (const key of NUMBER_FIELDS) line[key] = stats[key];
  for (const key of FLAG_FIELDS) if (stats[key] === true) line[key] = true;
  for (const key of OPTIONAL_NUMBERS) if (stats[key] !== undefined) line[key] = stats[key];
  if (stats.fields !== undefined) line.fields = stats.fields;
  if (stats.uncovered !== undefined) line.uncovered = stats.uncovered;
  return JSON.stringify(line);
}

/**
 * Reads a stats file's text: one {@link CallStats} per non-blank line. `file` names it in errors.
 *
 * @throws ToolslimError (`invalid-input`) naming the file and line of the first bad line (not JSON, not a
 * stats line, another format) — a report built on silently skipped lines would be wrong
 */
export function parseStatsLines(text: string, file = 'the stats file'): CallStats[] {
  if (typeof text !== 'string') throw new ToolslimError('invalid-input', `parseStatsLines: expected the file's text, got ${describeValue(text)}`);
  const out: CallStats[] = [];
  let lineNo = 0;
  for (const raw of text.split('\n')) {
    lineNo++;
    const line = raw.trim();
    if (line === '') continue;
    const where = `${file}:${lineNo}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      throw new ToolslimError('invalid-input', `${where}: not JSON (${(e as Error).message}); every line of a stats file is one JSON object written by \`toolslim proxy --stats\``);
    }
    if (!isObject(json)) throw new ToolslimError('invalid-input', `${where}: expected a JSON object, found ${describeValue(json)}`);
    if (json.v !== STATS_FORMAT) {
      throw new ToolslimError('invalid-input', `${where}: stats line format ${describeValue(json.v)}; this toolslim reads format ${STATS_FORMAT}${typeof json.v === 'number' && json.v > STATS_FORMAT ? ' (written by a newer toolslim)' : ''}`);
    }
    const stats: Record<string, unknown> = { tool: json.tool };
    for (const key of NUMBER_FIELDS) stats[key] = json[key];
    for (const key of [...FLAG_FIELDS, ...OPTIONAL_NUMBERS, 'fields', 'uncovered'] as const) if (key in json) stats[key] = json[key];
    checkStats(stats as unknown as CallStats, where);
    out.push(stats as unknown as CallStats);
  }
  return out;
}

/** One tool's responses, summarized. */
export interface ToolResponses {
  readonly tool: string;
  /** Calls recorded. */
  readonly calls: number;
  /** Calls toolslim answered itself (never reached the server). */
  readonly answered: number;
  /** Calls whose response was an error. */
  readonly errors: number;
  /** Median result bytes (the mean of the two middle values for an even count). */
  readonly medianResultBytes: number;
  readonly maxResultBytes: number;
  readonly totalResultBytes: number;
  /** The definition's bytes as the server sent it (the latest line's value). */
  readonly originalBytes: number;
  /** The definition's bytes as served (the latest line's value: a reveal can change it). */
  readonly servedBytes: number;
  /** `medianResultBytes / originalBytes`: how many definitions one typical response is worth (0 when the definition size is 0). */
  readonly responseToDefinition: number;
}

/** The whole summary. */
export interface ResponsesSummary {
  /** Per tool, most result bytes in total first (ties: name order). */
  readonly tools: readonly ToolResponses[];
  readonly calls: number;
  readonly totalResultBytes: number;
}

/** Summarizes stats lines per tool. */
export function summarizeResponses(lines: readonly CallStats[]): ResponsesSummary {
  if (!Array.isArray(lines)) throw new ToolslimError('invalid-input', `summarizeResponses: expected stats lines, got ${describeValue(lines)}`);
  const byTool = new Map<string, CallStats[]>();
  for (const line of lines) {
    let list = byTool.get(line.tool);
    if (!list) byTool.set(line.tool, (list = []));
    list.push(line);
  }
  const tools: ToolResponses[] = [];
  let total = 0;
  for (const [tool, calls] of byTool) {
    const sizes = calls.map((c) => c.resultBytes).sort((a, b) => a - b);
    const m = sizes.length >> 1;
    const median = sizes.length % 2 === 1 ? sizes[m]! : (sizes[m - 1]! + sizes[m]!) / 2;
    const last = calls[calls.length - 1]!;
    const sum = sizes.reduce((a, b) => a + b, 0);
    total += sum;
    tools.push({
      tool,
      calls: calls.length,
      answered: calls.filter((c) => c.answered === true).length,
      errors: calls.filter((c) => c.error === true).length,
      medianResultBytes: median,
      maxResultBytes: sizes[sizes.length - 1]!,
      totalResultBytes: sum,
      originalBytes: last.originalBytes,
      servedBytes: last.servedBytes,
      responseToDefinition: last.originalBytes > 0 ? median / last.originalBytes : 0,
    });
  }
  tools.sort((a, b) => b.totalResultBytes - a.totalResultBytes || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
  return { tools, calls: lines.length, totalResultBytes: total };
}

function checkStats(stats: CallStats, where: string): void {
  if (!isObject(stats)) throw new ToolslimError('invalid-input', `${where}: expected a stats object, got ${describeValue(stats)}`);
  if (typeof stats.tool !== 'string') throw new ToolslimError('invalid-input', `${where}: \`tool\` must be the called tool's name, got ${describeValue(stats.tool)}`);
  for (const key of NUMBER_FIELDS) {
    const v = stats[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new ToolslimError('invalid-input', `${where}: \`${key}\` must be a non-negative number, got ${describeValue(v)}`);
  }
  for (const key of FLAG_FIELDS) {
    const v = stats[key];
    if (v !== undefined && typeof v !== 'boolean') throw new ToolslimError('invalid-input', `${where}: \`${key}\` must be true or false, got ${describeValue(v)}`);
  }
  for (const key of OPTIONAL_NUMBERS) {
    const v = stats[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)) throw new ToolslimError('invalid-input', `${where}: \`${key}\` must be a non-negative whole number, got ${describeValue(v)}`);
  }
  if (stats.fields !== undefined && (!Array.isArray(stats.fields) || stats.fields.some((f) => typeof f !== 'string'))) throw new ToolslimError('invalid-input', `${where}: \`fields\` must be a list of field names, got ${describeValue(stats.fields)}`);
  if (stats.uncovered !== undefined && typeof stats.uncovered !== 'string') throw new ToolslimError('invalid-input', `${where}: \`uncovered\` must be a string, got ${describeValue(stats.uncovered)}`);
}
