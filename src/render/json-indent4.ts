/**
 * `json-indent4`: what the Llama 3.1–3.3 chat templates embed. Each tool is `tojson(indent=4)` (Python
 * `json.dumps(x, ensure_ascii=False, indent=4)`: items separated by `,` and a newline, keys by `: `) of the
 * OpenAI-style `{"type": "function", "function": {…}}`, each followed by a blank line (`"\n\n"`).
 */
import { INDENT4, openAiFunction, writeJson } from './json-text.js';
import type { ForwardedTool, Renderer } from './types.js';

export const jsonIndent4Renderer: Renderer = Object.freeze({
  name: 'json-indent4',
  renderTool(tool: ForwardedTool): string {
    return writeJson(openAiFunction(tool), INDENT4);
  },
  renderTools(tools: readonly ForwardedTool[]): string {
    return tools.map((t) => jsonIndent4Renderer.renderTool(t) + '\n\n').join('');
  },
});
