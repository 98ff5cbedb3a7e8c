/**
 * Bad and hostile input through the CLI (issue 8): a clear message and exit 2, or a reported skip —
 * never a crash. In-process through `main()`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../cli/helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-hostile-cli-');
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('input the CLI cannot read', () => {
  it('not JSON: exit 2 naming the file, line and column', async () => {
    const p = file('bad.json', '[\n  {"name": "a",\n   "inputSchema": {type: "object"}}\n]');
    const r = await runMain(['optimize', p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(p);
    expect(r.stderr).toMatch(/line 3, column \d+/);
  });

  it('truncated JSON: exit 2 saying where it ends', async () => {
    const p = file('truncated.json', '[{"name": "a", "inputSchema": {"type": "obj');
    const r = await runMain(['check', p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(p);
    expect(r.stderr).toMatch(/end|line 1/i);
  });

  it('`tools` that is not an array: exit 2 naming the pointer', async () => {
    const r = await runMain(['optimize', file('tools-object.json', '{"tools": {"a": 1}}')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\/tools|`tools`/);
  });

  it('a leading BOM is accepted', async () => {
    const r = await runMain(['optimize', file('bom.json', '\ufeff[{"name":"a","inputSchema":{"type":"object"}}]')]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ name: 'a', inputSchema: { type: 'object' } }]);
  });
});

describe('hostile but valid JSON', () => {
  const depth = 100_000;
  const deepSchema = '{"type":"object","properties":{"a":'.repeat(depth) + '{}' + '}}'.repeat(depth);
  const deepFile = file('deep.json', `[{"name":"deep","inputSchema":${deepSchema}},{"name":"fine","inputSchema":{"type":"object","$defs":{"U":{}}}}]`);

  it('optimize passes a 100,000-level tool through unchanged, writes it out, and slims the rest', async () => {
    const out = join(dir, 'deep-out.json');
    const r = await runMain(['optimize', deepFile, '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/1 skipped/);
    const text = readFileSync(out, 'utf8');
    // The deep tool is written back exactly (compare the compact forms); the other one lost `$defs.U`.
    // Too deep to indent, so the output is compact JSON.
    const compact = JSON.stringify(JSON.parse(text)[1]);
    expect(compact).toBe('{"name":"fine","inputSchema":{"type":"object"}}');
    expect(text.replace(/\s+/g, '').startsWith(`[{"name":"deep","inputSchema":${deepSchema.slice(0, 1000)}`)).toBe(true);
    expect(text.replace(/\s+/g, '').length).toBeGreaterThan(deepSchema.length);
  });

  it('check and report name the deep tool instead of crashing', async () => {
    const c = await runMain(['check', deepFile, '--format', 'json']);
    expect(c.code).toBe(1);
    expect(JSON.parse(c.stdout).findings.find((f: { code: string }) => f.code === 'invalid-tool')).toMatchObject({ tool: 'deep', toolIndex: 0 });
    // report counts tokens of every tool, the deep one included (BPE over 2 MB of JSON takes seconds):
    // 10,000 levels keep this test quick; the library tests cover 100,000.
    const d10k = 10_000;
    const tenK = file('deep10k.json', `[{"name":"deep","inputSchema":${'{"type":"object","properties":{"a":'.repeat(d10k) + '{}' + '}}'.repeat(d10k)}}]`);
    const r = await runMain(['report', tenK, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).skipped[0]).toMatchObject({ tool: 'deep', transform: 'input' });
  });

  it('__proto__ keys stay data through the CLI and Object.prototype is untouched', async () => {
    const p = file('proto.json', '[{"name":"p","inputSchema":{"type":"object","properties":{"__proto__":{"$ref":"#/$defs/__proto__"}},"$defs":{"__proto__":{"type":"string"},"constructor":{"type":"number"}}}}]');
    const r = await runMain(['optimize', p]);
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, '')).toBe('[{"name":"p","inputSchema":{"type":"object","properties":{"__proto__":{"$ref":"#/$defs/__proto__"}},"$defs":{"__proto__":{"type":"string"}}}}]');
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});
