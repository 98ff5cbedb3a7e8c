// ToolslimError is defined at the lowest layer (json/errors.ts), so that every layer can throw it; it is
// core's by name, and every module imports it from here.
export { ToolslimError } from '../json/errors.js';
export type { ToolslimErrorCode } from '../json/errors.js';
