/**
 * toolslim's own version, for the artifacts it writes (overlays). The build (tsup.config.ts) and the test
 * runner (vitest.config.ts) replace `__TOOLSLIM_VERSION__` with package.json's `version`, so the packed
 * package needs no file at runtime; run from the sources some other way (tsx), the value is read from
 * package.json next to `src/`.
 */

declare const __TOOLSLIM_VERSION__: string | undefined;

/** The version of this toolslim (package.json `version`). */
export const TOOLSLIM_VERSION: string = typeof __TOOLSLIM_VERSION__ === 'string' ? __TOOLSLIM_VERSION__ : versionFromSources();

/** The major version number of a semver string, or undefined when it is not one. */
export function majorOf(version: string): number | undefined {
  const m = /^v?(\d+)\.\d+\.\d+(?:[-+].*)?$/.exec(version);
  return m ? Number(m[1]) : undefined;
}

function versionFromSources(): string {
  try {
    const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
    const fs = typeof getBuiltin === 'function' ? (getBuiltin('node:fs') as { readFileSync(path: URL, enc: 'utf8'): string }) : undefined;
    if (fs) {
      const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
      if (typeof pkg.version === 'string') return pkg.version;
    }
  } catch {
    // fall through
  }
  return '0.0.0-unknown';
}
