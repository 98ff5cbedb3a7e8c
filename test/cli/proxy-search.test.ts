/**
 * `toolslim proxy --search` and the default choice by list size (issue 30 item 4), through the built binary
 * with the MCP SDK's Client: the list holds the hot set (empty without a usage file) and the search and call
 * tools; a search returns a cold tool's full definition; a call of that tool with invalid arguments is
 * answered by the check and never reaches the server, a valid one reaches it (the server's own log says so);
 * the list's bytes never change across the session. Expected definitions are the hand-written fixture below
 * (simple schemas the `safe` preset leaves as they are), expected server traffic the wire server's log.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, requireBuild, run } from './helpers.js';
import { node, ProxyProcess, readWireLog, WIRE_SERVER } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-search-');
let n = 0;
const file = (name: string) => join(dir, `${++n}-${name}`);

const WEATHER = {
  name: 'get_weather',
  description: 'Current weather forecast for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string', enum: ['c', 'f'] } }, required: ['city'] },
};
/** 120 tools: 119 about widgets and one about the weather (a list above the 100-tool switch). */
const TOOLS = [...Array.from({ length: 119 }, (_, i) => ({ name: `widget_${i}`, description: `Reads widget number ${i} from the inventory.`, inputSchema: { type: 'object', properties: { id: { type: 'integer' } } } })), WEATHER];
TOOLS.splice(60, 0, TOOLS.pop()!); // the weather tool mid-list
const TOOLS_FILE = file('tools.json');
writeFileSync(TOOLS_FILE, JSON.stringify(TOOLS));
const SMALL_FILE = file('small.json');
writeFileSync(SMALL_FILE, JSON.stringify(TOOLS.slice(55, 65)));
const MEDIUM_FILE = file('medium.json');
writeFileSync(MEDIUM_FILE, JSON.stringify(TOOLS.slice(40, 70)));

const textOf = (r: unknown) => ((r as { content: { text: string }[] }).content[0]!.text);
const clients: Client[] = [];

async function connect(args: readonly string[], tools = TOOLS_FILE, serverArgs: readonly string[] = []) {
  const log = file('wire.log');
  const transport = new StdioClientTransport({ command: node, args: [BIN, 'proxy', ...args, '--', node, WIRE_SERVER, '--tools', tools, '--log', log, ...serverArgs], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'search-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport);
  /** The tools/call requests the server received, parsed params. */
  const calls = () => readWireLog(log).sent.map((l) => JSON.parse(l) as { method?: string; params?: unknown }).filter((m) => m.method === 'tools/call').map((m) => m.params);
  return { client, stderr: () => stderr, calls };
}

beforeAll(() => requireBuild());
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
});

describe('proxy at 120 tools, no flag: the hot set beside a search tool', () => {
  it('says what it chose and why; serves the search and call tools; a search finds a cold tool with its real schema; calls are checked', async () => {
    const { client, stderr, calls } = await connect([]);
    const listed = await client.listTools();
    // No usage file: no tool has earned a place in the hot set, so only the two tools of toolslim's own.
    expect(listed.tools.map((t) => t.name)).toEqual(['wire_server_search_tools', 'wire_server_call_tool']);
    expect(stderr()).toContain('toolslim proxy: 120 tools (≥ 100): serving the hot set beside wire_server_search_tools');

    const found = await client.callTool({ name: 'wire_server_search_tools', arguments: { query: 'weather forecast in Oslo' } });
    expect(found.isError).toBeFalsy();
    expect(JSON.parse(textOf(found))).toEqual([WEATHER]);
    // Words every widget shares: ranked, at most `limit`.
    const widgets = JSON.parse(textOf(await client.callTool({ name: 'wire_server_search_tools', arguments: { query: 'widget 7 inventory', limit: 3 } }))) as { name: string }[];
    expect(widgets).toHaveLength(3);
    expect(widgets[0]!.name).toBe('widget_7');
    const none = await client.callTool({ name: 'wire_server_search_tools', arguments: { query: 'zebra' } });
    expect(textOf(none)).toContain('No tool matched "zebra"');
    expect((await client.callTool({ name: 'wire_server_search_tools', arguments: { query: 5 } })).isError).toBe(true);

    // Invalid arguments, through the call tool and by name: answered by the check, never forwarded.
    const bad = await client.callTool({ name: 'wire_server_call_tool', arguments: { name: 'get_weather', arguments: { city: 'Oslo', units: 'k' } } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('toolslim did not call `get_weather`: invalid arguments.');
    expect(textOf(bad)).toContain(`Input schema: ${JSON.stringify(WEATHER.inputSchema)}`);
    const badDirect = await client.callTool({ name: 'get_weather', arguments: { units: 'c' } });
    expect(badDirect.isError).toBe(true);
    expect(textOf(badDirect)).toContain("must have required property 'city'");
    const unknown = await client.callTool({ name: 'wire_server_call_tool', arguments: { name: 'no_such_tool', arguments: {} } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('no tool `no_such_tool`');
    expect(calls()).toEqual([]);

    // Valid ones reach the server as a call of the found tool (the wire server echoes the arguments).
    const good = await client.callTool({ name: 'wire_server_call_tool', arguments: { name: 'get_weather', arguments: { city: 'Oslo', units: 'c' } } });
    expect(good.isError).toBeFalsy();
    expect(JSON.parse(textOf(good))).toEqual({ city: 'Oslo', units: 'c' });
    const direct = await client.callTool({ name: 'get_weather', arguments: { city: 'Bergen' } });
    expect(JSON.parse(textOf(direct))).toEqual({ city: 'Bergen' });
    expect(calls()).toEqual([
      { name: 'get_weather', arguments: { city: 'Oslo', units: 'c' } },
      { name: 'get_weather', arguments: { city: 'Bergen' } },
    ]);
    // The list is what it was.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['wire_server_search_tools', 'wire_server_call_tool']);
  });

  it('the served list keeps its exact bytes across searches and calls', async () => {
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--tools', TOOLS_FILE]);
    await p.initialize();
    const list = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' });
    const call = (id: number, name: string, args: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const resultText = (line: string) => line.slice(line.indexOf('"result":') + 9, -1);
    p.send(list(1));
    const first = resultText((await p.until(1)).line);
    expect(Buffer.byteLength(first)).toBeLessThan(1500);
    const steps = [
      call(2, 'wire_server_search_tools', { query: 'weather' }),
      call(3, 'wire_server_call_tool', { name: 'get_weather', arguments: { city: 1 } }),
      call(4, 'wire_server_call_tool', { name: 'get_weather', arguments: { city: 'Oslo' } }),
      call(5, 'widget_3', { id: 3 }),
    ];
    for (const [i, s] of steps.entries()) {
      p.send(s);
      await p.until(i + 2);
      p.send(list(100 + i));
      expect(resultText((await p.until(100 + i)).line)).toBe(first);
    }
    p.end();
    expect(await p.closed).toBe(0);
  });
});

describe('proxy --search / --hot-set / --full / the default below 100 tools', () => {
  it('--hot-set keeps cold stubs of every tool (no search tool), whatever the size', async () => {
    const { client, stderr } = await connect(['--hot-set']);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(TOOLS.map((t) => t.name));
    expect(stderr()).not.toContain('wire_server_search_tools');
  });

  it('--search serves the search tool on a small list too, listing the other tools by name; a name loads that tool alone', async () => {
    const { client, stderr, calls } = await connect(['--search'], SMALL_FILE);
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(['wire_server_search_tools', 'wire_server_call_tool']);
    const small = TOOLS.slice(55, 65);
    expect(listed[0]!.description).toContain(` Its other tools: ${small.map((t) => t.name).join(', ')}.`);
    expect(stderr()).toContain("--search: serving the hot set beside wire_server_search_tools, whose description lists the other tools' names (10 tools, < 100)");
    expect(JSON.parse(textOf(await client.callTool({ name: 'wire_server_search_tools', arguments: { query: 'weather' } })))).toEqual([WEATHER]);
    expect(JSON.parse(textOf(await client.callTool({ name: 'wire_server_search_tools', arguments: { query: 'widget_57' } })))).toEqual([small.find((t) => t.name === 'widget_57')]);
    await client.callTool({ name: 'wire_server_call_tool', arguments: { name: 'widget_55', arguments: { id: 55 } } });
    expect(calls()).toEqual([{ name: 'widget_55', arguments: { id: 55 } }]);
  });

  it('no flag, a list under 3,000 bytes: every tool; -v says why, with the bytes', async () => {
    const { client, stderr } = await connect(['-v'], SMALL_FILE);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOLS.slice(55, 65).map((t) => t.name));
    // The fixture's tools are served as they are, so the list's compact JSON is the fixture's.
    const bytes = Buffer.byteLength(JSON.stringify(TOOLS.slice(55, 65)));
    expect(bytes).toBeLessThan(3000);
    expect(stderr()).toContain(`toolslim proxy: 10 tools, ${bytes} bytes (< 3000): serving every tool`);
  });

  it('no flag, under 100 tools but 3,000 bytes or more: the search tool naming the other tools; a name loads one; its calls are checked', async () => {
    const { client, stderr, calls } = await connect([], MEDIUM_FILE);
    const medium = TOOLS.slice(40, 70);
    const bytes = Buffer.byteLength(JSON.stringify(medium));
    expect(bytes).toBeGreaterThanOrEqual(3000);
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(['wire_server_search_tools', 'wire_server_call_tool']);
    expect(listed[0]!.description).toContain(` Its other tools: ${medium.map((t) => t.name).join(', ')}.`);
    expect(stderr()).toContain(`toolslim proxy: 30 tools, ${bytes} bytes (≥ 3000): serving the hot set beside wire_server_search_tools, whose description names the other tools`);
    expect(JSON.parse(textOf(await client.callTool({ name: 'wire_server_search_tools', arguments: { query: 'get_weather' } })))).toEqual([WEATHER]);
    // Invalid arguments (no city) are answered from the real schema and never reach the server.
    const bad = await client.callTool({ name: 'wire_server_call_tool', arguments: { name: 'get_weather', arguments: { units: 'c' } } });
    expect(bad.isError).toBe(true);
    await client.callTool({ name: 'wire_server_call_tool', arguments: { name: 'get_weather', arguments: { city: 'Oslo' } } });
    expect(calls()).toEqual([{ name: 'get_weather', arguments: { city: 'Oslo' } }]);
  });

  it('--full: every tool in full at 120 tools, no search tool; with --search or --hot-set it is refused', async () => {
    const { client, stderr } = await connect(['--full']);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    expect(stderr()).not.toContain('wire_server_search_tools');
    for (const other of [['--search'], ['--hot-set', '3']]) {
      const r = await run(['proxy', '--full', ...other, '--', node, WIRE_SERVER]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--full serves every tool in full; ${other[0]} serves a hot set: give one`);
    }
  });

  it('a server tool named like the search tool: the default serves every tool and says why; --search stops', async () => {
    const clashing = file('clash.json');
    writeFileSync(clashing, JSON.stringify([...TOOLS.slice(1), { name: 'wire_server_search_tools', description: 'The server’s own.', inputSchema: { type: 'object' } }]));
    const { client, stderr } = await connect([], clashing);
    expect((await client.listTools()).tools).toHaveLength(120);
    expect(stderr()).toContain("120 tools, but the server has a tool named `wire_server_search_tools`, which the search mode serves itself: serving every tool");
    const p = new ProxyProcess(['--search', '--', node, WIRE_SERVER, '--tools', clashing]);
    await p.initialize();
    p.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    expect(await p.closed).toBe(1);
    expect(p.stderr).toContain('--search: the server has a tool named `wire_server_search_tools`, which the search mode serves itself; use --hot-set');
  });

  it('--hot-set and --search together are refused', async () => {
    const r = await run(['proxy', '--hot-set', '3', '--search', '3', '--', node, WIRE_SERVER]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--hot-set and --search are two ways to serve the list: give one');
  });
});

describe('the search tools are named after the server (several proxies in one client)', () => {
  it('two servers through two proxies: four distinct tool names, each answering for its own server', async () => {
    const a = await connect([], MEDIUM_FILE, ['--server-name', '@acme/Git Hub-MCP']);
    const b = await connect([], MEDIUM_FILE, ['--server-name', 'Jira server ✓']);
    const names = [...(await a.client.listTools()).tools, ...(await b.client.listTools()).tools].map((t) => t.name);
    // Hand-derived from the rule: lower case, each run of other characters one "_", none at the ends.
    expect(names).toEqual(['acme_git_hub_mcp_search_tools', 'acme_git_hub_mcp_call_tool', 'jira_server_search_tools', 'jira_server_call_tool']);
    const listedA = (await a.client.listTools()).tools[0]!;
    expect(listedA.description).toContain('Call them with acme_git_hub_mcp_call_tool.');
    await a.client.callTool({ name: 'acme_git_hub_mcp_call_tool', arguments: { name: 'get_weather', arguments: { city: 'Oslo' } } });
    // Another server's call tool is not this proxy's: it passes through to the server, which has no such tool.
    await a.client.callTool({ name: 'jira_server_call_tool', arguments: { name: 'get_weather', arguments: { city: 'Bergen' } } }).catch(() => undefined);
    expect(a.calls()).toEqual([{ name: 'get_weather', arguments: { city: 'Oslo' } }, { name: 'jira_server_call_tool', arguments: { name: 'get_weather', arguments: { city: 'Bergen' } } }]);
    expect(b.calls()).toEqual([]);
  });

  it('--search-prefix names them; one that is not tool-name characters is refused; a server name with no letter falls back to toolslim_', async () => {
    const c = await connect(['--search', '--search-prefix', 'gh2.'], SMALL_FILE);
    expect((await c.client.listTools()).tools.map((t) => t.name)).toEqual(['gh2.search_tools', 'gh2.call_tool']);
    const d = await connect(['--search'], SMALL_FILE, ['--server-name', '***']);
    expect((await d.client.listTools()).tools.map((t) => t.name)).toEqual(['toolslim_search_tools', 'toolslim_call_tool']);
    const r = await run(['proxy', '--search-prefix', 'a b', '--', node, WIRE_SERVER]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--search-prefix: must be at most 100 of A-Z a-z 0-9 _ . - (tool-name characters), got "a b"');
  });

  it('a --search-prefix whose names the profile refuses is refused before the server starts, naming the prefix (not "rename the tool on the server")', async () => {
    // Gemini's rule (docs/profiles/gemini.md): a letter or `_` first. The proxy's own tools are never renamed.
    const r = await run(['proxy', '--profile', 'gemini', '--search', '--search-prefix', '9x_', '--', node, WIRE_SERVER]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--search-prefix "9x_": Found tool name `9x_search_tools`; `gemini` expects names matching');
    expect(r.stderr).toContain("the proxy's own search tools are not renamed: give a prefix that makes names it accepts");
    expect(r.stderr).not.toContain('rename the tool on the server');
    // A prefix the profile accepts is served; the same prefix without a profile that refuses it too.
    const ok = await connect(['--profile', 'gemini', '--search', '--search-prefix', '_9x_'], SMALL_FILE);
    expect((await ok.client.listTools()).tools.map((t) => t.name)).toEqual(['_9x_search_tools', '_9x_call_tool']);
    const plain = await connect(['--search', '--search-prefix', '9x_'], SMALL_FILE);
    expect((await plain.client.listTools()).tools.map((t) => t.name)).toEqual(['9x_search_tools', '9x_call_tool']);
  });
});

describe('the search tools of a server whose name starts with a digit', () => {
  it('--profile gemini serves them (they start with `_`, as Gemini asks of a name) and their calls reach the server', async () => {
    // Found through the SDK client: a server named `9lives` made the proxy refuse its own two tools
    // (`9lives_search_tools`: profile-tool-name) and end with exit 1 before the client got a list.
    const { client, calls } = await connect(['--profile', 'gemini', '--search'], SMALL_FILE, ['--server-name', '9lives']);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['_9lives_search_tools', '_9lives_call_tool']);
    for (const name of names) expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/); // Gemini's rule (docs/profiles/gemini.md)
    const r = await client.callTool({ name: '_9lives_call_tool', arguments: { name: 'get_weather', arguments: { city: 'Oslo' } } });
    expect(r.isError).toBeFalsy();
    expect(calls()).toEqual([{ name: 'get_weather', arguments: { city: 'Oslo' } }]);
  });
});

describe('proxy --profile claude-code: a client that defers schemas itself (issue 30 item 5)', () => {
  it('no flag: every tool in full, no hot set, no search tool of its own, at 120 tools; stderr says why; calls pass by name', async () => {
    const { client, stderr, calls } = await connect(['--profile', 'claude-code']);
    const listed = (await client.listTools()).tools;
    // The fixture's schemas are ones the profile's plan leaves as they are: what the server sent, every tool
    // (without the profile, 120 tools would be served as the search tool and the call tool: see above).
    expect(listed.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))).toEqual(TOOLS);
    expect(stderr()).toContain('toolslim proxy: 120 tools, --profile claude-code: that client defers schemas itself');
    expect(stderr()).not.toContain('serving the hot set beside');
    const r = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(r.isError).toBeFalsy();
    expect(calls()).toEqual([{ name: 'get_weather', arguments: { city: 'Oslo' } }]);
  });

  it('--preset max moves no text into the instructions for it (they are always paid); without the profile it does', async () => {
    const WS = 'ID of the workspace to act on; find it with list_workspaces first.';
    const shared = file('shared.json');
    writeFileSync(shared, JSON.stringify(['list_projects', 'list_members', 'list_files'].map((name) => ({ name, description: `List the ${name.slice(5)} of a workspace.`, inputSchema: { type: 'object', properties: { workspace_id: { type: 'string', description: WS } } } }))));
    const deferring = await connect(['--preset', 'max', '--profile', 'claude-code'], shared);
    const tools = (await deferring.client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(['list_projects', 'list_members', 'list_files']);
    expect(tools.every((t) => JSON.stringify(t.inputSchema).includes(WS))).toBe(true);
    expect(deferring.client.getInstructions() ?? '').not.toContain(WS);
    const plain = await connect(['--preset', 'max'], shared);
    expect(plain.client.getInstructions()).toContain(WS);
  });

  it('told --search anyway: served as told, and stderr says the client pays more for it', async () => {
    const { client, stderr } = await connect(['--profile', 'claude-code', '--search'], SMALL_FILE);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['wire_server_search_tools', 'wire_server_call_tool']);
    expect(stderr()).toContain('--profile claude-code defers schemas itself: --search adds a search round trip to its own load');
  });

  it('--search with a profile that pays every tool up front (openai) on a small list: no word of deferring', async () => {
    // Found by hand through the SDK client: a list under 100 tools made the proxy call openai a deferring client.
    const { client, stderr } = await connect(['--profile', 'openai', '--search'], SMALL_FILE);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['wire_server_search_tools', 'wire_server_call_tool']);
    expect(stderr()).toContain('--search: serving the hot set beside wire_server_search_tools');
    expect(stderr()).not.toContain('defers schemas');
  });
});
