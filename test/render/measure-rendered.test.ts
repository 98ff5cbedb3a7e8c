/**
 * measureRendered: counts come from the tokenizer it is given (a stand-in proves the plug-in point), each
 * distinct text is counted once, and tokenizer names are checked.
 */
import { describe, expect, it } from 'vitest';
import { measureRendered, type ForwardedTool, type Tokenizer } from '../../src/index.js';
import { getTokenizer, o200k, cl100k, MAX_EXACT_PIECE } from '../../src/tokens.js';

/** A stand-in tokenizer: one token per whitespace-separated word; it records what it was asked. */
function words(): Tokenizer & { calls: string[] } {
  const calls: string[] = [];
  return { name: 'words', calls, count: (text: string) => (calls.push(text), text.split(/\s+/).filter(Boolean).length) };
}

const tool = (name: string, properties: Record<string, unknown>): ForwardedTool => ({ name, description: 'Reads a thing', inputSchema: { type: 'object', properties } });

describe('measureRendered', () => {
  const a = tool('a', { id: { type: 'string' }, ref: { $ref: '#/$defs/X' } });
  const b = tool('b', { n: { anyOf: [{ type: 'string' }, { type: 'null' }] } });

  it('counts with a plugged-in tokenizer: the section and each tool', () => {
    const t = words();
    const m = measureRendered([a, b], 'typescript', t);
    // Hand-counted words of harmony's rendering:
    // "// Reads a thing" = 4; "type a = (_: {" = 5; "id?: string," = 2; "ref?: any," = 2; "}) => any;" = 3 → 16
    // "// Reads a thing" = 4; "type b = (_: {" = 5; "n?: any," = 2; "}) => any;" = 3 → 14
    expect(m.perTool).toEqual([16, 14]);
    // Section: "## functions" (2) + "namespace functions {" (3) + tools (30) + "} // namespace functions" (4)
    expect(m.tokens).toBe(39);
    expect(m.tokenizer).toBe('words');
    expect(m.renderer).toBe('typescript');
    expect(m.perToolAny).toEqual([1, 1]);
    expect(m.any).toBe(2);
    expect(m.approximate).toBe(false);
  });

  it('counts each distinct text once per call', () => {
    const t = words();
    const m = measureRendered([a, a, a, b], 'json', t);
    expect(m.perTool[0]).toBe(m.perTool[1]);
    expect(t.calls).toHaveLength(3); // a, b, the section
    expect(m.any).toBe(0);
    expect(m.perToolAny).toEqual([0, 0, 0, 0]);
  });

  it('JSON readers count their own text', () => {
    const t = words();
    // {"type": "function", "function": {"name": "a", "description": "Reads a thing", … → spaced JSON splits on spaces
    const spaced = measureRendered([a], 'json-spaced', t).perTool[0]!;
    const compact = measureRendered([a], 'json', t).perTool[0]!;
    expect(compact).toBe(3); // '{"name":"a","description":"Reads' 'a' 'thing",…}'
    expect(spaced).toBeGreaterThan(compact);
  });

  it('approximate is true when the tokenizer flags an estimate', () => {
    const long = { name: 'x', description: 'a'.repeat(MAX_EXACT_PIECE * 4) };
    expect(measureRendered([long], 'typescript', o200k).approximate).toBe(true);
    expect(measureRendered([a], 'typescript', o200k).approximate).toBe(false);
  });

  it('an unknown renderer name throws a RenderError', () => {
    expect(() => measureRendered([a], 'yaml' as never, words())).toThrow(/Unknown renderer `yaml`: expected one of `json`/);
  });
});

describe('getTokenizer', () => {
  it('returns the two encodings by name', () => {
    expect(getTokenizer('o200k_base')).toBe(o200k);
    expect(getTokenizer('cl100k_base')).toBe(cl100k);
    // "hello world" is two tokens in both encodings (a known count, not this code's output).
    expect(getTokenizer('o200k_base').count('hello world')).toBe(2);
    expect(getTokenizer('cl100k_base').count('hello world')).toBe(2);
  });

  it('an unknown name is a clear error listing the valid names', () => {
    expect(() => getTokenizer('p50k_base')).toThrow('Unknown tokenizer `p50k_base`: expected one of `o200k_base`, `cl100k_base` (or pass a Tokenizer object)');
  });
});
