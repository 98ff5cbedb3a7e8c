/**
 * What toolslim writes is what it read (src/json/source.ts, src/cli/output.ts): unchanged tools as their
 * exact input bytes, changed tools in the input's layout with their numbers' original text, and tools
 * whose numbers JavaScript cannot hold left unchanged and reported. Expected outputs are hand-written
 * files (test/data/output/<case>/expected.json) compared byte for byte; spans are checked against
 * JSON.parse; the property test builds its texts with its own writer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transformTools } from '../../src/index.js';
import { analyzeToolNumbers, COMPACT_STYLE, describeNumberProblem, indentedStyle, restyleJson, scanToolsSource } from '../../src/json/source.js';
import { keepUnchangedOf, readPageSource, readToolsSource, renderListResult, renderToolsText } from '../../src/cli/output.js';

const CASES = join(import.meta.dirname, '..', 'data', 'output');

/** The CLI's path: follow the text, keep what cannot be rewritten, run, render. */
function optimizeText(text: string, transforms: string[] = ['prune-unreachable-defs']) {
  const value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const source = readToolsSource(text, value);
  if (!source) throw new Error('the text could not be followed');
  const keepUnchanged = keepUnchangedOf([source]);
  const result = transformTools(value, { transforms, ...(keepUnchanged ? { keepUnchanged } : {}) });
  return { source, result, text: renderToolsText(source, result) };
}

describe('hand-written cases, byte for byte', () => {
  const cases = readdirSync(CASES).filter((d) => !d.includes('.'));
  it('has a case for every envelope', () => {
    expect(cases.sort()).toEqual(['array-indented', 'capture-tabs', 'jsonrpc-spaced', 'list-result-compact']);
  });
  it.each(cases)('%s', (name) => {
    const input = readFileSync(join(CASES, name, 'input.json'), 'utf8');
    const expected = readFileSync(join(CASES, name, 'expected.json'), 'utf8');
    const skipped = JSON.parse(readFileSync(join(CASES, name, 'skipped.json'), 'utf8')) as { toolIndex: number; reason: string }[];
    const { result, text } = optimizeText(input);
    expect(text).toBe(expected);
    expect(result.report.skipped.map((s) => ({ toolIndex: s.toolIndex, reason: s.reason }))).toEqual(skipped);
    expect(result.report.skipped.every((s) => s.transform === 'input')).toBe(true);
    // A second run over the output changes nothing and writes the same bytes.
    expect(optimizeText(text).text).toBe(text);
  });
});

describe('scanToolsSource', () => {
  const spansParse = (text: string, pointer: string) => {
    const source = scanToolsSource(text, pointer);
    return source.tools.map((s) => JSON.parse(text.slice(s.start, s.end)));
  };
  it('finds each element of the tools array wherever the envelope holds it', () => {
    const tools = [{ name: 'a', inputSchema: { type: 'object', properties: { x: { enum: [1, 'a', null, true, false, { '"': '\\' }] } } } }, 'odd', 7, null, []];
    const t = JSON.stringify(tools);
    for (const [text, pointer] of [
      [t, ''],
      [`{"tools":${t},"nextCursor":"c"}`, '/tools'],
      [`{"jsonrpc":"2.0","id":3,"result":{"tools":${t}}}`, '/result/tools'],
      [`{"server":{"tools":[1]},"initialize":{"tools":[]},"toolsList":{"tools":${t}}}`, '/toolsList/tools'],
      [` \n{ "tools" :\r\n\t${JSON.stringify(tools, null, 3)} } \n`, '/tools'],
    ] as const) {
      expect(spansParse(text, pointer)).toEqual(tools);
    }
  });
  it('reads duplicate names and escaped names as JSON.parse does', () => {
    const text = '{"tools":[{"name":"first"}],"result":{"tools":[1]},"\\u0074ools":[{"name":"second"},{"name":"third"}]}';
    expect(spansParse(text, '/tools')).toEqual((JSON.parse(text) as { tools: unknown[] }).tools);
    const nested = '{"result":{"tools":[{"name":"a"}]},"result":{"x":{"tools":[0]},"tools":[{"name":"b"}]}}';
    expect(spansParse(nested, '/result/tools')).toEqual([{ name: 'b' }]);
  });
  it('throws when the pointer leads to no array', () => {
    expect(() => scanToolsSource('{"tools":{}}', '/tools')).toThrow(/no array/);
    expect(() => scanToolsSource('[1]', '/tools')).toThrow(/no array/);
  });
  it('detects the layout', () => {
    expect(scanToolsSource('[{"a":1,"b":2}]', '').style).toEqual(COMPACT_STYLE);
    expect(scanToolsSource('[{"a": 1, "b": 2}]', '').style).toMatchObject({ newline: '', colon: ': ', comma: ', ' });
    expect(scanToolsSource(JSON.stringify([{ a: 1 }], null, 4), '').style).toEqual(indentedStyle(4));
    expect(scanToolsSource('{\r\n\t"tools": [\r\n\t\t{}\r\n\t]\r\n}', '/tools').style).toMatchObject({ indent: '\t', newline: '\r\n', colon: ': ' });
    // A trailing line break is not a layout.
    expect(scanToolsSource('[{"a":1}]\n', '').style).toEqual(COMPACT_STYLE);
  });
  it('is linear: 200,000 tools and 1 MB strings in one pass', () => {
    const many = JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ name: `t${i}`, n: i + 0.5 })));
    expect(scanToolsSource(many, '').tools.length).toBe(200_000);
    const long = JSON.stringify([{ name: '\\"'.repeat(500_000), d: 'x'.repeat(1_000_000) }]);
    expect(scanToolsSource(long, '').tools.length).toBe(1);
  });
});

describe('analyzeToolNumbers', () => {
  const of = (tool: string) => analyzeToolNumbers(tool, 0, tool.length);
  const problem = (tool: string) => {
    const p = of(tool).problem;
    return p && describeNumberProblem(p);
  };
  it('maps canonical text back to the input text', () => {
    expect(of('{"a":1.0,"b":[1e2,2.50],"c":{"d":-1.5E+3},"e":0.0,"f":3}').lexemes).toEqual(
      new Map([
        ['1', '1.0'],
        ['100', '1e2'],
        ['2.5', '2.50'],
        ['-1500', '-1.5E+3'],
        ['0', '0.0'],
      ]),
    );
    expect(of('{"a":1,"b":-2.5,"c":1e+21,"d":123456789012345}')).toEqual({});
    // The same odd text twice is fine.
    expect(of('{"a":1.0,"b":[1.0]}').lexemes).toEqual(new Map([['1', '1.0']]));
  });
  it('names numbers JavaScript cannot hold, with their pointer', () => {
    expect(problem('{"m":9223372036854775807}')).toBe(
      'the number `9223372036854775807` at `/m` is an integer beyond 2^53 that JavaScript cannot hold exactly (it reads as 9223372036854776000); the tool is left unchanged so that its text is kept',
    );
    expect(problem('{"a":{"b~/":[0,12345678901234567890123]}}')).toMatch(/^the number `12345678901234567890123` at `\/a\/b~0~1\/1` is an integer beyond 2\^53 .*reads as 1\.2345678901234568e\+22/);
    expect(problem('{"x":-0}')).toMatch(/^the number `-0` at `\/x` reads as 0 in JavaScript/);
    expect(problem('{"x":-0.0e5}')).toMatch(/`-0\.0e5`.*sign/);
    expect(problem('{"x":1e-400}')).toMatch(/`1e-400`.*underflows to 0/);
    expect(problem('{"x":0.10000000000000001}')).toMatch(/more digits than a JavaScript number holds \(it reads as 0\.1\)/);
    expect(problem('{"x":9007199254740993}')).toMatch(/reads as 9007199254740992/);
    // Exactly representable: kept by text.
    expect(of('{"x":9007199254740992,"y":1e20,"z":-9007199254740991}').problem).toBeUndefined();
    expect(of('{"y":1e20}').lexemes).toEqual(new Map([['100000000000000000000', '1e20']]));
  });
  it('names one value written two ways', () => {
    expect(problem('{"a":1,"b":{"c":1.0}}')).toBe(
      'the numbers `1` at `/a` and `1.0` at `/b/c` are the same JavaScript value (1), so a rewritten tool could not tell which text goes where; the tool is left unchanged so that both are kept',
    );
    expect(problem('{"a":[1e2,1E2]}')).toMatch(/`1e2` at `\/a\/0` and `1E2` at `\/a\/1`.*\(100\)/);
    expect(problem('{"a":1.0,"b":1}')).toMatch(/`1\.0` at `\/a` and `1` at `\/b`/);
  });
  it('looks inside default, enum, const and examples, not inside strings or names', () => {
    expect(of('{"default":{"n":1.0},"enum":[2.0],"const":3.0,"examples":[[4.0]]}').lexemes?.size).toBe(4);
    expect(of('{"description":"1.0 and 1","1.0":1}')).toEqual({});
  });
});

describe('restyleJson', () => {
  const texts = [
    '{"a":[1,{"b":[]},{}],"c":"x, y: {z}","d":{"e":null,"f":true,"g":false}}',
    '[]',
    '[[[[]]]]',
    '"s"',
    '{"k\\"":"\\\\"}',
  ];
  it('writes what JSON.stringify writes, from any layout', () => {
    for (const t of texts) {
      const v = JSON.parse(t);
      for (const n of [0, 1, 2, 4]) {
        const expected = JSON.stringify(v, null, n);
        expect(restyleJson(t, indentedStyle(n))).toBe(expected);
        expect(restyleJson(JSON.stringify(v, null, 3).replace(/\n/g, '\r\n'), indentedStyle(n))).toBe(expected);
      }
    }
  });
  it('keeps every number and string as written', () => {
    expect(restyleJson('[1.0, 1e2,{"a" :-0}]', indentedStyle(1))).toBe('[\n 1.0,\n 1e2,\n {\n  "a": -0\n }\n]');
    expect(restyleJson('[1,2.5]', COMPACT_STYLE, 0, new Map([['2.5', '2.50']]))).toBe('[1,2.50]');
  });
});

describe('renderListResult (the proxy)', () => {
  const page = (tools: string, extra = '') => `{"jsonrpc":"2.0","id":"toolslim-proxy-1","result":{"tools":[${tools}]${extra}}}`;
  const toolA = '{"name":"a","inputSchema":{"type":"object","properties":{"n":{"maximum":1.0E3}},"$defs":{"U":{}}}}';
  const toolB = '{"name":"b","inputSchema":{"type":"object","properties":{"n":{"maximum":9223372036854775807}},"$defs":{"U":{}}}}';
  const toolC = '{"name":"c", "inputSchema":{"type":"object"}}';
  const run = (texts: string[]) => {
    const pages = texts.map((t) => readPageSource(t)!);
    const merged = { tools: texts.flatMap((t) => (JSON.parse(t) as { result: { tools: unknown[] } }).result.tools) };
    const keepUnchanged = keepUnchangedOf(pages);
    const result = transformTools(merged, { transforms: ['prune-unreachable-defs'], ...(keepUnchanged ? { keepUnchanged } : {}) });
    return { text: renderListResult(pages, result), result };
  };
  it('serves one page as its result text with only the changed tools replaced', () => {
    const { text, result } = run([page(`${toolA},${toolB},${toolC}`, ',"_meta":{"v":1.50}')]);
    expect(text).toBe('{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"n":{"maximum":1.0E3}},"$defs":{}}},' + toolB + ',' + toolC + '],"_meta":{"v":1.50}}');
    expect(result.report.skipped.map((s) => s.toolIndex)).toEqual([1]);
  });
  it('merges pages: the first page’s result without nextCursor, every tool in order', () => {
    const { text } = run([page(toolC, ',"nextCursor":"p2","_meta":{"x":1}'), page(`${toolB},${toolA}`, ',"nextCursor":"p3"'), page(toolC)]);
    expect(text).toBe('{"tools":[' + toolC + ',' + toolB + ',{"name":"a","inputSchema":{"type":"object","properties":{"n":{"maximum":1.0E3}},"$defs":{}}},' + toolC + '],"_meta":{"x":1}}');
  });
  it('keeps the answer on one line', () => {
    const pretty = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [JSON.parse(toolA)] } }, null, 2);
    const { text } = run([pretty]);
    expect(text).not.toMatch(/\n/);
    expect(JSON.parse(text)).toEqual({ tools: [{ name: 'a', inputSchema: { type: 'object', properties: { n: { maximum: 1000 } }, $defs: {} } }] });
  });
});

// ------------------------------------------------------------------------------------------------------
// Property: random texts with odd number forms and whitespace; unchanged tools come out as their bytes.

type Node = { t: 'num'; lex: string } | { t: 'lit'; text: string } | { t: 'arr'; items: Node[] } | { t: 'obj'; entries: [string, Node][] };

const ws = fc.constantFrom('', '', '', ' ', '\n', '\n  ', '\t', '\r\n    ');
const lexeme = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom('1.0', '2.50', '1e2', '1E+2', '10E-1', '0.0', '-0', '-0.0', '1.5e3', '0.10', '5E-1', '3e0', '9223372036854775807', '12345678901234567890123', '9007199254740993', '1e20', '0.1', '-2.5'),
);
const key = fc.constantFrom('type', 'minimum', 'default', 'enum', 'const', 'a', 'b', 'x y', 'é', '"q"', '\\');
const tree: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    lexeme.map((lex) => ({ t: 'num', lex }) as Node),
    fc.constantFrom('true', 'false', 'null', '"s"', '"1.0"', '""').map((text) => ({ t: 'lit', text }) as Node),
    fc.array(tie('node'), { maxLength: 4 }).map((items) => ({ t: 'arr', items }) as Node),
    fc.uniqueArray(fc.tuple(key, tie('node')), { maxLength: 4, selector: (e) => e[0] }).map((entries) => ({ t: 'obj', entries }) as Node),
  ),
})).node;

/** Our own writer: random whitespace between tokens, numbers as their lexemes. */
function write(node: Node, spaces: string[], k: { i: number }): string {
  const s = () => spaces[k.i++ % spaces.length]!;
  switch (node.t) {
    case 'num':
      return node.lex;
    case 'lit':
      return node.text;
    case 'arr':
      return '[' + s() + node.items.map((n) => write(n, spaces, k)).join(s() + ',' + s()) + s() + ']';
    case 'obj':
      return '{' + s() + node.entries.map(([kk, v]) => JSON.stringify(kk) + s() + ':' + s() + write(v, spaces, k)).join(s() + ',' + s()) + s() + '}';
  }
}

describe('property: unchanged tools keep their exact bytes', () => {
  const toolArb = fc.record({ name: fc.constantFrom('a', 'b', 'c'), schema: tree, unused: fc.boolean() });
  const envelope = fc.constantFrom('array', 'list', 'jsonrpc', 'capture');
  it('for random texts with odd numbers and whitespace (seeded)', () => {
    const seen = { unchanged: 0, changedWithOddNumbers: 0, kept: 0, multiLine: 0 };
    fc.assert(
      fc.property(fc.array(toolArb, { minLength: 1, maxLength: 5 }), envelope, fc.array(ws, { minLength: 1, maxLength: 7 }), (tools, env, spaces) => {
        const k = { i: 0 };
        const s = () => spaces[k.i++ % spaces.length]!;
        const toolTexts = tools.map(
          (t) =>
            `{${s()}"name":${s()}"${t.name}",${s()}"inputSchema":${s()}{"type":"object",${s()}"properties":${s()}{"p":${write(t.schema, spaces, k)}}` +
            (t.unused ? `,${s()}"$defs":${s()}{"U":{"minimum":${s()}4.0}}` : '') +
            `}${s()}}`,
        );
        const array = '[' + s() + toolTexts.join(s() + ',' + s()) + s() + ']';
        const text =
          env === 'array' ? array : env === 'list' ? `{"tools":${s()}${array},"x":1.0}` : env === 'jsonrpc' ? `{"jsonrpc":"2.0","id":1.0,"result":${s()}{"tools":${array}}}` : `{"server":{"v":1E0},"toolsList":{"tools":${array}}}${s()}`;
        const { source, result, text: out } = optimizeText(text);
        expect(source.tools.length).toBe(tools.length);
        const after = readToolsSource(out, JSON.parse(out))!;
        const changed = new Set(result.report.changes.map((c) => c.toolIndex));
        // Outside the tools, every byte is the input's.
        expect(out.slice(0, after.arrayStart)).toBe(text.slice(0, source.arrayStart));
        expect(out.slice(after.arrayEnd)).toBe(text.slice(source.arrayEnd));
        tools.forEach((_, i) => {
          const inText = text.slice(source.tools[i]!.start, source.tools[i]!.end);
          const outText = out.slice(after.tools[i]!.start, after.tools[i]!.end);
          if (/\n/.test(inText)) seen.multiLine++;
          if (!changed.has(i)) {
            expect(outText).toBe(inText);
            seen.unchanged++;
          } else {
            if (source.tools[i]!.numbers?.lexemes) seen.changedWithOddNumbers++;
            // A changed tool: every number keeps a text the input tool used for that value.
            const inNumbers = new Set(numberTexts(inText));
            for (const n of numberTexts(outText)) expect(inNumbers.has(n)).toBe(true);
            expect(JSON.parse(outText)).toEqual(result.tools[i]);
          }
          // A tool holding a number JavaScript cannot hold is never changed.
          if (source.tools[i]!.numbers?.problem) {
            expect(changed.has(i)).toBe(false);
            if (tools[i]!.unused) seen.kept++;
          }
        });
        expect(JSON.parse(out)).toEqual(result.output);
      }),
      { seed: 20240612, numRuns: 400 },
    );
    // Not vacuous: each kind of tool occurred often.
    for (const [kind, count] of Object.entries(seen)) expect(count, kind).toBeGreaterThan(50);
  });
});

/** Number tokens of a JSON text (strings skipped), by a scanner of the test's own. */
function numberTexts(text: string): string[] {
  const out: string[] = [];
  const re = /"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*/g;
  for (const m of text.matchAll(re)) if (m[0][0] !== '"') out.push(m[0]);
  return out;
}
