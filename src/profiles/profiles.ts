/**
 * Client profiles: what one client (an LLM API or an MCP host) accepts of a `tools/list`, as data. The
 * checker (`check.ts`) and the `adapt-to-client` transform read these objects; nothing branches on a
 * profile's name. Where each rule comes from is cited in docs/profiles/<name>.md.
 */
import { ToolslimError } from '../core/errors.js';
import { defineProfile, type ClientProfile } from './define.js';

export { defineProfile, REFERENCE_MACHINERY } from './define.js';
export type { AlwaysPaid, ClientProfile, ClientProfileSpec, ForwardedField, ReaderSpec, ReaderTokenizer, RefPolicy, StrictModeRules, ToolNameRule } from './define.js';

/** The MCP specification itself (2020-12, references anywhere): the default. */
export const profileMcp: ClientProfile = defineProfile({
  name: 'mcp',
  title: 'MCP specification (2025-11-25)',
  dialect: '2020-12',
  slots: ['inputSchema', 'outputSchema'],
  refs: 'any',
  refSiblings: 'any',
  toolName: { pattern: '^[A-Za-z0-9_.-]{1,128}$', maxLength: 128, severity: 'warning' },
  showsInstructions: true,
  reader: { renderer: 'json', tokenizer: 'o200k_base', forwards: ['name', 'description', 'inputSchema'], alwaysPaid: 'everything', standIn: 'compact JSON (the MCP wire form) and o200k_base: the specification says nothing of how a client renders tools for its model' },
  docs: 'docs/profiles/mcp.md',
});

/** The Anthropic Messages API (`tools[].input_schema`). */
export const profileClaude: ClientProfile = defineProfile({
  name: 'claude',
  title: 'Anthropic Messages API (Claude)',
  dialect: '2020-12',
  slots: ['inputSchema'],
  refs: 'any',
  refSiblings: 'any',
  toolName: { pattern: '^[a-zA-Z0-9_-]{1,128}$', maxLength: 128, severity: 'error' },
  showsInstructions: false,
  rootObject: true,
  metaSchema: true,
  reader: { renderer: 'json', tokenizer: 'o200k_base', forwards: ['name', 'description', 'inputSchema'], alwaysPaid: 'everything', standIn: 'compact JSON and o200k_base: Anthropic builds a tool-use system prompt from the definitions but publishes neither its form nor its tokenizer' },
  docs: 'docs/profiles/claude.md',
});

/** OpenAI function calling without strict mode. */
export const profileOpenai: ClientProfile = defineProfile({
  name: 'openai',
  title: 'OpenAI function calling (non-strict)',
  dialect: '2020-12',
  slots: ['inputSchema'],
  refs: 'any',
  refSiblings: 'any',
  toolName: { pattern: '^[a-zA-Z0-9_-]{1,64}$', maxLength: 64, severity: 'error' },
  maxTools: 128,
  showsInstructions: false,
  rootObject: true,
  reader: { renderer: 'typescript', tokenizer: 'o200k_base', forwards: ['name', 'description', 'inputSchema'], alwaysPaid: 'everything' },
  docs: 'docs/profiles/openai.md',
});

/** OpenAI function calling with `strict: true` (Structured Outputs). */
export const profileOpenaiStrict: ClientProfile = defineProfile({
  name: 'openai-strict',
  title: 'OpenAI function calling, strict mode (Structured Outputs)',
  dialect: '2020-12',
  slots: ['inputSchema'],
  refs: 'top-level-defs-only',
  refSiblings: 'any',
  // `oneOf`: not in the guide's list, but the API refuses it at any depth ("'oneOf' is not permitted"; OpenAI's
  // own SDKs turn it into `anyOf`): docs/profiles/openai-strict.md cites the reports.
  rejectedKeywords: ['allOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'default'],
  formats: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'],
  maxDepth: 10,
  toolName: { pattern: '^[a-zA-Z0-9_-]{1,64}$', maxLength: 64, severity: 'error' },
  maxTools: 128,
  showsInstructions: false,
  rootObject: true,
  rootCombinators: false,
  strict: { allPropertiesRequired: true, closedObjects: true },
  reader: { renderer: 'typescript', tokenizer: 'o200k_base', forwards: ['name', 'description', 'inputSchema'], alwaysPaid: 'everything' },
  docs: 'docs/profiles/openai-strict.md',
});

/** The Gemini API function declarations (`parameters`, an OpenAPI 3.0 schema subset). */
export const profileGemini: ClientProfile = defineProfile({
  name: 'gemini',
  title: 'Google Gemini API function declarations',
  dialect: '2020-12',
  slots: ['inputSchema'],
  refs: 'none',
  refSiblings: ['description', 'default'],
  allowedKeywords: [
    'type',
    'format',
    'title',
    'description',
    'enum',
    'items',
    'minItems',
    'maxItems',
    'properties',
    'required',
    'minProperties',
    'maxProperties',
    'minLength',
    'maxLength',
    'pattern',
    'anyOf',
    'default',
    'minimum',
    'maximum',
    // OpenAPI 3.0 / Gemini fields that are not JSON Schema 2020-12 keywords
    'nullable',
    'example',
    'propertyOrdering',
  ],
  unknownKeywords: 'reject',
  formats: ['enum', 'date-time', 'float', 'double', 'int32', 'int64'],
  toolName: { pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,63}$', maxLength: 64, severity: 'error' },
  showsInstructions: false,
  rootObject: true,
  reader: { renderer: 'json', tokenizer: 'o200k_base', forwards: ['name', 'description', 'inputSchema'], alwaysPaid: 'everything', standIn: 'compact JSON and o200k_base: Google publishes neither how Gemini renders function declarations nor its tokenizer' },
  docs: 'docs/profiles/gemini.md',
});

/** The Moonshot / Kimi API (`tools[].function.parameters`, "Moonshot flavored JSON Schema"). */
export const profileKimi: ClientProfile = defineProfile({
  name: 'kimi',
  title: 'Moonshot AI / Kimi API',
  dialect: '2020-12',
  slots: ['inputSchema'],
  refs: 'defs-prefix-only',
  refSiblings: ['description'],
  toolName: { pattern: '^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$', maxLength: 64, severity: 'error' },
  maxTools: 128,
  showsInstructions: false,
  rootObject: true,
  reader: { renderer: 'json', tokenizer: 'o200k_base', forwards: ['name', 'description', 'inputSchema'], alwaysPaid: 'everything', standIn: 'compact JSON and o200k_base: the Moonshot API does not say how it renders tools; its tokenizer is not a dependency' },
  docs: 'docs/profiles/kimi.md',
});

/** Any client that cannot resolve references (strips `$defs`, or rejects `$ref` outright). */
export const profileRefFree: ClientProfile = defineProfile({
  name: 'ref-free',
  title: 'Clients that cannot resolve $ref',
  dialect: '2020-12',
  slots: ['inputSchema'],
  refs: 'none',
  refSiblings: 'any',
  showsInstructions: false,
  docs: 'docs/profiles/ref-free.md',
});

/**
 * Claude Code (an MCP host on the Anthropic API) with tool search, its default: tool schemas are deferred,
 * so every request pays the tool names and the servers' instructions, and a schema only once loaded.
 */
export const profileClaudeCode: ClientProfile = defineProfile({
  name: 'claude-code',
  title: 'Claude Code (deferred tool schemas)',
  dialect: '2020-12',
  slots: ['inputSchema'],
  refs: 'any',
  refSiblings: 'any',
  toolName: { pattern: '^[a-zA-Z0-9_-]{1,128}$', maxLength: 128, severity: 'error' },
  showsInstructions: true,
  rootObject: true,
  metaSchema: true,
  reader: { renderer: 'json', tokenizer: 'o200k_base', forwards: ['name', 'description', 'inputSchema'], alwaysPaid: 'names', standIn: 'compact JSON and o200k_base stand in for the Anthropic tool prompt and tokenizer, which are not public' },
  docs: 'docs/profiles/claude-code.md',
});

/** Qwen 2.5 / 3 (and Mistral- or Hermes-style templates): each tool embedded with Jinja `tojson` (`, ` and `: `). */
export const profileQwen: ClientProfile = defineProfile({
  name: 'qwen',
  title: 'Qwen 2.5 / 3 chat template (open weights, JSON tool block)',
  dialect: '2020-12',
  slots: ['inputSchema'],
  refs: 'any',
  refSiblings: 'any',
  showsInstructions: false,
  reader: { renderer: 'json-spaced', tokenizer: 'o200k_base', forwards: ['name', 'description', 'inputSchema'], alwaysPaid: 'everything', standIn: 'o200k_base stands in for the Qwen tokenizer (a 151k-token BPE that is not a runtime dependency of toolslim)' },
  docs: 'docs/profiles/qwen.md',
});

/** Llama 3.1–3.3: each tool embedded with Jinja `tojson(indent=4)`. */
export const profileLlama: ClientProfile = defineProfile({
  name: 'llama',
  title: 'Llama 3.1–3.3 chat template (open weights, indented JSON tool block)',
  dialect: '2020-12',
  slots: ['inputSchema'],
  refs: 'any',
  refSiblings: 'any',
  showsInstructions: false,
  reader: { renderer: 'json-indent4', tokenizer: 'o200k_base', forwards: ['name', 'description', 'inputSchema'], alwaysPaid: 'everything', standIn: 'o200k_base stands in for the Llama 3 tokenizer (a 128k-token tiktoken BPE that is not a runtime dependency of toolslim)' },
  docs: 'docs/profiles/llama.md',
});

/** Every built-in profile, by name (the default, `mcp`, first). */
export const builtinProfiles: readonly ClientProfile[] = Object.freeze([
  profileMcp,
  profileClaude,
  profileOpenai,
  profileOpenaiStrict,
  profileGemini,
  profileKimi,
  profileRefFree,
  profileClaudeCode,
  profileQwen,
  profileLlama,
]);

/** The name of a built-in profile. */
export type ProfileName = 'mcp' | 'claude' | 'openai' | 'openai-strict' | 'gemini' | 'kimi' | 'ref-free' | 'claude-code' | 'qwen' | 'llama';

/** A built-in profile by name, or the profile itself; throws naming the known profiles otherwise. */
export function getProfile(profile: string | ClientProfile): ClientProfile {
  if (typeof profile !== 'string') {
    if (profile === null || typeof profile !== 'object' || profile.kind !== 'profile') throw new ToolslimError('invalid-option', '`profile` must be a profile name or a profile made with defineProfile');
    return profile;
  }
  const found = builtinProfiles.find((p) => p.name === profile);
  if (!found) throw new ToolslimError('invalid-option', `unknown profile \`${profile}\` (known: ${builtinProfiles.map((p) => p.name).join(', ')})`);
  return found;
}
