/**
 * Removing cold tools outright: the explicit, separate step that `compress-cold-tools` never takes.
 * A transform edits one tool at a time and never changes the length of the list, so removal lives here,
 * with its own RFC 6902 patch.
 */
import { locateTools } from '../engine/input.js';
import type { ToolsInput } from '../core/run-types.js';
import type { PatchOperation } from '../core/patch.js';
import type { McpTool } from '../core/tool.js';
import { appendPointer } from '../json/pointer.js';
import { isObject } from '../json/guards.js';

/** Options of {@link removeColdTools}. */
export interface RemoveColdToolsOptions {
  /** Names of the tools to keep; every other tool is removed. */
  readonly keep: readonly string[];
}

/** What {@link removeColdTools} returns. */
export interface RemoveColdToolsResult {
  /** The kept tools, in their original order (the same objects as in the input). */
  readonly tools: McpTool[];
  /** The input's envelope (array, ListToolsResult, JSON-RPC response, capture) holding `tools`. */
  readonly output: unknown;
  /** The removed tools' names and positions in the input, in list order. */
  readonly removed: readonly { readonly name: string; readonly index: number }[];
  /**
   * RFC 6902 `remove` operations on the input's tools array, highest index first, so that applying them
   * in order turns the input's tools into `tools`.
   */
  readonly patch: readonly PatchOperation[];
}

/**
 * Removes every tool whose name is not in `keep`; the rest keep their order. The input is not changed.
 * Prefer `compress-cold-tools`, which keeps every tool callable and the list's length stable.
 */
export function removeColdTools(input: ToolsInput, options: RemoveColdToolsOptions): RemoveColdToolsResult {
  const located = locateTools(input);
  const keep = new Set(options.keep);
  const tools: McpTool[] = [];
  const removed: { name: string; index: number }[] = [];
  for (const [index, tool] of located.tools.entries()) {
    const name = isObject(tool) && typeof tool.name === 'string' ? tool.name : '';
    if (keep.has(name)) tools.push(tool as McpTool);
    else removed.push({ name, index });
  }
  const patch: PatchOperation[] = [];
  for (let k = removed.length - 1; k >= 0; k--) patch.push({ op: 'remove', path: appendPointer('', removed[k]!.index), oldValue: located.tools[removed[k]!.index] });
  return { tools, output: located.wrap(tools), removed, patch };
}
