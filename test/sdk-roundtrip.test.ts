/**
 * The round trip that was missing when the bug lived: a real MCP server (the official TypeScript SDK's
 * low-level `Server`) serves raw JSON Schemas through the pipeline; the SDK's `Client` reads them over the
 * in-memory transport with a 2020-12 reader (Ajv2020 as its schema validator, as a client that follows the
 * MCP default would). Every schema must compile with Ajv2020 and with the class its stamp names, and every
 * `$ref` must resolve for a reader that registers only the root `$defs`. Without the pipeline the same
 * server breaks the client.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hoistNestedDefs, pruneUnreachableDefs, reconcileDialect, transformTools, type McpTool, type TransformStepInput } from '../src/index.js';
import { deepFreeze, jsonClone } from './helpers/freeze.js';

/** The seed: a draft-07-shaped document (nested `definitions`, tuple `items`) declared as 2020-12. */
const SEED: McpTool = {
  name: 'search_documents',
  description: 'A zod draft-07 document wrapped as definition `input` by a server framework, stamped 2020-12',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { query: { $ref: '#/definitions/input' } },
    required: ['query'],
    definitions: {
      input: {
        type: 'object',
        properties: {
          text: { $ref: '#/definitions/input/definitions/__schema0' },
          range: { type: 'array', items: [{ type: 'integer' }, { type: 'integer' }], additionalItems: false },
        },
        required: ['text'],
        definitions: { __schema0: { type: 'string', minLength: 1 } },
      },
    },
  },
  outputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { hits: { type: 'array', items: { $ref: '#/definitions/output/definitions/__schema0' } } },
    definitions: { output: { definitions: { __schema0: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } } } },
  },
};

const Address = z.strictObject({ street: z.string(), zip: z.string().regex(/^\d{5}$/) });
const Order = z.strictObject({ home: Address, work: Address.optional(), point: z.tuple([z.number(), z.number()]), tags: z.array(z.string()).max(3), kind: z.enum(['a', 'b']).nullable() });

/** What zod emits for draft-07 (the SDK v1 stamps the same URI): `definitions`, tuple `items`. */
const ZOD_TOOL: McpTool = { name: 'place_order', inputSchema: z.toJSONSchema(Order, { target: 'draft-7', reused: 'ref' }) as McpTool['inputSchema'] };

/** An OpenAPI 3.0 schema object copied into a tool (ajv refuses `nullable` without `type`). */
const OPENAPI_TOOL: McpTool = {
  name: 'update_pet',
  inputSchema: {
    type: 'object',
    properties: {
      pet: { $ref: '#/$defs/Pet', nullable: true },
      note: { type: 'string', nullable: true, example: 'hi' },
      any: { nullable: true },
    },
    $defs: { Pet: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  },
};

const corpus = (file: string) => (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'bench', 'corpus', file), 'utf8')) as { toolsList: { tools: McpTool[] } }).toolsList.tools;
/** Real captures: draft-07 documents with `#/properties/...` references and `$ref` siblings, a property called `definitions`. */
const CORPUS_TOOLS = [...corpus('a-bonus__google-docs-mcp.json'), ...corpus('azure-devops__mcp.json')];

const RAW: readonly McpTool[] = deepFreeze([SEED, ZOD_TOOL, OPENAPI_TOOL, ...CORPUS_TOOLS]);
const PIPELINE: readonly TransformStepInput[] = [reconcileDialect, hoistNestedDefs, pruneUnreachableDefs];

/** Serves `tools` from a low-level SDK server; returns what an SDK client with `validator` lists. */
async function serveAndList(tools: readonly McpTool[], reader: 'draft2020' | 'draft7' = 'draft2020'): Promise<McpTool[]> {
  const server = new Server({ name: 'fixture-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: jsonClone(tools) as never }));
  const ajv = reader === 'draft2020' ? new Ajv2020({ strict: false, validateSchema: false }) : new Ajv({ strict: false, validateSchema: false });
  const client = new Client({ name: 'fixture-client', version: '1.0.0' }, { jsonSchemaValidator: new AjvJsonSchemaValidator(ajv as never) });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    const { tools: listed } = await client.listTools();
    return listed as McpTool[];
  } finally {
    await client.close();
    await server.close();
  }
}

/** One reader per class (each checks schemas against its meta-schema too); compiled schemas are not kept by `$id`. */
const READERS = {
  draft2020: new Ajv2020({ strict: false, logger: false, addUsedSchema: false }),
  draft7: new Ajv({ strict: false, logger: false, addUsedSchema: false }),
};

/** Compiles with the given ajv class (strict off, as lenient clients read); returns the error, if any. */
function compileError(schema: unknown, reader: 'draft2020' | 'draft7'): string | undefined {
  const ajv = READERS[reader];
  try {
    ajv.compile(schema as object);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The ajv class a schema's stamp names (none: 2020-12, the MCP default). */
function stampReader(schema: unknown): 'draft2020' | 'draft7' {
  const uri = (schema as Record<string, unknown>).$schema;
  if (uri === undefined) return 'draft2020';
  if (typeof uri === 'string' && /json-schema\.org\/draft-0[67]\/schema/.test(uri)) return 'draft7';
  if (typeof uri === 'string' && /json-schema\.org\/draft\/2020-12\/schema/.test(uri)) return 'draft2020';
  throw new Error(`unexpected stamp ${String(uri)}`);
}

/**
 * An independent reader that registers only what the dialect's readers register: the root `$defs` (or, for
 * a draft-07 stamp, the root `definitions`). A reference into any other definitions container — the root
 * one of the other dialect, or a nested one — fails, as it does in those clients. Returns the failures.
 */
function rootDefsOnlyFailures(schema: unknown, container: '$defs' | 'definitions', onlyDefs = false): string[] {
  const failures: string[] = [];
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (node !== null && typeof node === 'object') {
      const ref = (node as Record<string, unknown>).$ref;
      if (typeof ref === 'string') {
        const problem = checkRef(schema, ref, container, onlyDefs);
        if (problem) failures.push(`${ref}: ${problem}`);
      }
      stack.push(...Object.values(node));
    }
  }
  return failures.sort();
}

function checkRef(root: unknown, ref: string, container: string, onlyDefs: boolean): string | undefined {
  if (ref === '#') return undefined;
  if (!ref.startsWith('#/')) return 'not a local JSON Pointer';
  const tokens = ref
    .slice(2)
    .split('/')
    .map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
  if (onlyDefs && tokens[0] !== container) return `references must start with #/${container}/`;
  if (tokens[0] === '$defs' || tokens[0] === 'definitions') {
    if (tokens[0] !== container) return `the reader registers \`${container}\`, not \`${tokens[0]}\``;
    if (tokens.slice(2).some((t) => t === '$defs' || t === 'definitions')) return 'points into a nested definitions container';
  }
  let cur: unknown = root;
  for (const t of tokens) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, t)) return 'resolves to nothing';
    cur = (cur as Record<string, unknown>)[t];
  }
  return undefined;
}

function schemasOf(tools: readonly McpTool[]): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const t of tools) for (const slot of ['inputSchema', 'outputSchema'] as const) if (t[slot] !== undefined) out.push([`${t.name}.${slot}`, t[slot]]);
  return out;
}

describe('a real SDK server and client, through the pipeline', () => {
  it('without the pipeline, the 2020-12 client cannot list the tools at all', async () => {
    await expect(serveAndList(RAW)).rejects.toThrow(/items/);
  });

  it('without the pipeline, the seed tool does not compile with Ajv2020 and its references do not resolve for a $defs reader', () => {
    expect(compileError(SEED.inputSchema, 'draft2020')).toMatch(/items/);
    expect(rootDefsOnlyFailures(SEED.inputSchema, '$defs')).toEqual([
      '#/definitions/input/definitions/__schema0: the reader registers `$defs`, not `definitions`',
      '#/definitions/input: the reader registers `$defs`, not `definitions`',
    ]);
    expect(compileError(OPENAPI_TOOL.inputSchema, 'draft2020')).toMatch(/nullable/);
  });

  it('with the pipeline, the client lists every tool; each schema compiles with Ajv2020 and with its stamp’s class, and every $ref resolves', async () => {
    const { tools, report } = transformTools(RAW, { transforms: PIPELINE });
    expect(report.skipped).toEqual([]);
    const listed = await serveAndList(tools);
    expect(listed).toEqual(jsonClone(tools));
    expect(listed.map((t) => t.name)).toEqual(RAW.map((t) => t.name));
    for (const [label, schema] of schemasOf(listed)) {
      expect(compileError(schema, 'draft2020'), label).toBeUndefined();
      expect(compileError(schema, stampReader(schema)), label).toBeUndefined();
      expect(rootDefsOnlyFailures(schema, '$defs'), label).toEqual([]);
    }
    const seed = listed[0]!.inputSchema as Record<string, unknown>;
    expect(seed.$defs).toEqual({
      input: { type: 'object', properties: { text: { $ref: '#/$defs/input__schema0' }, range: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'integer' }], items: false } }, required: ['text'] },
      input__schema0: { type: 'string', minLength: 1 },
    });
    expect(seed.$schema).toBeUndefined();
  });

  it('with refTargets, every reference of every tool is a #/$defs/ reference (for clients that accept no other)', async () => {
    const { tools, report } = transformTools(RAW, { transforms: [reconcileDialect, [hoistNestedDefs, { refTargets: true }], pruneUnreachableDefs] });
    expect(report.skipped).toEqual([]);
    const listed = await serveAndList(tools);
    for (const [label, schema] of schemasOf(listed)) {
      expect(compileError(schema, 'draft2020'), label).toBeUndefined();
      expect(rootDefsOnlyFailures(schema, '$defs', true), label).toEqual([]);
    }
  });

  it('targeting draft-07, a draft-07 client reads every tool by its stamp and every $ref resolves in `definitions`', async () => {
    const { tools, report } = transformTools(RAW, { transforms: [[reconcileDialect, { target: 'draft-07' }], hoistNestedDefs, pruneUnreachableDefs] });
    expect(report.skipped).toEqual([]);
    expect(report.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const listed = await serveAndList(tools, 'draft7');
    for (const [label, schema] of schemasOf(listed)) {
      expect(stampReader(schema), label).toBe('draft7');
      expect(compileError(schema, 'draft7'), label).toBeUndefined();
      expect(rootDefsOnlyFailures(schema, 'definitions'), label).toEqual([]);
    }
  });

  it('a client that cannot upgrade the server reconciles the tools it discovers (the README example)', async () => {
    const server = new Server({ name: 'old-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: jsonClone(RAW) as never }));
    const client = new Client({ name: 'client', version: '1.0.0' }, { jsonSchemaValidator: new AjvJsonSchemaValidator(new Ajv2020({ strict: false }) as never) });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    try {
      // listTools() would compile every outputSchema with the 2020-12 validator and throw on the seed tool.
      const discovered = await client.request({ method: 'tools/list', params: {} }, ListToolsResultSchema);
      const { tools, report } = transformTools(discovered.tools as McpTool[], { transforms: [reconcileDialect, hoistNestedDefs] });
      expect(report.skipped).toEqual([]);
      expect(report.diagnostics.filter((d) => d.code === 'contradiction').map((d) => d.tool)).toContain('search_documents');
      for (const [label, schema] of schemasOf(tools)) {
        expect(compileError(schema, 'draft2020'), label).toBeUndefined();
        expect(rootDefsOnlyFailures(schema, '$defs'), label).toEqual([]);
      }
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('keeps zod’s own verdicts: zod parses, Ajv2020 reads the served schema, they agree', async () => {
    const { tools } = transformTools([ZOD_TOOL], { transforms: PIPELINE });
    const [listed] = await serveAndList(tools);
    const validate = new Ajv2020({ strict: false }).compile(listed!.inputSchema as object);
    const addr = { street: 'Main', zip: '12345' };
    const samples: unknown[] = [
      { home: addr, point: [1, 2], tags: [], kind: null },
      { home: addr, work: addr, point: [1, 2], tags: ['a', 'b', 'c'], kind: 'a' },
      { home: addr, point: [1, 2, 3], tags: [], kind: null },
      { home: addr, point: [1], tags: [], kind: null },
      { home: { street: 'Main', zip: '1234' }, point: [1, 2], tags: [], kind: 'b' },
      { home: addr, work: { street: 1, zip: '12345' }, point: [1, 2], tags: [], kind: null },
      { home: addr, point: [1, 2], tags: ['a', 'b', 'c', 'd'], kind: null },
      { home: addr, point: [1, 2], tags: [], kind: 'c' },
      { home: addr, point: [1, 2], tags: [] },
      { home: addr, point: [1, 2], tags: [], kind: null, extra: true },
    ];
    const verdicts = samples.map((s) => [Order.safeParse(s).success, validate(s)]);
    for (const [i, [zod, ajv]] of verdicts.entries()) expect(ajv, JSON.stringify(samples[i])).toBe(zod);
    expect(verdicts.filter(([zod]) => zod).length).toBe(2);
  });
});
