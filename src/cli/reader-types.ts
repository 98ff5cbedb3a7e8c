/** The shapes `report --render` adds to its data (src/cli/rendered.ts fills them; format.ts carries them). */
import type { AlwaysPaid, ForwardedField } from '../profiles/define.js';
import type { RendererName } from '../render/index.js';

/** One reader a run counts in. */
export interface Reader {
  readonly renderer: RendererName;
  readonly tokenizer: string;
  /** The profile that named this reader (`--profile`), if any. */
  readonly profile?: string;
  readonly forwards: readonly ForwardedField[];
  readonly alwaysPaid: AlwaysPaid;
  /** What stands in for the client's own renderer or tokenizer, when something does. */
  readonly standIn?: string;
}

/** Rendered tokens and `any` types of one reader, before and after. */
export interface RenderedFigures {
  readonly tokens: number;
  readonly tokensAfter: number;
  readonly any: number;
  readonly anyAfter: number;
}

