/** `report --responses`: a tool with one failed call said "1 (1 errors)". */
import { describe, expect, it } from 'vitest';
import { makeStyle } from '../../src/cli/format.js';
import { renderResponses } from '../../src/cli/responses.js';
import { parseStatsLines, summarizeResponses } from '../../src/session/stats.js';

const line = (tool: string, error: boolean) => JSON.stringify({ v: 1, tool, requestBytes: 36, resultBytes: 66, servedBytes: 161, originalBytes: 641, ms: 1, ...(error ? { error: true } : {}) });

describe('report --responses counts errors in words that agree with the count', () => {
  it('"1 error", "2 errors"', () => {
    const text = [line('a', true), line('b', true), line('b', true), line('c', false)].join('\n') + '\n';
    const out = renderResponses('calls.jsonl', summarizeResponses(parseStatsLines(text)), 'text', makeStyle(false), 0);
    expect(out).toMatch(/\ba +1 \(1 error\) /);
    expect(out).toMatch(/\bb +2 \(2 errors\) /);
    expect(out).not.toMatch(/\bc +1 \(/);
  });
});
