/** The built package: entry points resolve by name, and `import 'toolslim'` never loads the SDK or a tokenizer. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, ROOT } from './helpers.js';

beforeAll(() => requireBuild());

/** Bare specifiers reached from `entry` through relative imports: static only, or dynamic too. */
function reachable(entry: string, withDynamic: boolean): Set<string> {
  const bare = new Set<string>();
  const seen = new Set<string>();
  const queue = [resolve(ROOT, 'dist', entry)];
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g, ...(withDynamic ? [/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g] : [])];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const re of patterns) {
      for (const m of text.matchAll(re)) {
        const spec = m[1]!;
        if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec));
        else bare.add(spec);
      }
    }
  }
  return bare;
}

describe('the built package', () => {
  it.each(['index.js', 'index.cjs', 'testing.js', 'testing.cjs', 'mcp.js', 'mcp.cjs'])('%s loads neither the SDK nor a tokenizer', (entry) => {
    const deps = [...reachable(entry, true)];
    expect(deps.filter((d) => d.startsWith('@modelcontextprotocol/sdk') || d.startsWith('gpt-tokenizer'))).toEqual([]);
  });

  it.each(['index.js', 'index.cjs', 'testing.js', 'mcp.js'])('%s never loads eventsource-parser (only proxy --url does, by dynamic import)', (entry) => {
    expect([...reachable(entry, true)].filter((d) => d.startsWith('eventsource-parser'))).toEqual([]);
  });

  it.each(['index.js', 'index.cjs'])('%s does not load node:crypto on import (overlay pins load it on the first digest)', (entry) => {
    expect([...reachable(entry, false)].filter((d) => d === 'crypto' || d === 'node:crypto')).toEqual([]);
  });

  it('pinTool hashes with SHA-256 from the ESM and the CommonJS build alike', () => {
    // The expected digest comes from node:crypto directly, over the text pinTool documents: the
    // tool's compact JSON (src/session/overlay.ts).
    const script = `
      const { createHash } = await import('node:crypto');
      const { createRequire } = await import('node:module');
      const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});
      const tool = { name: 'a', description: 'd', inputSchema: { type: 'object' } };
      const hex = (t) => createHash('sha256').update(t, 'utf8').digest('hex');
      const pins = [(await import('toolslim')).pinTool(tool), require('toolslim').pinTool(tool)];
      console.log(JSON.stringify({ pins, tool: hex(JSON.stringify(tool)) }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as { pins: { sha256: string }[]; tool: string };
    expect(out.pins.map((p) => p.sha256)).toEqual([out.tool, out.tool]);
  });

  it('every exported class has its own name in the ESM and the CommonJS build alike', () => {
    // tsup's CommonJS code splitting runs sucrase, which turned a class with a field initializer into
    // \`(_class = class …)\`: \`ToolslimError.name\` was "_class" and util.inspect printed "_class [ToolslimError]: …".
    const script = `
      const { createRequire } = await import('node:module');
      const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});
      const out = [];
      for (const entry of ['toolslim', 'toolslim/testing', 'toolslim/mcp', 'toolslim/response']) {
        for (const [format, mod] of [['esm', await import(entry)], ['cjs', require(entry)]]) {
          for (const [key, value] of Object.entries(mod)) {
            if (typeof value === 'function' && /^class\\b/.test(Function.prototype.toString.call(value))) out.push([format, entry, key, value.name]);
          }
        }
      }
      console.log(JSON.stringify(out));`;
    const classes = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as [string, string, string, string][];
    expect(classes.filter(([, , key]) => key === 'ToolslimError').map(([format]) => format)).toEqual(['esm', 'cjs']);
    expect(classes.filter(([, , key, name]) => key !== name)).toEqual([]);
  });

  it('the CLI loads eventsource-parser only by dynamic import (proxy --url)', () => {
    expect([...reachable('cli/bin.js', false)].filter((d) => d.startsWith('eventsource-parser'))).toEqual([]);
    expect([...reachable('cli/bin.js', true)]).toContain('eventsource-parser');
  });

  it('the scan sees what an entry does load (tokens.js loads gpt-tokenizer)', () => {
    expect([...reachable('tokens.js', false)].some((d) => d.startsWith('gpt-tokenizer'))).toBe(true);
  });

  it('the CLI loads the SDK only by dynamic import', () => {
    const staticDeps = [...reachable('cli/bin.js', false)];
    expect(staticDeps.filter((d) => d.startsWith('@modelcontextprotocol/sdk'))).toEqual([]);
    expect([...reachable('cli/bin.js', true)]).toContain('@modelcontextprotocol/sdk/client/index.js');
  });

  it('resolves toolslim, toolslim/mcp, toolslim/testing and toolslim/tokens by name (import and require)', () => {
    const script = `
      const esm = await Promise.all(['toolslim', 'toolslim/mcp', 'toolslim/testing', 'toolslim/tokens'].map((n) => import(n)));
      const { createRequire } = await import('node:module');
      const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});
      const cjs = ['toolslim', 'toolslim/mcp', 'toolslim/testing', 'toolslim/tokens'].map((n) => require(n));
      console.log(JSON.stringify([esm, cjs].map((mods) => [typeof mods[0].lintTools, typeof mods[1].optimizeToolsList, typeof mods[2].assertToolsHealthy, typeof mods[3].o200k])));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([
      ['function', 'function', 'function', 'object'],
      ['function', 'function', 'function', 'object'],
    ]);
  });
});
