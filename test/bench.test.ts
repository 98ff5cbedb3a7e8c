/**
 * The benchmark's pure helpers (statistics, ratios, formatting, tables, aggregation, synthetic inputs),
 * checked against values computed by hand. No timing here: bench/run.ts is exercised by `npm run bench`.
 */
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../bench/lib/aggregate.js';
import { addCompositions, composition, COMPOSITION_PARTS } from '../bench/lib/composition.js';
import {
  countBy,
  floorRatio,
  pairedRatio,
  fnv1a,
  formatArrow,
  formatInt,
  formatMB,
  formatMs,
  formatPercent,
  formatRatio,
  linearFit,
  markdownTable,
  median,
  megabytesPerSecond,
  mergeCounts,
  percentSaved,
  perSecond,
  replaceMarkedBlock,
  serverLabel,
  summarize,
  textTable,
} from '../bench/lib/stats.js';
import { DRAFT_2020_12, largeSchemaTool, orderPool, syntheticToolList, type PoolEntry } from '../bench/lib/synthetic.js';
import { sizeTargets } from '../bench/lib/render.js';
import type { ScalingPoint, ServerResult } from '../bench/lib/types.js';
import { pruneUnreachableDefs } from '../src/index.js';
import { deepFreeze } from './helpers/freeze.js';

describe('statistics', () => {
  it('median of odd and even counts, unsorted input, empty list', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([10])).toBe(10);
    expect(median([])).toBeNaN();
  });

  it('does not reorder its input', () => {
    const xs = [3, 1, 2];
    median(xs);
    expect(xs).toEqual([3, 1, 2]);
  });

  it('summarize gives median, min and max', () => {
    expect(summarize([5, -1, 3])).toEqual({ median: 3, min: -1, max: 5 });
    expect(summarize([2, 8])).toEqual({ median: 5, min: 2, max: 8 });
    const empty = summarize([]);
    expect(empty.median).toBeNaN();
    expect(empty.min).toBeNaN();
  });

  it('percentSaved: share of before removed, negative when it grew, 0 for an empty before', () => {
    expect(percentSaved(200, 150)).toBe(25);
    expect(percentSaved(76_259, 23_749)).toBeCloseTo(68.857, 3);
    expect(percentSaved(100, 120)).toBe(-20);
    expect(percentSaved(0, 0)).toBe(0);
  });

  it('floorRatio divides the median of the samples by the median of the floor', () => {
    // medians 20 and 10
    expect(floorRatio([30, 10, 20], [5, 15, 10])).toBe(2);
    // medians 3.5 (3, 4) and 7 (6, 8)
    expect(floorRatio([4, 3], [8, 6])).toBe(0.5);
    expect(floorRatio([1], [])).toBeNaN();
    expect(floorRatio([1], [0])).toBeNaN();
  });

  it('pairedRatio takes each pass over the floor pass before it, then the median', () => {
    // A machine at two speeds: fast passes 55 over floors 11, slow ones 89 over 17.5. Each pass's own ratio is
    // 5 or ~5.09; the median of the passes over the median of the floors (floorRatio) mixes them.
    const samples = [89, 55, 89, 55, 89];
    const before = [17.5, 11, 17.5, 11, 17.5];
    expect(pairedRatio(samples, before)).toBeCloseTo(89 / 17.5, 10);
    expect(floorRatio(samples, [11, 11, 11, 17.5, 17.5])).toBeCloseTo(89 / 11, 10);
    // ratios 2, 3, 4: median 3, whatever the order
    expect(pairedRatio([20, 9, 8], [10, 3, 2])).toBe(3);
    // A floor of 0 says nothing: left out; none left: NaN.
    expect(pairedRatio([5, 6], [0, 2])).toBe(3);
    expect(pairedRatio([5], [0])).toBeNaN();
    expect(pairedRatio([], [])).toBeNaN();
  });

  it('throughput helpers', () => {
    expect(megabytesPerSecond(3_000_000, 1500)).toBe(2);
    expect(perSecond(500, 250)).toBe(2000);
    expect(perSecond(1, 0)).toBeNaN();
  });

  it('linearFit: an exact line, then a hand-computed noisy one', () => {
    const exact = linearFit([1, 2, 3, 4], [3, 5, 7, 9]);
    expect(exact.slope).toBeCloseTo(2, 12);
    expect(exact.intercept).toBeCloseTo(1, 12);
    expect(exact.r2).toBeCloseTo(1, 12);
    // x̄ = 1, ȳ = 1, Sxx = 2, Sxy = 1, Syy = 2 → slope 0.5, intercept 0.5, r² = 1/(2·2)
    const noisy = linearFit([0, 1, 2], [0, 2, 1]);
    expect(noisy.slope).toBeCloseTo(0.5, 12);
    expect(noisy.intercept).toBeCloseTo(0.5, 12);
    expect(noisy.r2).toBeCloseTo(0.25, 12);
    expect(linearFit([1], [1]).slope).toBeNaN();
    expect(linearFit([2, 2], [1, 3]).slope).toBeNaN();
  });

  it('countBy and mergeCounts sort keys and add up', () => {
    const c = countBy(['b', 'a', 'b', 'verify'], (x) => x);
    expect(c).toEqual({ a: 1, b: 2, verify: 1 });
    expect(Object.keys(c)).toEqual(['a', 'b', 'verify']);
    const m = mergeCounts({ z: 1, a: 1 }, { a: 2, c: 1 });
    expect(m).toEqual({ a: 3, c: 1, z: 1 });
    expect(Object.keys(m)).toEqual(['a', 'c', 'z']);
  });
});

describe('formatting', () => {
  it('integers with thousands separators', () => {
    expect(formatInt(1_234_567)).toBe('1,234,567');
    expect(formatInt(-1234)).toBe('-1,234');
    expect(formatInt(999)).toBe('999');
    expect(formatInt(0)).toBe('0');
    expect(formatInt(1234.6)).toBe('1,235');
    expect(formatInt(NaN)).toBe('–');
  });

  it('percentages, ratios, milliseconds, megabytes, arrows', () => {
    expect(formatPercent(12.34)).toBe('12.3%');
    expect(formatPercent(12, 0)).toBe('12%');
    expect(formatPercent(-0.25)).toBe('-0.3%');
    expect(formatPercent(NaN)).toBe('–');
    expect(formatRatio(2.5)).toBe('2.50×');
    expect(formatRatio(Infinity)).toBe('–');
    expect(formatMs(0.0421)).toBe('0.042 ms');
    expect(formatMs(3.14159)).toBe('3.14 ms');
    expect(formatMs(1234.4)).toBe('1,234 ms');
    expect(formatMB(3_330_998)).toBe('3.33 MB');
    expect(formatArrow(76_215, 23_705)).toBe('76,215 → 23,705');
  });

  it('markdown table: alignment row, escaped pipes', () => {
    expect(markdownTable(['a', 'b'], [['x|y', '1']])).toBe('| a | b |\n|:--|--:|\n| x\\|y | 1 |');
    expect(markdownTable(['a', 'b'], [], ['l', 'l'])).toBe('| a | b |\n|:--|:--|');
  });

  it('text table pads columns to the widest cell', () => {
    expect(textTable(['name', 'n'], [['ab', '10'], ['abcdef', '2']])).toBe(['name     n', '------  --', 'ab      10', 'abcdef   2'].join('\n'));
  });

  it('replaceMarkedBlock swaps what lies between the markers and nothing else', () => {
    const text = 'A\n<!-- bench:start -->\nold\nlines\n<!-- bench:end -->\nB\n';
    expect(replaceMarkedBlock(text, 'bench', 'new')).toBe('A\n<!-- bench:start -->\nnew\n<!-- bench:end -->\nB\n');
    expect(replaceMarkedBlock('A\n<!-- bench:start --><!-- bench:end -->', 'bench', 'x\n\n')).toBe('A\n<!-- bench:start -->\nx\n<!-- bench:end -->');
    expect(replaceMarkedBlock('no markers', 'bench', 'x')).toBeUndefined();
    expect(replaceMarkedBlock('<!-- bench:end --> <!-- bench:start -->', 'bench', 'x')).toBeUndefined();
  });

  it('serverLabel: package@version plus the variant after `--` in the file name', () => {
    expect(serverLabel('azure__mcp--mode-all.json', '@azure/mcp', '2.0.5')).toBe('@azure/mcp@2.0.5 [mode-all]');
    expect(serverLabel('azure__mcp.json', '@azure/mcp', '2.0.5')).toBe('@azure/mcp@2.0.5');
    expect(serverLabel('notionhq__notion-mcp-server@2.5.2.json', '@notionhq/notion-mcp-server', '2.5.2')).toBe('@notionhq/notion-mcp-server@2.5.2');
  });

  it('fnv1a matches the published FNV-1a 32-bit test vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});

describe('summarizeRun', () => {
  const server = (file: string, before: [number, number], run: ServerResult['runs'][string]): ServerResult => ({
    file,
    label: file,
    package: file,
    version: '1',
    capturedAt: '',
    tools: 1,
    before: { bytes: before[0], tokens: before[1] },
    timeMs: 1,
    floorMs: 1,
    runs: { x: run },
  });

  it('adds totals, counts instructions as added size, leaves failed servers out', () => {
    const servers = [
      // 100 → 70 + 10 bytes of instructions = 80 (20%); 50 → 35 + 5 = 40 tokens (20%)
      server('a', [100, 50], { key: 'x', after: { bytes: 70, tokens: 35 }, instructions: { bytes: 10, tokens: 5 }, pctBytes: 20, pctTokens: 20, skipped: { verify: 1 }, diagnostics: { 'p/c': 2 }, errors: 1 }),
      // unchanged
      server('b', [200, 100], { key: 'x', after: { bytes: 200, tokens: 100 }, pctBytes: 0, pctTokens: 0, skipped: {}, diagnostics: { 'p/c': 1, 'q/d': 1 }, errors: 0 }),
      server('c', [1000, 500], { key: 'x', failed: 'boom' }),
    ];
    const s = summarizeRun(servers, 'x');
    expect(s.servers).toBe(2);
    expect(s.failedServers).toBe(1);
    expect(s.before).toEqual({ bytes: 300, tokens: 150 });
    expect(s.after).toEqual({ bytes: 280, tokens: 140 });
    expect(s.pctBytes).toBeCloseTo((100 * 20) / 300, 10);
    expect(s.pctTokens).toBeCloseTo((100 * 10) / 150, 10);
    expect(s.spreadBytes).toEqual({ median: 10, min: 0, max: 20 });
    expect(s.diagnostics).toEqual({ 'p/c': 3, 'q/d': 1 });
    expect(s.skipped).toEqual({ verify: 1 });
    expect(s.gateFailures).toBe(1);
    expect(s.errors).toBe(1);
  });

  it('ignores servers that did not run it', () => {
    expect(summarizeRun([server('a', [1, 1], { key: 'x', after: { bytes: 1, tokens: 1 } })], 'other').servers).toBe(0);
  });
});

describe('synthetic inputs', () => {
  const pool: PoolEntry[] = deepFreeze([
    { key: 'f1.json#0', tool: { description: 'first', name: 'alpha', inputSchema: { type: 'object' } } },
    { key: 'f1.json#1', tool: { name: 'beta', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } } },
    { key: 'f2.json#0', tool: { inputSchema: { type: 'object' } } },
  ]);

  it('orderPool is a permutation that does not depend on the input order', () => {
    const a = orderPool(pool);
    const b = orderPool([pool[2]!, pool[0]!, pool[1]!]);
    expect(a.map((e) => e.key)).toEqual(b.map((e) => e.key));
    expect([...a.map((e) => e.key)].sort()).toEqual(pool.map((e) => e.key).sort());
  });

  it('syntheticToolList repeats the pool and renames tool k to <name>_k, keeping key order', () => {
    const list = syntheticToolList(pool, 7);
    expect(list).toHaveLength(7);
    expect(list.map((t) => t.name)).toEqual(['alpha_0', 'beta_1', 'tool_2', 'alpha_3', 'beta_4', 'tool_5', 'alpha_6']);
    expect(Object.keys(list[0]!)).toEqual(['description', 'name', 'inputSchema']);
    expect(Object.keys(list[2]!)).toEqual(['inputSchema', 'name']);
    expect(list[3]!.inputSchema).toBe(pool[0]!.tool.inputSchema);
    expect(pool[0]!.tool.name).toBe('alpha');
  });

  it('largeSchemaTool: size, stamp, and exactly the definitions d(4m+3) unreachable (independent walk)', () => {
    const schemas = deepFreeze([{ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(200) } } }, { type: 'integer', minimum: 0 }]);
    const tool = largeSchemaTool(schemas, 20_000, '20KB');
    const schema = tool.inputSchema as { $schema: string; properties: Record<string, { $ref: string }>; $defs: Record<string, unknown> };
    expect(JSON.stringify(schema).length).toBeGreaterThanOrEqual(20_000);
    expect(schema.$schema).toBe(DRAFT_2020_12);
    expect(JSON.stringify(schema.$defs)).not.toContain('$schema');

    // Reachability by hand: start from the properties' refs, follow refs found inside each definition.
    const reached = new Set<string>();
    const queue = Object.values(schema.properties).map((p) => p.$ref);
    while (queue.length > 0) {
      const name = queue.pop()!.replace('#/$defs/', '');
      if (reached.has(name)) continue;
      reached.add(name);
      for (const m of JSON.stringify(schema.$defs[name]).matchAll(/"\$ref":"#\/\$defs\/(d\d+)"/g)) queue.push(`#/$defs/${m[1]}`);
    }
    const names = Object.keys(schema.$defs);
    const unreachable = names.filter((n) => !reached.has(n));
    expect(unreachable.length).toBeGreaterThan(0);
    for (const n of names) expect(reached.has(n), n).toBe(Number(n.slice(1)) % 4 !== 3 || !/^d\d+$/.test(n));

    // The library removes exactly those.
    const removed = pruneUnreachableDefs([tool]).report.changes.filter((c) => c.op === 'remove').map((c) => c.path.split('/').pop());
    expect(removed.sort()).toEqual(unreachable.sort());
  });
});

describe('composition', () => {
  it('splits the bytes into parts that add up to the compact JSON, counted by hand', () => {
    const tools = [
      {
        name: 'get', // "get" = 5 bytes
        description: 'Gets é', // "Gets é" = 9 bytes (é is 2)
        inputSchema: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'The ID', enum: ['a', 'b'] }, // "id" 4; "The ID" 8; ["a","b"] 9
            description: { type: 'integer', default: 3 }, // a property named description: "description" 13; 3 = 1
          },
          default: { description: 'data, not prose' }, // data: the whole value counts as data
        },
        annotations: { title: 'x' },
      },
    ];
    const c = composition(tools);
    expect(c['tool descriptions']).toBe(9);
    expect(c['schema descriptions']).toBe(8);
    expect(c.names).toBe(5 + 4 + 13);
    expect(c['data values']).toBe(9 + 1 + Buffer.byteLength('{"description":"data, not prose"}'));
    const total = Buffer.byteLength(JSON.stringify(tools));
    expect(COMPOSITION_PARTS.reduce((a, p) => a + c[p], 0)).toBe(total);
    expect(c['everything else']).toBe(total - 9 - 8 - 22 - (10 + 33));
    expect(addCompositions([c, c]).names).toBe(44);
  });
});

describe('size targets', () => {
  const row = (key: string, medianMs: number, ratio: number) => ({ key, label: key === 'default' ? 'default pipeline' : key, medianMs, samples: 1, ratio, usPerTool: 0, mbPerS: 0 });
  const point = (tools: number, bytes: number, skipped?: string): ScalingPoint =>
    skipped
      ? { size: `${tools / 1000}k tools`, tools, bytes: 0, inputHeapBytes: 0, resultHeapBytes: 0, rows: [], skipped }
      : { size: `${tools / 1000}k tools`, tools, bytes, inputHeapBytes: bytes * 1.3, resultHeapBytes: bytes * 0.5, rows: [row('floor', 100, 1), row('default', 800, 8)] };

  it('names the first point reaching 50 MB and 100,000 tools, and says why one is missing', () => {
    const lines = sizeTargets([point(10_000, 16.6e6), point(30_000, 49.9e6), point(60_000, 99e6), point(100_000, 0, 'over the time budget')]);
    // 49.9 MB is not 50 MB: the 60k point is the first that reaches it.
    expect(lines[0]).toMatch(/^✅ a tools\/list of 50 MB or more: 60k tools, 99\.0\d* MB/);
    expect(lines[0]).toContain('8.0');
    expect(lines[1]).toBe('❌ 100,000 tools: not measured (100k tools skipped: over the time budget)');
    const all = sizeTargets([point(100_000, 166e6)]);
    expect(all.every((l) => l.startsWith('✅'))).toBe(true);
    expect(sizeTargets([])).toEqual(['❌ a tools/list of 50 MB or more: not measured in this run', '❌ 100,000 tools: not measured in this run']);
  });
});
