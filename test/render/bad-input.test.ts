/**
 * Bad input through every renderer (issue 27, "Bad input"): no throw, no recursion blow-up. Expectations are
 * written by hand or come from JSON.stringify / the input text itself.
 */
import { describe, expect, it } from 'vitest';
import { findAnyTypes, getRenderer, MAX_TYPESCRIPT_DEPTH, RENDERER_NAMES, type ForwardedTool } from '../../src/index.js';

const all = (tool: unknown) => RENDERER_NAMES.map((n) => getRenderer(n).renderTool(tool as ForwardedTool));

/** `{"type":"object","properties":{"a": … {} …}}` nested `depth` times, as JSON text. */
const nestedText = (depth: number) => '{"type":"object","properties":{"a":'.repeat(depth) + '{}' + '}}'.repeat(depth);

describe('deep nesting', () => {
  const depth = 100_000;
  const text = nestedText(depth);
  const schema = JSON.parse(text) as unknown;

  it('JSON readers write any depth (iteratively): the text is the input text', () => {
    expect(JSON.stringify.bind(null, schema)).toThrow(RangeError); // the reason for the iterative writer
    expect(getRenderer('json').renderTool({ name: 't', inputSchema: schema })).toBe(`{"name":"t","inputSchema":${text}}`);
    const spaced = getRenderer('json-spaced').renderTool({ name: 't', inputSchema: schema });
    expect(spaced).toBe(`{"type": "function", "function": {"name": "t", "parameters": ${text.replaceAll('":', '": ').replaceAll(',"', ', "')}}}`);
    // Indented to MAX_INDENT_LEVELS levels (the text would otherwise grow with the square of the depth), then on one line.
    const indented = getRenderer('json-indent4').renderTool({ name: 't', inputSchema: schema });
    expect(indented.replace(/\s+/g, '')).toBe(`{"type":"function","function":{"name":"t","parameters":${text}}}`);
    const deepest = indented.split('\n').reduce((m, l) => Math.max(m, /^ */.exec(l)![0].length), 0);
    expect(deepest).toBe(4 * 1000);
    expect(indented.length).toBeLessThan(20 * text.length);
  });

  it('typescript writes `any` past the depth limit (harmony’s serde_json refuses such input at 128 levels)', () => {
    const levels = Math.ceil((MAX_TYPESCRIPT_DEPTH - 1) / 2); // each property level is two JSON levels
    expect(findAnyTypes(schema)).toEqual([{ path: '/properties/a'.repeat(levels), reason: 'too-deep' }]);
    const block = getRenderer('typescript').renderTool({ name: 't', inputSchema: schema });
    expect(block.match(/a\?: /g)).toHaveLength(levels);
    expect(block).toContain('a?: any,');
  });

  it('deep arrays and deep oneOf, in every renderer', () => {
    const d = 20_000;
    const arrays = JSON.parse('{"type":"array","items":'.repeat(d) + '{}' + '}'.repeat(d)) as unknown;
    const unions = JSON.parse('{"oneOf":['.repeat(d) + '{}' + ']}'.repeat(d)) as unknown;
    for (const s of [arrays, unions]) {
      for (const out of all({ name: 't', inputSchema: s })) expect(out.length).toBeGreaterThan(0);
      expect(findAnyTypes(s).map((a) => a.reason)).toEqual(['too-deep']);
    }
  });
});

describe('cycles', () => {
  it('an object that contains itself: JSON readers write "[Circular]", typescript `any`', () => {
    const s: { type: string; properties: Record<string, unknown> } = { type: 'object', properties: { x: { type: 'string' } } };
    s.properties.self = s;
    const tool = { name: 't', inputSchema: s };
    expect(getRenderer('json').renderTool(tool)).toBe('{"name":"t","inputSchema":{"type":"object","properties":{"x":{"type":"string"},"self":"[Circular]"}}}');
    expect(getRenderer('typescript').renderTool(tool)).toBe('type t = (_: {\nx?: string,\nself?: any,\n}) => any;\n');
    expect(findAnyTypes(s)).toEqual([{ path: '/properties/self', reason: 'cycle' }]);
  });

  it('a shared (not cyclic) object is written each time, as JSON.stringify does', () => {
    const shared = { type: 'string' };
    const s = { type: 'object', properties: { a: shared, b: shared } };
    expect(getRenderer('json').renderTool({ name: 't', inputSchema: s })).toBe(JSON.stringify({ name: 't', inputSchema: s }));
    expect(findAnyTypes(s)).toEqual([]);
  });

  it('cycles through $ref are text: JSON readers print them, typescript writes `any`', () => {
    const s = { type: 'object', properties: { node: { $ref: '#/$defs/Node' } }, $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } } };
    expect(getRenderer('json').renderTool({ name: 't', inputSchema: s })).toBe(JSON.stringify({ name: 't', inputSchema: s }));
    expect(findAnyTypes(s)).toEqual([{ path: '/properties/node', reason: 'ref' }]);
    expect(findAnyTypes({ $ref: '#' })).toEqual([{ path: '', reason: 'ref' }]);
  });

  it('a toJSON that returns an object holding its receiver ends', () => {
    const s: Record<string, unknown> = {};
    s.toJSON = () => ({ again: s });
    expect(getRenderer('json').renderTool({ name: 't', inputSchema: s })).toBe('{"name":"t","inputSchema":{"again":"[Circular]"}}');
  });
});

describe('odd values', () => {
  it('huge enums', () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    const schema = { type: 'object', properties: { e: { type: 'string', enum: values } } };
    const block = getRenderer('typescript').renderTool({ name: 't', inputSchema: schema });
    expect(block).toBe(`type t = (_: {\ne?: ${values.map((v) => `"${v}"`).join(' | ')},\n}) => any;\n`);
    expect(getRenderer('json').renderTool({ name: 't', inputSchema: schema })).toBe(JSON.stringify({ name: 't', inputSchema: schema }));
  });

  it('non-object inputSchema, missing or non-string name and description', () => {
    for (const inputSchema of ['x', 42, [], [1, { a: 1 }], true, false, null, undefined]) {
      const tool = { name: 't', inputSchema };
      expect(getRenderer('json').renderTool(tool)).toBe(JSON.stringify({ name: 't', inputSchema }));
      expect(getRenderer('json-indent4').renderTool(tool)).toBe(JSON.stringify({ type: 'function', function: { name: 't', parameters: inputSchema } }, null, 4));
      const ts = getRenderer('typescript').renderTool(tool);
      expect(ts).toBe(inputSchema === null || inputSchema === undefined ? 'type t = () => any;\n' : 'type t = (_: any) => any;\n');
    }
    expect(getRenderer('typescript').renderTool({ name: 42, description: { a: 1 } } as never)).toBe('type 42 = () => any;\n');
    expect(getRenderer('json').renderTool({} as never)).toBe('{}');
    for (const tool of [null, undefined, 7, 'x', []]) for (const out of all(tool)) expect(typeof out).toBe('string');
  });

  it('live objects: a throwing getter or a revoked Proxy is "[Unreadable]" in JSON and `any` in typescript', () => {
    const getter = { type: 'object', properties: { a: { type: 'string' } } } as Record<string, unknown>;
    Object.defineProperty(getter.properties as object, 'b', { enumerable: true, get: () => { throw new Error('boom'); } });
    expect(getRenderer('json').renderTool({ name: 't', inputSchema: getter })).toBe('{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"b":"[Unreadable]"}}}');
    expect(getRenderer('typescript').renderTool({ name: 't', inputSchema: getter })).toBe('type t = (_: {\na?: string,\nb?: any,\n}) => any;\n');
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const tool = { name: 't', inputSchema: { type: 'object', properties: { r: revoked.proxy } } };
    expect(getRenderer('json').renderTool(tool)).toBe('{"name":"t","inputSchema":{"type":"object","properties":{"r":"[Unreadable]"}}}');
    expect(findAnyTypes(tool.inputSchema)).toEqual([{ path: '/properties/r', reason: 'unreadable' }]);
    const nameGetter = { get name(): string { throw new Error('no'); } };
    for (const out of all(nameGetter)) expect(out).toContain('[Unreadable]');
  });

  it('typescript: a keyword list that cannot be read (revoked Proxy, throwing length or item) never throws', () => {
    // Expected texts: the harmony rules applied to the value as the JSON readers write it (a revoked Proxy is
    // the string "[Unreadable]", a list whose length throws is `[]`), except that an unreadable item is left
    // out where the rules keep only strings (type names, enum values, required names, examples) and is `any`
    // (`unreadable`) where a schema is expected (a oneOf variant).
    const revoked = <T extends object>(v: T): T => {
      const r = Proxy.revocable(v, {});
      r.revoke();
      return r.proxy;
    };
    const throwsAt = (arr: unknown[], key: string) => new Proxy(arr, { get: (t, k) => { if (k === key) throw new Error('boom'); return Reflect.get(t, k) as unknown; } });
    const cases: [unknown, string, { path: string; reason: string }[]][] = [
      [{ oneOf: throwsAt([{ type: 'string' }, { type: 'number' }], '1') }, '\n | string\n | any', [{ path: '/oneOf/1', reason: 'unreadable' }]],
      [{ oneOf: throwsAt([{ type: 'string' }], 'length'), type: 'string' }, '', []],
      [{ type: 'object', properties: { p: { description: 'd', default: 1, oneOf: revoked([]), type: 'string' } } }, '{\np?: string,\n}', []],
      [{ type: throwsAt(['string', 'null'], '0') }, 'null', []],
      [{ type: revoked([]) }, 'any', [{ path: '', reason: 'unreadable' }]],
      [{ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: throwsAt(['a', 'b'], '0') }, '{\na?: string,\nb: number,\n}', []],
      [{ type: 'string', enum: throwsAt(['a', 'b'], '1') }, '"a"', []],
      [{ type: 'object', properties: { a: { type: 'string', examples: throwsAt(['x', 'y'], '0') } } }, '{\n// Examples:\n// - "y"\na?: string,\n}', []],
      [{ type: 'object', properties: { a: { type: 'string', enum: revoked([]), default: 'x' } } }, '{\na?: string, // default: "x"\n}', []],
      [{ enum: revoked([]) }, 'any', [{ path: '', reason: 'no-type' }]],
      [{ type: 'object', properties: revoked({}) }, '{\n}', []],
    ];
    for (const [inputSchema, text, anys] of cases) {
      expect(getRenderer('typescript').renderTool({ name: 't', inputSchema })).toBe(`type t = (_: ${text}) => any;\n`);
      expect(findAnyTypes(inputSchema)).toEqual(anys);
      for (const out of all({ name: 't', inputSchema })) expect(typeof out).toBe('string');
    }
  });

  it('typescript: a sparse keyword list of length 2^32-1 renders from its items present (no 4-billion loop, no crash)', () => {
    // The rules keep only the strings of `type`, `enum`, `required` and `examples`: the holes (null in JSON) add nothing,
    // but a non-empty `examples` array writes its header and a non-empty `enum` writes a string default bare.
    const sparse = (...items: string[]) => {
      const a: unknown[] = [...items];
      a.length = 2 ** 32 - 1;
      return a;
    };
    const schema = {
      type: 'object',
      properties: {
        t: { type: sparse('string', 'null') },
        e: { type: 'string', enum: sparse('x'), default: 'x' },
        x: { type: 'string', examples: sparse() },
      },
      required: sparse('t'),
    };
    expect(getRenderer('typescript').renderTool({ name: 't', inputSchema: schema })).toBe(
      'type t = (_: {\nt: string | null,\ne?: "x", // default: x\n// Examples:\nx?: string,\n}) => any;\n',
    );
    expect(findAnyTypes(schema)).toEqual([]);
  });

  it('bigint is written as its digits; functions and symbols as JSON.stringify leaves them', () => {
    const s = { type: 'integer', default: 12345678901234567890n, f: () => 1, arr: [Symbol('x'), () => 1, undefined] };
    expect(getRenderer('json').renderTool({ name: 't', inputSchema: s })).toBe('{"name":"t","inputSchema":{"type":"integer","default":12345678901234567890,"arr":[null,null,null]}}');
  });
});
