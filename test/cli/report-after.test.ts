/**
 * `report`'s cl100k_base count after the run comes from the texts the run hands over after each step
 * (AFTER_TEXT), not from serializing the tools again. The oracle: gpt-tokenizer's own cl100k_base count of
 * the compact JSON of the list `transformTools` returns, on corpus servers whose tools change in one step,
 * in several, or not at all.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { transformTools } from '../../src/index.js';
import { runMain } from './helpers.js';

const PLAIN = { disallowedSpecial: new Set<string>() };
const dir = join(import.meta.dirname, '..', '..', 'bench', 'corpus');

describe('report: cl100k_base after the run', () => {
  it('equals gpt-tokenizer on the list the run returns, per server', async () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
    let changedLists = 0;
    for (const f of files) {
      const path = join(dir, f);
      const r = await runMain(['report', path, '--format', 'json']);
      expect(r.code, f).toBe(0);
      const data = JSON.parse(r.stdout) as { total: { cl100k: number; cl100kAfter: number } };
      const input = JSON.parse(readFileSync(path, 'utf8')) as { toolsList: { tools: unknown[] } };
      const after = transformTools(input).tools;
      expect(data.total.cl100kAfter, f).toBe(countTokens(JSON.stringify(after), PLAIN));
      expect(data.total.cl100k, f).toBe(countTokens(JSON.stringify(input.toolsList.tools), PLAIN));
      if (data.total.cl100kAfter !== data.total.cl100k) changedLists++;
    }
    expect(changedLists).toBeGreaterThan(3);
  });
});

describe('report --format json', () => {
  it('is the same bytes every run (found as a user: each step\'s timeMs differed between runs, so a committed report always showed a diff)', async () => {
    const path = join(dir, 'modelcontextprotocol__server-memory.json');
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push((await runMain(['report', path, '--format', 'json'])).stdout);
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
    const data = JSON.parse(texts[0]!) as { transforms: Record<string, unknown>[] };
    expect(data.transforms.length).toBeGreaterThan(0);
    for (const row of data.transforms) expect(Object.keys(row)).toEqual(['name', 'changes', 'toolsChanged', 'bytesSaved', 'tokensSaved']);
  });
});
