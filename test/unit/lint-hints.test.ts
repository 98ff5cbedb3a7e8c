/**
 * Every finding says what to do. One hand-built list triggers every built-in code; for each, the hint a
 * user needs is written here (the rule, not a copy of the message). unresolved-ref names what exists
 * nearby; over-budget names the largest tools.
 */
import { describe, expect, it } from 'vitest';
import { FINDING_SEVERITY, lintTools, type FindingCode } from '../../src/lint/index.js';
import { o200k } from '../../src/tokens.js';

const obj = (extra: Record<string, unknown> = {}) => ({ type: 'object', ...extra });
const d7 = 'http://json-schema.org/draft-07/schema#';
const p = { type: 'string', description: 'p' };

// Each entry: what it triggers, and a phrase of the fix its message must carry.
// renders-as-any runs only for a typescript reader (a check passed in `checks`): test/unit/renders-as-any.test.ts checks its hints.
const HINTS: Record<Exclude<FindingCode, 'lint-failed' | 'empty-list' | 'renders-as-any'>, RegExp> = {
  'invalid-tool': /fix its JSON/,
  'missing-name': /give it a unique name/,
  'invalid-name': /rename it, e\.g\. `bad_name`/,
  'duplicate-name': /rename one/,
  'missing-input-schema': /`\{ "type": "object" \}` for a tool without arguments/,
  'root-not-object': /put the arguments in the `properties` of an object/,
  'unresolved-ref': /`#\/\$defs` holds `Order`, `Owner`, not `Ordr` \(did you mean `Order`\?\)/,
  'ref-cycle': /make one of them say what the value is instead of referring on/,
  'external-ref': /copy the referenced schema into `\$defs`/,
  'contradicted-dialect': /`toolslim optimize` rewrites the schema into one dialect/,
  'unreachable-def': /remove it \(`toolslim optimize` does\)/,
  'missing-description': /add a sentence saying what it does/,
  'missing-param-description': /say what it is for/,
  'indirect-mcp-header': /move the parameter into the root `properties`/,
  'invalid-mcp-header': /use a header name such as `X-Region`/,
  'many-arguments': /group related ones into an object, or split the tool/,
  'over-budget': /run `toolslim optimize`/,
  'description-collision': /say in each description what sets it apart|raise the threshold/,
};

const tools = [
  { name: 'cyclic', description: 'c', inputSchema: obj() }, // made cyclic below: invalid-tool
  { description: 'no name', inputSchema: obj() },
  { name: 'bad name', description: 'd', inputSchema: obj() },
  { name: 'dup', description: 'd', inputSchema: obj() },
  { name: 'dup', description: 'd', inputSchema: obj() },
  { name: 'no_schema', description: 'd' },
  { name: 'not_object', description: 'd', inputSchema: { type: 'string' } },
  { name: 'dangling', description: 'd', inputSchema: obj({ properties: { o: { $ref: '#/$defs/Ordr', description: 'o' }, w: { $ref: '#/$defs/Owner', description: 'w' }, x: { $ref: '#/$defs/Order', description: 'x' } }, $defs: { Order: { type: 'string' }, Owner: { type: 'string' } } }) },
  { name: 'looping', description: 'd', inputSchema: obj({ properties: { a: { $ref: '#/$defs/A', description: 'a' } }, $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } } }) },
  { name: 'external', description: 'd', inputSchema: obj({ properties: { a: { $ref: 'https://example.com/a.json', description: 'a' } } }) },
  { name: 'stamped', description: 'd', inputSchema: obj({ $schema: d7, properties: { a: { $ref: '#/$defs/A', description: 'a' } }, $defs: { A: { type: 'string' } } }) },
  { name: 'unused', description: 'd', inputSchema: obj({ $defs: { Unused: { type: 'string' } } }) },
  { name: 'undescribed', inputSchema: obj({ properties: { q: { type: 'string' } } }) },
  { name: 'headers', description: 'd', inputSchema: obj({ properties: { r: { $ref: '#/$defs/R' }, bad: { type: 'string', description: 'b', 'x-mcp-header': 'has space' } }, $defs: { R: { type: 'string', description: 'r', 'x-mcp-header': 'Region' } } }) },
  { name: 'wide', description: 'd', inputSchema: obj({ properties: { a: p, b: p, c: p, d: p, e: p } }) },
];
(tools[0]!.inputSchema as Record<string, unknown>).self = tools[0]!.inputSchema;

describe('fix hints', () => {
  it('every built-in finding says what to do', () => {
    const found = lintTools(tools, { maxToolBytes: 60, maxBytes: 100, collisionThreshold: 0.1 });
    for (const code of Object.keys(HINTS) as (keyof typeof HINTS)[]) {
      const mine = found.filter((f) => f.code === code);
      expect(mine.length, code).toBeGreaterThan(0);
      for (const f of mine) expect(f.message, `${code}: ${f.message}`).toMatch(HINTS[code]);
    }
    // Every code of the table is covered here or below (lint-failed needs a throwing check).
    expect(Object.keys(FINDING_SEVERITY).sort()).toEqual([...Object.keys(HINTS), 'empty-list', 'lint-failed', 'renders-as-any'].sort());
  });

  it('unresolved-ref: says what the deepest existing part holds, or that there are no definitions', () => {
    const one = (schema: Record<string, unknown>) => lintTools([{ name: 't', description: 'd', inputSchema: schema }], { collisionThreshold: false }).find((f) => f.code === 'unresolved-ref')!.message;
    expect(one(obj({ properties: { a: { $ref: '#/$defs/Nope', description: 'a' } } }))).toMatch(/the schema root holds `type`, `properties`, not `\$defs`/);
    expect(one(obj({ properties: { a: { $ref: '#/$defs/X/properties/y', description: 'a' } }, $defs: { X: { type: 'object', properties: { z: {} } } } }))).toMatch(/`#\/\$defs\/X\/properties` holds `z`, not `y`$/);
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`Def${i}`, { type: 'string' }]));
    expect(one(obj({ properties: { a: { $ref: '#/$defs/Def1x', description: 'a' } }, $defs: many }))).toMatch(/holds `Def1`, `Def10`, `Def11`, `Def0`, `Def2` and 7 more, not `Def1x` \(did you mean `Def1`\?\)/);
    expect(one(obj({ properties: { a: { $ref: '#missing-anchor', description: 'a' } }, $defs: { A: {} } }))).toMatch(/`#\/\$defs` holds `A`: point it at one of them/);
  });

  it('over-budget names the largest tools, largest first', () => {
    const big = (name: string, n: number) => ({ name, description: 'x'.repeat(n), inputSchema: obj() });
    const list = [big('small', 10), big('huge', 300), big('mid', 100), big('large', 200)];
    const whole = lintTools(list, { maxBytes: 100, collisionThreshold: false }).find((f) => f.toolIndex === -1)!;
    const size = (t: unknown) => Buffer.byteLength(JSON.stringify(t)).toLocaleString('en-US');
    expect(whole.message).toContain(`the largest: \`huge\` (${size(list[1])} bytes), \`large\` (${size(list[3])} bytes), \`mid\` (${size(list[2])} bytes): run \`toolslim optimize\``);
    const tokens = lintTools(list, { maxTokens: 10, tokenizer: o200k, collisionThreshold: false }).find((f) => f.toolIndex === -1)!;
    expect(tokens.message).toMatch(/tokens \(o200k_base\); the budget is 10; the largest: `huge`/);
  });

  it('an empty list is an info finding', () => {
    expect(lintTools([]).map((f) => [f.severity, f.code, f.path])).toEqual([['info', 'empty-list', '']]);
    expect(lintTools({ tools: [] })[0]!.message).toMatch(/^the tools list is empty; .*check that the capture ran against the intended server/);
    expect(lintTools([{ name: 'a', description: 'd', inputSchema: obj() }]).some((f) => f.code === 'empty-list')).toBe(false);
  });
});
