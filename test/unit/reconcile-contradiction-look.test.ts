import { describe, expect, it } from 'vitest';
import { DIALECT_URIS, findDialectContradictions, reconcileDialect } from '../../src/index.js';
import { DIALECTS, UNION_KEYWORDS, type Dialect } from '../../src/schema/keywords.js';

// reconcile-dialect reports a schema's dialect contradictions only when its one pointer-free look (shared
// with the conversion quick look, answering per keyword and kind of value from a table) says one may
// exist. The oracle is findDialectContradictions, which walks every subschema and judges every keyword
// itself: for every keyword any dialect knows, with a value of every JSON kind, hidden one level down,
// reconcile-dialect must report exactly the contradictions the oracle finds, in every dialect.

const VALUES: readonly unknown[] = [true, false, 'x', '', 0, 1.5, null, [], [{ type: 'string' }], ['a'], {}, { type: 'string' }];

function toolsFor(dialect: Dialect | undefined): { name: string; inputSchema: Record<string, unknown> }[] {
  const tools: { name: string; inputSchema: Record<string, unknown> }[] = [];
  const stamp = dialect === undefined ? undefined : DIALECT_URIS[dialect];
  for (const keyword of UNION_KEYWORDS.keys()) {
    if (keyword === '$schema') continue;
    VALUES.forEach((value, i) => {
      const inner = { [keyword]: value };
      tools.push({ name: `${keyword}#${i}`, inputSchema: { ...(stamp ? { $schema: stamp } : {}), type: 'object', properties: { x: inner, y: { type: 'string' } } } });
    });
  }
  return tools;
}

const READINGS: [label: string, stamp: Dialect | undefined, assume: Dialect][] = [
  ...DIALECTS.filter((d) => DIALECT_URIS[d] !== undefined).map((d): [string, Dialect, Dialect] => [`declared ${d}`, d, '2020-12']),
  ...DIALECTS.map((d): [string, undefined, Dialect] => [`assumed ${d}`, undefined, d]),
];

describe('reconcile-dialect reports the contradictions a full walk finds', () => {
  it.each(READINGS)('%s', (_label, stamp, assume) => {
    const tools = toolsFor(stamp);
    const { report } = reconcileDialect(tools, { assume });
    const reported = report.diagnostics.filter((d) => d.code === 'contradiction').map((d) => d.path);
    const expected = tools.flatMap((t, i) => findDialectContradictions(t.inputSchema, { assume }).map((c) => `/${i}/inputSchema${c.path}`));
    expect(expected.length).toBeGreaterThan(0);
    expect(reported).toEqual(expected);
  });
});
