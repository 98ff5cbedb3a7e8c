/**
 * UsageStore: a missing file is created, foreign files are refused by name and left byte for byte, two
 * processes flushing into one file lose no call (child processes, fixed counts), stale locks are
 * recovered, a live one is waited for, and a failed write leaves the file and the pending calls alone.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolslimError, ToolUsageGraph } from '../../src/index.js';
import { readUsageFile, UsageStore, writeAtomically } from '../../src/session/usage-store.js';
import { tempDir } from '../helpers/temp.js';

const run = promisify(execFile);
const dir = tempDir('toolslim-usage-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `usage-${n++}.json`);

describe('UsageStore', () => {
  it('starts a new graph for a missing file and creates it on the first flush', () => {
    const file = fresh();
    const store = UsageStore.open(file, { tools: ['a', 'b'] });
    expect(existsSync(file)).toBe(false);
    store.beginSession().record('b').record('b').record('c');
    expect(store.pending).toBe(4);
    store.flush();
    expect(store.pending).toBe(0);
    const expected = new ToolUsageGraph(['a', 'b']).beginSession().recordAll(['b', 'b', 'c']);
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(expected) + '\n');
    const again = UsageStore.open(file);
    expect(again.graph.callCount('b')).toBe(2);
    expect(again.graph.sessions).toBe(1);
    // No lock file or temporary file is left behind.
    expect(readdirSync(dir).filter((f) => f.startsWith(file.split('/').pop()!) || f.includes('.tmp'))).toEqual([file.split('/').pop()]);
  });

  it('an empty file counts as missing', () => {
    const file = fresh();
    writeFileSync(file, '  \n');
    expect(UsageStore.open(file).graph.steps).toBe(0);
  });

  it('refuses a file that is not JSON, not a usage graph, from a newer toolslim or broken, naming it and leaving it as it is', () => {
    const cases: [string, RegExp][] = [
      ['{"tools": [', /is not JSON .*not a toolslim usage file; it was left as it is/],
      ['[1, 2, 3]', /is JSON but not a toolslim usage graph/],
      ['{"name": "my-package", "version": "1.0.0"}', /is JSON but not a toolslim usage graph/],
      [JSON.stringify({ ...new ToolUsageGraph(['a']).toJSON(), version: 2 }), /was written by a newer toolslim \(usage graph version 2; this toolslim reads version 1\)/],
      [JSON.stringify({ ...new ToolUsageGraph(['a']).toJSON(), steps: -1 }), /is not a valid toolslim usage graph: .*`\/steps`/],
    ];
    for (const [text, message] of cases) {
      const file = fresh();
      writeFileSync(file, text);
      let error: unknown;
      try {
        UsageStore.open(file);
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(ToolslimError);
      expect((error as Error).message, text).toContain(file);
      expect((error as Error).message, text).toMatch(message);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
    // A directory where the file should be: a read error, named.
    expect(() => UsageStore.open(dir)).toThrow(new RegExp(`usage file ${dir}: cannot read it`));
  });

  it('a file that turns foreign between open and flush is refused at flush; the calls stay pending', () => {
    const file = fresh();
    const store = UsageStore.open(file);
    store.record('a');
    writeFileSync(file, 'garbage');
    expect(() => store.flush()).toThrow(/is not JSON/);
    expect(readFileSync(file, 'utf8')).toBe('garbage');
    expect(store.pending).toBe(1);
    expect(existsSync(file + '.lock')).toBe(false);
  });

  it('two processes flushing into one file lose no call', async () => {
    const file = fresh();
    const writer = join(import.meta.dirname, 'usage-writer.ts');
    const N = 120;
    const startAt = String(Date.now() + 2000);
    await Promise.all([
      run(process.execPath, ['--import', 'tsx', writer, file, 'p', String(N), '1', startAt]),
      run(process.execPath, ['--import', 'tsx', writer, file, 'q', String(N), '2', startAt]),
    ]);
    const graph = readUsageFile(file)!;
    expect(graph.steps).toBe(2 * N);
    expect(graph.sessions).toBe(2);
    expect(graph.callCount('p_tool')).toBe(N / 2);
    expect(graph.callCount('q_tool')).toBe(N / 2);
    expect(graph.callCount('shared')).toBe(N);
    expect(existsSync(file + '.lock')).toBe(false);
    expect(readdirSync(dir).some((f) => f.endsWith('.tmp') || f.endsWith('.stale'))).toBe(false);
  });

  it('removes a lock left by a process that is gone, and one that is old', async () => {
    const file = fresh();
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid!;
    await new Promise((r) => child.on('exit', r));
    writeFileSync(file + '.lock', `${pid} 0 x\n`);
    UsageStore.open(file).record('a').flush();
    expect(readUsageFile(file)!.callCount('a')).toBe(1);

    // A live holder (this process's parent stands in), but the lock is older than staleLockMs.
    writeFileSync(file + '.lock', `${process.ppid} 0 y\n`);
    const past = new Date(Date.now() - 120_000);
    utimesSync(file + '.lock', past, past);
    UsageStore.open(file, { staleLockMs: 60_000 }).record('a').flush();
    expect(readUsageFile(file)!.callCount('a')).toBe(2);
    expect(existsSync(file + '.lock')).toBe(false);
  });

  it('waits for a live, fresh lock and then says who to ask', () => {
    const file = fresh();
    writeFileSync(file + '.lock', `${process.ppid} 0 z\n`);
    const store = UsageStore.open(file, { lockTimeoutMs: 150 });
    store.record('a');
    const t0 = Date.now();
    expect(() => store.flush()).toThrow(/another process has held .*\.lock for more than 150 ms; if no toolslim is running, remove that lock file/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect(store.pending).toBe(1);
    expect(readFileSync(file + '.lock', 'utf8')).toBe(`${process.ppid} 0 z\n`);
    rmSync(file + '.lock');
    store.flush();
    expect(readUsageFile(file)!.callCount('a')).toBe(1);
  });

  it('a failed write leaves the target untouched and says so', () => {
    const target = join(dir, 'no-such-dir', 'usage.json');
    expect(() => writeAtomically(target, '{}')).toThrow(/cannot write .*usage\.json .*the file was left as it was/);
    // A non-empty directory in the way of the rename: the write fails, the directory and its file stay, no temporary file is left.
    const blocked = join(dir, 'blocked');
    mkdirSync(blocked);
    writeFileSync(join(blocked, 'inside'), 'keep me');
    expect(() => writeAtomically(blocked, '{}')).toThrow(/cannot write .*blocked .*the file was left as it was/);
    expect(readFileSync(join(blocked, 'inside'), 'utf8')).toBe('keep me');
    expect(readdirSync(dir).some((f) => f.endsWith('.tmp'))).toBe(false);
  });

  it('rejects unusable options, naming them', () => {
    expect(() => UsageStore.open('')).toThrow(/the usage file must be a path/);
    expect(() => UsageStore.open(fresh(), { lockTimeoutMs: -1 })).toThrow(/`lockTimeoutMs` must be a non-negative number/);
    expect(() => UsageStore.open(fresh(), { tools: 'a' as never })).toThrow(/`tools` must be an array/);
    expect(() => UsageStore.open(fresh(), { lock: true } as never)).toThrow(/unknown option `lock`/);
    expect(() => UsageStore.open(fresh()).record(3 as never)).toThrow(/expected a tool name/);
  });
});
