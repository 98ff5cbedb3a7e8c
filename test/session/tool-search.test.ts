/**
 * The session library's search mode (tool-search.ts, ToolSession with `hotSet.search`), transport-free:
 * what is served (hot tools as given, then the two fixed tools), what a search returns (BM25 order over
 * name and description, worked out by hand on a list whose words are chosen so), how the call tool is
 * unwrapped and checked, and the choice by list size at the documented threshold.
 */
import { describe, expect, it } from 'vitest';
import { ToolslimError } from '../../src/core/errors.js';
import type { McpTool } from '../../src/core/tool.js';
import { ToolUsageGraph } from '../../src/usage/graph.js';
import { ToolSession } from '../../src/session/index.js';
import { CALL_TOOL, chooseServing, SEARCH_MIN_TOOLS, SEARCH_TOOL, SEARCH_TOOLS } from '../../src/session/tool-search.js';

const deepFreeze = <T>(v: T): T => {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
};

const TOOLS: McpTool[] = deepFreeze([
  { name: 'list_files', description: 'List the files of a folder.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'send_mail', description: 'Send an email message to a person.', inputSchema: { type: 'object', properties: { to: { type: 'string', format: 'email' }, body: { type: 'string' } }, required: ['to', 'body'] } },
  { name: 'read_file', description: 'Read one file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'get_time', description: 'The current time.', inputSchema: { type: 'object', properties: {} } },
]);

/** A graph in which list_files was called in every recorded session (so it is hot with k ≥ 1). */
function graph(): ToolUsageGraph {
  const g = new ToolUsageGraph();
  for (let i = 0; i < 3; i++) {
    g.beginSession();
    g.record('list_files');
  }
  return g;
}

describe('ToolSession with hotSet.search', () => {
  it('serves the hot tools as given, then the search and call tools; no cold tool', () => {
    const s = new ToolSession({ list: TOOLS, hotSet: { k: 5, graph: graph(), search: true } });
    expect(s.hot).toEqual(['list_files']);
    expect(s.tools.map((t) => t.name)).toEqual(['list_files', SEARCH_TOOL, CALL_TOOL]);
    expect(s.tools[0]).toBe(TOOLS[0]);
    expect(s.result).toEqual({ tools: [TOOLS[0], ...SEARCH_TOOLS] });
    expect(s.definitionBytes('send_mail')!.served).toBe(0);
  });

  it('a search ranks the cold tools only, by their words; the list does not change', () => {
    const s = new ToolSession({ list: TOOLS, hotSet: { k: 5, graph: graph(), search: true } });
    const text = s.text;
    // Only read_file holds "read" or "file" (list_files is hot, so it is not searched; and "files" ≠ "file").
    const d = s.onCall(SEARCH_TOOL, { query: 'read file' });
    expect(d.action).toBe('answer');
    if (d.action !== 'answer') return;
    expect(JSON.parse(d.result.content[0]!.text)).toEqual([TOOLS[2]]);
    expect(d.result.isError).toBeUndefined();
    const mail = s.onCall(SEARCH_TOOL, { query: 'email time' });
    if (mail.action !== 'answer') throw new Error('expected an answer');
    // Each word in one cold tool (the same idf): get_time holds "time" 3 times in 7 terms, send_mail "email" once in 11.
    expect(JSON.parse(mail.result.content[0]!.text).map((t: McpTool) => t.name)).toEqual(['get_time', 'send_mail']);
    const bad = s.onCall(SEARCH_TOOL, { query: 'x', limit: 0 });
    expect(bad.action === 'answer' && bad.result.isError).toBe(true);
    expect(s.text).toBe(text);
    expect(s.version).toBe(0);
  });

  it('the call tool is unwrapped and its call checked against the real schema', () => {
    const s = new ToolSession({ list: TOOLS, hotSet: { k: 5, graph: graph(), search: true } });
    expect(s.unwrapCall(CALL_TOOL, { name: 'send_mail', arguments: { to: 'a@b.c', body: 'hi' } })).toEqual({ name: 'send_mail', arguments: { to: 'a@b.c', body: 'hi' } });
    expect(s.unwrapCall('send_mail', {})).toBeUndefined();
    expect(s.unwrapCall(CALL_TOOL, { name: 'nope' })).toMatchObject({ isError: true });
    const ok = s.onCall(CALL_TOOL, { name: 'send_mail', arguments: { to: 'a@b.c', body: 'hi' } });
    expect(ok).toMatchObject({ action: 'forward', tool: 'send_mail', cold: true, call: { name: 'send_mail', arguments: { to: 'a@b.c', body: 'hi' } } });
    const invalid = s.onCall(CALL_TOOL, { name: 'send_mail', arguments: { to: 'a@b.c' } });
    expect(invalid.action).toBe('answer');
    expect(invalid.action === 'answer' && invalid.result.content[0]!.text).toContain("must have required property 'body'");
    // By name: the same check.
    expect(s.onCall('read_file', {}).action).toBe('answer');
    expect(s.onCall('read_file', { path: '/x' }).action).toBe('forward');
  });

  it('refuses a server tool named like its own tools, and a non-boolean option', () => {
    const clash = deepFreeze([...TOOLS, { name: SEARCH_TOOL, inputSchema: { type: 'object' } }]) as McpTool[];
    expect(() => new ToolSession({ list: clash, hotSet: { search: true } })).toThrow(ToolslimError);
    expect(() => new ToolSession({ list: TOOLS, hotSet: { search: 'yes' as never } })).toThrow(/`hotSet.search` must be true or false/);
    // Without search, such a tool is just a tool.
    expect(new ToolSession({ list: clash, hotSet: {} }).tools).toHaveLength(5);
  });
});

describe('chooseServing', () => {
  it('switches to search at the documented size', () => {
    expect(SEARCH_MIN_TOOLS).toBe(100);
    expect(chooseServing(99).mode).toBe('full');
    expect(chooseServing(100).mode).toBe('search');
    expect(chooseServing(634).why).toMatch(/^634 tools \(≥ 100\)/);
  });
});
