/**
 * `json-spaced`: what Qwen 2.5/3, Mistral and Hermes-style chat templates embed. Each tool is Jinja
 * `tojson` (in Hugging Face transformers: Python `json.dumps(x, ensure_ascii=False)`, separators `, ` and
 * `: `) of the OpenAI-style `{"type": "function", "function": {"name", "description", "parameters"}}`, and
 * the Qwen3 template writes them one per line inside `<tools>…</tools>` (a newline before each).
 */
import { SPACED, openAiFunction, writeJson } from './json-text.js';
import type { ForwardedTool, Renderer } from './types.js';

export const jsonSpacedRenderer: Renderer = Object.freeze({
  name: 'json-spaced',
  renderTool(tool: ForwardedTool): string {
    return writeJson(openAiFunction(tool), SPACED);
  },
  renderTools(tools: readonly ForwardedTool[]): string {
    return tools.map((t) => jsonSpacedRenderer.renderTool(t)).join('\n');
  },
});
