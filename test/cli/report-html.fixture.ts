/**
 * Hand-written tools for the `report --format html` tests: hostile names and descriptions (markup that would
 * run a script, close the SVG or break out of an attribute if written unescaped), and known parts — which
 * tools have a description, definitions and an output schema is read off this list, not off the code.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';

export const HOSTILE_NAME = '<script>document.title="pwned"</script>';
export const HOSTILE_DESCRIPTION = `</svg></text><script>alert(1)</script><img src=x onerror="alert(2)">"'&amp;`;
export const ATTRIBUTE_NAME = `x" onmouseover="alert(3)' data-x='`;

export const TOOLS = [
  {
    name: HOSTILE_NAME,
    description: HOSTILE_DESCRIPTION,
    inputSchema: {
      type: 'object',
      properties: { order: { $ref: '#/$defs/Order' } },
      required: ['order'],
      $defs: { Order: { type: 'object', properties: { id: { type: 'string', description: 'The order id, as printed on the receipt' } } }, Unused: { type: 'number' } },
    },
    outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
  },
  { name: ATTRIBUTE_NAME, description: 'Plain words about a tool.', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
  { name: 'no_description', inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } } },
];

/** Read off {@link TOOLS} by hand. */
export const EXPECTED = { tools: 3, withDescription: 2, withDefinitions: 1, withOutputSchema: 1 };

/** The fixture written to a new temporary file. */
export function writeFixture(): { dir: string; file: string } {
  const dir = tempDir('toolslim-html-');
  const file = join(dir, 'tools.json');
  writeFileSync(file, JSON.stringify({ tools: TOOLS }));
  return { dir, file };
}

/** How often `needle` occurs in `text`. */
export function occurrences(text: string, needle: string | RegExp): number {
  if (typeof needle === 'string') return text.split(needle).length - 1;
  return [...text.matchAll(new RegExp(needle.source, needle.flags.includes('g') ? needle.flags : needle.flags + 'g'))].length;
}
