/**
 * The examples in the docs run: every ```ts block of the pages below is executed against the source, and
 * each `// → …` line must equal, in order, what the block prints with console.log (util.format rules).
 * The expected lines were worked out by hand in the pages; this keeps pages and code from drifting.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expectedOutput, runPrinting } from '../helpers/docs-blocks.js';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const PAGES = ['docs/architecture.md', 'docs/report.md', 'docs/session.md', 'docs/output.md', 'docs/response.md', 'docs/surface.md', 'docs/usage-graph.md', 'docs/transforms/compress-cold-tools.md', 'docs/transforms/strip-vendor-extensions.md', 'docs/transforms/inline-small-refs.md', 'docs/profiles/README.md', 'docs/render.md'];
const IMPORTS: Readonly<Record<string, string>> = {
  toolslim: join(root, 'src', 'index.ts'),
  'toolslim/response': join(root, 'src', 'response', 'index.ts'),
  'toolslim/mcp': join(root, 'src', 'sdk', 'index.ts'),
  'toolslim/tokens': join(root, 'src', 'tokens.ts'),
};
// Under node_modules, so an example's own package imports (the MCP SDK, zod) resolve as they would in a project.
mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
const dir = mkdtempSync(join(root, 'node_modules', '.cache', 'toolslim-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function blocks(markdown: string): { code: string; line: number }[] {
  const out: { code: string; line: number }[] = [];
  const re = /^```ts\n([\s\S]*?)^```$/gm;
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) out.push({ code: m[1]!, line: markdown.slice(0, m.index).split('\n').length });
  return out;
}

let counter = 0;
describe.each(PAGES)('%s', (page) => {
  const markdown = readFileSync(join(root, page), 'utf8');
  const found = blocks(markdown);
  it('has examples', () => expect(found.length).toBeGreaterThan(0));
  it.each(found.map((b) => [b.line, b] as const))('block at line %i runs and prints what the page says', async (_line, block) => {
    const code = block.code.replace(/from '(toolslim(?:\/\w+)?)'/g, (m, spec: string) => {
      if (!(spec in IMPORTS)) throw new Error(`unknown import ${spec}`);
      return `from ${JSON.stringify(IMPORTS[spec])}`;
    });
    const expected = expectedOutput(block.code);
    const file = join(dir, `example-${counter++}.ts`);
    expect(await runPrinting(file, code)).toEqual(expected);
  });
});
