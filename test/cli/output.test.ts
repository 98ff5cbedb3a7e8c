/**
 * What the CLI writes: atomic files under real faults (a file size limit, a full and a read-only file
 * system), and `optimize` writing what it read (layout kept, unchanged tools as bytes, numbers' text kept).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '../../src/cli/output.js';
import { lintTools } from '../../src/index.js';
import { BIN, ROOT, requireBuild, runMain } from './helpers.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('toolslim-output-');
const corpus = (name: string) => readFileSync(join(ROOT, 'bench', 'corpus', name), 'utf8');

/** A tools array big enough to exceed a small size limit; every tool has an unused definition to prune. */
function bigList(n = 40): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `t${i}`,
    description: `Tool number ${i} does things`,
    inputSchema: { type: 'object', properties: { a: { type: 'string', description: 'An a' } }, $defs: { Unused: { type: 'string' } } },
  }));
}

function bash(script: string, env: Record<string, string> = {}) {
  return spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 30_000 });
}

const leftovers = (d: string) => readdirSync(d).filter((f) => f.endsWith('.tmp'));

describe('atomic writes under faults', () => {
  it('optimize X -o X under a file size limit (EFBIG) leaves X byte-identical, says so, and leaves no temporary file', () => {
    requireBuild();
    const d = mkdtempSync(join(dir, 'efbig-'));
    const x = join(d, 'tools.json');
    const original = JSON.stringify(bigList(), null, 2) + '\n';
    writeFileSync(x, original);
    expect(Buffer.byteLength(original)).toBeGreaterThan(8 * 1024);
    // bash's `ulimit -f` counts 1024-byte blocks; SIGXFSZ ignored so the write fails with EFBIG instead of killing.
    const r = bash(`trap '' XFSZ; ulimit -f 4; exec "${process.execPath}" "${BIN}" optimize "$X" -o "$X"`, { X: x });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`toolslim optimize: cannot write ${x}: the file would exceed the size limit (ulimit -f) (EFBIG) (${x} is unchanged)\n`);
    expect(readFileSync(x, 'utf8')).toBe(original);
    expect(leftovers(d)).toEqual([]);
    // A target that did not exist is not created.
    const y = join(d, 'new.json');
    const r2 = bash(`ulimit -f 4; exec "${process.execPath}" "${BIN}" optimize "$X" -o "$Y"`, { X: x, Y: y });
    expect(r2.status).toBe(2);
    expect(r2.stderr).toContain(`(${y} was not created)`);
    expect(existsSync(y)).toBe(false);
    expect(leftovers(d)).toEqual([]);
  });

  // A tiny tmpfs in a user+mount namespace (no root needed where unprivileged namespaces are allowed).
  const canMount = bash(`unshare -rm sh -c 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d" && rmdir "$d"'`).status === 0;
  it.skipIf(!canMount)('optimize X -o X on a full file system (ENOSPC) and a read-only one (EROFS) leaves X byte-identical', () => {
    const d = mkdtempSync(join(dir, 'fs-'));
    const input = join(d, 'input.json');
    writeFileSync(input, JSON.stringify(bigList(), null, 2));
    const script = `
      set -u
      m=$(mktemp -d)
      mount -t tmpfs -o size=64k tmpfs "$m"
      cp "$IN" "$m/x.json"
      head -c 48000 /dev/zero > "$m/fill" 2>/dev/null || true
      err=$(mktemp)
      "$NODE" "$BIN" optimize "$m/x.json" -o "$m/x.json" 2>"$err"; echo "enospc-exit=$?"
      cmp -s "$IN" "$m/x.json" && echo enospc-identical
      sed "s#$m#MNT#g" "$err"
      ls -a "$m" | grep -c '\\.tmp$' | sed 's/^/enospc-temps=/'
      rm "$m/fill"
      mount -o remount,ro "$m"
      "$NODE" "$BIN" optimize "$m/x.json" -o "$m/x.json" 2>"$err"; echo "erofs-exit=$?"
      cmp -s "$IN" "$m/x.json" && echo erofs-identical
      sed "s#$m#MNT#g" "$err"; rm -f "$err"
      umount "$m"`;
    const r = bash(`unshare -rm bash -c '${script.replace(/'/g, `'\\''`)}'`, { IN: input, NODE: process.execPath, BIN });
    expect(r.stdout).toContain('enospc-exit=2');
    expect(r.stdout).toContain('enospc-identical');
    expect(r.stdout).toContain('toolslim optimize: cannot write MNT/x.json: no space left on the device (ENOSPC) (MNT/x.json is unchanged)');
    expect(r.stdout).toContain('enospc-temps=0');
    expect(r.stdout).toContain('erofs-exit=2');
    expect(r.stdout).toContain('erofs-identical');
    expect(r.stdout).toContain('toolslim optimize: cannot write MNT/x.json: read-only file system (EROFS) (MNT/x.json is unchanged)');
  });

  it('optimize X -o X succeeds in place, keeping the file’s mode and a symbolic link', async () => {
    const d = mkdtempSync(join(dir, 'inplace-'));
    const real = join(d, 'real.json');
    const link = join(d, 'link.json');
    writeFileSync(real, JSON.stringify(bigList(3), null, 2) + '\n');
    chmodSync(real, 0o640);
    symlinkSync('real.json', link);
    const r = await runMain(['optimize', link, '-o', link]);
    expect(r.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('real.json');
    expect(statSync(real).mode & 0o777).toBe(0o640);
    const written = JSON.parse(readFileSync(real, 'utf8')) as { inputSchema: Record<string, unknown> }[];
    expect(written.length).toBe(3);
    expect(written.some((t) => JSON.stringify(t).includes('Unused'))).toBe(false);
    expect(leftovers(d)).toEqual([]);
  });

  it('writes special files in place and refuses a directory, naming what to do', async () => {
    expect((await runMain(['optimize', join(ROOT, 'test', 'servers', 'demo-tools.json'), '-o', '/dev/null'])).code).toBe(0);
    const r = await runMain(['optimize', join(ROOT, 'test', 'servers', 'demo-tools.json'), '-o', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot write ${dir}: it is a directory (give a file name)`);
    const missing = join(dir, 'no-such-dir', 'r.json');
    const r2 = await runMain(['optimize', join(ROOT, 'test', 'servers', 'demo-tools.json'), '-o', '/dev/null', '--report', missing]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`cannot write ${missing}: no such directory (ENOENT) (${missing} was not created)`);
  });

  it('writeFileAtomic and writeFileAtomicSync replace the whole file or nothing', async () => {
    const p = join(dir, 'atomic.txt');
    writeFileSync(p, 'old');
    await writeFileAtomic(p, 'new text');
    expect(readFileSync(p, 'utf8')).toBe('new text');
    writeFileAtomicSync(p, Buffer.from('sync text'));
    expect(readFileSync(p, 'utf8')).toBe('sync text');
    mkdirSync(join(dir, 'sub'));
    await expect(writeFileAtomic(join(dir, 'sub'), 'x')).rejects.toThrow(/is a directory/);
    expect(() => writeFileAtomicSync(join(dir, 'nope', 'f'), 'x')).toThrow(/no such directory \(ENOENT\) \(.*was not created\)/);
    expect(leftovers(dir)).toEqual([]);
  });
});

describe('optimize --profile: the summary counts what check --profile finds', () => {
  // Optional properties strict mode makes nullable (an array, an object) and a free-form object it cannot
  // close: check --profile openai-strict finds errors (the open object) and warnings (renders-as-any) in the
  // output. The summary used to count the plain lint only: "0 errors, 0 warnings".
  const tools = [
    {
      name: 'search',
      description: 'Search the index.',
      inputSchema: {
        type: 'object',
        properties: {
          q: { type: 'string', description: 'The query.' },
          tags: { type: 'array', items: { type: 'string' }, description: 'Tags to match.' },
          filter: { type: 'object', properties: { lang: { type: 'string', description: 'A language code.' } }, description: 'Filters.' },
          extra: { type: 'object', description: 'Anything else.' },
        },
        required: ['q'],
      },
    },
  ];

  it('openai-strict, --allow-rejected: the counts check --profile openai-strict gives for the written file', async () => {
    const input = join(dir, 'strict-in.json');
    const out = join(dir, 'strict-out.json');
    writeFileSync(input, JSON.stringify({ tools }));
    const r = await runMain(['optimize', input, '--profile', 'openai-strict', '--allow-rejected', '-o', out]);
    expect(r.code).toBe(0);
    const c = await runMain(['check', out, '--profile', 'openai-strict', '--rule', 'description-collision=off']);
    const counts = /^(\d+) errors?, (\d+) warnings?,/m.exec(c.stdout);
    expect(counts).not.toBeNull();
    const [errors, warnings] = [Number(counts![1]), Number(counts![2])];
    expect(errors).toBeGreaterThan(0);
    expect(warnings).toBeGreaterThan(0);
    const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
    expect(r.stderr).toContain(`left for check --profile openai-strict: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`);
  });

  it('reads the configuration file check reads for the written file: a rule raised there is counted at its severity', async () => {
    // Found as a user: with `missing-param-description` raised to warning in toolslim.config.json (the README's
    // example), optimize said "0 warnings" and check on its output failed (strip-noise removes a description
    // that only restates its parameter's name, which that rule then reports).
    const sub = join(dir, 'configured');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'toolslim.config.json'), JSON.stringify({ rules: { 'missing-param-description': 'warning' }, failOn: 'warning' }));
    const input = join(sub, 'in.json');
    const out = join(sub, 'out.json');
    writeFileSync(input, JSON.stringify([{ name: 'pay', description: 'Pay an invoice', inputSchema: { type: 'object', properties: { paymentMethodId: { type: 'string', description: 'Payment method ID' }, amount: { type: 'number', description: 'The amount in cents, at least 1' } }, required: ['paymentMethodId', 'amount'] } }]));
    // The rule counts a description that only restates the name as well, so check finds it before optimize
    // as after (it passed the input and failed the output).
    const before = await runMain(['check', input]);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('has a description that says no more than its name ("Payment method ID")');
    expect(before.stdout).toContain('0 errors, 1 warning');
    const r = await runMain(['optimize', input, '-o', out]);
    expect(r.code).toBe(0);
    const c = await runMain(['check', out, '-q']);
    expect(c.code).toBe(1);
    expect(c.stdout).toContain('0 errors, 1 warning');
    expect(r.stderr).toContain('left for check: 0 errors, 1 warning\n');
  });

  it('a config rule no check reports: optimize writes the file and says once, naming the file and the codes, that check refuses them', async () => {
    // Found as a user: optimize dropped `rules` codes it did not know without a word, and check on the file
    // it wrote then stopped on them.
    const sub = join(dir, 'unknown-rules');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'toolslim.config.json'), JSON.stringify({ rules: { 'missing-param-description': 'warning', 'no-such-rule': 'off', 'profile-nope': 'error' } }));
    const input = join(sub, 'in.json');
    const out = join(sub, 'out.json');
    writeFileSync(input, JSON.stringify([{ name: 'pay', description: 'Pay an invoice.', inputSchema: { type: 'object', properties: { amount: { type: 'number' } } } }]));
    // Absolute paths for the files; `cwd` for the config's name in messages (relative to it).
    const r = await runMain(['optimize', input, '-o', out], { cwd: sub });
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => l.includes('no-such-rule'))).toEqual([
      'toolslim: note: toolslim.config.json: `rules` names codes no check reports (`no-such-rule`, `profile-nope`): ignored here, and toolslim check will refuse them',
    ]);
    // The known code still counts: the parameter without a description is a warning.
    expect(r.stderr).toContain('left for check: 0 errors, 1 warning\n');
    const c = await runMain(['check', out], { cwd: sub });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('unknown rule `no-such-rule`');
  });

  it('a config that cannot be read: optimize writes the file and says so once', async () => {
    const sub = join(dir, 'broken-config');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'toolslim.config.json'), '{"rules": ');
    const input = join(sub, 'in.json');
    writeFileSync(input, JSON.stringify([{ name: 'pay', description: 'Pay an invoice.', inputSchema: { type: 'object' } }]));
    const r = await runMain(['optimize', input, '-o', join(sub, 'out.json')], { cwd: sub });
    expect(r.code).toBe(0);
    const notes = r.stderr.split('\n').filter((l) => l.includes('toolslim.config.json'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^toolslim: note: toolslim\.config\.json: not valid JSON .*; the config was not used here, and toolslim check will refuse it$/);
  });
});

describe('optimize writes what it read', () => {
  const memory = corpus('modelcontextprotocol__server-memory.json');

  it('a compact capture stays compact and gets smaller; the summary gives the file’s bytes and what check would still find', async () => {
    const input = join(dir, 'memory.json');
    const out = join(dir, 'memory.slim.json');
    writeFileSync(input, memory);
    const r = await runMain(['optimize', input, '-o', out]);
    expect(r.code).toBe(0);
    const written = readFileSync(out, 'utf8');
    expect(written).not.toMatch(/\n./); // one line
    expect(Buffer.byteLength(written)).toBeLessThan(Buffer.byteLength(memory));
    const findings = lintTools(JSON.parse(written), { collisionThreshold: false });
    const count = (s: string) => findings.filter((f) => f.severity === s).length;
    const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
    expect(r.stderr).toContain(`; wrote ${Buffer.byteLength(written).toLocaleString('en-US')} bytes (input ${Buffer.byteLength(memory).toLocaleString('en-US')}); `);
    expect(r.stderr).toContain(`left for check: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}\n`);
    // The envelope outside the tools array is the input's bytes.
    const head = memory.slice(0, memory.indexOf('"tools":['));
    expect(written.startsWith(head)).toBe(true);
  });

  it('indented stays indented, with the input’s unit; --indent and --compact choose', async () => {
    const value = JSON.parse(memory) as unknown;
    for (const indent of [2, 4, '\t']) {
      const input = join(dir, `indented-${indent === '\t' ? 'tab' : indent}.json`);
      writeFileSync(input, JSON.stringify(value, null, indent) + '\n');
      const r = await runMain(['optimize', input]);
      expect(r.code).toBe(0);
      // No odd numbers in this list: the output is exactly what JSON.stringify writes in that layout.
      expect(r.stdout).toBe(JSON.stringify(JSON.parse(r.stdout), null, indent) + '\n');
    }
    const compactInput = join(dir, 'compact.json');
    writeFileSync(compactInput, JSON.stringify(value));
    const two = await runMain(['optimize', compactInput, '--indent', '2']);
    expect(two.stdout).toBe(JSON.stringify(JSON.parse(two.stdout), null, 2) + '\n');
    const compact = await runMain(['optimize', join(dir, 'indented-4.json'), '--compact']);
    expect(compact.stdout).toBe(JSON.stringify(JSON.parse(compact.stdout)) + '\n');
    expect(JSON.parse(compact.stdout)).toEqual(JSON.parse(two.stdout));
    const both = await runMain(['optimize', compactInput, '--indent', '2', '--compact']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give either --indent <n> or --compact, not both');
    expect((await runMain(['optimize', compactInput, '--indent', '11'])).stderr).toContain('expected a whole number of spaces from 0 to 10');
  });

  it.each(['array-indented', 'list-result-compact', 'jsonrpc-spaced', 'capture-tabs'])('%s: the CLI writes the hand-written expected bytes, from a file and from stdin', async (name) => {
    const input = join(ROOT, 'test', 'data', 'output', name, 'input.json');
    const expected = readFileSync(join(ROOT, 'test', 'data', 'output', name, 'expected.json'), 'utf8');
    const r = await runMain(['optimize', input, '-t', 'prune-unreachable-defs']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expected);
    const s = await runMain(['optimize', '-', '-t', 'prune-unreachable-defs'], { stdin: '\ufeff' + readFileSync(input, 'utf8') });
    expect(s.stdout).toBe(expected);
  });

  it('--compact keeps the numbers’ text of every tool, changed or not', async () => {
    const input = join(ROOT, 'test', 'data', 'output', 'array-indented', 'input.json');
    const r = await runMain(['optimize', input, '-t', 'prune-unreachable-defs', '--compact']);
    for (const lexeme of ['9223372036854775807', '1.0', '1e2', '2.50', '1E+3', '1E+2', '-0', '0.10']) expect(r.stdout).toContain(lexeme);
    expect(r.stdout.endsWith('}]\n')).toBe(true);
    expect(r.stdout).not.toMatch(/\n./);
  });
});
