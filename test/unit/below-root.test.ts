import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hoistNestedDefs, normalizeSchema, pruneUnreachableDefs, reconcileDialect, transformTools, type McpTool } from '../../src/index.js';
import { DIALECTS, KEYWORD_TABLES, UNION_KEYWORDS, type KeywordShape } from '../../src/schema/keywords.js';

// reconcile-dialect's look notes, for a tool it leaves as it was, whether anything below each schema's root
// holds a definitions container or a keyword normalize-schema may tidy; hoist-nested-defs and
// normalize-schema then skip their walks over the same documents later in the run (src/transforms/below-root.ts).
// The oracle: each transform run on its own (a run of its own never sees another step's facts) and the four
// chained by hand must give the same tools and the same changes as the four in one run.

const STEPS = [reconcileDialect, hoistNestedDefs, pruneUnreachableDefs, normalizeSchema] as const;

function changesOf(r: ReturnType<typeof transformTools>): unknown[] {
  return r.report.changes.map((c) => [c.transform, c.op, c.path, c.code]);
}

function oneRunEqualsChained(tools: McpTool[], assume?: string): void {
  const step = (t: (typeof STEPS)[number]) => (assume === undefined || t === pruneUnreachableDefs ? t : ([t, { assume }] as never));
  const together = transformTools(tools, { transforms: STEPS.map(step), verify: false });
  let current = tools;
  const chained: unknown[] = [];
  for (const t of STEPS) {
    const r = transformTools(current, { transforms: [step(t)], verify: false });
    chained.push(...changesOf(r));
    current = r.tools as McpTool[];
  }
  expect(JSON.stringify(together.tools)).toBe(JSON.stringify(current));
  expect(changesOf(together)).toEqual(chained);
}

describe('facts found below the root by one step', () => {
  // normalize-schema walks with its dialect's table; the look walks wherever any dialect's reader would.
  it('are looked for everywhere a dialect descends (the union covers every table)', () => {
    const covers: Record<KeywordShape, readonly KeywordShape[]> = {
      schema: ['schema', 'schemaOrArray'],
      schemaArray: ['schemaArray', 'schemaOrArray'],
      schemaOrArray: ['schemaOrArray'],
      schemaMap: ['schemaMap', 'schemaOrStrings'],
      schemaOrStrings: ['schemaOrStrings', 'schemaMap'],
      opaque: ['opaque', 'schema', 'schemaArray', 'schemaOrArray', 'schemaMap', 'schemaOrStrings'],
    };
    for (const d of DIALECTS) {
      for (const [name, info] of KEYWORD_TABLES[d]) {
        if (info.shape === 'opaque') continue;
        expect([d, name, covers[info.shape].includes(UNION_KEYWORDS.get(name)?.shape ?? 'opaque')]).toEqual([d, name, true]);
      }
    }
  });

  it('change nothing over the bench corpus', () => {
    const dir = join(import.meta.dirname, '..', '..', 'bench', 'corpus');
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
      const tools = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { toolsList: { tools: McpTool[] } }).toolsList.tools;
      oneRunEqualsChained(tools);
    }
  });

  it('change nothing for generated schemas', () => {
    const leaf = fc.constantFrom<unknown>({ type: 'string' }, { type: ['integer'] }, { title: 'T', type: 'number' }, { $comment: 'c' }, true, {}, { enum: [] }, { type: 'array', items: [{ type: 'string' }] });
    const keyword = fc.constantFrom('properties', 'items', 'allOf', 'anyOf', 'not', '$defs', 'definitions', 'additionalProperties', 'dependencies', 'dependentSchemas', 'additionalItems', 'x-defs', 'default', 'prefixItems', 'patternProperties');
    const schema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc
          .tuple(keyword, fc.array(tie('node'), { maxLength: 3 }), fc.constantFrom<Record<string, unknown>>({}, { required: [] }, { additionalProperties: true }, { properties: {} }, { $defs: {} }, { title: 'x' }, { type: 'object' }))
          .map(([k, kids, extra]) => {
            const value = k === 'properties' || k === '$defs' || k === 'definitions' || k === 'dependencies' || k === 'dependentSchemas' || k === 'x-defs' || k === 'patternProperties' ? Object.fromEntries(kids.map((c, i) => [`p${i}`, c])) : k === 'allOf' || k === 'anyOf' || k === 'prefixItems' ? kids : (kids[0] ?? {});
            return { ...extra, [k]: value };
          }),
      ),
    })).node;
    const stamp = fc.constantFrom<string | undefined>(undefined, undefined, 'http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-04/schema#');
    fc.assert(
      fc.property(fc.array(fc.tuple(schema, stamp), { minLength: 1, maxLength: 4 }), fc.constantFrom('2020-12', 'draft-07', 'openapi-3.0'), (docs, assume) => {
        const tools = docs.map(([s, uri], i) => ({ name: `t${i}`, inputSchema: { ...(uri ? { $schema: uri } : {}), type: 'object', properties: { a: s } } })) as McpTool[];
        oneRunEqualsChained(tools);
        oneRunEqualsChained(tools, assume);
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });
});
