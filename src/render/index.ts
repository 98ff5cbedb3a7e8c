/**
 * What a model reads: each reader's text for the tools a client forwards (docs/render.md).
 */
import { jsonIndent4Renderer } from './json-indent4.js';
import { jsonSpacedRenderer } from './json-spaced.js';
import { jsonRenderer } from './json.js';
import { RENDERER_NAMES, RenderError, type Renderer, type RendererName } from './types.js';
import { typescriptRenderer } from './typescript.js';

export { RENDERER_NAMES, RenderError, MAX_TYPESCRIPT_DEPTH } from './types.js';
export type { AnyReason, AnyType, ForwardedTool, Renderer, RendererName, RenderErrorCode } from './types.js';
export { findAnyTypes } from './any-types.js';
export { jsonRenderer, jsonSpacedRenderer, jsonIndent4Renderer, typescriptRenderer };

const RENDERERS: Readonly<Record<RendererName, Renderer>> = Object.freeze({
  json: jsonRenderer,
  'json-spaced': jsonSpacedRenderer,
  'json-indent4': jsonIndent4Renderer,
  typescript: typescriptRenderer,
});

/** The renderer of that name; a name that does not exist is a {@link RenderError} listing the valid ones. */
export function getRenderer(name: string): Renderer {
  if (Object.prototype.hasOwnProperty.call(RENDERERS, name)) return RENDERERS[name as RendererName];
  throw new RenderError('unknown-renderer', `Unknown renderer \`${String(name)}\`: expected one of ${RENDERER_NAMES.map((n) => `\`${n}\``).join(', ')}`);
}
