/**
 * `json`: the compact JSON of `{name, description, inputSchema}`, the MCP wire form. No model is known to
 * read exactly this; it is the stand-in for Claude and for clients whose rendering is unknown.
 */
import { COMPACT, readField, writeJson } from './json-text.js';
import type { ForwardedTool, Renderer } from './types.js';

export const jsonRenderer: Renderer = Object.freeze({
  name: 'json',
  renderTool(tool: ForwardedTool): string {
    return writeJson({ name: readField(tool, 'name'), description: readField(tool, 'description'), inputSchema: readField(tool, 'inputSchema') }, COMPACT);
  },
  renderTools(tools: readonly ForwardedTool[]): string {
    return tools.map((t) => jsonRenderer.renderTool(t)).join('\n');
  },
});
