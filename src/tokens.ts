/**
 * `toolslim/tokens`: real tokenizers (gpt-tokenizer). A separate entry so that importing `toolslim` never
 * loads a tokenizer; pass one as `tokenizer` to count tokens:
 *
 * ```ts
 * import { transformTools } from 'toolslim';
 * import { o200k } from 'toolslim/tokens';
 * const { report } = transformTools(tools, { tokenizer: o200k });
 * ```
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import type { Tokenizer } from './core/measure.js';

export type { Tokenizer } from './core/measure.js';

// Special-token text (`<|endoftext|>`) in a description is counted as ordinary text, never refused.
const PLAIN = { disallowedSpecial: new Set<string>() };

/** The o200k_base encoding (GPT-4o and later). */
export const o200k: Tokenizer = Object.freeze({ name: 'o200k_base', count: (text: string) => countO200k(text, PLAIN) });

/** The cl100k_base encoding (GPT-4, GPT-3.5). */
export const cl100k: Tokenizer = Object.freeze({ name: 'cl100k_base', count: (text: string) => countCl100k(text, PLAIN) });
