/**
 * A headless Chromium driven from its command line (no Playwright, no download): Debian's `chromium`
 * package at /usr/bin/chromium, or the browser named by TOOLSLIM_CHROMIUM. Each run gets a new empty
 * profile directory, removed afterwards; console messages (errors, uncaught exceptions, CSP violations)
 * come back from Chromium's own log on stderr (`--enable-logging=stderr`: `…:CONSOLE(…)] "message"`).
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from './temp.js';

/** The browser to use (TOOLSLIM_CHROMIUM when set, alone), or undefined when there is none. */
export const CHROMIUM: string | undefined = [process.env.TOOLSLIM_CHROMIUM ?? '/usr/bin/chromium'].find((p) => p !== '' && existsSync(p));

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
  '--enable-logging=stderr',
  '--v=0',
];

export interface ChromiumRun {
  readonly code: number | null;
  readonly stdout: string;
  /** The page's console messages, as Chromium logged them. */
  readonly console: readonly string[];
}

/** Opens `file` with `extra` flags (`--dump-dom`, `--screenshot=…`); kills the browser after `timeoutMs`. */
export function runChromium(file: string, extra: readonly string[], timeoutMs = 30_000): Promise<ChromiumRun> {
  if (CHROMIUM === undefined) throw new Error('no Chromium');
  const profile = tempDir('toolslim-chromium-');
  return new Promise((resolve, reject) => {
    const child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, ...extra, pathToFileURL(file).href], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const done = () => {
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true });
    };
    child.on('error', (e) => {
      done();
      reject(e);
    });
    child.on('close', (code) => {
      done();
      resolve({ code, stdout, console: stderr.split('\n').filter((l) => /:CONSOLE[:(]/.test(l)) });
    });
  });
}
