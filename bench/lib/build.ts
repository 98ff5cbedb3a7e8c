/** Builds `dist/` with tsup when `file` (a built output) is missing or older than any file under `src/`. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export function ensureBuilt(file: string, log: (line: string) => void): void {
  if (existsSync(file) && statSync(file).mtimeMs >= newestMtime(join(ROOT, 'src'))) return;
  log('building dist with tsup (dist is missing or older than src)…');
  const r = spawnSync('npx', ['tsup', '--silent'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error('tsup build failed');
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}
