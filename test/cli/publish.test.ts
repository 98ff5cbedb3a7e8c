/**
 * What `npm pack` ships, checked from package.json and the files themselves (the packed tarball is
 * installed and used by `.ci/pack-check`): the version the CLI prints, types for every subpath under
 * node10 resolution, a LICENSE, and README and docs links that resolve inside the tarball.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/cli/version.js';
import { ROOT, runMain } from './helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  files: string[];
  exports: Record<string, unknown>;
  typesVersions: Record<string, Record<string, string[]>>;
  scripts: Record<string, string>;
};

/** True when `path` (relative to the root) is inside an entry of `files`. */
const ships = (path: string) => pkg.files.some((f) => path === f || path.startsWith(f + '/'));

function links(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) if (!/^[a-z]+:/i.test(m[1]!)) out.push(m[1]!);
  return out;
}

function markdownIn(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...markdownIn(p));
    else if (e.name.endsWith('.md')) out.push(p);
  }
  return out;
}

describe('the published package', () => {
  it('toolslim --version prints package.json’s version', async () => {
    expect(VERSION).toBe(pkg.version);
    for (const flag of ['--version', '-v']) {
      const r = await runMain([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${pkg.version}\n`);
    }
  });

  it('builds before packing, and ships a MIT LICENSE', () => {
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(pkg.license).toBe('MIT');
    expect(pkg.files).toContain('LICENSE');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} The toolslim authors\n/);
  });

  it('has typesVersions for every subpath export (node10 resolution reads only those)', () => {
    const subpaths = Object.keys(pkg.exports).filter((k) => k !== '.' && k !== './package.json').map((k) => k.slice(2));
    expect(Object.keys(pkg.typesVersions['*']!).sort()).toEqual(subpaths.sort());
    for (const [sub, [target]] of Object.entries(pkg.typesVersions['*']!) as [string, string[]][]) {
      const entry = pkg.exports[`./${sub}`] as { import: { types: string } };
      expect(normalize(target!), sub).toBe(normalize(entry.import.types));
    }
  });

  it('every relative link of the README points at a file that ships', () => {
    for (const target of links('README.md')) {
      const path = normalize(target).replace(/\/$/, '');
      expect(existsSync(join(ROOT, path)), `README links to ${target}, which does not exist`).toBe(true);
      expect(ships(path), `README links to ${target}, which package.json "files" leaves out`).toBe(true);
    }
  });

  it('every relative link of the docs points inside what ships', () => {
    for (const file of markdownIn('docs')) {
      for (const target of links(file)) {
        const path = relative(ROOT, join(ROOT, dirname(file), target)).replace(/\\/g, '/');
        expect(ships(path), `${file} links to ${target} (${path}), which package.json "files" leaves out`).toBe(true);
      }
    }
  });
});
