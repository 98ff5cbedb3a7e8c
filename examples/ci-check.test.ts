/**
 * Fail CI when a tool schema regresses: a dangling `$ref`, a contradicted `$schema` stamp, a budget blown.
 * `assertToolsHealthy` throws an Error whose message lists every finding, so any runner shows them all.
 *
 *   npx vitest run examples/ci-check.test.ts
 *
 * In your project, point it at your server's tools: a capture (`npx toolslim capture -o tools.json --
 * node server.mjs`), or the list your code builds.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { assertToolsHealthy } from 'toolslim/testing';
import { o200k } from 'toolslim/tokens';

// A real capture of @modelcontextprotocol/server-memory (bench/corpus).
const capture = JSON.parse(readFileSync(new URL('../bench/corpus/modelcontextprotocol__server-memory.json', import.meta.url), 'utf8'));

it('the tools are healthy and within budget', () => {
  assertToolsHealthy(capture, { maxToolBytes: 2_000, maxTokens: 4_000, tokenizer: o200k });
});

it('a regression fails with every finding in the message', () => {
  const tools = capture.toolsList.tools.map((t: { name: string; inputSchema: object }) =>
    t.name === 'create_entities' ? { ...t, inputSchema: { ...t.inputSchema, properties: { entities: { $ref: '#/$defs/Entity' } } } } : t,
  );
  const stamped = { name: 'stamped', description: 'x', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { $ref: '#/$defs/A', description: 'a' } }, $defs: { A: { type: 'string' } } } };
  expect(() => assertToolsHealthy([...tools, stamped], { maxToolBytes: 2_000 })).toThrow(
    /2 findings at or above `error`\n {2}error unresolved-ref create_entities \/0\/inputSchema\/properties\/entities\/\$ref: .*\n {2}error contradicted-dialect stamped \/9\/inputSchema\/\$defs: /,
  );
});
