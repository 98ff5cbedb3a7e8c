import { describe, expect, it } from 'vitest';
import { defineTransform, presetLossless, presetSafe, pruneSchemaDefs, pruneUnreachableDefs, stripVendorExtensions, ToolslimError, transformTools, type McpTool } from '../../src/index.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

const schemaWithDead = () => ({ type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string' }, Dead: { type: 'null' } } });
const tools = (): McpTool[] => deepFreeze([
  { name: 'one', inputSchema: schemaWithDead() },
  { name: 'two', inputSchema: { type: 'object' } },
]);
const PRUNED = { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'string' } } };

function thrown(fn: () => unknown): ToolslimError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ToolslimError);
    return e as ToolslimError;
  }
  throw new Error('expected a throw');
}

describe('envelopes', () => {
  it('a tools array', () => {
    const input = tools();
    const r = transformTools(input);
    expect(r.output).toBe(r.tools);
    expect(r.tools).not.toBe(input);
    expect(r.tools[0]!.inputSchema).toEqual(PRUNED);
    expect(r.tools[1]).toBe(input[1]);
  });

  it('a ListToolsResult keeps nextCursor and key order', () => {
    const input = deepFreeze({ tools: tools(), nextCursor: 'c1', _meta: { x: 1 } });
    const r = transformTools(input);
    const out = r.output as typeof input;
    expect(Object.keys(out)).toEqual(['tools', 'nextCursor', '_meta']);
    expect(out.tools).toBe(r.tools);
    expect(out.nextCursor).toBe('c1');
    expect(out._meta).toBe(input._meta);
  });

  it('a JSON-RPC response', () => {
    const input = deepFreeze({ jsonrpc: '2.0', id: 7, result: { tools: tools(), nextCursor: 'n' } });
    const out = transformTools(input).output as typeof input;
    expect(Object.keys(out)).toEqual(['jsonrpc', 'id', 'result']);
    expect(out.id).toBe(7);
    expect(out.result.nextCursor).toBe('n');
    expect(out.result.tools[0]!.inputSchema).toEqual(PRUNED);
  });

  it('a capture file', () => {
    const input = deepFreeze({ server: { package: 'p', version: '1' }, initialize: { a: 1 }, toolsList: { tools: tools() } });
    const out = transformTools(input).output as typeof input;
    expect(Object.keys(out)).toEqual(['server', 'initialize', 'toolsList']);
    expect(out.server).toBe(input.server);
    expect(out.toolsList.tools[0]!.inputSchema).toEqual(PRUNED);
  });

  it('a transform called alone accepts the same envelopes', () => {
    const input = deepFreeze({ jsonrpc: '2.0', id: 1, result: { tools: tools() } });
    const r = pruneUnreachableDefs(input);
    expect((r.output as typeof input).result.tools[0]!.inputSchema).toEqual(PRUNED);
    expect(r.report.changes.map((c) => c.path)).toEqual(['/0/inputSchema/$defs/Dead']);
  });

  it('rejects what is not a tools list, saying what it found and where', () => {
    expect(thrown(() => transformTools(deepFreeze({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } }))).message).toMatch(/JSON-RPC error/);
    // What the server said is the first thing to know about a saved error response.
    expect(thrown(() => transformTools(deepFreeze({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }))).message).toBe(
      'the input is a JSON-RPC error response (-32601: Method not found), not a tools/list result',
    );
    const e = thrown(() => transformTools({ tools: 'nope' } as never));
    expect(e.code).toBe('invalid-input');
    expect(e.path).toBe('/tools');
    expect(thrown(() => transformTools(42 as never)).message).toMatch(/a number/);
    expect(thrown(() => transformTools({ something: [] } as never)).message).toMatch(/expected a tools array/);
  });
});

describe('errors and isolation', () => {
  const explode = defineTransform<{ victim: string }, undefined>({
    name: 'strip-explosive',
    description: 'Throws on one tool, edits the others',
    // Adds a tool field: not lossless, so the gate holds it only to compiling.
  safety: 'lossy',
    defaultOptions: { victim: 'one' },
    messages: { touched: 'Touched `{name}`' },
    apply(doc, ctx, options) {
      if (doc.name === options.victim) throw new Error('boom');
      ctx.add('/x-touched', true, 'touched', { name: doc.name });
    },
  });

  it('onError report: a throwing transform skips only that tool', () => {
    const input = tools();
    const r = transformTools(input, { transforms: [explode] });
    expect(r.report.skipped).toEqual([{ tool: 'one', toolIndex: 0, transform: 'strip-explosive', reason: 'threw: boom' }]);
    expect(r.tools[0]).toBe(input[0]);
    expect(r.tools[1]).toEqual({ name: 'two', inputSchema: { type: 'object' }, 'x-touched': true });
    expect(r.report.changes.map((c) => [c.path, c.tool, c.transform, c.code, c.message])).toEqual([['/1/x-touched', 'two', 'strip-explosive', 'touched', 'Touched `two`']]);
  });

  it('onError report: later steps still run on the skipped tool', () => {
    const r = transformTools(tools(), { transforms: [explode, 'prune-unreachable-defs'] });
    expect(r.tools[0]!.inputSchema).toEqual(PRUNED);
  });

  it('onError throw: the run throws, naming tool and transform', () => {
    const e = thrown(() => transformTools(tools(), { transforms: [explode], onError: 'throw' }));
    expect(e.code).toBe('transform-failed');
    expect(e.tool).toBe('one');
    expect(e.transform).toBe('strip-explosive');
    expect(e.message).toMatch(/strip-explosive.*`one`.*boom/);
  });

  it('a broken post-condition (a $ref left dangling) skips the tool with the reason', () => {
    const vandal = defineTransform({
      name: 'prune-everything',
      description: 'Removes every definition, needed or not',
      safety: 'lossless',
      defaultOptions: {},
      messages: { gone: 'Removed' },
      apply(doc, ctx) {
        if (doc.name === 'one') ctx.remove('/inputSchema/$defs/A', 'gone');
      },
    });
    const input = tools();
    const r = transformTools(input, { transforms: [vandal] });
    expect(r.tools[0]).toBe(input[0]);
    expect(JSON.stringify(r.tools)).toBe(JSON.stringify(tools()));
    expect(r.report.changes).toEqual([]);
    expect(r.report.skipped).toHaveLength(1);
    expect(r.report.skipped[0]!.reason).toMatch(/#\/\$defs\/A.*\/inputSchema\/properties\/a\/\$ref/);
  });

  it('a tool without any $ref still has its post-condition checked when a step puts a dangling one in', () => {
    // The engine skips the post-condition's walk for a tool no object of which has a reference keyword as
    // a key; each way an edit can put one in must turn the check back on.
    const edits: Record<string, (ctx: Parameters<Parameters<typeof defineTransform>[0]['apply']>[1]) => void> = {
      'an added value holding one': (ctx) => ctx.add('/inputSchema/properties/b', { anyOf: [{ $ref: '#/$defs/Nowhere' }] }, 'edit'),
      'a member added at a $ref key': (ctx) => ctx.add('/inputSchema/properties/a/$ref', '#/$defs/Nowhere', 'edit'),
      'a replaced value holding one': (ctx) => ctx.replace('/inputSchema/properties/a', { $dynamicRef: '#/$defs/Nowhere' }, 'edit'),
      'a member renamed to $ref': (ctx) => ctx.rename('/inputSchema/properties/a/x-target', '$ref', 'edit'),
    };
    for (const [what, edit] of Object.entries(edits)) {
      const vandal = defineTransform({ name: 'add-dangling-ref', description: 'Adds a $ref to nowhere', safety: 'lossless', defaultOptions: {}, messages: { edit: 'Edited' }, apply: (_doc, ctx) => edit(ctx) });
      const input = deepFreeze([{ name: 'one', inputSchema: { type: 'object', properties: { a: { type: 'string', 'x-target': '#/$defs/Nowhere' } } } }]);
      const r = transformTools(input, { transforms: [vandal], verify: false });
      expect(r.tools[0], what).toBe(input[0]);
      expect(r.report.skipped, what).toHaveLength(1);
      expect(r.report.skipped[0]!.reason, what).toMatch(/#\/\$defs\/Nowhere/);
    }
  });

  it('a tool without any `x-` key is still stripped by strip-vendor-extensions when an earlier step puts one in', () => {
    // The engine tells transforms (ToolDoc.mayHold) that no object of a tool has an extension keyword as a
    // key, and strip-vendor-extensions passes such a tool over; each way an edit can put one in must undo that.
    const edits: Record<string, [(ctx: Parameters<Parameters<typeof defineTransform>[0]['apply']>[1]) => void, unknown]> = {
      'a member added at an x- key': [(ctx) => ctx.add('/inputSchema/properties/a/x-note', 'hi', 'edit'), { type: 'object', properties: { a: { type: 'string', note: 1 } } }],
      'an added value holding one': [(ctx) => ctx.add('/inputSchema/properties/b', { type: 'integer', 'x-unit': 'ms' }, 'edit'), { type: 'object', properties: { a: { type: 'string', note: 1 }, b: { type: 'integer' } } }],
      'a replaced value holding one': [(ctx) => ctx.replace('/inputSchema/properties/a', { anyOf: [{ type: 'string', 'x-kind': 'id' }] }, 'edit'), { type: 'object', properties: { a: { anyOf: [{ type: 'string' }] } } }],
      'a member renamed to an x- key': [(ctx) => ctx.rename('/inputSchema/properties/a/note', 'x-note', 'edit'), { type: 'object', properties: { a: { type: 'string' } } }],
    };
    const seen: boolean[] = [];
    const spy = defineTransform({ name: 'spy', description: 'Records what the engine says of x- keys', safety: 'lossless', defaultOptions: {}, messages: {}, apply: (doc) => void seen.push(doc.mayHold.extensionKeys) });
    for (const [what, [edit, expected]] of Object.entries(edits)) {
      const vandal = defineTransform({ name: 'add-extension', description: 'Adds an x- key', safety: 'lossless', defaultOptions: {}, messages: { edit: 'Edited' }, apply: (_doc, ctx) => edit(ctx) });
      const input = deepFreeze([{ name: 'one', inputSchema: { type: 'object', properties: { a: { type: 'string', note: 1 } } } }]);
      seen.length = 0;
      const r = transformTools(input, { transforms: [spy, vandal, spy, stripVendorExtensions], verify: false });
      expect(seen, what).toEqual([false, true]);
      expect(r.tools[0]!.inputSchema, what).toEqual(expected);
      expect(r.report.changes.filter((c) => c.transform === 'strip-vendor-extensions').map((c) => c.code), what).toEqual(['removed-extension']);
    }
    // An `x-` key anywhere (here inside data, where it stays) and a tool the fast input check passes on
    // (an `undefined` member) are "maybe".
    seen.length = 0;
    transformTools([{ name: 'data', inputSchema: { type: 'object', default: { 'x-a': 1 } } }, { name: 'undef', title: undefined, inputSchema: { type: 'object' } }, { name: 'plain', inputSchema: { type: 'object' } }], { transforms: [spy], verify: false });
    expect(seen).toEqual([true, true, false]);
  });

  it('the post-condition names refs, not counts: fixing one broken ref does not excuse breaking another', () => {
    const swap = defineTransform({
      name: 'swap-refs',
      description: 'Points the broken ref at a definition and breaks the working one',
      safety: 'lossless',
      defaultOptions: {},
      messages: { moved: 'Moved' },
      apply(_doc, ctx) {
        ctx.replace('/inputSchema/properties/a/$ref', '#/$defs/Gone', 'moved');
        ctx.replace('/inputSchema/properties/b/$ref', '#/$defs/A', 'moved');
      },
    });
    const input = [{ name: 'one', inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/A' }, b: { $ref: '#/$defs/Missing' } }, $defs: { A: { type: 'string' } } } }];
    const r = transformTools(input, { transforms: [swap], verify: false });
    // One broken ref before, one after: the count alone would let this through.
    expect(r.tools[0]).toBe(input[0]);
    expect(r.report.skipped).toHaveLength(1);
    expect(r.report.skipped[0]!.reason).toMatch(/#\/\$defs\/Gone.*\/inputSchema\/properties\/a\/\$ref/);
    // Leaving the already broken ref as it is stays allowed.
    const keep = defineTransform({
      name: 'touch-a',
      description: 'Respells the working ref (same target) and leaves the broken one',
      safety: 'lossless',
      defaultOptions: {},
      messages: { same: 'Same' },
      apply(_doc, ctx) {
        ctx.replace('/inputSchema/properties/a/$ref', '#/%24defs/A', 'same');
      },
    });
    const ok = transformTools(input, { transforms: [keep], verify: false });
    expect(ok.report.skipped).toEqual([]);
    expect(ok.report.changes).toHaveLength(1);
  });

  it('unknown options and unknown transforms are errors that name them', () => {
    let e = thrown(() => transformTools(tools(), { transforms: [['prune-unreachable-defs', { kep: ['x'] }]] }));
    expect(e.code).toBe('invalid-option');
    expect(e.message).toMatch(/`kep`/);
    expect(e.message).toMatch(/keep/);
    e = thrown(() => transformTools(tools(), { transforms: ['prune-unreachable-def'] }));
    expect(e.code).toBe('unknown-transform');
    expect(e.message).toMatch(/`prune-unreachable-def`/);
    e = thrown(() => pruneUnreachableDefs(tools(), { keep: 'A' as never }));
    expect(e.message).toMatch(/`keep`/);
    e = thrown(() => pruneUnreachableDefs(tools(), { slots: ['input'] as never }));
    expect(e.message).toMatch(/`slots`/);
    e = thrown(() => transformTools(tools(), { transforms: [{} as never] }));
    expect(e.code).toBe('unknown-transform');
  });

  it('a throwing prepare skips every tool for that transform; a throwing finish is an error diagnostic', () => {
    const badPrepare = defineTransform<object, number>({
      name: 'strip-badprepare',
      description: 'Its whole-list analysis throws',
      safety: 'lossless',
      defaultOptions: {},
      messages: {},
      prepare: () => {
        throw new Error('no analysis');
      },
      apply: () => undefined,
    });
    const badFinish = defineTransform<object, undefined>({
      name: 'strip-badfinish',
      description: 'Its finishing step throws',
      safety: 'lossless',
      defaultOptions: {},
      messages: {},
      apply: () => undefined,
      finish: () => {
        throw new Error('no finish');
      },
    });
    const r = transformTools(tools(), { transforms: [badPrepare, badFinish, 'prune-unreachable-defs'] });
    expect(r.report.skipped.map((s) => [s.toolIndex, s.transform, s.reason])).toEqual([
      [0, 'strip-badprepare', 'prepare threw: no analysis'],
      [1, 'strip-badprepare', 'prepare threw: no analysis'],
    ]);
    expect(r.report.diagnostics.map((d) => [d.severity, d.toolIndex, d.transform, d.code, d.message])).toEqual([['error', -1, 'strip-badfinish', 'finish-failed', 'finish threw: no finish']]);
    expect(r.tools[0]!.inputSchema).toEqual(PRUNED);
    expect(thrown(() => transformTools(tools(), { transforms: [badPrepare], onError: 'throw' })).message).toMatch(/strip-badprepare: prepare threw: no analysis/);
    expect(thrown(() => transformTools(tools(), { transforms: [badFinish], onError: 'throw' })).code).toBe('transform-failed');
  });

  it('does not call the transform at all when options are invalid', () => {
    let calls = 0;
    const t = defineTransform({ name: 'strip-nothing', description: 'Counts calls only', safety: 'lossless', defaultOptions: { a: 1 }, messages: {}, apply: () => void calls++ });
    expect(() => transformTools(tools(), { transforms: [[t, { b: 2 }]] })).toThrow(ToolslimError);
    expect(calls).toBe(0);
  });
});

describe('presets', () => {
  it('the default is the safe preset, which prunes', () => {
    expect(transformTools(tools()).report.stats.transforms.map((t) => t.name)).toEqual(presetSafe.steps.map((s) => s.name));
    expect(presetSafe.steps.map((s) => s.name)).toContain('prune-unreachable-defs');
    // "lossless" means verdicts (the definition): normalize-schema drops `title`/`$comment` and is lossless.
    expect(presetLossless.steps.every((s) => s.safety === 'lossless')).toBe(true);
  });

  it('overrides: false leaves a transform out, an object sets its options', () => {
    const off = transformTools(tools(), { transforms: [[presetSafe, { overrides: { 'prune-unreachable-defs': false } }]] });
    expect(off.report.changes).toEqual([]);
    expect(off.report.stats.transforms.map((t) => t.name)).not.toContain('prune-unreachable-defs');
    const keep = transformTools(tools(), { transforms: [[presetSafe, { overrides: { 'prune-unreachable-defs': { keep: ['Dead'] } } }]] });
    expect(keep.report.changes).toEqual([]);
    const byName = transformTools(tools(), { transforms: [['safe', { overrides: { 'prune-unreachable-defs': { keep: ['Dead'] } } }]] });
    expect(byName.report.changes).toEqual([]);
  });

  it('an override for a transform the preset does not have is an error naming it', () => {
    const e = thrown(() => transformTools(tools(), { transforms: [[presetSafe, { overrides: { 'strip-nothing': false } }]] }));
    expect(e.code).toBe('invalid-option');
    expect(e.message).toMatch(/`strip-nothing`/);
    expect(e.message).toMatch(/`safe`/);
  });
});

describe('prune options', () => {
  const both = deepFreeze([{ name: 'b', inputSchema: schemaWithDead(), outputSchema: schemaWithDead() }]);

  it('keep', () => {
    const r = pruneUnreachableDefs(both, { keep: ['Dead'] });
    expect(r.report.changes).toEqual([]);
  });

  it('slots', () => {
    expect(pruneUnreachableDefs(both).report.changes.map((c) => c.path)).toEqual(['/0/inputSchema/$defs/Dead', '/0/outputSchema/$defs/Dead']);
    expect(pruneUnreachableDefs(both, { slots: ['outputSchema'] }).report.changes.map((c) => c.path)).toEqual(['/0/outputSchema/$defs/Dead']);
    expect(pruneUnreachableDefs(both, { slots: [] }).report.changes).toEqual([]);
  });

  it('pruneSchemaDefs works on one schema with pointers relative to it', () => {
    const schema = deepFreeze(schemaWithDead());
    const r = pruneSchemaDefs(schema, { keep: [] });
    expect(r.schema).toEqual(PRUNED);
    expect(r.report.changes.map((c) => [c.op, c.path])).toEqual([['remove', '/$defs/Dead']]);
    expect(schema.$defs.Dead).toEqual({ type: 'null' });
  });
});

describe('bad tools are passed through and named, the rest proceed', () => {
  const cyclic: Record<string, unknown> = { name: 'cyclic', inputSchema: { type: 'object', properties: {} } };
  ((cyclic.inputSchema as Record<string, unknown>).properties as Record<string, unknown>).self = cyclic.inputSchema;
  let deep: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < 1100; i++) deep = { not: deep };
  const cases: [string, unknown, RegExp][] = [
    ['not an object', 'just a string', /the tool is a string, expected an object at `\/1`/],
    ['null', null, /null, expected an object/],
    ['an array', [1], /an array, expected an object/],
    ['a cycle', cyclic, /contains itself.*at `\/1\/inputSchema\/properties\/self`/],
    ['NaN', { name: 'nan', inputSchema: { type: 'number', maximum: NaN } }, /NaN is not a JSON number at `\/1\/inputSchema\/maximum`/],
    ['Infinity', { name: 'inf', inputSchema: { minimum: -Infinity } }, /-Infinity is not a JSON number at `\/1\/inputSchema\/minimum`/],
    ['undefined in an array', { name: 'undef', inputSchema: { type: 'object', examples: [undefined] } }, /undefined is not a JSON value at `\/1\/inputSchema\/examples\/0`/],
    ['a function', { name: 'fn', inputSchema: { default: () => 1 } }, /a function is not a JSON value at `\/1\/inputSchema\/default`/],
    ['a class instance', { name: 'date', inputSchema: { default: new Date(0) } }, /a Date object is not a JSON value at `\/1\/inputSchema\/default`/],
    ['a sparse array', { name: 'holes', inputSchema: { enum: [1, , 3] } }, /undefined is not a JSON value at `\/1\/inputSchema\/enum\/1`/],
    ['too deep', { name: 'deep', inputSchema: deep }, /nesting deeper than 1000 levels at `\/1\/inputSchema(\/not){1000}/],
  ];

  it.each(cases)('%s', (_label, bad, reason) => {
    const input = [{ name: 'ok', inputSchema: schemaWithDead() }, bad, { name: 'ok2', inputSchema: schemaWithDead() }] as McpTool[];
    const r = transformTools(input);
    expect(r.report.skipped).toHaveLength(1);
    expect(r.report.skipped[0]).toMatchObject({ toolIndex: 1, transform: 'input' });
    expect(r.report.skipped[0]!.reason).toMatch(reason);
    expect(r.tools[1]).toBe(bad);
    expect(r.tools[0]!.inputSchema).toEqual(PRUNED);
    expect(r.tools[2]!.inputSchema).toEqual(PRUNED);
    const e = thrown(() => transformTools(input, { onError: 'throw' }));
    expect(e.code).toBe('invalid-input');
    expect(e.path).toMatch(/^\/1/);
  });

  it('an object member that is `undefined` (as SDK servers build tools) is noted, kept, and the tool is processed', () => {
    const tool = { name: 'sdk', title: undefined, inputSchema: { ...schemaWithDead(), description: undefined } } as unknown as McpTool;
    const r = transformTools([tool]);
    expect(r.report.skipped).toEqual([]);
    expect(r.tools[0]!.inputSchema).toEqual(PRUNED);
    expect(Object.prototype.hasOwnProperty.call(r.tools[0], 'title')).toBe(true);
    expect(r.report.diagnostics.filter((d) => d.code === 'undefined-member').map((d) => [d.severity, d.transform, d.path])).toEqual([
      ['info', 'input', '/0/title'],
      ['info', 'input', '/0/inputSchema/description'],
    ]);
  });

  it('maxDepth is an option', () => {
    const input = [{ name: 'deep', inputSchema: deep }] as McpTool[];
    expect(transformTools(input, { maxDepth: 5000 }).report.skipped).toEqual([]);
    expect(transformTools([{ name: 's', inputSchema: { not: { not: {} } } }], { maxDepth: 2 }).report.skipped).toHaveLength(1);
  });

  it('an object shared by two places (not a cycle) is fine', () => {
    const shared = { type: 'string' };
    const r = transformTools([{ name: 'dag', inputSchema: { properties: { a: shared, b: shared } } }]);
    expect(r.report.skipped).toEqual([]);
  });
});

it('report stats add up on a small list', () => {
  const input = tools();
  const r = transformTools(input);
  const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');
  expect(r.report.stats.before.bytes).toBe(bytes(input));
  expect(r.report.stats.after.bytes).toBe(bytes(r.tools));
  expect(r.report.stats.transforms.reduce((sum, t) => sum + t.bytesSaved, 0)).toBe(bytes(input) - bytes(r.tools));
  expect(transformTools([]).report.stats.before.bytes).toBe(2);
  expect(jsonClone(input)).toEqual(tools());
});
