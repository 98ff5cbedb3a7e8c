/**
 * Issue 29: what a new user trips on (defects 2–11), one `describe` per defect. Each expectation is written
 * by hand from the description of what a user sees, not from the code's output.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_TOOLS, runMain } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-first-run-');
const file = (name: string, content: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};

describe('defect 2: one tool per line stays one tool per line', () => {
  it('writes a changed tool on its own line, no larger than the input', async () => {
    // `[\n{…},\n{…}\n]`: the layout jq -c and many servers' dumps use.
    const text = '[\n' + DEMO_TOOLS.map((t) => JSON.stringify(t)).join(',\n') + '\n]\n';
    const input = file('per-line.json', text);
    const out = join(dir, 'per-line.out.json');
    const r = await runMain(['optimize', input, '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const written = readFileSync(out, 'utf8');
    // The demo's get_pet loses two unreachable definitions, so the output is smaller…
    expect(written.length).toBeLessThan(text.length);
    // …and still one line per tool, between the same brackets.
    const lines = written.split('\n');
    expect(lines.length).toBe(text.split('\n').length);
    expect(lines[0]).toBe('[');
    expect(lines.slice(1, 1 + DEMO_TOOLS.length).every((l) => l.startsWith('{"name":'))).toBe(true);
    expect(JSON.parse(lines[1]!.replace(/,$/, '')).inputSchema.$defs).toEqual({ Id: { type: 'integer', minimum: 1 } });
  });
});

describe('defect 3: capture says what it takes', () => {
  it('--help lists only live servers, and a file argument is refused naming report', async () => {
    const help = await runMain(['capture', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('-- <command> [args…]');
    expect(help.stdout).not.toMatch(/^\s*<file>\s/m);
    expect(help.stdout).not.toMatch(/^\s*-\s{3,}the same, from stdin/m);
    const r = await runMain(['capture', 'tools.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('toolslim report tools.json');
  });
});

describe('defect 4: "estimates" only where a count is estimated', () => {
  const CORPUS = join(import.meta.dirname, '..', '..', 'bench', 'corpus');
  it('says nothing of estimates for real servers, whose JSON splits into short pieces', async () => {
    for (const name of ['modelcontextprotocol__server-memory.json', 'modelcontextprotocol__server-filesystem.json']) {
      const r = await runMain(['report', join(CORPUS, name)]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/estimate/i);
    }
  });
  it('says so for a tool holding a 1,000-letter word (counted in slices)', async () => {
    const long = file('long-word.json', [{ name: 'w', description: 'x'.repeat(1000), inputSchema: { type: 'object' } }]);
    const r = await runMain(['report', long]);
    expect(r.stdout).toMatch(/estimates for 1 tool/);
  });
});

describe('defect 5: description collisions as the tool-surface metric counts them', () => {
  const CORPUS = join(import.meta.dirname, '..', '..', 'bench', 'corpus');
  it('counts a pair at exactly 0.30 (≥, not >)', async () => {
    // By hand: `abcdefg` has 6 bigrams, `abcdxyzw` 7, sharing ab bc cd: 3 / (6 + 7 − 3) = 0.30.
    const f = file('at-030.json', [
      { name: 'abcdefg', inputSchema: { type: 'object' } },
      { name: 'abcdxyzw', inputSchema: { type: 'object' } },
    ]);
    const r = await runMain(['check', f, '--format', 'json']);
    const codes = JSON.parse(r.stdout).findings.map((x: { code: string }) => x.code);
    expect(codes.filter((c: string) => c === 'description-collision')).toHaveLength(3); // two tools + the summary
  });
  it('sums up a server with the mean and the worst five pairs, and lists at most five info findings per code', async () => {
    const r = await runMain(['check', join(CORPUS, 'modelcontextprotocol__server-filesystem.json')]);
    const lines = r.stdout.trimEnd().split('\n');
    const collisions = lines.filter((l) => /^info\s+description-collision /.test(l));
    // Five tools, the whole-list summary, one line counting the rest.
    expect(collisions).toHaveLength(7);
    const summary = collisions.find((l) => l.includes('(list)'))!;
    expect(summary).toMatch(/mean 0\.\d\d/);
    expect(summary.match(/` ≈ `/g)).toHaveLength(5);
    expect(collisions.at(-1)).toMatch(/… and \d+ more tools \(--format json lists every finding\)/);
  });
  it('analyzeSurface and check name the argument rule alike', async () => {
    const { analyzeSurface, lintTools } = await import('../../src/index.js');
    const wide = [{ name: 'w', description: 'wide', inputSchema: { type: 'object', properties: { a: {}, b: {}, c: {}, d: {}, e: {} } } }];
    const fromSurface = analyzeSurface(wide).findings.map((f) => f.code);
    const fromLint = lintTools(wide).map((f) => f.code);
    expect(fromSurface).toContain('many-arguments');
    expect(fromLint).toContain('many-arguments');
  });
});

describe('defect 6: --quiet still lists what fails the run', () => {
  it('lists the warnings when --max-warnings decides, and hides the info', async () => {
    const f = file('warns.json', [
      { name: 'a', inputSchema: { type: 'object' } },
      { name: 'b', description: 'Has a parameter without a description', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
    ]);
    const r = await runMain(['check', f, '--quiet', '--max-warnings', '0']);
    expect(r.code).toBe(1);
    // The one warning (tool `a` has no description) is named; the info finding is not.
    expect(r.stdout).toMatch(/^warning\s+missing-description\s+a \//m);
    expect(r.stdout).not.toMatch(/^info/m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('0 errors, 1 warning, 1 info (1 not shown: --quiet): failed: 1 warning, more than --max-warnings 0');
  });
});

describe('defect 7: the config is found from the input upward, and lintTools refuses keys it does not know', () => {
  it('reads toolslim.config.json from the input’s directory or above, run from elsewhere', async () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, 'tools', 'deep'), { recursive: true });
    writeFileSync(join(project, 'toolslim.config.json'), JSON.stringify({ rules: { 'missing-description': 'error' } }));
    const f = join(project, 'tools', 'deep', 'list.json');
    writeFileSync(f, JSON.stringify([{ name: 'a', inputSchema: { type: 'object' } }]));
    // Run from an unrelated directory: missing-description is an error only if the config was read.
    const r = await runMain(['check', f], { cwd: dir });
    expect(r.stdout).toMatch(/^error\s+missing-description/m);
    expect(r.code).toBe(1);
    // And the package.json "toolslim" key, when there is no toolslim.config.json.
    const other = join(dir, 'pkg');
    mkdirSync(join(other, 'sub'), { recursive: true });
    writeFileSync(join(other, 'package.json'), JSON.stringify({ name: 'x', toolslim: { rules: { 'missing-description': 'off' } } }));
    const g = join(other, 'sub', 'list.json');
    writeFileSync(g, JSON.stringify([{ name: 'a', inputSchema: { type: 'object' } }]));
    const q = await runMain(['check', g], { cwd: dir });
    expect(q.stdout).not.toMatch(/missing-description/);
  });
  it('lintTools(tools, { rules }) throws, naming `severity`', async () => {
    const { lintTools } = await import('../../src/index.js');
    expect(() => lintTools([], { rules: { 'missing-description': 'off' } } as never)).toThrow(/unknown option `rules`.*`severity`/);
  });
});

describe('defect 8: NO_COLOR and FORCE_COLOR as the conventions say', () => {
  const coloured = async (env: Record<string, string>, tty: boolean) => {
    const r = await runMain(['check', file('colour.json', [{ name: 'a', inputSchema: { type: 'object' } }])], { env, tty });
    return r.stdout.includes('\u001b[');
  };
  it('an empty NO_COLOR is as if unset; FORCE_COLOR=0 turns colour off on a terminal', async () => {
    expect(await coloured({ NO_COLOR: '' }, true)).toBe(true);
    expect(await coloured({ NO_COLOR: '1' }, true)).toBe(false);
    expect(await coloured({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(await coloured({ FORCE_COLOR: 'false' }, true)).toBe(false);
    expect(await coloured({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(await coloured({}, false)).toBe(false);
  });
});

describe('defect 9: a server writing non-JSON on stdout is named, not timed out', () => {
  it('quotes the stray line and says stdout is the protocol channel', async () => {
    const server = join(import.meta.dirname, '..', 'servers', 'stray-stdout-server.mjs');
    const r = await runMain(['check', '--timeout', '2', '--', process.execPath, server]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('[info] handling request');
    expect(r.stderr).toContain('stdout is the protocol channel');
    expect(r.stderr).not.toContain('raise --timeout');
  });
});

describe('defect 10: `--flag --` and unstamped draft-07 keywords', () => {
  it('optimize --overlay -- <command> says --overlay needs a value, not that the server is bad JSON', async () => {
    const r = await runMain(['optimize', '--overlay', '--', 'mcp-server-memory']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--overlay needs a value before `--`');
    expect(r.stderr).not.toMatch(/JSON/);
  });
  it('check finds `definitions` in an unstamped (2020-12) schema, as a warning', async () => {
    const f = file('unstamped.json', [
      { name: 'a', description: 'A tool', inputSchema: { type: 'object', properties: { x: { $ref: '#/definitions/X', description: 'x' } }, definitions: { X: { type: 'string' } } } },
    ]);
    const r = await runMain(['check', f, '--format', 'json']);
    const found = JSON.parse(r.stdout).findings.filter((x: { code: string }) => x.code === 'contradicted-dialect');
    expect(found.map((x: { severity: string; path: string }) => [x.severity, x.path])).toEqual([['warning', '/0/inputSchema/definitions']]);
  });
});

describe('defect 11: examples say they are ES modules; an unknown command gets one line', () => {
  const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');
  it('every example with top-level await says it is an ES module, and the examples README says what to do in CommonJS', async () => {
    const { readdirSync } = await import('node:fs');
    for (const name of readdirSync(EXAMPLES).filter((n) => /\.(ts|mjs|js)$/.test(n))) {
      const text = readFileSync(join(EXAMPLES, name), 'utf8');
      if (/^(?:const|let|\s*)?.*\bawait\b/m.test(text.split('\n').filter((l) => !/^\s*(\/\/|\*)/.test(l) && /^\S/.test(l)).join('\n'))) {
        expect(text, name).toMatch(/ES module/);
      }
    }
    const readme = readFileSync(join(EXAMPLES, 'README.md'), 'utf8');
    expect(readme).toMatch(/ES modules/);
    expect(readme).toMatch(/"type": "module"/);
    expect(readme).toMatch(/CommonJS/);
  });
  it('an unknown command names the near one and the commands, in two lines', async () => {
    const r = await runMain(['chekc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('toolslim: unknown command `chekc` (did you mean `check`?); the commands are capture, report, optimize, check, proxy\nRun `toolslim --help` for usage.\n');
  });
});

describe('defect 12: the tokenizer is an optional peer dependency', () => {
  const ROOT = join(import.meta.dirname, '..', '..');
  it('is not a dependency; it is an optional peer', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.dependencies['gpt-tokenizer']).toBeUndefined();
    expect(pkg.peerDependencies['gpt-tokenizer']).toBe('^4.0.0');
    expect(pkg.peerDependenciesMeta['gpt-tokenizer']).toEqual({ optional: true });
  });
  it('a command that needs it and finds it missing says what to install', async () => {
    const { loadTokenizers } = await import('../../src/cli/tokenizer.js');
    // What Node throws when a module imports a package that is not installed.
    const missing = Object.assign(new Error("Cannot find package 'gpt-tokenizer' imported from /app/node_modules/toolslim/dist/tokens.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadTokenizers('report counts tokens', 'run it with --no-tokens', () => Promise.reject(missing))).rejects.toThrow(
      'report counts tokens with gpt-tokenizer, which is not installed (an optional peer dependency of toolslim): run `npm install gpt-tokenizer@^4` in this project, or run it with --no-tokens',
    );
    // Another failure is not dressed up as a missing package.
    const other = Object.assign(new Error("Cannot find package 'left-pad'"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadTokenizers('x', 'y', () => Promise.reject(other))).rejects.toBe(other);
  });
});

describe('defect 1: the README gives a route that works before publishing', () => {
  const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const head = README.slice(0, README.indexOf('\n## '));
  it('says the Node version, how to install from source, and the install size, before the first section', () => {
    expect(head).toMatch(/Node 20 or later/);
    expect(head).toMatch(/npm ci && npm pack/);
    expect(head).toMatch(/npm i \.\.\/toolslim\/toolslim-0\.1\.0\.tgz/);
    expect(head).toMatch(/npm link/);
    expect(head).toMatch(/dist\/cli\/bin\.js", "proxy"/);
    expect(head).toMatch(/\d+(\.\d)? MB of `node_modules`/);
  });
});

describe('item 14: globs with braces and classes (tinyglobby)', () => {
  it('expands {a,b} and [..] as a shell does', async () => {
    const root = join(dir, 'globs');
    mkdirSync(join(root, 'sub'), { recursive: true });
    for (const n of ['a.json', 'b.json', 'c.json', 'sub/d1.json', 'sub/d2.json']) writeFileSync(join(root, n), JSON.stringify([{ name: 'x', description: 'X', inputSchema: { type: 'object' } }]));
    const braces = await runMain(['check', '{a,c}.json', '--format', 'json'], { cwd: root });
    expect(JSON.parse(braces.stdout).inputs.map((i: { source: string }) => i.source)).toEqual(['a.json', 'c.json']);
    const cls = await runMain(['check', 'sub/d[2-9].json', '--format', 'json'], { cwd: root });
    expect(JSON.parse(cls.stdout).inputs.map((i: { source: string }) => i.source)).toEqual(['sub/d2.json']);
  });
});
