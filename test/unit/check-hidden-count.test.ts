/**
 * `check`'s text lists the first INFO_SHOWN findings of each info code, then one line counting the rest.
 * That line said "… and 141 more tools" for firecrawl-mcp 3.22.2's missing-param-description (146
 * findings in 25 of its 26 tools: one per parameter): it counted findings and called them tools.
 */
import { describe, expect, it } from 'vitest';
import { INFO_SHOWN, makeStyle, renderFindingLines } from '../../src/cli/format.js';
import { lintTools } from '../../src/lint/index.js';

const params = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }]));

describe("check's line counting the findings it left out", () => {
  it('counts findings and the tools they are in when a tool has several of one code', () => {
    // 3 tools of 4 parameters without descriptions: 12 findings, 5 shown (tool a's 4, tool b's first), 7 left in 2 tools.
    const tools = ['a', 'b', 'c'].map((name) => ({ name, description: `Tool ${name} does a thing of its own`, inputSchema: { type: 'object', properties: params(4) } }));
    const findings = lintTools(tools).filter((f) => f.code === 'missing-param-description');
    expect(findings).toHaveLength(12);
    const last = renderFindingLines(findings, makeStyle(false)).split('\n').at(-1);
    expect(last).toBe('info    missing-param-description … and 7 more findings in 2 tools (--format json lists every finding)');
  });

  it('says tools when each left-out finding is in a tool of its own', () => {
    const tools = Array.from({ length: INFO_SHOWN + 3 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object', properties: params(6) } }));
    const findings = lintTools(tools).filter((f) => f.code === 'many-arguments');
    const last = renderFindingLines(findings, makeStyle(false)).split('\n').at(-1);
    expect(last).toMatch(/many-arguments … and 3 more tools \(--format json lists every finding\)$/);
  });
});
