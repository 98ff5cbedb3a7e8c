/**
 * A run's token totals (report.stats.before/after.tokens) are the tokenizer's count of the whole list's
 * compact JSON, before and after: the engine keeps only a short stand-in of each tool's text to count the
 * list (src/engine/stats.ts, src/core/token-memo.ts `arrayStandIn`), never the texts. The oracle is
 * gpt-tokenizer's own `encode` of `JSON.stringify(list)`; for a tokenizer of the caller's own (no
 * `countArray`, so the engine keeps the texts), that tokenizer applied to the whole text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { transformTools, type Tokenizer } from '../../src/index.js';
import { cl100k, o200k } from '../../src/tokens.js';
import { deepFreeze } from '../helpers/freeze.js';

const PLAIN = { disallowedSpecial: new Set<string>() };
const CORPUS = join(import.meta.dirname, '..', '..', 'bench', 'corpus');
const FILES = readdirSync(CORPUS).filter((f) => f.endsWith('.json')).sort().slice(0, 12);
const lists = FILES.map((f) => (JSON.parse(readFileSync(join(CORPUS, f), 'utf8')) as { toolsList: { tools: unknown[] } }).toolsList.tools);

/** Words: no countArray, no countConcat (the engine joins the kept texts). */
const words: Tokenizer = { name: 'words', count: (t) => t.split(/[^A-Za-z]+/).filter(Boolean).length };

describe('a run counts the whole list before and after as the tokenizer counts its text', () => {
  for (const [tokenizer, oracle] of [
    [o200k, (t: string) => encodeO200k(t, PLAIN).length],
    [cl100k, (t: string) => encodeCl100k(t, PLAIN).length],
    [words, (t: string) => words.count(t)],
  ] as const) {
    it(`${tokenizer.name}, the default preset (safe), ${FILES.length} corpus lists`, () => {
      let changed = 0;
      for (const [i, tools] of lists.entries()) {
        const { tools: after, report } = transformTools(deepFreeze(structuredClone(tools)), { tokenizer });
        const before = JSON.stringify(tools);
        if (JSON.stringify(after) !== before) changed++;
        expect(report.stats.before.tokens, FILES[i]).toBe(oracle(before));
        expect(report.stats.after.tokens, FILES[i]).toBe(oracle(JSON.stringify(after)));
        report.stats.tools.forEach((t, k) => expect(t.before.tokens).toBe(oracle(JSON.stringify(tools[k]))));
      }
      // The preset changed some lists, so the after totals were counted from changed tools.
      expect(changed).toBeGreaterThan(3);
    });
  }
});
