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
import { Bm25 } from '../../src/session/bm25.js';
import { CALL_TOOL, chooseServing, searchText, ToolSearchIndex, NAMES_MIN_BYTES, SEARCH_MIN_TOOLS, searchToolNames, serverToolPrefix, SEARCH_TOOL, SEARCH_TOOLS, searchMode, searchTools } from '../../src/session/tool-search.js';

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

  it('the call tool takes a renamed tool by its server name too, as a direct call does, and checks it as that tool', () => {
    // A profile renamed the server's `2fa_login` to `_2fa_login` (the served name; the server's is mapped back).
    const renamed = deepFreeze([...TOOLS, { name: '_2fa_login', description: 'Log in with a code.', inputSchema: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] } }]) as McpTool[];
    const s = new ToolSession({ list: renamed, hotSet: { k: 5, graph: graph(), search: true }, serverNames: new Map([['_2fa_login', '2fa_login']]) });
    expect(s.unwrapCall(CALL_TOOL, { name: '2fa_login', arguments: { code: '1' } })).toEqual({ name: '_2fa_login', arguments: { code: '1' } });
    expect(s.unwrapCall(CALL_TOOL, { name: '_2fa_login', arguments: { code: '1' } })).toEqual({ name: '_2fa_login', arguments: { code: '1' } });
    expect(s.onCall(CALL_TOOL, { name: '2fa_login', arguments: { code: '1' } })).toMatchObject({ action: 'forward', tool: '_2fa_login', cold: true, call: { name: '_2fa_login' } });
    const invalid = s.onCall(CALL_TOOL, { name: '2fa_login', arguments: {} });
    expect(invalid.action === 'answer' && invalid.result.content[0]!.text).toContain("must have required property 'code'");
    // A name that is neither served nor a server's name of a served tool is still unknown.
    expect(s.unwrapCall(CALL_TOOL, { name: '3fa_login' })).toMatchObject({ isError: true });
  });

  it('a tool that runs only as a task is served in full, never behind the call tool (which cannot carry a task)', () => {
    // Found as a user: server-everything's simulate-research-query (taskSupport "required") behind the proxy's
    // search: the call tool's inner call went without a task, and the server refused every one.
    const research = { name: 'research', description: 'Research a question.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, execution: { taskSupport: 'required' } };
    const maybe = { name: 'maybe_task', description: 'May run as a task.', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } };
    const list = deepFreeze([...TOOLS, research, maybe]) as McpTool[];
    for (const search of [true, 'names'] as const) {
      const s = new ToolSession({ list, hotSet: { k: 5, graph: graph(), search } });
      // In full, as the server lists it (execution included), in list order among the hot tools.
      expect(s.tools.map((t) => t.name)).toEqual(['list_files', 'research', SEARCH_TOOL, CALL_TOOL]);
      expect(s.tools[1]).toBe(list[4]);
      expect(s.hot).toEqual(['list_files', 'research']);
      expect(s.isHot('research')).toBe(true);
      // A direct call is forwarded as any hot tool's (the client's task goes with it); the optional one stays searchable.
      expect(s.onCall('research', { q: 'x' })).toMatchObject({ action: 'forward', tool: 'research', cold: false });
      const found = s.onCall(SEARCH_TOOL, { query: 'task research' });
      if (found.action !== 'answer') throw new Error('expected an answer');
      expect(JSON.parse(found.result.content[0]!.text).map((t: McpTool) => t.name)).toEqual(['maybe_task']);
      if (search === 'names') expect(s.tools[2]!.description).not.toContain('research');
      // A new list from the server: the rule holds for it too.
      s.update([...TOOLS, { ...research, name: 'research2' }]);
      expect(s.hot).toEqual(['list_files', 'research2']);
    }
    // Without search, a hot set serves it cold with its execution kept (served-tools.ts), as before.
    const plain = new ToolSession({ list, hotSet: { k: 5, graph: graph() } });
    expect(plain.hot).toEqual(['list_files']);
    expect(plain.tools.find((t) => t.name === 'research')).toMatchObject({ execution: { taskSupport: 'required' } });
  });

  it('refuses a server tool named like its own tools, and a non-boolean option', () => {
    const clash = deepFreeze([...TOOLS, { name: SEARCH_TOOL, inputSchema: { type: 'object' } }]) as McpTool[];
    expect(() => new ToolSession({ list: clash, hotSet: { search: true } })).toThrow(ToolslimError);
    expect(() => new ToolSession({ list: TOOLS, hotSet: { search: 'yes' as never } })).toThrow(/`hotSet.search` must be true, false or 'names'/);
    // Without search, such a tool is just a tool.
    expect(new ToolSession({ list: clash, hotSet: {} }).tools).toHaveLength(5);
  });
});

describe("ToolSession with hotSet.search: 'names'", () => {
  it('the search tool lists the cold tools by name, in list order; the hot ones are not listed', () => {
    const s = new ToolSession({ list: TOOLS, hotSet: { k: 5, graph: graph(), search: 'names' } });
    expect(s.tools.map((t) => t.name)).toEqual(['list_files', SEARCH_TOOL, CALL_TOOL]);
    expect(s.tools[1]!.description).toMatch(/ Its other tools: send_mail, read_file, get_time\.$/);
    expect(s.tools[1]!.description).toContain('by keywords or name;');
    // The call tool and both schemas are those of the plain search mode.
    expect(s.tools[2]).toEqual(SEARCH_TOOLS[1]);
    expect(s.tools[1]!.inputSchema).toEqual(SEARCH_TOOLS[0]!.inputSchema);
    expect(searchTools([])).toEqual(SEARCH_TOOLS);
  });

  it('a search by a listed name returns that tool alone; keywords still rank; a call is checked as in search mode', () => {
    const s = new ToolSession({ list: TOOLS, hotSet: { k: 5, graph: graph(), search: 'names' } });
    const text = s.text;
    const byName = s.onCall(SEARCH_TOOL, { query: 'send_mail' });
    if (byName.action !== 'answer') throw new Error('expected an answer');
    expect(JSON.parse(byName.result.content[0]!.text)).toEqual([TOOLS[1]]);
    // " read_file " (spaces around) is the name too; a hot tool's name is not searchable (list_files is in the list).
    const spaced = s.onCall(SEARCH_TOOL, { query: ' read_file ' });
    expect(spaced.action === 'answer' && JSON.parse(spaced.result.content[0]!.text)).toEqual([TOOLS[2]]);
    const hot = s.onCall(SEARCH_TOOL, { query: 'list_files' });
    expect(hot.action === 'answer' && hot.result.content[0]!.text).not.toContain('"name":"list_files"');
    const bad = s.onCall(CALL_TOOL, { name: 'send_mail', arguments: { to: 'a@b.c' } });
    expect(bad.action).toBe('answer');
    expect(s.onCall(CALL_TOOL, { name: 'send_mail', arguments: { to: 'a@b.c', body: 'hi' } }).action).toBe('forward');
    expect(s.text).toBe(text);
  });
});

describe('ToolSearchIndex: a query spelling a name in words', () => {
  // As on ms-365: six tools whose names hold "list", "mail" and "messages" with a word more and short
  // descriptions, and the one the query names, with a long description (BM25 normalises by length).
  const near = (name: string): McpTool => ({ name, description: 'List mail messages.', inputSchema: { type: 'object' } });
  const long = 'Get the messages in the signed-in user\'s mailbox (including the Deleted Items and Clutter folders). Depending on the page size and mailbox data, getting messages from a mailbox can incur multiple requests. The default page size is 10 messages; use $top to customize the page size, within the range of 1 and 1000. To improve the operation response time, use $select to specify the exact properties you need.';
  const tools: McpTool[] = deepFreeze([
    near('list-mail-folder-messages'),
    near('list-shared-mail-messages'),
    near('list-mail-messages-delta'),
    { name: 'list-mail-messages', description: long, inputSchema: { type: 'object' } },
    near('list-mail-child-folder-messages'),
    near('list-group-mail-messages'),
    near('list-mail-messages-attachments'),
  ]);

  it('puts the tool so named first, then the BM25 ranking without it (BM25 alone ranked it outside the first five)', () => {
    const bm25 = new Bm25(tools.map(searchText)).top('list mail messages', 7);
    expect(bm25.indexOf(3)).toBeGreaterThanOrEqual(5); // the fixture is what ms-365 showed
    const index = new ToolSearchIndex(tools);
    for (const query of ['list mail messages', 'List Mail Messages', 'list_mail_messages', 'listMailMessages']) {
      const found = index.search(query, 5).map((t) => t.name);
      expect(found).toEqual(['list-mail-messages', ...bm25.filter((i) => i !== 3).slice(0, 4).map((i) => tools[i]!.name)]);
    }
    // Only the whole name in order: other word orders and parts rank by BM25 alone.
    expect(index.search('messages mail list', 5).map((t) => t.name)).toEqual(bm25.slice(0, 5).map((i) => tools[i]!.name));
    expect(index.search('list mail', 5).map((t) => t.name)).toEqual(new Bm25(tools.map(searchText)).top('list mail', 5).map((i) => tools[i]!.name));
    // The exact name still loads that tool alone; a limit of 1 is the named tool.
    expect(index.search('list-mail-messages').map((t) => t.name)).toEqual(['list-mail-messages']);
    expect(index.search('list mail messages', 1).map((t) => t.name)).toEqual(['list-mail-messages']);
  });
});

describe('search tool names (searchPrefix, serverToolPrefix)', () => {
  it('a server name becomes a prefix by the documented rule; nothing usable falls back to toolslim_', () => {
    // Expected prefixes derived by hand from the rule in the doc comment.
    expect(serverToolPrefix('@acme/Git Hub-MCP')).toBe('acme_git_hub_mcp_');
    expect(serverToolPrefix('mcp-servers/everything')).toBe('mcp_servers_everything_');
    expect(serverToolPrefix('Über Server')).toBe('ber_server_');
    expect(serverToolPrefix('x'.repeat(39) + '-yz')).toBe('x'.repeat(39) + '_');
    // A leading digit: Gemini and Kimi refuse a tool name that starts with one (found with a server named `9lives`).
    expect(serverToolPrefix('9lives')).toBe('_9lives_');
    expect(serverToolPrefix('@21st-dev/Magic')).toBe('_21st_dev_magic_');
    expect(serverToolPrefix('***')).toBe('toolslim_');
    expect(serverToolPrefix(undefined)).toBe('toolslim_');
    expect(serverToolPrefix(42)).toBe('toolslim_');
    expect(searchToolNames()).toEqual({ search: 'toolslim_search_tools', call: 'toolslim_call_tool' });
    expect(searchToolNames('gh.')).toEqual({ search: 'gh.search_tools', call: 'gh.call_tool' });
    expect(() => searchToolNames('a b')).toThrow(/search prefix: must be at most 100 of A-Z a-z 0-9 _ \. - \(tool-name characters\), got "a b"/);
    expect(() => searchToolNames('x'.repeat(101))).toThrow(ToolslimError);
  });

  it('a session with searchPrefix serves, answers and unwraps under those names only', () => {
    const s = new ToolSession({ list: TOOLS, hotSet: { k: 5, graph: graph(), search: 'names', searchPrefix: 'files_' } });
    expect(s.tools.map((t) => t.name)).toEqual(['list_files', 'files_search_tools', 'files_call_tool']);
    expect(s.tools[1]!.description).toContain('Call them with files_call_tool. Its other tools: send_mail, read_file, get_time.');
    const found = s.onCall('files_search_tools', { query: 'send_mail' });
    expect(found.action).toBe('answer');
    expect(JSON.parse((found as unknown as { result: { content: { text: string }[] } }).result.content[0]!.text)).toEqual([TOOLS[1]]);
    expect(s.unwrapCall('files_call_tool', { name: 'read_file', arguments: { path: 'a' } })).toEqual({ name: 'read_file', arguments: { path: 'a' } });
    // The default names are not this session's.
    expect(s.unwrapCall('toolslim_call_tool', { name: 'read_file', arguments: {} })).toBeUndefined();
    expect(s.onCall('toolslim_search_tools', { query: 'mail' }).action).not.toBe('answer');
    // A server tool of the prefixed name clashes; a bad prefix is refused with the option's name.
    const clash = deepFreeze([...TOOLS, { name: 'files_call_tool', inputSchema: { type: 'object' } }]) as McpTool[];
    expect(() => new ToolSession({ list: clash, hotSet: { search: true, searchPrefix: 'files_' } })).toThrow(/the server has a tool named `files_call_tool`/);
    expect(() => new ToolSession({ list: TOOLS, hotSet: { search: true, searchPrefix: 'no space' } })).toThrow(/`hotSet.searchPrefix`: must be at most 100/);
  });
});

describe('chooseServing and searchMode', () => {
  // A tool whose compact JSON is exactly `bytes` bytes long: {"name":"tNNN","description":"xxx…"} — 32 bytes
  // of frame with the 4-character name, the rest description (ASCII: one byte a character).
  const tool = (i: number, bytes: number) => ({ name: `t${String(i).padStart(3, '0')}`, description: 'x'.repeat(bytes - 32) });
  // n tools, `bytes` in all: the array's brackets and commas are n + 1 bytes.
  const list = (n: number, bytes: number) => {
    const each = Math.floor((bytes - (n + 1)) / n);
    const tools = Array.from({ length: n }, (_, i) => tool(i, each));
    tools[n - 1] = tool(n - 1, bytes - (n + 1) - each * (n - 1));
    return tools;
  };

  it('the hand-built lists are the sizes they claim (the oracle for the rest)', () => {
    for (const [n, b] of [[10, 2999], [10, 3000], [99, 5000], [3, 3000]] as const) expect(Buffer.byteLength(JSON.stringify(list(n, b)))).toBe(b);
  });

  it('keyword search from 100 tools; below, the names from 3,000 bytes of compact JSON; else every tool', () => {
    expect(SEARCH_MIN_TOOLS).toBe(100);
    expect(NAMES_MIN_BYTES).toBe(3000);
    expect(chooseServing(list(10, 2999)).mode).toBe('full');
    expect(chooseServing(list(10, 2999)).why).toMatch(/^10 tools, 2999 bytes \(< 3000\): serving every tool/);
    expect(chooseServing(list(10, 3000)).mode).toBe('names');
    expect(chooseServing(list(10, 3000)).why).toMatch(/^10 tools, 3000 bytes \(≥ 3000\)/);
    expect(chooseServing(list(3, 3000)).mode).toBe('names');
    expect(chooseServing(list(99, 5000)).mode).toBe('names');
    expect(chooseServing(list(100, 5000)).mode).toBe('search');
    expect(chooseServing(list(100, 5000)).why).toMatch(/^100 tools \(≥ 100\)/);
    expect(chooseServing([]).mode).toBe('full');
    // Multi-byte text counts in UTF-8 bytes, not characters: 1,000 "é" are 2,000 bytes.
    const accented = [{ name: 'a', description: 'é'.repeat(1000) }, { name: 'b', description: 'é'.repeat(500) }];
    expect(chooseServing(accented).mode).toBe('names');
    expect(chooseServing(accented, { namesMinBytes: 4000 }).mode).toBe('full');
    expect(chooseServing(list(20, 5000), { searchMinTools: 20 }).mode).toBe('search');
    expect(searchMode(99)).toBe('names');
    expect(searchMode(1)).toBe('names');
    expect(searchMode(100)).toBe(true);
  });

  it("a client that defers schemas itself (claude-code's reader pays names only) gets every tool, at any size", () => {
    for (const [n, b] of [[3, 500], [10, 3000], [99, 20000], [100, 20000], [634, 90000]] as const) {
      const c = chooseServing(list(n, b), { client: 'claude-code' });
      expect(c.mode, String(n)).toBe('full');
      expect(c.why).toContain('--profile claude-code: that client defers schemas itself');
    }
    // Profiles whose reader pays every tool up front choose by size as without a profile.
    expect(chooseServing(list(634, 90000), { client: 'claude' }).mode).toBe('search');
    expect(chooseServing(list(20, 2000), { client: 'openai' }).mode).toBe('full');
    expect(chooseServing(list(20, 5000), { client: 'openai' }).mode).toBe('names');
    expect(() => chooseServing(list(20, 2000), { client: 'no-such-client' })).toThrow();
  });

  it('a client that accepts only closed objects (openai-strict) gets every tool, at any size: the call tool and cold stubs cannot be closed', () => {
    // Found as a user: `proxy --profile openai-strict` chose search for 47 tools, and its own check then refused
    // the served list (the search and call tools' open objects), so the client's initialize got an error.
    for (const [n, b] of [[3, 500], [10, 3000], [47, 20000], [100, 20000]] as const) {
      const c = chooseServing(list(n, b), { client: 'openai-strict' });
      expect(c.mode, String(n)).toBe('full');
      expect(c.why).toContain('--profile openai-strict: that client accepts only closed objects');
    }
  });
});
