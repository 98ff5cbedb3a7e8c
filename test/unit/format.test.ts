import { describe, expect, it } from 'vitest';
import { defineTransform, formatReport, transformTools } from '../../src/index.js';

const grow = defineTransform({
  name: 'strip-nothing-grow',
  description: 'Adds a field, so the list grows',
  // Adds a tool field: not lossless, so the gate holds it only to compiling.
  safety: 'lossy',
  defaultOptions: {},
  messages: { added: 'Added' },
  apply: (_doc, ctx) => ctx.add('/x-grown', 'xxxxxxxxxxxxxxxxxxxx', 'added'),
});

describe('formatReport', () => {
  it('shows growth with a plus sign, savings with a minus', () => {
    const grown = transformTools([{ name: 'a', inputSchema: { type: 'object' } }], { transforms: [grow] });
    expect(formatReport(grown.report)).toMatch(/bytes \(\+\d+\.\d%\)/);
    const pruned = transformTools([{ name: 'a', inputSchema: { $defs: { X: { type: 'string' } } } }]);
    expect(formatReport(pruned.report)).toMatch(/bytes \(−\d+\.\d%\)/);
  });

  it('says "1 tool", "2 tools"', () => {
    const one = { name: 'a', inputSchema: { type: 'object' } };
    expect(formatReport(transformTools([one]).report)).toMatch(/^1 tool: /);
    expect(formatReport(transformTools([one, { ...one, name: 'b' }]).report)).toMatch(/^2 tools: /);
  });

  it('keeps a markdown table one row per tool, whatever the tool name holds', () => {
    const tool = { name: 'bad|name\nwith newline', inputSchema: { type: 'object' } };
    const r = transformTools([tool]);
    const md = formatReport(r.report, 'markdown');
    const row = md.split('\n').find((l) => l.includes('bad'))!;
    const n = Buffer.byteLength(JSON.stringify(tool));
    expect(row).toBe(`| bad\\|name with newline | ${n} | ${n} |`);
  });

  it('json is the report itself', () => {
    const r = transformTools([{ name: 'a', inputSchema: {} }]);
    expect(JSON.parse(formatReport(r.report, 'json'))).toEqual(JSON.parse(JSON.stringify(r.report)));
  });
});
