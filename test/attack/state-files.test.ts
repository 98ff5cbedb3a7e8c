/**
 * Attack (issue 26, items 9 and 12): the files the proxy keeps (`--usage`, `--stats`) and reads (`--overlay`).
 * - A FIFO given as `--usage`, `--overlay` or `--stats` hung the start (reading a FIFO waits for a writer);
 *   a device or a directory is no state file either: each is refused before it is opened.
 * - A symlinked usage file was replaced by a regular file (the shared target never got counts), and mode
 *   0600 became 0644: now the target is written and keeps its mode.
 * - A usage-file lock held by an unrelated live process froze the proxy ~5 s per flush (a sync wait): now
 *   a held lock is tried again later and the proxy keeps answering; a stale lock (dead pid, or old) is taken.
 * - `--stats FILE` appended to any file (a capture JSON became invalid): now only to a stats file (each line
 *   one JSON object of the stats shape) or a new/empty one.
 * Expected values are hand-written: demo-tools.json's `get_pet` takes `{ id: integer ≥ 1 }`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUsageFile, UsageStore } from '../../src/session/usage-store.js';
import { requireBuild } from '../cli/helpers.js';
import { ProxyProcess, WIRE_SERVER, node } from '../cli/proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());
const dir = tempDir('toolslim-state-files-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CALL = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_pet","arguments":{"id":4}}}`;

/** The proxy's exit status, or 'still running' after `ms` (then it is ended). */
async function exitWithin(p: ProxyProcess, ms: number): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([p.closed, new Promise<'still running'>((r) => (timer = setTimeout(() => r('still running'), ms)))]);
  clearTimeout(timer);
  if (result === 'still running') {
    p.kill();
    await p.closed;
  }
  return result;
}

function fifo(name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

describe('state files that are not regular files are refused before they are opened', () => {
  for (const flag of ['--usage', '--overlay', '--stats']) {
    it(`a FIFO as ${flag}: refused at once, naming it (the start hung before)`, async () => {
      const path = fifo(`fifo${flag}`);
      const p = new ProxyProcess([flag, path, '--', node, WIRE_SERVER]);
      const status = await exitWithin(p, 10_000);
      expect(status).not.toBe('still running');
      expect(status).not.toBe(0);
      expect(p.stderr).toContain(`${path} is a FIFO (named pipe), not a regular file`);
    });
  }

  it('a character device or a directory as --usage: refused, naming what it is', async () => {
    const sub = join(dir, 'a-directory');
    mkdirSync(sub);
    for (const [path, kind] of [
      ['/dev/null', 'a character device'],
      [sub, 'a directory'],
    ] as const) {
      const p = new ProxyProcess(['--usage', path, '--', node, WIRE_SERVER]);
      const status = await exitWithin(p, 10_000);
      expect(status).not.toBe('still running');
      expect(status).not.toBe(0);
      expect(p.stderr).toContain(`${path} is ${kind}, not a regular file`);
    }
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });
});

describe('the usage file', () => {
  it('a symlink stays a symlink and its target gets the counts, with its mode kept; a call before the first list is counted', async () => {
    const target = join(dir, 'shared-usage.json');
    const link = join(dir, 'usage-link.json');
    writeFileSync(target, '');
    chmodSync(target, 0o600);
    symlinkSync(target, link);
    const p = new ProxyProcess(['--hot-set', '5', '--usage', link, '--', node, WIRE_SERVER]);
    try {
      await p.initialize();
      // Before the client's first tools/list.
      p.send(CALL(1));
      await p.until(1);
      p.send('{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
      await p.until(2);
      p.send(CALL(3));
      await p.until(3);
    } finally {
      p.end();
      await p.closed;
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readUsageFile(target)?.callCount('get_pet')).toBe(2);
  });

  it('a lock held by an unrelated live process never freezes the proxy; the calls are written once it is gone', async () => {
    const file = join(dir, 'locked-usage.json');
    const lock = `${file}.lock`;
    // This test's process stands in for the unrelated live holder; the lock is fresh, so not stale by age.
    writeFileSync(lock, `${process.pid} ${Date.now()} other\n`);
    const p = new ProxyProcess(['--hot-set', '5', '--usage', file, '--', node, WIRE_SERVER]);
    try {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      await p.until(1);
      p.send(CALL(2));
      await p.until(2);
      // 20 pings, one every 200 ms: the flush comes ~1 s after the call. With a 5 s sync wait (before),
      // the pings sent during it were answered only after it: about 5 of 20 came back before the last was sent.
      // The bound sits halfway between that and 20, so a slow machine's late answers do not fail it.
      let answered = 0;
      const answers: Promise<unknown>[] = [];
      for (let i = 0; i < 20; i++) {
        p.send(`{"jsonrpc":"2.0","id":${100 + i},"method":"ping"}`);
        answers.push(p.until(100 + i, 20_000).then(() => answered++));
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(answered).toBeGreaterThanOrEqual(12);
      await Promise.all(answers);
      unlinkSync(lock);
    } finally {
      p.end();
      await p.closed;
    }
    expect(readUsageFile(file)?.callCount('get_pet')).toBe(1);
  });

  it('tryFlush: a live fresh lock → false at once, calls kept; a dead holder or an old lock is stale and taken', () => {
    const file = join(dir, 'store.json');
    const lock = `${file}.lock`;
    const store = UsageStore.open(file, { staleLockMs: 60_000 });
    store.record('a');
    writeFileSync(lock, `${process.pid} 0 live\n`);
    expect(store.tryFlush()).toBe(false);
    expect(store.pending).toBe(1);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid} 0 live\n`);
    // Old: older than staleLockMs, though its pid is alive.
    const past = (Date.now() - 120_000) / 1000;
    utimesSync(lock, past, past);
    expect(store.tryFlush()).toBe(true);
    expect(readUsageFile(file)?.callCount('a')).toBe(1);
    // Dead: a process that has exited.
    const dead = Number(execFileSync(node, ['-e', 'process.stdout.write(String(process.pid))']).toString());
    writeFileSync(lock, `${dead} ${Date.now()} gone\n`);
    store.record('a');
    expect(store.tryFlush()).toBe(true);
    expect(readUsageFile(file)?.callCount('a')).toBe(2);
    expect(() => lstatSync(lock)).toThrow();
  });
});

describe('--stats FILE appends only to a stats file', () => {
  const statsLine = '{"v":1,"tool":"get_pet","requestBytes":30,"resultBytes":12,"servedBytes":200,"originalBytes":200,"ms":3}';

  it('a capture JSON is refused and left as it was', async () => {
    const file = join(dir, 'capture.json');
    const text = JSON.stringify({ server: { command: 'x' }, toolsList: { tools: [] } }, null, 2) + '\n';
    writeFileSync(file, text);
    const p = new ProxyProcess(['--stats', file, '--', node, WIRE_SERVER]);
    const status = await exitWithin(p, 10_000);
    expect(status).toBe(2);
    expect(p.stderr).toContain(`--stats ${file} is not a stats file`);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('an existing stats file gets one more line per call', async () => {
    const file = join(dir, 'calls.jsonl');
    writeFileSync(file, statsLine + '\n');
    const p = new ProxyProcess(['--stats', file, '--', node, WIRE_SERVER]);
    try {
      await p.initialize();
      p.send(CALL(1));
      await p.until(1);
    } finally {
      p.end();
      await p.closed;
    }
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(statsLine);
    expect(JSON.parse(lines[1]!)).toMatchObject({ v: 1, tool: 'get_pet' });
  });
});
