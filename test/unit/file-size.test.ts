/**
 * Issue 14 item 4: no source file over about 300 lines without a reason written at its top. A file under
 * src/ longer than {@link MAX_LINES} lines must say, in the comments before its first line of code, why it
 * is one file, after the fixed marker `Why one file:` — so a file that grows past the limit either gets
 * split or gets its reason written where the next reader sees it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const MAX_LINES = 350;
const MARKER = 'Why one file:';

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out.sort();
}

/** The comments (line and block) before the first line of code, as text. */
function leadingComments(text: string): string {
  const out: string[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (inBlock) {
      out.push(t);
      if (t.includes('*/')) inBlock = false;
    } else if (t === '' || t.startsWith('#!')) continue;
    else if (t.startsWith('//')) out.push(t);
    else if (t.startsWith('/*')) {
      out.push(t);
      inBlock = !t.includes('*/', 2);
    } else break;
  }
  return out.join('\n');
}

/** The line count `wc -l` gives (newline characters). */
function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

describe('source file size', () => {
  it('reads the leading comments and stops at the first line of code', () => {
    expect(leadingComments(`// Why one file: a\n/**\n * b\n */\nimport x from 'y';\n// Why one file: late\n`)).toBe('// Why one file: a\n/**\n* b\n*/');
    expect(leadingComments(`import x from 'y';\n/* Why one file: too late */\n`)).toBe('');
    expect(leadingComments(`/* one line */ \n\n// two\nconst a = 1;`)).toBe('/* one line */\n// two');
  });

  it(`every file under src/ over ${MAX_LINES} lines says why it is one file (\`${MARKER}\` in its leading comments)`, () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      const lines = lineCount(text);
      if (lines > MAX_LINES && !leadingComments(text).includes(MARKER)) missing.push(`${relative(SRC, path)} (${lines} lines)`);
    }
    expect(missing, `split these files, or write \`// ${MARKER} <reason>\` at their top`).toEqual([]);
  });
});
