/**
 * A value the CLI parsed is marked as `JSON.parse`'s own (src/json/parsed.ts), and the input checks read its
 * members without property descriptors. The oracle for what the checks find is the same check on an
 * unmarked copy (the descriptor path, itself tested against `JSON.stringify` in input-size.test.ts), over
 * every bench/corpus and bench/validation server, and hand-made texts: deep nesting, `__proto__` keys.
 * That the marked path reads no descriptor is seen by counting `Object.getOwnPropertyDescriptor` calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { checkInputs, checkJsonTool } from '../../src/engine/input.js';
import { isParsedJson, parseJson } from '../../src/json/parsed.js';
import { CHECKED_PLAIN, lintTools, textMayHoldHeaderKey, textMayHoldInventoryKey } from '../../src/lint/lint.js';
import { transformTools } from '../../src/api.js';
import { tempDir } from '../helpers/temp.js';

const BENCH = join(import.meta.dirname, '..', '..', 'bench');
const texts = ['corpus', 'validation'].flatMap((set) =>
  readdirSync(join(BENCH, set))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [`${set}/${f}`, readFileSync(join(BENCH, set, f), 'utf8')] as const),
);

describe('parseJson marks what it parses', () => {
  it('marks an object or array it made, nothing else', () => {
    expect(isParsedJson(parseJson('{"tools":[]}'))).toBe(true);
    expect(isParsedJson(parseJson('[1,2]'))).toBe(true);
    expect(isParsedJson(JSON.parse('{"tools":[]}'))).toBe(false);
    expect(isParsedJson(parseJson('"text"'))).toBe(false);
    expect(isParsedJson(parseJson('null'))).toBe(false);
    // Only the root is marked: a part handed on alone is not vouched for.
    const root = parseJson('{"tools":[{"name":"a"}]}') as { tools: unknown[] };
    expect(isParsedJson(root.tools)).toBe(false);
  });

  it('does not vouch while a prototype has an enumerable key (for…in would list it)', () => {
    const value = parseJson('{"tools":[]}');
    for (const proto of [Object.prototype, Array.prototype]) {
      Object.defineProperty(proto, 'polluted', { value: 1, enumerable: true, configurable: true, writable: true });
      try {
        expect(isParsedJson(value)).toBe(false);
      } finally {
        delete (proto as Record<string, unknown>).polluted;
      }
      expect(isParsedJson(value)).toBe(true);
    }
  });
});

describe('the input check on a parsed value', () => {
  it('finds what the descriptor path finds, on every bench server (sizes, key facts, skips)', () => {
    for (const [name, text] of texts) {
      const marked = parseJson(text) as { toolsList: { tools: unknown[] } };
      const plain = JSON.parse(text) as { toolsList: { tools: unknown[] } };
      const names = plain.toolsList.tools.map((_, i) => `t${i}`);
      expect(checkInputs(marked.toolsList.tools, names, 1000, 'report', undefined, true), name).toEqual(checkInputs(plain.toolsList.tools, names, 1000, 'report'));
    }
    expect(texts.length).toBeGreaterThan(40);
  });

  it('reads no property descriptor on the common path, and one per member without the mark', () => {
    const tool = parseJson('{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}');
    const spy = vi.spyOn(Object, 'getOwnPropertyDescriptor');
    try {
      expect(checkJsonTool(tool, 1000, [], { bytes: 0 }, new Map(), true)).toBeUndefined();
      expect(spy).not.toHaveBeenCalled();
      expect(checkJsonTool(tool, 1000, [], { bytes: 0 }, new Map(), false)).toBeUndefined();
      expect(spy).toHaveBeenCalledTimes(6);
    } finally {
      spy.mockRestore();
    }
  });

  it('still stops at the depth limit, and keeps `__proto__` keys as members', () => {
    const deep = parseJson(`[${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}]`) as unknown[];
    const facts = { bytes: 0 };
    expect(checkJsonTool(deep[0], 1000, [], facts, new Map(), true)).toEqual(checkJsonTool(JSON.parse(JSON.stringify(deep[0])), 1000, [], { bytes: 0 }));
    expect(checkJsonTool(deep[0], 1000, [], facts, new Map(), true)?.message).toBe('nesting deeper than 1000 levels');
    const proto = parseJson('[{"name":"p","__proto__":{"x":1},"inputSchema":{"type":"object"}}]') as unknown[];
    const size = { bytes: 0 };
    expect(checkJsonTool(proto[0], 1000, [], size, new Map(), true)).toBeUndefined();
    expect(size.bytes).toBe(Buffer.byteLength(JSON.stringify(proto[0])));
  });

  it('a run and the lint on a marked input give what they give on an unmarked one', () => {
    for (const [name, text] of texts.slice(0, 12)) {
      const a = transformTools(parseJson(text));
      const b = transformTools(JSON.parse(text));
      expect(JSON.stringify(a.output), name).toBe(JSON.stringify(b.output));
      expect(a.report.stats.before, name).toEqual(b.report.stats.before);
      expect(a.report.skipped, name).toEqual(b.report.skipped);
      expect(lintTools(parseJson(text)), name).toEqual(lintTools(JSON.parse(text)));
    }
  });
});

describe('CHECKED_PLAIN: the lint takes the run’s verdicts over instead of checking again', () => {
  it('skips the reference and header checks of a tool whose text holds none of their keys; the findings are those of a full check', () => {
    const server = texts.flatMap(([, text]) => {
      const v = JSON.parse(text) as { toolsList?: { tools?: unknown[] } } | unknown[];
      return Array.isArray(v) ? v : (v.toolsList?.tools ?? []);
    });
    const made = [
      { name: 'broken', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } } },
      { name: 'external', inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } } },
      { name: 'header', inputSchema: { type: 'object', properties: { a: { type: 'object', 'x-mcp-header': 'bad header' } } } },
      { name: 'quoted', description: 'says "$ref":"#/x" and "x-mcp-header": in prose', inputSchema: { type: 'object' } },
      { name: 'id', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } },
    ];
    const tools = [...server, ...made];
    const plain = tools.map(() => true);
    const textsOf = tools.map((t) => JSON.stringify(t));
    const inventoryKeys = textsOf.map(textMayHoldInventoryKey);
    const headerKeys = textsOf.map(textMayHoldHeaderKey);
    const full = lintTools(tools);
    expect(full.some((f) => f.code === 'unresolved-ref' && f.tool === 'broken')).toBe(true);
    expect(full.some((f) => f.code === 'external-ref' && f.tool === 'external')).toBe(true);
    expect(full.some((f) => f.code === 'invalid-mcp-header' && f.tool === 'header')).toBe(true);
    // Most tools hold neither (their checks are skipped); a key in prose or a property named `id` reads as neither.
    expect(inventoryKeys.filter((k) => !k).length).toBeGreaterThan(tools.length / 2);
    expect(inventoryKeys.slice(-5)).toEqual([true, true, false, false, false]);
    expect(headerKeys.slice(-5)).toEqual([false, false, true, false, false]);
    expect(lintTools(tools, { [CHECKED_PLAIN]: { maxDepth: 1000, plain, inventoryKeys, headerKeys } } as object)).toEqual(full);
    // What it vouches for is taken as said: a tool handed over as holding none has its checks skipped.
    const none = made.map(() => false);
    const skipped = lintTools(made, { [CHECKED_PLAIN]: { maxDepth: 1000, plain: made.map(() => true), inventoryKeys: none, headerKeys: none } } as object);
    expect(skipped.some((f) => f.code === 'unresolved-ref' || f.code === 'external-ref' || f.code === 'invalid-mcp-header')).toBe(false);
  });

  it('skips the check only for tools handed over as plain, at its own depth; the findings are those of a full check', () => {
    const tools = [
      { name: 'ok', description: 'Fine.', inputSchema: { type: 'object' } },
      { name: 'undef', description: 'Has an undefined member.', inputSchema: { type: 'object', properties: { a: undefined } } },
      { name: 'deep', inputSchema: JSON.parse(`${'{"a":'.repeat(30)}1${'}'.repeat(30)}`) },
    ];
    const full = lintTools(tools, { maxDepth: 20 });
    expect(full.filter((f) => f.code === 'invalid-tool').map((f) => f.tool)).toEqual(['undef', 'deep']);
    // The run's own verdicts (report hands these over): the run keeps `undefined` members and notes them.
    const run = transformTools(tools, { maxDepth: 20 });
    const plain = tools.map(() => true);
    for (const s of run.report.skipped) if (s.transform === 'input') plain[s.toolIndex] = false;
    for (const d of run.report.diagnostics) if (d.transform === 'input') plain[d.toolIndex] = false;
    expect(plain).toEqual([true, false, false]);
    expect(lintTools(tools, { maxDepth: 20, [CHECKED_PLAIN]: { maxDepth: 20, plain } } as object)).toEqual(full);
    // What it vouches for is taken as said (the check is not run for it)…
    const spy = vi.spyOn(Object, 'getOwnPropertyDescriptor');
    try {
      lintTools([tools[0]], { [CHECKED_PLAIN]: { maxDepth: 1000, plain: [true] } } as object);
      expect(spy).not.toHaveBeenCalled();
      // …but only at the lint's own depth: handed over for another depth, every tool is checked.
      lintTools([tools[0]], { [CHECKED_PLAIN]: { maxDepth: 20, plain: [true] } } as object);
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('report gives the findings check gives, on corpus servers', async () => {
    const { runMain } = await import('../cli/helpers.js');
    const dir = join(BENCH, 'corpus');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().slice(0, 10).map((f) => join(dir, f));
    for (const file of files) {
      const report = JSON.parse((await runMain(['report', file, '--format', 'json', '--no-tokens'])).stdout) as { findings: unknown[] };
      const check = JSON.parse((await runMain(['check', file, '--format', 'json'])).stdout) as { findings: Record<string, unknown>[] };
      // check names the file each finding comes from; report names it once, at the top.
      expect(report.findings, file).toEqual(check.findings.map(({ source: _source, ...f }) => f));
    }
  });

  it('report still names a tool its run skipped as not plain JSON (nested past the depth limit)', async () => {
    const { runMain } = await import('../cli/helpers.js');
    const { writeFileSync } = await import('node:fs');
    const file = join(tempDir('toolslim-plain-'), 'tools.json');
    const deep = `${'{"a":'.repeat(1200)}1${'}'.repeat(1200)}`;
    writeFileSync(file, `[{"name":"ok","description":"Fine.","inputSchema":{"type":"object"}},{"name":"deep","description":"Too deep.","inputSchema":{"type":"object","properties":{"x":${deep}}}}]`);
    const report = JSON.parse((await runMain(['report', file, '--format', 'json', '--no-tokens'])).stdout) as { findings: { code: string; tool: string }[] };
    expect(report.findings.filter((f) => f.code === 'invalid-tool').map((f) => f.tool)).toEqual(['deep']);
  });
});
