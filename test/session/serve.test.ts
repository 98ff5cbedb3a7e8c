/**
 * serveToolsList: unreadable tools found by an independent strict reader (the test's own Ajv2020) and by
 * MCP's shape rule, dropped only when asked and always named; instructions delivered or the run refuses.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { presetMax, ToolslimError, type McpTool } from '../../src/index.js';
import { appendInstructions, findUnreadable, serveToolsList, stepsWritingInstructions } from '../../src/session/serve.js';
import { deepFreeze } from '../helpers/freeze.js';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';

const ok = (name: string): McpTool => ({ name, description: `The ${name} tool.`, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });
/** The seed: an output schema whose $ref leads nowhere (the MCP SDK Client compiles output schemas in listTools and throws). */
const SEED: McpTool = { name: 'broken', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { hits: { $ref: '#/$defs/Hit' } } } };
const list = deepFreeze({ tools: [ok('first'), SEED, ok('last'), { name: 'shapeless', inputSchema: { properties: { a: { type: 'string' } } } }] as McpTool[], _meta: { page: 'all' } });

describe('findUnreadable', () => {
  it('names each slot a strict 2020-12 reader cannot read, agreeing with an independent Ajv2020', () => {
    const tools = [ok('a'), SEED, { name: 'bad-type', inputSchema: { type: 'object', properties: { x: { type: 'strin' } } } }, { name: 'stamped', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' } }, { name: 'no-input' }, { name: 'array', inputSchema: { type: 'array' } }];
    const found = findUnreadable(tools);
    expect(found.map((u) => [u.name, u.slot])).toEqual([
      ['broken', 'outputSchema'],
      ['bad-type', 'inputSchema'],
      ['stamped', 'inputSchema'],
      ['no-input', 'inputSchema'],
      ['array', 'inputSchema'],
    ]);
    // The oracle: each ajv-unreadable slot throws in the test's own strict reader, and the readable ones do not.
    const reader = () => new Ajv2020({ strict: false, logger: false });
    expect(() => reader().compile(SEED.outputSchema as object)).toThrow(/can't resolve reference/);
    expect(() => reader().compile(tools[2]!.inputSchema as object)).toThrow();
    expect(() => reader().compile(tools[3]!.inputSchema as object)).toThrow(/no schema with key or ref/);
    expect(() => reader().compile(tools[0]!.inputSchema as object)).not.toThrow();
    expect(found[0]!.error).toMatch(/can't resolve reference #\/\$defs\/Hit/);
    expect(found[3]!.error).toBe('MCP requires `inputSchema` to be an object schema with `"type": "object"` at its root, found none');
  });
});

describe('serveToolsList', () => {
  it('by default serves every tool and does not look (the check costs a compile per schema)', () => {
    const served = serveToolsList(list, { transforms: [] });
    expect(served.tools.map((t) => t.name)).toEqual(['first', 'broken', 'last', 'shapeless']);
    expect(served.unreadable).toEqual([]);
    expect(served.report.diagnostics.filter((d) => d.transform === 'serve')).toEqual([]);
  });

  it('with reportUnreadable serves every tool, with an error diagnostic per unreadable one', () => {
    const served = serveToolsList(list, { transforms: [], reportUnreadable: true });
    expect(served.tools.map((t) => t.name)).toEqual(['first', 'broken', 'last', 'shapeless']);
    expect(served.dropped).toEqual([]);
    expect(served.unreadable.map((u) => u.name)).toEqual(['broken', 'shapeless']);
    expect(served.report.diagnostics.filter((d) => d.transform === 'serve').map((d) => [d.severity, d.code, d.path])).toEqual([
      ['error', 'unreadable-schema', '/1/outputSchema'],
      ['error', 'unreadable-schema', '/3/inputSchema'],
    ]);
    expect(served.result).toEqual(list);
  });

  it('with dropUnreadable leaves them out, names them, and keeps the envelope and the order', () => {
    const served = serveToolsList(list, { dropUnreadable: true });
    expect(served.tools.map((t) => t.name)).toEqual(['first', 'last']);
    expect(served.dropped.map((d) => ({ name: d.name, slot: d.slot }))).toEqual([
      { name: 'broken', slot: 'outputSchema' },
      { name: 'shapeless', slot: 'inputSchema' },
    ]);
    expect(served.result).toEqual({ tools: served.tools, _meta: { page: 'all' } });
    expect(Object.keys(served.result as object)).toEqual(['tools', '_meta']);
    expect(served.report.diagnostics.filter((d) => d.code === 'dropped-unreadable').map((d) => d.message)).toEqual([
      "Left tool `broken` out of the served list: a strict 2020-12 reader cannot read its `outputSchema` (can't resolve reference #/$defs/Hit from id #)",
      'Left tool `shapeless` out of the served list: a strict 2020-12 reader cannot read its `inputSchema` (MCP requires `inputSchema` to be an object schema with `"type": "object"` at its root, found {})',
    ]);
  });

  it('with dropUnreadable also leaves out entries that are no tool (not an object, no string name), which make the SDK Client refuse the whole list', () => {
    // Found as a user: a server listing `42` and `null` beside its tools, behind `toolslim proxy --drop-unreadable`:
    // the tools with bad schemas were left out, these two were served, and the SDK's listTools() threw for all.
    const raw = { tools: [ok('first'), 42, null, { description: 'no name', inputSchema: { type: 'object' } }, { name: 7, inputSchema: { type: 'object' } }, ok('last')] };
    // The oracle: the MCP SDK's own ListToolsResultSchema refuses the list as the server sent it.
    expect(ListToolsResultSchema.safeParse(raw).success).toBe(false);
    const served = serveToolsList(raw, { transforms: [], dropUnreadable: true });
    expect(ListToolsResultSchema.safeParse(served.result).success).toBe(true);
    expect(served.tools.map((t) => t.name)).toEqual(['first', 'last']);
    expect(served.dropped.map((d) => [d.name, d.index])).toEqual([
      ['', 1],
      ['', 2],
      ['', 3],
      ['', 4],
    ]);
    expect(served.report.diagnostics.filter((d) => d.code === 'dropped-unreadable').map((d) => d.message)).toEqual([
      'Left tool #1 out of the served list: a strict 2020-12 reader cannot read it (MCP requires each tool to be an object with a string `name`, found 42)',
      'Left tool #2 out of the served list: a strict 2020-12 reader cannot read it (MCP requires each tool to be an object with a string `name`, found null)',
      'Left tool #3 out of the served list: a strict 2020-12 reader cannot read it (MCP requires each tool to be an object with a string `name`, found none)',
      'Left tool #4 out of the served list: a strict 2020-12 reader cannot read it (MCP requires each tool to be an object with a string `name`, found 7)',
    ]);
  });

  it('accepts a JSON-RPC response and a bare array', () => {
    const rpc = serveToolsList({ jsonrpc: '2.0', id: 1, result: { tools: [ok('a'), SEED] } }, { dropUnreadable: true });
    expect(rpc.result).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [rpc.tools[0]] } });
    expect(serveToolsList([ok('a')]).result).toEqual([ok('a')]);
  });
});

describe('instructions: delivered or refused', () => {
  const WS = 'ID of the workspace to act on; find it with list_workspaces.';
  const shared = deepFreeze({ tools: ['a', 'b', 'c'].map((name) => ({ name, inputSchema: { type: 'object', properties: { workspace_id: { type: 'string', description: WS } } } })) as McpTool[] });

  it('names the steps that write instructions', () => {
    expect(stepsWritingInstructions(['max'])).toEqual(['promote-common-params']);
    expect(stepsWritingInstructions([presetMax])).toEqual(['promote-common-params']);
    expect(stepsWritingInstructions(['safe'])).toEqual([]);
    const served = serveToolsList(shared, { transforms: ['max'] });
    expect(served.instructions).toContain(`- "workspace_id": ${WS}`);
    expect(served.instructionSteps).toEqual(['promote-common-params']);
    expect(JSON.stringify(served.tools)).not.toContain(WS);
  });

  it('accepts the same instructions again, and refuses new ones once initialize was answered, naming the step', () => {
    const first = serveToolsList(shared, { transforms: ['max'] });
    expect(serveToolsList(shared, { transforms: ['max'], delivered: first.instructions }).instructions).toBe(first.instructions);
    let error: unknown;
    try {
      serveToolsList(shared, { transforms: ['max'], delivered: '' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolslimError);
    expect((error as ToolslimError).transform).toBe('promote-common-params');
    expect((error as Error).message).toMatch(/^`promote-common-params` moved text into the server instructions, but the `initialize` result was already sent without them, so the client cannot receive them/);
  });

  it('or, asked to, runs without those steps so every description stays in the tools', () => {
    const served = serveToolsList(shared, { transforms: ['max'], delivered: '', onUndeliverable: 'omit-steps' });
    expect(served.instructions).toBeUndefined();
    expect(served.omittedSteps).toEqual(['promote-common-params']);
    expect(served.tools.every((t) => JSON.stringify(t).includes(WS))).toBe(true);
  });

  it('instructions the client has but no longer needs are not an error', () => {
    expect(serveToolsList({ tools: [ok('x')] }, { transforms: ['max'], delivered: 'old text' }).omittedSteps).toEqual([]);
  });

  it('appendInstructions: after the server’s own text, or alone; members kept in order; input untouched', () => {
    const init = deepFreeze({ protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' }, instructions: 'Use me wisely.\n' });
    const out = appendInstructions(init, 'Shared parameters: …');
    expect(out).toEqual({ ...init, instructions: 'Use me wisely.\n\nShared parameters: …' });
    expect(Object.keys(out)).toEqual(Object.keys(init));
    const bare = appendInstructions({ protocolVersion: 'x', capabilities: {} }, 'T');
    expect(bare).toEqual({ protocolVersion: 'x', capabilities: {}, instructions: 'T' });
    expect(appendInstructions(init, undefined)).toBe(init);
    expect(appendInstructions({ instructions: '  ' }, 'T')).toEqual({ instructions: 'T' });
    // Trailing whitespace of every kind goes, as /\s+$/ took it; a long run inside the text is kept, at once.
    for (const ws of [' ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff']) {
      expect(appendInstructions({ instructions: `a${ws}b${ws}${ws}` }, 'T')).toEqual({ instructions: `a${ws}b\n\nT` });
    }
    const long = 'a' + ' '.repeat(200_000) + 'b';
    expect(appendInstructions({ instructions: long + '   ' }, 'T')).toEqual({ instructions: `${long}\n\nT` });
  });

  it('rejects unusable options', () => {
    expect(() => serveToolsList(shared, { dropUnreadable: 'yes' as never })).toThrow(/`dropUnreadable` must be true or false/);
    expect(() => serveToolsList(shared, { reportUnreadable: 1 as never })).toThrow(/`reportUnreadable` must be true or false/);
    expect(() => serveToolsList(shared, { onUndeliverable: 'drop' as never })).toThrow(/`onUndeliverable` must be 'throw' or 'omit-steps'/);
    expect(() => serveToolsList(shared, { transforms: ['nope'] })).toThrow(/unknown transform or preset `nope`/);
  });
});
