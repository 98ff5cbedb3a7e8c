/**
 * The one error class of toolslim, at the lowest layer so that every layer can throw it: `schema/` does
 * (`RefIndex` refuses a schema that contains itself). Modules of `core/` and above import it from
 * `core/errors.ts`.
 */

/** Error codes thrown by toolslim. */
export type ToolslimErrorCode = 'invalid-input' | 'invalid-option' | 'unknown-transform' | 'transform-failed' | 'verification-failed';

/**
 * The one error class toolslim throws. `tool` and `path` (a JSON Pointer into the tools array, or into the
 * schema or tool a function was given) say where, whenever the error is about a place in the input.
 */
export class ToolslimError extends Error {
  // \`name\` is set in the constructor, as in every class here: the CommonJS build's splitting pass (sucrase)
  // renamed a class with a field initializer \`_class\`, which util.inspect printed (\`_class [ToolslimError]: …\`).
  readonly code: ToolslimErrorCode;
  readonly tool: string | undefined;
  readonly path: string | undefined;
  readonly transform: string | undefined;

  constructor(code: ToolslimErrorCode, message: string, where: { tool?: string; path?: string; transform?: string; cause?: unknown } = {}) {
    super(message, where.cause === undefined ? undefined : { cause: where.cause });
    this.name = 'ToolslimError';
    this.code = code;
    this.tool = where.tool;
    this.path = where.path;
    this.transform = where.transform;
  }
}
