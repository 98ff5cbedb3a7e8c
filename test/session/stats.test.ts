/** Stats lines: the exact line format, parse errors by file and line, and a hand-computed summary. */
import { describe, expect, it } from 'vitest';
import { formatStatsLine, parseStatsLines, summarizeResponses, type CallStats } from '../../src/session/stats.js';

const call = (tool: string, resultBytes: number, extra: Partial<CallStats> = {}): CallStats => ({ tool, requestBytes: 40, resultBytes, servedBytes: 100, originalBytes: 400, ms: 12, ...extra });

describe('stats lines', () => {
  it('are compact JSON with a fixed member order, and read back', () => {
    expect(formatStatsLine(call('read_file', 2048))).toBe('{"v":1,"tool":"read_file","requestBytes":40,"resultBytes":2048,"servedBytes":100,"originalBytes":400,"ms":12}');
    expect(formatStatsLine(call('x', 1, { answered: true, error: true, ms: 0.5 }))).toBe('{"v":1,"tool":"x","requestBytes":40,"resultBytes":1,"servedBytes":100,"originalBytes":400,"ms":0.5,"answered":true,"error":true}');
    const lines = [call('a', 1), call('b', 2, { error: true })];
    expect(parseStatsLines(lines.map(formatStatsLine).join('\n') + '\n\n')).toEqual(lines);
  });

  it('refuse bad lines by file and line', () => {
    const good = formatStatsLine(call('a', 1));
    expect(() => parseStatsLines(`${good}\nnot json\n`, 's.jsonl')).toThrow(/^s\.jsonl:2: not JSON/);
    expect(() => parseStatsLines(`${good}\n[1]`, 's.jsonl')).toThrow(/^s\.jsonl:2: expected a JSON object, found \[1\]/);
    expect(() => parseStatsLines('{"v":2,"tool":"a"}', 's.jsonl')).toThrow(/s\.jsonl:1: stats line format 2; this toolslim reads format 1 \(written by a newer toolslim\)/);
    expect(() => parseStatsLines('{"v":1,"tool":"a","requestBytes":1,"resultBytes":-1,"servedBytes":1,"originalBytes":1,"ms":1}', 's.jsonl')).toThrow(/s\.jsonl:1: `resultBytes` must be a non-negative number, got -1/);
    expect(() => parseStatsLines('{"v":1,"requestBytes":1}')).toThrow(/the stats file:1: `tool` must be the called tool's name/);
    expect(() => formatStatsLine({ ...call('a', 1), ms: Number.NaN })).toThrow(/`ms` must be a non-negative number/);
  });

  it('summarize per tool: calls, median and max result bytes, and the response-to-definition ratio', () => {
    // read: 100, 300, 900, 5000 → median (300 + 900) / 2 = 600; definition 400 → 1.5
    // list: 50 → median 50, ratio 50 / 200 = 0.25
    const lines = [call('read', 900), call('list', 50, { originalBytes: 200, servedBytes: 30 }), call('read', 100), call('read', 5000, { answered: true, error: true }), call('read', 300, { servedBytes: 420 })];
    const s = summarizeResponses(lines);
    expect(s.calls).toBe(5);
    expect(s.totalResultBytes).toBe(6350);
    expect(s.tools).toEqual([
      { tool: 'read', calls: 4, answered: 1, errors: 1, medianResultBytes: 600, maxResultBytes: 5000, totalResultBytes: 6300, originalBytes: 400, servedBytes: 420, responseToDefinition: 1.5 },
      { tool: 'list', calls: 1, answered: 0, errors: 0, medianResultBytes: 50, maxResultBytes: 50, totalResultBytes: 50, originalBytes: 200, servedBytes: 30, responseToDefinition: 0.25 },
    ]);
    expect(summarizeResponses([])).toEqual({ tools: [], calls: 0, totalResultBytes: 0 });
  });
});
