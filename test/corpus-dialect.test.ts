/**
 * Over every real capture in bench/corpus: after reconcile-dialect + hoist-nested-defs (and under the
 * default preset), no tool's declared dialect contradicts its keywords, nothing is skipped, every schema
 * compiles with Ajv2020 and with the class its stamp names, no reference stops resolving, and a second run
 * changes nothing.
 */
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { findToolsDialectContradictions, findUnresolvedRefs, getDeclaredDialect, hoistNestedDefs, reconcileDialect, transformTools, type McpTool } from '../src/index.js';
import { loadCorpus } from './helpers/corpus.js';
import { deepFreeze } from './helpers/freeze.js';

const corpus = loadCorpus().map((c) => ({ file: c.file, tools: deepFreeze(c.data.toolsList.tools) as unknown as McpTool[] }));

const READERS = {
  draft2020: new Ajv2020({ strict: false, logger: false, addUsedSchema: false }),
  draft7: new Ajv({ strict: false, logger: false, addUsedSchema: false }),
};

function readerOf(schema: unknown): 'draft2020' | 'draft7' {
  const d = getDeclaredDialect(schema).dialect;
  return d === 'draft-04' || d === 'draft-06' || d === 'draft-07' ? 'draft7' : 'draft2020';
}

function compileError(schema: unknown, reader: 'draft2020' | 'draft7'): string | undefined {
  try {
    READERS[reader].compile(schema as object);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function schemas(tools: readonly McpTool[]): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const t of tools) for (const slot of ['inputSchema', 'outputSchema'] as const) if (t[slot] !== undefined) out.push([`${t.name}.${slot}`, t[slot]]);
  return out;
}

function unresolved(tools: readonly McpTool[]): number {
  let n = 0;
  for (const [, s] of schemas(tools)) if (typeof s === 'object' && s !== null) n += findUnresolvedRefs(s, getDeclaredDialect(s).dialect).length;
  return n;
}

describe.each(corpus.map((c) => [c.file, c] as const))('%s', (_file, c) => {
  it('has no dialect contradiction after reconcile-dialect + hoist-nested-defs, and nothing skipped', () => {
    const result = transformTools(c.tools, { transforms: [reconcileDialect, hoistNestedDefs] });
    expect(result.report.skipped).toEqual([]);
    expect(findToolsDialectContradictions(result.tools)).toEqual([]);
    expect(result.report.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('under the default preset: nothing skipped, every schema compiles in its dialect and in 2020-12, no new unresolvable $ref, idempotent', () => {
    const once = transformTools(c.tools);
    expect(once.report.skipped).toEqual([]);
    expect(findToolsDialectContradictions(once.tools)).toEqual([]);
    for (const [label, schema] of schemas(once.tools)) {
      expect(compileError(schema, readerOf(schema)), label).toBeUndefined();
      expect(compileError(schema, 'draft2020'), label).toBeUndefined();
    }
    expect(unresolved(once.tools)).toBeLessThanOrEqual(unresolved(c.tools));
    const twice = transformTools(once.tools);
    expect(twice.report.changes).toEqual([]);
    expect(JSON.stringify(transformTools(c.tools).tools)).toBe(JSON.stringify(once.tools));
  });
});

it('counts, per server, the tools whose declared dialect contradicted their keywords before the pipeline', () => {
  const before = corpus.map((c) => ({ file: c.file, tools: new Set(findToolsDialectContradictions(c.tools).map((x) => x.toolIndex)).size }));
  // The bundled captures are consistent: their stamps match their keywords (the fixtures and the SDK test
  // hold the contradicted shapes). A capture that changes this shows up here.
  expect(before.filter((b) => b.tools > 0)).toEqual([]);
  expect(before.length).toBe(corpus.length);
});
