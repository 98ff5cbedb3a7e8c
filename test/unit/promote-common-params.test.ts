/** promote-common-params: the dictionary text it hands back, beside the fixtures that check the tools. */
import { describe, expect, it } from 'vitest';
import { presetMax, promoteCommonParams, transformTools } from '../../src/index.js';
import { deepFreeze } from '../helpers/freeze.js';

const WS = 'ID of the workspace to act on; find it with list_workspaces.';
const LIMIT = 'Maximum number of results to return, between 1 and 100 (default 20).';
const tool = (name: string, properties: Record<string, unknown>) => ({ name, inputSchema: { type: 'object', properties } });

const tools = deepFreeze([
  tool('a', { workspace_id: { type: 'string', description: WS }, limit: { type: 'integer', description: LIMIT } }),
  tool('b', { workspace_id: { type: 'string', description: WS }, limit: { type: 'integer', description: LIMIT } }),
  tool('c', { workspace_id: { type: 'string', description: WS }, limit: { type: 'integer', description: LIMIT }, q: { type: 'string', description: 'Multi-line\ntext' } }),
]);

describe('promote-common-params', () => {
  it('returns the dictionary as instructions: sorted by name, one line each', () => {
    const result = promoteCommonParams(tools);
    expect(result.instructions).toBe(
      'Parameters shared by several tools. A parameter with one of these names and no description of its own means:\n' +
        `- "limit": ${LIMIT}\n` +
        `- "workspace_id": ${WS}`,
    );
    expect(result.report.changes).toHaveLength(6);
  });

  it('indents continuation lines of a multi-line description', () => {
    const multi = 'First line of a long shared description that is worth promoting.\nSecond line.';
    const list = [0, 1, 2].map((i) => tool(`t${i}`, { q: { type: 'string', description: multi } }));
    expect(promoteCommonParams(list).instructions).toBe(
      'Parameters shared by several tools. A parameter with one of these names and no description of its own means:\n' +
        '- "q": First line of a long shared description that is worth promoting.\n  Second line.',
    );
  });

  it('returns no instructions when nothing is promoted', () => {
    const result = promoteCommonParams(tools, { minTools: 4 });
    expect(result.instructions).toBeUndefined();
    expect(result.report.changes).toEqual([]);
    expect('instructions' in result).toBe(false);
  });

  it('never promotes a name that some tool leaves undescribed', () => {
    const list = [...tools, tool('d', { workspace_id: { type: 'string' } })];
    const result = promoteCommonParams(list);
    expect(result.instructions).not.toContain('workspace_id');
    expect(result.instructions).toContain('"limit"');
  });

  it('is deterministic and independent of tool order', () => {
    const reversed = [...tools].reverse();
    expect(promoteCommonParams(reversed).instructions).toBe(promoteCommonParams(tools).instructions);
  });

  it('hands its instructions through transformTools and the max preset', () => {
    const result = transformTools(tools, { transforms: [presetMax] });
    expect(result.instructions).toBe(promoteCommonParams(tools).instructions);
    expect(transformTools(tools).instructions).toBeUndefined();
  });

  it('rejects a minTools below 2', () => {
    expect(() => promoteCommonParams(tools, { minTools: 1 })).toThrow(/minTools/);
  });
});
