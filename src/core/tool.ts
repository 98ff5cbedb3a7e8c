/**
 * Structural MCP types: what toolslim reads of a `tools/list` result. No runtime dependency on the SDK;
 * every field toolslim does not understand is carried through untouched.
 */
import { isObject } from '../json/guards.js';

/** A JSON Schema document or subschema (an object or a boolean). */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/** One tool of a `tools/list` result. */
export interface McpTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: { readonly [key: string]: unknown };
  readonly _meta?: { readonly [key: string]: unknown };
  readonly [field: string]: unknown;
}

/** The result of `tools/list`. */
export interface ListToolsResult {
  readonly tools: readonly McpTool[];
  readonly nextCursor?: string;
  readonly [field: string]: unknown;
}

/** The schema-bearing fields of a tool that transforms rewrite. */
export type SchemaSlot = 'inputSchema' | 'outputSchema';

/** Both schema slots, in the order they are processed. */
export const SCHEMA_SLOTS: readonly SchemaSlot[] = Object.freeze(['inputSchema', 'outputSchema']);

/**
 * Tool fields that only describe the tool to people and models: an `annotation`-level transform may
 * rewrite them (every other field must stay as it was).
 */
export const TOOL_ANNOTATION_FIELDS: readonly string[] = Object.freeze(['title', 'description']);

/** A tool's name for reports: its `name` when it is a string, else `""`. */
export function toolName(tool: unknown): string {
  try {
    return isObject(tool) && typeof tool.name === 'string' ? tool.name : '';
  } catch {
    return ''; // a throwing getter or Proxy trap: the input check reports the tool
  }
}
