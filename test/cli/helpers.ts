import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
export const SERVER = join(ROOT, 'test', 'servers', 'demo-server.mjs');
/** The demo server's tools, as written by hand in demo-tools.json. */
export const DEMO_TOOLS: Record<string, unknown>[] = JSON.parse(readFileSync(join(ROOT, 'test', 'servers', 'demo-tools.json'), 'utf8'));

/** The demo tools after the default preset, written by hand: get_pet keeps only `Id`; echo loses its `x-vendor` extension. */
export const DEMO_TOOLS_OPTIMIZED: Record<string, unknown>[] = DEMO_TOOLS.map((t) =>
  t.name === 'get_pet'
    ? {
        ...t,
        inputSchema: {
          type: 'object',
          properties: { id: { $ref: '#/$defs/Id', description: "The pet's id" } },
          required: ['id'],
          $defs: { Id: { type: 'integer', minimum: 1 } },
        },
      }
    : t.name === 'echo'
      ? { ...t, inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Anything' } } } }
      : t,
);

export function requireBuild(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (npx tsup, or npm test which builds)`);
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI as a child process. */
export function run(args: readonly string[], options: { input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`toolslim ${args.join(' ')} did not finish in time; stderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A writable that keeps what was written. */
export class Sink extends Writable {
  text = '';
  isTTY?: boolean;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

/** Runs `main` in-process with fake streams. */
export async function runMain(argv: readonly string[], options: { stdin?: string; tty?: boolean; env?: Record<string, string | undefined>; cwd?: string } = {}) {
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  const stdout = new Sink();
  const stderr = new Sink();
  if (options.tty) stdout.isTTY = stderr.isTTY = true;
  const code = await main(argv, { stdin, stdout, stderr, env: options.env ?? {}, ...(options.cwd !== undefined ? { cwd: options.cwd } : {}) });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** True while a process with this id exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

export async function waitFor(cond: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
