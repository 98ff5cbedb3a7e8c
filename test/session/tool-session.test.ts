/**
 * ToolSession: the served text is byte-identical across requests and replays (checked against a list
 * built independently with compressColdTools), cold calls are checked against the full schema, and a
 * reveal changes only the revealed tool's bytes and is announced only with the server's capability.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compressColdTools, ToolslimError, ToolUsageGraph, type McpTool } from '../../src/index.js';
import { DEFAULT_HOT_SET } from '../../src/session/defaults.js';
import { invalidArgumentsResult, ToolSession } from '../../src/session/tool-session.js';
import { ArgumentValidator } from '../../src/session/validate-arguments.js';
import { stringifyIterative } from '../../src/json/stringify.js';
import { deepFreeze } from '../helpers/freeze.js';
import { BFCL_GROUPS, BFCL_SESSIONS, sessionTools } from './bfcl.js';

const FS = deepFreeze(JSON.parse(JSON.stringify(BFCL_GROUPS.GorillaFileSystem)) as McpTool[]);
const names = FS.map((t) => t.name);

/**
 * The expected served text, built without ToolSession: compress-cold-tools with the hot names kept, then
 * (the default `preamble: 'once'`) BFCL's preamble — everything up to and including "Tool description: ",
 * found by that marker rather than as a shared prefix — kept on the first tool that has it and taken off
 * every other hot tool (cold ones no longer have it).
 */
const expectedText = (tools: readonly McpTool[], hot: readonly string[], cold: object = DEFAULT_HOT_SET.cold, once = true) => {
  const served = compressColdTools(tools, { ...cold, keep: [...hot] }).tools.map((t) => ({ ...t }));
  const seen = new Set<string>();
  for (const [i, t] of tools.entries()) {
    const d = t.description ?? '';
    const at = d.indexOf('Tool description: ');
    if (!once || at < 0) continue;
    const pre = d.slice(0, at + 'Tool description: '.length);
    const isHot = hot.includes(t.name);
    if (!seen.has(pre)) {
      seen.add(pre);
      if (!isHot) served[i]!.description = pre + served[i]!.description;
    } else if (isHot) served[i]!.description = d.slice(pre.length);
  }
  return JSON.stringify({ tools: served });
};

/** Replays a session's reference calls through a fresh ToolSession; returns every text served before a turn. */
function replay(tools: McpTool[], graphJson: string, calls: readonly (readonly { name: string; arguments: unknown }[])[], k: number, validator?: ArgumentValidator) {
  const usage = ToolUsageGraph.fromJSON(JSON.parse(graphJson));
  const session = new ToolSession({ list: { tools }, hotSet: { k, graph: usage }, usage, validator });
  const texts: string[] = [];
  const decisions: string[] = [];
  for (const turn of calls) {
    texts.push(session.text);
    for (const call of turn) decisions.push(session.onCall(call.name, call.arguments).action);
  }
  texts.push(session.text);
  return { texts, decisions, usage, session };
}

describe('ToolSession: cache-stable served lists', () => {
  it('50 replays of each BFCL session from a cold usage file serve byte-identical lists, equal to the independently built one', () => {
    for (const s of BFCL_SESSIONS) {
      const tools = sessionTools(s);
      const cold = JSON.stringify(new ToolUsageGraph(tools));
      const calls = s.turns.map((t) => t.calls);
      // A cold file is no evidence: no tool is hot, every tool is served in the default cold form.
      const expected = expectedText(tools, []);
      // One validator for the replays of a session, as a proxy keeps one (compiling is not what is tested).
      const validator = new ArgumentValidator();
      for (let r = 0; r < 50; r++) {
        const { texts, decisions } = replay(sessionTools(s), cold, calls, 3, validator);
        for (const text of texts) expect(text, s.id).toBe(expected);
        // Every reference call is valid, so every call is forwarded.
        expect(decisions.every((d) => d === 'forward'), s.id).toBe(true);
      }
    }
  });

  it('serves the same bytes in another process', () => {
    const s = BFCL_SESSIONS[0]!;
    const script = `
      import { ToolSession } from ${JSON.stringify(join(import.meta.dirname, '../../src/session/tool-session.ts'))};
      import { ToolUsageGraph } from ${JSON.stringify(join(import.meta.dirname, '../../src/index.ts'))};
      import { sessionTools, BFCL_SESSIONS } from ${JSON.stringify(join(import.meta.dirname, 'bfcl.ts'))};
      const s = BFCL_SESSIONS[0];
      const tools = sessionTools(s);
      const graph = new ToolUsageGraph(tools).recordAll(['cd', 'ls', 'cd', 'post_tweet']);
      const session = new ToolSession({ list: { tools }, hotSet: { k: 4, graph, cold: { dropSharedPreamble: true, parameters: 'schema' } } });
      process.stdout.write(session.text);`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const tools = sessionTools(s);
    const graph = new ToolUsageGraph(tools).recordAll(['cd', 'ls', 'cd', 'post_tweet']);
    const here = new ToolSession({ list: { tools }, hotSet: { k: 4, graph, cold: { dropSharedPreamble: true, parameters: 'schema' } } });
    expect(out).toBe(here.text);
    // cd 2 calls, ls 1, post_tweet 1: three tools with evidence, so three hot of the four allowed.
    expect([...here.hot].sort()).toEqual(['cd', 'ls', 'post_tweet']);
    expect(here.text).toBe(expectedText(tools, here.hot, { dropSharedPreamble: true, parameters: 'schema' }));
  });

  it('ranks from the usage graph once, at the start: calls during the session do not move the hot set', () => {
    const graph = new ToolUsageGraph(FS).recordAll(['cat', 'cat', 'grep', 'cat', 'grep', 'ls']);
    const session = new ToolSession({ list: FS, hotSet: { k: 2, graph }, usage: graph });
    expect(session.hot).toEqual(['cat', 'grep']);
    const before = session.text;
    for (let i = 0; i < 10; i++) session.onCall('ls', { a: true });
    expect(graph.callCount('ls')).toBe(11);
    expect(session.text).toBe(before);
    expect(session.hot).toEqual(['cat', 'grep']);
    expect(session.version).toBe(0);
  });

  it('counts one session in the usage recorder, after ranking', () => {
    const graph = new ToolUsageGraph(FS).recordAll(['cat']);
    const s = new ToolSession({ list: FS, hotSet: { graph, minCallsPerSession: 1 }, usage: graph });
    expect(s.hot).toEqual(['cat']); // ranked with 0 sessions counted (read as 1): 1 call per session
    expect(graph.sessions).toBe(1);
  });

  it('serves the list as it is without a hot set, keeping the envelope and its key order', () => {
    const list = { _meta: { x: 1 }, tools: FS, extra: 'kept' };
    const session = new ToolSession({ list });
    expect(session.text).toBe(JSON.stringify(list));
    expect(session.onCall('cat', { nonsense: 1 })).toEqual({ action: 'forward', tool: 'cat', cold: false, revealed: false, notify: false });
  });
});

describe('ToolSession: calls of cold tools (reveal: result)', () => {
  const session = () => {
    const calls: string[] = [];
    const s = new ToolSession({ list: { tools: FS }, hotSet: { k: 1, policy: 'list-order' }, usage: { record: (n) => calls.push(n) } });
    return { s, calls };
  };

  it('forwards a valid call of a cold tool and records it', () => {
    const { s, calls } = session();
    expect(s.isHot('cat')).toBe(true);
    expect(s.isHot('cd')).toBe(false);
    const d = s.onCall('cd', { folder: 'docs' });
    expect(d).toEqual({ action: 'forward', tool: 'cd', cold: true, revealed: false, notify: false, check: { status: 'valid' } });
    expect(calls).toEqual(['cd']);
  });

  it('answers an invalid call with each problem and the full schema, does not record it, and keeps the list', () => {
    const { s, calls } = session();
    const before = s.text;
    const d = s.onCall('cd', { folder: 3, depth: 1 });
    expect(d.action).toBe('answer');
    if (d.action !== 'answer') return;
    expect(d.result.isError).toBe(true);
    const text = d.result.content[0]!.text;
    expect(text).toContain('toolslim did not call `cd`: invalid arguments.');
    expect(text).toContain('- `/folder`: must be string');
    // The schema in the answer is the tool's full one, compact JSON, parseable back.
    const schemaLine = text.split('\n').find((l) => l.startsWith('Input schema: '))!;
    expect(JSON.parse(schemaLine.slice('Input schema: '.length))).toEqual(FS.find((t) => t.name === 'cd')!.inputSchema);
    expect(calls).toEqual([]);
    expect(s.text).toBe(before);
    // Missing required arguments too.
    const missing = s.onCall('cd', undefined);
    expect(missing.action === 'answer' && missing.issues).toEqual([{ path: '', message: "must have required property 'folder'" }]);
  });

  it('forwards, unchecked, a cold call of a name the server lists twice (which tool runs is the server\'s choice)', () => {
    const tools = deepFreeze([
      { name: 'hot', inputSchema: { type: 'object' } },
      { name: 'twin', description: 'By id', inputSchema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] } },
      { name: 'twin', description: 'By path', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
      { name: 'single', inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
    ] as McpTool[]);
    const s = new ToolSession({ list: tools, hotSet: { k: 1, policy: 'list-order' } });
    expect(s.isHot('twin')).toBe(false);
    // Right for the second `twin`, wrong for the first: it was refused against the first's schema.
    const d = s.onCall('twin', { path: 'a/b' });
    expect(d).toEqual({ action: 'forward', tool: 'twin', cold: true, revealed: false, notify: false, check: { status: 'unchecked', reason: 'the server lists 2 tools named `twin`; which one a call runs is the server\'s choice' } });
    // A name listed once is still checked.
    expect(s.onCall('single', { n: 'x' }).action).toBe('answer');
  });

  it('forwards hot calls and calls of unknown tools untouched, recording only listed tools', () => {
    const { s, calls } = session();
    expect(s.onCall('cat', { wrong: true }).action).toBe('forward');
    expect(s.onCall('no_such_tool', {})).toEqual({ action: 'forward', tool: 'no_such_tool', cold: false, revealed: false, notify: false });
    expect(s.onCall(42, {})).toMatchObject({ action: 'forward', tool: '' });
    expect(calls).toEqual(['cat']);
  });

  it('forwards a call it cannot check (the schema does not compile), saying why', () => {
    const tools = [FS[0]!, { name: 'broken', inputSchema: { type: 'object', properties: { x: { $ref: '#/nowhere' } } } }];
    const s = new ToolSession({ list: tools, hotSet: { k: 1, policy: 'list-order' } });
    const d = s.onCall('broken', {});
    expect(d.action).toBe('forward');
    expect(d.action === 'forward' && d.check?.status).toBe('unchecked');
  });
});

describe('ToolSession: reveal list-changed', () => {
  it('with the capability: the tool becomes hot, only its bytes change, and the client is to be told', () => {
    const s = new ToolSession({ list: { tools: FS }, hotSet: { k: 1, policy: 'list-order', reveal: 'list-changed' }, listChanged: true });
    const before = s.tools.map((t) => JSON.stringify(t));
    const d = s.onCall('cd', { folder: 'x' });
    expect(d).toMatchObject({ action: 'forward', cold: true, revealed: true, notify: true });
    expect(s.isHot('cd')).toBe(true);
    expect(s.version).toBe(1);
    const after = s.tools.map((t) => JSON.stringify(t));
    const i = names.indexOf('cd');
    for (let j = 0; j < names.length; j++) expect(after[j] === before[j], names[j]).toBe(j !== i);
    // In full, without the server's preamble: `cat`, listed first, carries it.
    const description = FS[i]!.description!;
    expect(after[i]).toBe(JSON.stringify({ ...FS[i], description: description.slice(description.indexOf('Tool description: ') + 'Tool description: '.length) }));
    expect(s.text).toBe(expectedText(FS, ['cat', 'cd']));
    // A second call is a hot call.
    expect(s.onCall('cd', { folder: 1 })).toMatchObject({ action: 'forward', cold: false, revealed: false, notify: false });
  });

  it('without the capability: revealed on the next tools/list, never announced', () => {
    const s = new ToolSession({ list: FS, hotSet: { k: 1, policy: 'list-order', reveal: 'list-changed' } });
    const d = s.onCall('cd', { folder: 7 });
    expect(d).toMatchObject({ action: 'answer', cold: true, revealed: true, notify: false });
    expect(d.action === 'answer' && d.result.content[0]!.text).toContain('Its full definition is now in the tool list.');
    expect(s.text).toBe(expectedText(FS, ['cat', 'cd']));
  });

  it('reveal result never changes the list', () => {
    const s = new ToolSession({ list: FS, hotSet: { k: 1, policy: 'list-order' }, listChanged: true });
    const before = s.text;
    for (const n of names) s.onCall(n, {});
    expect(s.text).toBe(before);
    expect(s.version).toBe(0);
  });
});

describe('ToolSession: updates, sizes, options', () => {
  it('update keeps the hot names, does not re-rank, and reports whether the text changed', () => {
    const graph = new ToolUsageGraph(FS).recordAll(['grep', 'grep', 'ls']);
    const s = new ToolSession({ list: FS, hotSet: { k: 2, graph } });
    expect(s.hot).toEqual(['grep', 'ls']);
    expect(s.update(FS)).toBe(false);
    expect(s.version).toBe(0);
    const fewer = FS.filter((t) => t.name !== 'ls');
    expect(s.update(fewer)).toBe(true);
    expect(s.hot).toEqual(['grep']);
    expect(s.text).toBe(expectedText(fewer, ['grep']));
  });

  it('gives definition sizes as served and as the server sent them', () => {
    const original = FS.map((t) => ({ ...t, annotations: { readOnlyHint: true } }));
    const s = new ToolSession({ list: FS, original, hotSet: { k: 1, policy: 'list-order' } });
    const cd = s.tools[names.indexOf('cd')]!;
    expect(s.definitionBytes('cd')).toEqual({ served: Buffer.byteLength(JSON.stringify(cd)), original: Buffer.byteLength(JSON.stringify(original[names.indexOf('cd')])) });
    expect(s.definitionBytes('nope')).toBeUndefined();
  });

  it('rejects unusable options, naming them', () => {
    expect(() => new ToolSession({ list: FS, hotSet: { k: -2 } })).toThrow(/`hotSet.k` must be a non-negative integer, got -2/);
    expect(() => new ToolSession({ list: FS, hotSet: { k: 1, reveal: 'always' as never } })).toThrow(/`hotSet.reveal` must be one of 'result', 'list-changed', got "always"/);
    expect(() => new ToolSession({ list: FS, hotSet: { k: 1, cold: { maxDescriptionLength: 0 } } })).toThrow(/cold form: compress-cold-tools: `maxDescriptionLength`/);
    expect(() => new ToolSession({ list: FS, hotSet: { k: 1, cold: { keep: ['x'] } as never } })).toThrow(/takes no `keep`/);
    expect(() => new ToolSession({ list: FS, hotSet: { k: 1, policy: 'best' as never } })).toThrow(/unknown hot-set policy "best"/);
    expect(() => new ToolSession({ list: FS, hotSet: { k: 1, size: 3 } as never })).toThrow(/unknown hot-set option `size`/);
    expect(() => new ToolSession({ list: FS, listChanged: 'yes' as never })).toThrow(/`listChanged` must be true or false/);
    expect(() => new ToolSession({ list: FS, usage: {} as never })).toThrow(/`usage` must have a `record\(name\)` method/);
    expect(() => new ToolSession({ list: 'x' as never })).toThrow(ToolslimError);
    expect(() => new ToolSession({ list: FS, hotset: { k: 1 } } as never)).toThrow(/unknown option `hotset`/);
  });
});

describe('ToolSession: hostile lists', () => {
  it('serves a tool nested 100,000 levels deep (passed through unchanged) and forwards its calls unchecked', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i++) deep = { type: 'object', properties: { x: deep } };
    const tools = [FS[0]!, { name: 'deep', inputSchema: deep }] as McpTool[];
    const s = new ToolSession({ list: tools, hotSet: { k: 1, policy: 'list-order' } });
    expect(s.text.length).toBeGreaterThan(3_000_000);
    expect(s.text.startsWith('{"tools":[')).toBe(true);
    const d = s.onCall('deep', { x: {} });
    expect(d.action).toBe('forward');
    expect(d.action === 'forward' && d.check?.status).toBe('unchecked');
    expect(s.definitionBytes('deep')!.served).toBe(Buffer.byteLength(stringifyIterative(tools[1])));
  });

  it('treats `__proto__` tool and parameter names as data', () => {
    // From JSON text: in an object literal `__proto__:` would set the prototype instead of a member.
    const tools = JSON.parse('[{"name":"__proto__","description":"Odd.","inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}},{"name":"constructor","description":"Odder.","inputSchema":{"type":"object"}}]') as McpTool[];
    const s = new ToolSession({ list: tools, hotSet: { k: 0 } });
    // ajv reads no parameter named `__proto__` (its own limit), so such a call is the server's to judge:
    // forwarded, never a crash or a polluted prototype.
    expect(s.onCall('__proto__', JSON.parse('{"__proto__": 1}')).action).toBe('forward');
    expect(s.onCall('__proto__', JSON.parse('{"__proto__": "ok"}')).action).toBe('forward');
    expect(s.onCall('constructor', 5).action).toBe('answer');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(s.tools[0]!.description).toBe('Odd (__proto__:string)');
  });
});

describe('ToolSession: cold tools that run as tasks (MCP `execution.taskSupport`)', () => {
  // Found as a user: server-everything's simulate-research-query (`taskSupport: "required"`) served cold had
  // no `execution`, so the SDK client called it without `task` and the server refused every call.
  const tools = JSON.parse(`[
    {"name":"required","description":"Must run as a task.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}},"execution":{"taskSupport":"required"},"annotations":{"readOnlyHint":true}},
    {"name":"optional","description":"May run as a task.","execution":{"taskSupport":"optional"},"inputSchema":{"type":"object"}},
    {"name":"forbidden","description":"Plain.","inputSchema":{"type":"object"},"execution":{"taskSupport":"forbidden"}},
    {"name":"empty","description":"Plain too.","inputSchema":{"type":"object"},"execution":{}},
    {"name":"future","description":"A member MCP does not define yet.","inputSchema":{"type":"object"},"execution":{"taskSupport":"forbidden","other":1}},
    {"name":"__proto__","description":"Odd.","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"},"__proto__":{"x":1}}
  ]`) as McpTool[];

  it('a cold form keeps an `execution` that lets or makes the client run a task, in its place; the default one goes', () => {
    const s = new ToolSession({ list: tools, hotSet: { k: 0 } });
    const served = JSON.parse(s.text).tools as Record<string, unknown>[];
    expect(served.map((t) => t.execution)).toEqual([{ taskSupport: 'required' }, { taskSupport: 'optional' }, undefined, undefined, { taskSupport: 'forbidden', other: 1 }, { taskSupport: 'required' }]);
    // Member order: the tool's own, less what the cold form drops.
    expect(Object.keys(served[0]!)).toEqual(['name', 'description', 'inputSchema', 'execution', 'annotations']);
    expect(Object.keys(served[1]!)).toEqual(['name', 'description', 'execution', 'inputSchema']);
    // compress-cold-tools' own form, byte for byte: the transform keeps the `execution` itself.
    const plain = compressColdTools(tools, { ...DEFAULT_HOT_SET.cold, keep: [] }).tools as Record<string, unknown>[];
    expect(JSON.stringify(served)).toBe(JSON.stringify(plain));
    expect(Object.getPrototypeOf(s.tools[5])).toBe(Object.prototype);
    expect((s.tools[5] as Record<string, unknown>).x).toBeUndefined();
  });

  it('a hot tool is served as it is', () => {
    const s = new ToolSession({ list: tools, hotSet: { k: 6, policy: 'list-order' } });
    expect(JSON.parse(s.text).tools).toEqual(tools);
  });
});

describe('ToolSession: the shared preamble said once', () => {
  const PRE = 'This tool belongs to the demo server, which does demo things. Tool description: ';
  const list = [
    { name: 'a', description: PRE + 'Do a.', inputSchema: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] } },
    { name: 'b', description: PRE + 'Do b. More on b.', inputSchema: { type: 'object' } },
    { name: 'c', description: PRE + 'Do c.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
  ];
  const graph = (names: string[]) => {
    const g = new ToolUsageGraph(list);
    g.beginSession();
    for (const n of names) g.record(n);
    return g;
  };

  it('by default: on the first tool only, hot or cold; every other tool without it, hot ones too', () => {
    const s = new ToolSession({ list, hotSet: { graph: graph(['b', 'c']) } });
    expect(s.hot).toEqual(['b', 'c']);
    expect(s.tools).toEqual([
      { name: 'a', description: PRE + 'Do a (x:string)', inputSchema: { type: 'object' } },
      { name: 'b', description: 'Do b. More on b.', inputSchema: { type: 'object' } },
      { name: 'c', description: 'Do c.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
    ]);
    // The validator still checks against the real schema.
    expect(s.onCall('a', {}).action).toBe('answer');
  });

  it("`preamble: 'each'` keeps it on hot tools; `once` without a cold form that drops it is refused", () => {
    const s = new ToolSession({ list, hotSet: { graph: graph(['a']), preamble: 'each' } });
    expect(s.tools.map((t) => t.description)).toEqual([PRE + 'Do a.', 'Do b.', 'Do c (n?:integer)']);
    // A cold form that keeps preambles: `once` is not the default then, and asking for it is an error.
    expect(new ToolSession({ list, hotSet: { graph: graph(['a']), cold: {} } }).tools[0]).toBe(list[0]);
    expect(() => new ToolSession({ list, hotSet: { cold: {}, preamble: 'once' } })).toThrow(/`preamble: 'once'` needs a cold form that drops the shared preamble/);
    expect(() => new ToolSession({ list, hotSet: { preamble: 'twice' as never } })).toThrow(/`preamble` must be one of 'each', 'once', got "twice"/);
  });
});

describe('invalidArgumentsResult', () => {
  it('formats a deterministic answer', () => {
    const r = invalidArgumentsResult('t', { inputSchema: { type: 'object', required: ['a'] } }, [{ path: '', message: "must have required property 'a'" }], 2);
    expect(r).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: [
            'toolslim did not call `t`: invalid arguments.',
            "- must have required property 'a'",
            '- … and 2 more',
            'Input schema: {"type":"object","required":["a"]}',
            'Call it again with matching arguments.',
          ].join('\n'),
        },
      ],
    });
    const revealed = invalidArgumentsResult('t', { inputSchema: { type: 'object', properties: { a: { type: 'string' } } } }, [{ path: '/a', message: 'must be string' }], 0, true);
    expect(revealed.content[0]!.text).toBe(
      ['toolslim did not call `t`: invalid arguments.', '- `/a`: must be string', 'Input schema: {"type":"object","properties":{"a":{"type":"string"}}}', 'Its full definition is now in the tool list. Call it again with matching arguments.'].join('\n'),
    );
  });
});
