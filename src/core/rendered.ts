/**
 * Tokens as a reader pays them: the tools rendered the way that reader's model sees them
 * (src/render/, docs/render.md), counted by a {@link Tokenizer}.
 */
import { ToolslimError } from './errors.js';
import { findAnyTypes, getRenderer, RENDERER_NAMES, type ForwardedTool, type Renderer, type RendererName } from '../render/index.js';
import type { Tokenizer } from './measure.js';

/** Rendered size of a tools list for one reader. */
export interface RenderedMeasure {
  /** The reader whose text was counted. */
  readonly renderer: RendererName;
  /** The tokenizer's `name`. */
  readonly tokenizer: string;
  /** Tokens of the whole tools section (`renderTools`). */
  readonly tokens: number;
  /** Tokens of each tool's own text (`renderTool`), in tool order. */
  readonly perTool: readonly number[];
  /** Parameter types the `typescript` reader sees as `any` ({@link findAnyTypes}); 0 for JSON readers. */
  readonly any: number;
  /** The same per tool, in tool order. */
  readonly perToolAny: readonly number[];
  /** True when the tokenizer flagged one of the counts as an estimate (see `Tokenizer.isEstimate`). */
  readonly approximate: boolean;
}

/**
 * Renders `tools` for `renderer` and counts the tokens, of the whole section and of each tool. Each
 * distinct text is counted once per call (servers repeat tools).
 *
 * ```ts
 * import { measureRendered } from 'toolslim';
 * import { o200k } from 'toolslim/tokens';
 * const m = measureRendered(tools, 'typescript', o200k); // m.tokens, m.perTool, m.any
 * ```
 */
export function measureRendered(tools: readonly ForwardedTool[], renderer: Renderer | RendererName, tokenizer: Tokenizer): RenderedMeasure {
  const r = typeof renderer === 'string' ? getRenderer(renderer) : renderer;
  if (r === null || typeof r !== 'object' || typeof r.renderTool !== 'function' || typeof r.renderTools !== 'function') throw new ToolslimError('invalid-option', `measureRendered: \`renderer\` must be a renderer name (${RENDERER_NAMES.join(', ')}) or a renderer from getRenderer`);
  if (tokenizer === null || typeof tokenizer !== 'object' || typeof tokenizer.count !== 'function') throw new ToolslimError('invalid-option', 'measureRendered: `tokenizer` must be a Tokenizer (e.g. import { o200k } from "toolslim/tokens")');
  const memo = new Map<string, number>();
  let approximate = false;
  const count = (text: string): number => {
    let n = memo.get(text);
    if (n === undefined) {
      n = tokenizer.count(text);
      memo.set(text, n);
      if (tokenizer.isEstimate?.(text) === true) approximate = true;
    }
    return n;
  };
  const perTool = tools.map((t) => count(r.renderTool(t)));
  const tokens = count(r.renderTools(tools));
  const perToolAny = r.name === 'typescript' ? tools.map((t) => findAnyTypes(readSchema(t)).length) : tools.map(() => 0);
  return { renderer: r.name, tokenizer: tokenizer.name, tokens, perTool, any: perToolAny.reduce((a, b) => a + b, 0), perToolAny, approximate };
}

function readSchema(tool: ForwardedTool): unknown {
  try {
    return tool.inputSchema;
  } catch {
    return undefined;
  }
}
