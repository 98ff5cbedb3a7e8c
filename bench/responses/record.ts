/**
 * Records real `tools/call` results (and resources) of npm MCP servers into bench/responses/recorded/,
 * for `npm run bench:responses`. Not part of the bench run: run it again to refresh the recordings.
 *
 *   mkdir /tmp/resp-servers && cd /tmp/resp-servers && npm i @modelcontextprotocol/server-filesystem \
 *     @modelcontextprotocol/server-memory @modelcontextprotocol/server-everything
 *   cp -r /tmp/resp-servers/node_modules /tmp/resp-tree/          # the "large tree" for the filesystem server
 *   SERVERS=/tmp/resp-servers TREE=/tmp/resp-tree npx tsx bench/responses/record.ts
 *
 * Each file: { server, version, tool, arguments, definition (the tool as listed), result }. Paths under
 * TREE are written as `/tree/…` so recordings do not name this machine.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const SERVERS = process.env.SERVERS ?? '/tmp/resp-servers';
const TREE = process.env.TREE ?? '/tmp/resp-tree';
const OUT = join(import.meta.dirname, 'recorded');
const MEMORY_FILE = join(TREE, '..', 'resp-memory.jsonl');

interface Recording {
  readonly file: string;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}

async function open(pkg: string, args: string[], env: Record<string, string> = {}) {
  const dir = join(SERVERS, 'node_modules', '@modelcontextprotocol', pkg);
  const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; bin: string | Record<string, string> };
  const bin = typeof meta.bin === 'string' ? meta.bin : Object.values(meta.bin)[0]!;
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(dir, bin), ...args], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'ignore' });
  const client = new Client({ name: 'toolslim-bench-recorder', version: '1.0.0' });
  await client.connect(transport);
  const tools = (await client.listTools()).tools;
  return { client, tools, server: `@modelcontextprotocol/${pkg}`, version: meta.version };
}

const anonymize = (text: string) => text.split(TREE).join('/tree');

async function record(pkg: string, args: string[], calls: readonly Recording[], env: Record<string, string> = {}, setup?: (c: Client) => Promise<void>) {
  const { client, tools, server, version } = await open(pkg, args, env);
  try {
    await setup?.(client);
    for (const c of calls) {
      const result = await client.callTool({ name: c.tool, arguments: c.arguments });
      const definition = tools.find((t) => t.name === c.tool);
      const text = anonymize(JSON.stringify({ server, version, tool: c.tool, arguments: c.arguments, definition, result }));
      writeFileSync(join(OUT, `${c.file}.json`), text + '\n');
      console.log(`${c.file}: ${Buffer.byteLength(JSON.stringify(result))} bytes`);
    }
  } finally {
    await client.close();
  }
}

mkdirSync(OUT, { recursive: true });
const nm = join(TREE, 'node_modules');
await record('server-filesystem', [TREE], [
  { file: 'filesystem-directory_tree-sdk-dist-cjs', tool: 'directory_tree', arguments: { path: join(nm, '@modelcontextprotocol/sdk/dist/cjs') } },
  { file: 'filesystem-directory_tree-zod-v4', tool: 'directory_tree', arguments: { path: join(nm, 'zod/v4') } },
  { file: 'filesystem-search_files-dts', tool: 'search_files', arguments: { path: nm, pattern: '**/*.d.ts' } },
  { file: 'filesystem-list_directory-node_modules', tool: 'list_directory', arguments: { path: nm } },
]);

// A big graph: 300 entities with three observations each, 600 relations.
rmSync(MEMORY_FILE, { force: true });
const KINDS = ['person', 'project', 'service', 'team', 'document'];
await record(
  'server-memory',
  [],
  [
    { file: 'memory-read_graph', tool: 'read_graph', arguments: {} },
    { file: 'memory-search_nodes-project', tool: 'search_nodes', arguments: { query: 'project' } },
  ],
  { MEMORY_FILE_PATH: MEMORY_FILE },
  async (client) => {
    const entities = Array.from({ length: 300 }, (_, i) => ({
      name: `${KINDS[i % 5]}-${i}`,
      entityType: KINDS[i % 5]!,
      observations: [`Created in sprint ${i % 12}`, `Owned by team-${i % 9}`, `Mentioned in the ${['roadmap', 'incident review', 'design doc'][i % 3]} of week ${i % 52}`],
    }));
    await client.callTool({ name: 'create_entities', arguments: { entities } });
    const relations = Array.from({ length: 600 }, (_, i) => ({ from: entities[i % 300]!.name, to: entities[(i * 7 + 3) % 300]!.name, relationType: ['depends_on', 'owns', 'mentions'][i % 3]! }));
    await client.callTool({ name: 'create_relations', arguments: { relations } });
  },
);
rmSync(MEMORY_FILE, { force: true });

// server-everything: its largest resources (documents, read with resources/read) and a list-returning tool.
{
  const { client, server, version } = await open('server-everything', ['stdio']);
  try {
    const { resources } = await client.listResources();
    for (const r of resources.filter((x) => x.uri.startsWith('demo://resource/static/document/'))) {
      const result = await client.readResource({ uri: r.uri });
      const file = `everything-resource-${decodeURIComponent(r.uri.split('/').pop()!).replace(/[^a-z0-9.-]/gi, '_')}`;
      writeFileSync(join(OUT, `${file}.json`), JSON.stringify({ server, version, method: 'resources/read', uri: r.uri, result }) + '\n');
      console.log(`${file}: ${Buffer.byteLength(JSON.stringify(result))} bytes`);
    }
  } finally {
    await client.close();
  }
}
await record('server-everything', ['stdio'], [{ file: 'everything-get-resource-links', tool: 'get-resource-links', arguments: { count: 10 } }]);
