/**
 * Temporary directories for a test file, removed when the file's tests are done (a suite that leaves
 * dozens of directories in the system's temp folder on every run is not one to run on a dev machine).
 * Import it from the test file (or a helper it imports): the `afterAll` registers on that file; what is left
 * when the worker process exits (a run that skipped the file's tests) goes then.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

function removeMade(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// And when the worker process ends: vitest runs no `afterAll` for `vitest list` or for a file whose tests a
// filter skips, and a directory made when the file was imported was left behind then. (Taken off after the
// file's tests, so that a process running many files does not gather listeners.)
process.once('exit', removeMade);
afterAll(() => {
  removeMade();
  process.off('exit', removeMade);
});

/** A new directory under the system's temp folder, named `<prefix>XXXXXX`, removed after the file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
