/**
 * An OpenAPI → MCP converter that gives each operation's input schema only the components it reaches.
 *
 * Converters usually attach the whole `components.schemas` inventory to every tool as `$defs`, so every
 * tool pays for every model in the API on every turn. `pruneSchemaDefs` keeps only the definitions the
 * schema's `$ref`s can reach (through other definitions too), and leaves everything else as it was.
 *
 *   npx tsx examples/openapi-converter.ts                          # a table per operation
 *   npx tsx examples/openapi-converter.ts --out petstore.tools.json  # write the MCP tools
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { pruneSchemaDefs, type McpTool } from 'toolslim';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; description?: string; required?: boolean; schema?: object }[];
  requestBody?: { description?: string; required?: boolean; content?: Record<string, { schema?: object }> };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object> };
}

/** One tool per operation: path, query and header parameters plus a `body` argument. */
export function convert(spec: OpenApiDocument): { tools: McpTool[]; bytesBefore: number[] } {
  const defs = retarget(spec.components?.schemas ?? {}) as Record<string, object>;
  const tools: McpTool[] = [];
  const bytesBefore: number[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const properties: Record<string, object> = {};
      const required: string[] = [];
      for (const param of op.parameters ?? []) {
        properties[param.name] = { ...(retarget(param.schema ?? {}) as object), ...(param.description ? { description: param.description } : {}) };
        if (param.required) required.push(param.name);
      }
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) {
        properties.body = { ...(retarget(body) as object), ...(op.requestBody?.description ? { description: op.requestBody.description } : {}) };
        if (op.requestBody?.required) required.push('body');
      }
      // What converters typically emit: every component, whether the operation uses it or not.
      const full = { type: 'object', properties, ...(required.length ? { required } : {}), $defs: defs };
      bytesBefore.push(Buffer.byteLength(JSON.stringify(full)));
      const { schema } = pruneSchemaDefs(full);
      // An operation that reaches no component needs no `$defs` at all.
      const inputSchema = Object.keys(schema.$defs as object).length === 0 ? withoutDefs(schema) : schema;
      tools.push({ name: op.operationId ?? `${method}_${path}`, description: op.description ?? op.summary ?? '', inputSchema });
    }
  }
  return { tools, bytesBefore };
}

/** Deep copy with `#/components/schemas/X` references turned into `#/$defs/X` (iterative). */
function retarget(value: unknown): unknown {
  const root = { v: value };
  const out: Record<string, unknown> = {};
  const stack: [unknown, Record<string, unknown> | unknown[], string | number][] = [[root.v, out, 'v']];
  while (stack.length > 0) {
    const [v, parent, key] = stack.pop()!;
    let copy: unknown = v;
    if (Array.isArray(v)) {
      copy = new Array(v.length);
      v.forEach((x, i) => stack.push([x, copy as unknown[], i]));
    } else if (typeof v === 'object' && v !== null) {
      const obj: Record<string, unknown> = {};
      copy = obj;
      for (const [k, x] of Object.entries(v)) {
        // Every key now, in order; values are filled in as the stack unwinds.
        obj[k] = k === '$ref' && typeof x === 'string' ? x.replace('#/components/schemas/', '#/$defs/') : undefined;
        if (obj[k] === undefined) stack.push([x, obj, k]);
      }
    }
    (parent as Record<string | number, unknown>)[key] = copy;
  }
  return out.v;
}

function withoutDefs(schema: Record<string, unknown>): Record<string, unknown> {
  const { $defs: _unused, ...rest } = schema;
  return rest;
}

function main(): void {
  const spec = JSON.parse(readFileSync(new URL('./petstore.openapi.json', import.meta.url), 'utf8')) as OpenApiDocument;
  const { tools, bytesBefore } = convert(spec);
  const outIndex = process.argv.indexOf('--out');
  if (outIndex !== -1) {
    writeFileSync(process.argv[outIndex + 1]!, JSON.stringify({ tools }, null, 2) + '\n');
  }
  let before = 0;
  let after = 0;
  const width = Math.max(...tools.map((t) => t.name.length));
  for (const [i, tool] of tools.entries()) {
    const bytes = Buffer.byteLength(JSON.stringify(tool.inputSchema));
    before += bytesBefore[i]!;
    after += bytes;
    const kept = Object.keys(((tool.inputSchema as Record<string, unknown>).$defs as object | undefined) ?? {});
    console.log(`${tool.name.padEnd(width)}  ${String(bytesBefore[i]).padStart(5)} → ${String(bytes).padStart(5)} bytes  keeps: ${kept.join(', ') || '(none)'}`);
  }
  console.log(`total: ${before} → ${after} bytes of input schemas for ${tools.length} operations`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
