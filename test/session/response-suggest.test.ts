/**
 * `report --responses` proposes response policies (issue 28, item 4): hand-written stats lines, expected
 * proposals worked out by hand (medians, nearest-rank 95th percentile rounded up to a whole KB).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatStatsLine, parseStatsLines, type CallStats } from '../../src/session/stats.js';
import { suggestionSnippet, suggestPolicies } from '../../src/session/response-suggest.js';
import { runMain } from '../cli/helpers.js';
import { tempDir } from '../helpers/temp.js';

const line = (tool: string, resultBytes: number, extra: Partial<CallStats> = {}): CallStats => ({ tool, requestBytes: 20, resultBytes, servedBytes: 200, originalBytes: 200, ms: 1, ...extra });

// list: 20 results of records; recordsBytes 1000, 2000, …, 20000: the 95th percentile (rank 19) is 19000.
const LIST = Array.from({ length: 20 }, (_, i) => line('list', (i + 1) * 1100, { records: 10, recordsBytes: (i + 1) * 1000, fields: i === 0 ? ['id', 'title'] : ['id', 'body'] }));
const LINES: CallStats[] = [
  ...LIST,
  line('small', 1999, { records: 1, recordsBytes: 1900, fields: ['id'] }), // 9.995×: no proposal
  line('text', 5000, { uncovered: 'the text is not JSON' }), // 25×, no records
  line('text', 900, { error: true }), // errors do not count
];

describe('suggestPolicies', () => {
  it('proposes for tools whose median result is ≥ 10× the definition: every field seen, a budget for 95% of results', () => {
    // list: median of 1100…22000 = (10 × 1100 + 11 × 1100) / 2 = 11550 → 57.75×.
    expect(suggestPolicies(LINES)).toEqual([
      { tool: 'list', calls: 20, medianResultBytes: 11550, definitionBytes: 200, ratio: 57.75, policy: { project: ['id', 'title', 'body'], budget: 19000 } },
      { tool: 'text', calls: 1, medianResultBytes: 5000, definitionBytes: 200, ratio: 25, why: 'no result held records toolslim can find (the text is not JSON)' },
    ]);
    expect(suggestionSnippet(suggestPolicies(LINES))).toBe('  "responses": {\n    "list": {"project": ["id", "title", "body"], "budget": 19000}\n  }');
    // A paged tool is judged on what the server sent (upstreamBytes), not on its pages.
    expect(suggestPolicies([line('p', 500, { upstreamBytes: 4000, recordsBytes: 3900, fields: ['a'] })])[0]).toMatchObject({ medianResultBytes: 4000, policy: { budget: 4000 } });
  });

  it('the stats line keeps the new members through format and parse', () => {
    const l = line('x', 10, { records: 2, recordsBytes: 9, fields: ['a'], upstreamBytes: 30, page: 1, pages: 3, uncovered: 'why' });
    const text = formatStatsLine(l);
    expect(text).toBe('{"v":1,"tool":"x","requestBytes":20,"resultBytes":10,"servedBytes":200,"originalBytes":200,"ms":1,"records":2,"recordsBytes":9,"upstreamBytes":30,"page":1,"pages":3,"fields":["a"],"uncovered":"why"}');
    expect(parseStatsLines(text)).toEqual([l]);
    expect(() => parseStatsLines(text.replace('"pages":3', '"pages":-3'), 'f')).toThrow('f:1: `pages` must be a non-negative whole number, got -3');
    expect(() => parseStatsLines(text.replace('["a"]', '[1]'), 'f')).toThrow('f:1: `fields` must be a list of field names');
  });

  it('toolslim report --responses prints the proposals as an overlay snippet', async () => {
    const file = join(tempDir('toolslim-suggest-'), 'calls.jsonl');
    writeFileSync(file, LINES.map(formatStatsLine).join('\n') + '\n');
    const out = await runMain(['report', '--responses', file]);
    expect(out.code).toBe(0);
    // The table drawn as every other table of the CLI (renderTable): two spaces in, a rule of dashes.
    expect(out.stdout).toContain(
      [
        '  tool         calls  median result  max result  definition  served  response/definition',
        '  -----  -----------  -------------  ----------  ----------  ------  -------------------',
        '  list            20         11,550      22,000         200     200               57.75×',
        '  text   2 (1 error)          2,950       5,000         200     200               14.75×',
        '  small            1          1,999       1,999         200     200                9.99×',
      ].join('\n'),
    );
    expect(out.stdout).toContain('list: median result 11,550 bytes, 57.8× its 200-byte definition; fields seen: id, title, body; a budget of 19,000 bytes keeps 95% of its results on one page');
    expect(out.stdout).toContain('text: median result 5,000 bytes, 25.0× its 200-byte definition; no result held records');
    expect(out.stdout).toContain('"list": {"project": ["id", "title", "body"], "budget": 19000}');
    const json = JSON.parse((await runMain(['report', '--responses', file, '--format', 'json'])).stdout);
    expect(json.suggestions[0].policy).toEqual({ project: ['id', 'title', 'body'], budget: 19000 });
  });
});
