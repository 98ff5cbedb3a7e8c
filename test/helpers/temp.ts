/**
 * Temporary directories for a test file, removed when the file's tests are done (a suite that leaves
 * dozens of directories in the system's temp folder on every run is not one to run on a dev machine).
 * Import it from the test file (or a helper it imports): the `afterAll` registers on that file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new directory under the system's temp folder, named `<prefix>XXXXXX`, removed after the file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
