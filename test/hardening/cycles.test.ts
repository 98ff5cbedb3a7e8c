/**
 * A schema that contains itself (a reference cycle: impossible in parsed JSON, possible for a library caller
 * who builds one in code) given to a public function that walks it: a ToolslimError (`invalid-input`) naming
 * the pointer where the circle closes, or, from a function that reports per tool, a finding for that tool,
 * the others checked as without it. Before, these walked it forever (memory growing until V8 aborted) or
 * threw a raw RangeError. A schema that only shares a subobject (a DAG) is no cycle and is read as always.
 */
import { describe, expect, it } from 'vitest';
import type { RefInventory } from '../../src/index.js';
import { AjvPool, analyzeSurface, builtinProfiles, chooseServing, invalidArgumentsResult, measureJson, ToolSession, checkToolForProfile, checkToolsForProfile, collectRefInventory, findDialectContradictions, findToolsDialectContradictions, findUnresolvedRefs, generateInstances, generateProbeInstances, lintTools, RefIndex, serveToolsList, ToolslimError, transformSchema, transformTools, verifyHistory, verifyTool } from '../../src/index.js';
import { stringifyIterative, stringifyJson } from '../../src/json/stringify.js';

const CYCLE = 'the object contains itself (a reference cycle); JSON cannot hold it';

/** `{ type: 'object', properties: { self: <itself> } }` */
function selfSchema(): Record<string, unknown> {
  const s: Record<string, unknown> = { type: 'object', properties: {} };
  (s.properties as Record<string, unknown>).self = s;
  return s;
}

/** A cycle through an array (`anyOf`), and one inside data (`const`), which no schema walker descends into as a schema. */
function arraySchema(): Record<string, unknown> {
  const s: Record<string, unknown> = { type: 'object' };
  s.anyOf = [{ type: 'string' }, s];
  return s;
}
function dataSchema(): Record<string, unknown> {
  const c: Record<string, unknown> = { a: 1 };
  c.me = c;
  return { type: 'object', properties: { x: { const: c } } };
}

/** A DAG: one subobject reached by two paths (and by a `$ref` to where it also sits). */
function sharedSchema(): Record<string, unknown> {
  const x = { type: 'string', maxLength: 5 };
  return { type: 'object', properties: { a: x, b: x, c: { $ref: '#/$defs/X' } }, $defs: { X: x } };
}

/** Nested `levels` deep through `properties.a` (iteratively built: deeper than JSON.stringify's stack). */
function deepSchema(levels: number): Record<string, unknown> {
  let s: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) s = { type: 'object', properties: { a: s } };
  return s;
}

const good = { name: 'ok', description: 'Reads one thing', inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } };

/** What `f` threw (it must throw). */
function thrown(f: () => unknown): ToolslimError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolslimError);
    return e as ToolslimError;
  }
  throw new Error('expected a ToolslimError, got a result');
}

describe('schema functions refuse a schema that contains itself', () => {
  // Each: the call, and what it gives for the DAG (a shared subobject is no cycle).
  const cases: [name: string, call: (schema: unknown) => unknown, dag: (result: unknown) => void][] = [
    ['collectRefInventory', (s) => collectRefInventory(s, '2020-12'), (r) => expect((r as RefInventory).refs.map((x) => [x.path, x.ref])).toEqual([['/properties/c/$ref', '#/$defs/X']])],
    ['findUnresolvedRefs', (s) => findUnresolvedRefs(s, '2020-12'), (r) => expect(r).toEqual([])],
    ['RefIndex', (s) => new RefIndex(s, '2020-12'), (r) => expect((r as RefIndex).resolutions).toEqual([{ status: 'resolved', path: '/$defs/X', base: '', tokens: ['$defs', 'X'] }])],
    ['findDialectContradictions', (s) => findDialectContradictions(s, { assume: 'draft-07' }), (r) => expect((r as { path: string }[]).map((c) => c.path)).toEqual(['/$defs'])],
    ['generateInstances', (s) => generateInstances(s), (r) => expect((r as unknown[]).length).toBeGreaterThanOrEqual(64)],
    ['generateProbeInstances', (s) => generateProbeInstances(s, { sites: [{ path: '/properties/b' }] }), (r) => expect((r as { values: unknown[] }).values.length).toBeGreaterThan(0)],
  ];
  for (const [name, call, dag] of cases) {
    it(`${name}: invalid-input at the pointer where the circle closes; a DAG is read as always`, () => {
      const e = thrown(() => call(selfSchema()));
      expect({ code: e.code, path: e.path, message: e.message }).toEqual({ code: 'invalid-input', path: '/properties/self', message: `${name}: the schema is not plain JSON: ${CYCLE} at \`/properties/self\`` });
      expect(thrown(() => call(arraySchema())).path).toBe('/anyOf/1');
      expect(thrown(() => call(dataSchema())).path).toBe('/properties/x/const/me');
      dag(call(sharedSchema()));
    });
  }

  it('only a cycle is refused: a schema 5,000 levels deep is read as always, and an inventory handed in is used as it is', () => {
    const e = thrown(() => collectRefInventory(selfSchema(), 'draft-07'));
    expect(e.path).toBe('/properties/self');
    // These read every depth iteratively (test/unit/walk.test.ts walks 100,000 levels): no depth bound here.
    const deep = deepSchema(5000);
    expect(collectRefInventory(deep, '2020-12').refs).toEqual([]);
    expect(new RefIndex(deep, '2020-12').unresolved).toEqual([]);
    expect(findDialectContradictions(deep)).toEqual([]);
    // With the inventory given, nothing is left to walk: the call does what it did.
    const inventory = collectRefInventory({ type: 'object' }, '2020-12');
    expect(findUnresolvedRefs(selfSchema(), '2020-12', inventory)).toEqual([]);
    expect(new RefIndex(selfSchema(), '2020-12', inventory).unresolved).toEqual([]);
  });
});

describe('tools functions', () => {
  const cyclic = () => ({ name: 'cyc', description: 'Loops', inputSchema: selfSchema() });

  it('findToolsDialectContradictions names the tool and the pointer into the tools array', () => {
    const e = thrown(() => findToolsDialectContradictions([good, cyclic()]));
    expect({ code: e.code, tool: e.tool, path: e.path, message: e.message }).toEqual({
      code: 'invalid-input',
      tool: 'cyc',
      path: '/1/inputSchema/properties/self',
      message: `findToolsDialectContradictions: \`inputSchema\` of tool \`cyc\` (index 1) is not plain JSON: ${CYCLE} at \`/1/inputSchema/properties/self\``,
    });
    const shared = { name: 'dag', inputSchema: { ...sharedSchema(), $schema: 'http://json-schema.org/draft-07/schema#' } };
    expect(findToolsDialectContradictions([good, shared]).map((t) => [t.tool, t.contradictions.map((c) => c.path)])).toEqual([['dag', ['/$defs']]]);
  });

  it('verifyTool and verifyHistory name the tool, which argument, and the pointer', () => {
    const before = cyclic();
    const after = { ...cyclic(), description: 'Loops again' };
    const e = thrown(() => verifyTool(before, after, { level: 'structural', safety: 'lossless' }));
    expect({ code: e.code, tool: e.tool, path: e.path, message: e.message }).toEqual({ code: 'invalid-input', tool: 'cyc', path: '/inputSchema/properties/self', message: `verifyTool: \`before\` (tool \`cyc\`) is not plain JSON: ${CYCLE} at \`/inputSchema/properties/self\`` });
    const h = thrown(() => verifyHistory(good, [{ transform: 'x', safety: 'lossless', tool: good }, { transform: 'y', safety: 'lossless', tool: after }], { level: 'structural' }));
    expect({ code: h.code, tool: h.tool, path: h.path, message: h.message }).toEqual({ code: 'invalid-input', tool: 'cyc', path: '/inputSchema/properties/self', message: `verifyHistory: \`steps[1].tool\` (tool \`cyc\`) is not plain JSON: ${CYCLE} at \`/inputSchema/properties/self\`` });
    // A cycle outside the schemas (the gate compares every other field too).
    const meta: Record<string, unknown> = {};
    meta.me = meta;
    expect(thrown(() => verifyTool(good, { ...good, _meta: meta }, { level: 'structural' })).path).toBe('/_meta/me');
    // A DAG: shared subobjects, equal before and after.
    const dag = { name: 'dag', inputSchema: sharedSchema() };
    expect(verifyTool(dag, { ...dag, inputSchema: sharedSchema() }, { level: 'verdicts' })).toBeUndefined();
    expect(verifyHistory(dag, [{ transform: 'x', safety: 'lossless', tool: { ...dag, inputSchema: sharedSchema() } }], { level: 'verdicts' })).toBeUndefined();
  });

  it('checkToolsForProfile reports the tool as not checked, under every profile, and checks the others as without it', () => {
    const names = builtinProfiles.map((p) => p.name);
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const profile of names) {
      const findings = checkToolsForProfile([cyclic(), good], profile);
      const mine = findings.filter((f) => f.toolIndex === 0);
      expect(mine.map((f) => [f.severity, f.code, f.tool, f.path])).toEqual([['error', 'tool-invalid', 'cyc', '/0/inputSchema/properties/self']]);
      expect(mine[0]!.message).toMatch(new RegExp(`^Found a tool that is not plain JSON: the object contains itself \\(a reference cycle\\); JSON cannot hold it; it is not checked against \`${profile}\`; fix: `));
      const others = findings.filter((f) => f.toolIndex !== 0).map((f) => ({ ...f, toolIndex: f.toolIndex - 1, path: f.path.replace(/^\/1/, '/0') }));
      expect(others).toEqual(checkToolsForProfile([good], profile));
      // A DAG is no cycle.
      expect(checkToolsForProfile([{ name: 'dag', description: 'Shares', inputSchema: sharedSchema() }], profile).filter((f) => f.code === 'tool-invalid')).toEqual([]);
    }
  });

  it('checkToolsForProfile: a cycle through an array or inside data, and nesting deeper than 1000 levels, are reported the same way', () => {
    for (const [schema, path] of [
      [arraySchema(), '/0/inputSchema/anyOf/1'],
      [dataSchema(), '/0/inputSchema/properties/x/const/me'],
    ] as const) {
      for (const profile of ['claude', 'openai-strict', 'mcp']) {
        const f = checkToolsForProfile([{ name: 'cyc', inputSchema: schema }], profile).filter((x) => x.code === 'tool-invalid');
        expect(f.map((x) => x.path)).toEqual([path]);
      }
    }
    // claude's checker threw a raw RangeError on this one: its meta-schema check (ajv) recurses. The other
    // profiles' checks read every depth, and still do.
    const deepTool = { name: 'deep', inputSchema: deepSchema(200_000) };
    const deep = checkToolsForProfile([deepTool], 'claude');
    // The tool is level 0, its schema level 1, and each schema level below it two more (`properties`, `a`).
    expect(deep.map((f) => [f.code, f.path])).toEqual([['tool-invalid', '/0/inputSchema' + '/properties/a'.repeat(500)]]);
    expect(deep[0]!.message).toMatch(/^Found a tool that is not plain JSON: nesting deeper than 1000 levels; it is not checked against `claude`; fix: /);
    const strict = checkToolsForProfile([{ name: 'deep', inputSchema: deepSchema(600) }], 'openai-strict').map((f) => f.code);
    expect(strict).not.toContain('tool-invalid');
    expect(strict.filter((c) => c === 'depth-exceeded')).toEqual(['depth-exceeded']);
  });

  it('checkToolForProfile (one tool): the same finding, its pointer relative to the tool', () => {
    const f = checkToolForProfile(cyclic(), 'gemini');
    expect(f.map((x) => [x.code, x.path])).toEqual([['tool-invalid', '/inputSchema/properties/self']]);
  });

  it('analyzeSurface reports the tool as invalid (as lintTools does) and analyzes the others as without it', () => {
    // One tool without a description and with five arguments: findings the others are expected to keep.
    const many = { name: 'many', inputSchema: { type: 'object', properties: { a: {}, b: {}, c: {}, d: {}, e: {} } } };
    const s = analyzeSurface([cyclic(), good, many]);
    const lint = lintTools([cyclic()]).find((f) => f.code === 'invalid-tool')!;
    expect(s.findings.filter((f) => f.toolIndex === 0)).toEqual([lint]);
    const alone = analyzeSurface([good, many]);
    expect(alone.findings.map((f) => [f.code, f.toolIndex])).toEqual([['missing-description', 1], ['many-arguments', 1]]);
    const shift = (f: { toolIndex: number; path: string }) => ({ ...f, toolIndex: f.toolIndex - 1, path: f.path.replace(/^\/(\d+)/, (_, d: string) => `/${Number(d) - 1}`) });
    expect(s.findings.filter((f) => f.toolIndex !== 0).map(shift)).toEqual(alone.findings);
    expect(s.tools).toBe(3);
    expect(s.bytes.inputSchemas.bytes).toBe(alone.bytes.inputSchemas.bytes);
    expect(s.missingDescriptions).toEqual([{ tool: 'many', toolIndex: 2 }]);
    // It threw a raw RangeError on this one.
    const deep = analyzeSurface([{ name: 'deep', description: 'Deep', inputSchema: deepSchema(200_000) }]);
    expect(deep.findings.map((f) => [f.code, f.toolIndex])).toEqual([['invalid-tool', 0]]);
    // A DAG is no cycle.
    expect(analyzeSurface([{ name: 'dag', description: 'Shares', inputSchema: sharedSchema() }]).findings).toEqual([]);
  });
});

describe('a cycle that closes deeper than JSON.stringify can go', () => {
  /** 20,000 objects down `properties.a`, the last one pointing back at the root. */
  function deepCycle(): Record<string, unknown> {
    const root: Record<string, unknown> = { type: 'object', properties: {} };
    let n = root;
    for (let i = 0; i < 20_000; i++) {
      const c: Record<string, unknown> = { type: 'object', properties: {} };
      (n.properties as Record<string, unknown>).a = c;
      n = c;
    }
    (n.properties as Record<string, unknown>).back = root;
    return root;
  }
  const past = '/properties/a'.repeat(500);

  it('transformTools, transformSchema and serveToolsList skip it, where measuring the skipped tool ran out of memory', () => {
    const tool = { name: 'dc', description: 'Deep loop', inputSchema: deepCycle() };
    const r = transformTools([tool, good]);
    expect(r.report.skipped).toEqual([{ tool: 'dc', toolIndex: 0, transform: 'input', reason: `nesting deeper than 1000 levels at \`/0/inputSchema${past}\`` }]);
    expect(r.tools[0]).toBe(tool);
    expect(r.report.stats.tools[0]!.before).toEqual({ bytes: 0 });
    const schema = deepCycle();
    const s = transformSchema(schema);
    expect(s.schema).toBe(schema);
    expect(s.report.skipped.map((k) => k.reason)).toEqual([`nesting deeper than 1000 levels at \`/0/inputSchema${past}\``]);
    expect(serveToolsList({ tools: [tool, good] }).report.skipped.map((k) => k.toolIndex)).toEqual([0]);
  });

  it('AjvPool.compile says the schema contains itself (a failed compile: it never throws), shallow or deep', () => {
    const pool = new AjvPool();
    expect(pool.compile(selfSchema(), '2020-12')).toEqual({ ok: false, error: `the schema is not plain JSON: ${CYCLE} at \`/properties/self\`` });
    expect(pool.compile(deepCycle(), '2020-12')).toEqual({ ok: false, error: `the schema is not plain JSON: ${CYCLE} at \`${'/properties/a'.repeat(20_000)}/properties/back\`` });
    expect(pool.compile(sharedSchema(), '2020-12').ok).toBe(true);
    expect(pool.compiled).toBe(1);
  });

  it('stringifyJson throws what JSON.stringify throws for a shallow one', () => {
    expect(() => stringifyJson(deepCycle())).toThrow(new TypeError('Converting circular structure to JSON'));
    expect(() => stringifyIterative(selfSchema())).toThrow(TypeError);
  });
});

describe('functions that write a caller’s tools or schema out', () => {
  it('ToolSession, chooseServing, invalidArgumentsResult and measureJson refuse a cycle with a ToolslimError naming the pointer, not a raw TypeError', () => {
    const cyclic = { name: 'cyc', description: 'Loops', inputSchema: selfSchema() };
    const cases: [who: string, what: string, path: string, call: () => unknown][] = [
      ['ToolSession', 'the served list', '/tools/1/inputSchema/properties/self', () => new ToolSession({ list: [good, cyclic] })],
      ['chooseServing', 'the tools list', '/1/inputSchema/properties/self', () => chooseServing([good, cyclic])],
      ['invalidArgumentsResult', 'the input schema', '/properties/self', () => invalidArgumentsResult('cyc', cyclic, [{ path: '', message: 'missing' }])],
      ['measureJson', 'the value', '/0/inputSchema/properties/self', () => measureJson([cyclic])],
    ];
    for (const [who, what, path, call] of cases) {
      const e = thrown(call);
      expect({ code: e.code, path: e.path, message: e.message }).toEqual({ code: 'invalid-input', path, message: `${who}: ${what} is not plain JSON: ${CYCLE} at \`${path}\`` });
    }
    // A DAG is written out twice, as JSON.stringify writes it; measureJson also measures what JSON.stringify cannot reach.
    const dag = { name: 'dag', description: 'Shares', inputSchema: sharedSchema() };
    expect(new ToolSession({ list: [dag] }).text).toBe(JSON.stringify({ tools: [dag] }));
    expect(measureJson(dag).bytes).toBe(Buffer.byteLength(JSON.stringify(dag)));
    const deep = deepSchema(20_000);
    expect(measureJson(deep).bytes).toBe(Buffer.byteLength(stringifyJson(deep)));
  });
});
