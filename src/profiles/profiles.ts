/**
 * Client profiles: what one client (an LLM API or an MCP host) accepts of a `tools/list`, as data. The
 * checker (`check.ts`) and the `adapt-to-client` transform read these objects; nothing branches on a
 * profile's name. Where each rule comes from is cited in docs/profiles/<name>.md.
 */
import type { Severity } from '../core/report.js';
import type { SchemaSlot } from '../core/tool.js';
import { KEYWORD_TABLES, type Dialect } from '../schema/keywords.js';

/**
 * Where a client accepts `$ref`:
 * - `any`: anywhere, to anything that resolves inside the document (JSON Schema itself);
 * - `top-level-defs-only`: only `#` or `#/$defs/<name>` / `#/definitions/<name>` of the root;
 * - `defs-prefix-only`: only references that start with `#/$defs/` (and resolve);
 * - `none`: the client cannot resolve references at all (every `$ref` must be inlined).
 */
export type RefPolicy = 'any' | 'top-level-defs-only' | 'defs-prefix-only' | 'none';

/** The names a client accepts for tools. */
export interface ToolNameRule {
  /** An anchored regular expression (source text) a name must match. */
  readonly pattern: string;
  readonly maxLength: number;
  /** `error` when the client refuses the tool; `warning` for a recommendation (a spec SHOULD). */
  readonly severity: Severity;
}

/** Requirements of a strict / constrained-decoding mode (OpenAI `strict: true`). */
export interface StrictModeRules {
  /** Every key of `properties` must be listed in `required`. */
  readonly allPropertiesRequired: boolean;
  /** Every object schema must say `additionalProperties: false`. */
  readonly closedObjects: boolean;
}

/** What a profile is written as; {@link defineProfile} fills in the derived fields. */
export interface ClientProfileSpec {
  /** Short kebab-case name: `mcp`, `openai-strict`, … */
  readonly name: string;
  readonly title: string;
  /** The dialect the client reads schemas in (verdicts are compared under it when a schema declares none). */
  readonly dialect: Dialect;
  /** Which schemas of a tool the client sends to the model or validates with (LLM APIs take only the input). */
  readonly slots: readonly SchemaSlot[];
  readonly refs: RefPolicy;
  /** Keywords allowed beside `$ref` in the same schema object; `any` when the client does not restrict them. */
  readonly refSiblings: readonly string[] | 'any';
  /** Keywords (from the keyword table) the client rejects. */
  readonly rejectedKeywords?: readonly string[];
  /**
   * When set, the client accepts only these keywords (plus the reference machinery its `refs` policy
   * governs): every other keyword of the table is rejected.
   */
  readonly allowedKeywords?: readonly string[];
  /** `reject`: the client refuses keywords it does not know (a protobuf-backed API); default `allow`. */
  readonly unknownKeywords?: 'allow' | 'reject';
  /** Values of `format` the client accepts; absent = any. */
  readonly formats?: readonly string[];
  /** Deepest nesting of object schemas the client accepts (the root object is level 1). */
  readonly maxDepth?: number;
  readonly toolName?: ToolNameRule;
  /** Most tools the client sends in one request. */
  readonly maxTools?: number;
  /** Whether the server's `instructions` reach the model through this client. */
  readonly showsInstructions: boolean;
  /** The root schema must be `type: "object"`. */
  readonly rootObject?: boolean;
  /** False when the root may not be an `anyOf`/`oneOf`/`allOf`. */
  readonly rootCombinators?: boolean;
  readonly strict?: StrictModeRules;
  /** The schema must be valid against the meta-schema of `dialect` (a client that validates it). */
  readonly metaSchema?: boolean;
  /** The profile's page (`docs/profiles/<name>.md`). */
  readonly docs: string;
}

/** A client profile, frozen, with its rejected keywords split by role. */
export interface ClientProfile extends ClientProfileSpec {
  readonly kind: 'profile';
  /** Every keyword the client rejects (from `rejectedKeywords` and the complement of `allowedKeywords`). */
  readonly rejected: readonly string[];
  /** The rejected keywords whose role in the keyword table is `annotation`: dropping them keeps every verdict. */
  readonly rejectedAnnotations: readonly string[];
  /** The other rejected keywords: validation, applicators, core. Dropping one could change a verdict. */
  readonly rejectedValidation: readonly string[];
}

/** The keywords a reference policy governs (never listed as rejected keywords: the policy decides). */
export const REFERENCE_MACHINERY: readonly string[] = Object.freeze([
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  '$defs',
  'definitions',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
]);

/** Freezes a profile and derives its rejected keywords from the keyword table of its dialect. */
export function defineProfile(spec: ClientProfileSpec): ClientProfile {
  const table = KEYWORD_TABLES[spec.dialect];
  const rejected = new Set<string>();
  for (const k of spec.rejectedKeywords ?? []) rejected.add(k);
  if (spec.allowedKeywords) {
    const allowed = new Set(spec.allowedKeywords);
    for (const name of table.keys()) if (!allowed.has(name) && !REFERENCE_MACHINERY.includes(name)) rejected.add(name);
  }
  const list = [...rejected].sort();
  const rejectedAnnotations = list.filter((k) => table.get(k)?.role === 'annotation');
  const rejectedValidation = list.filter((k) => table.get(k)?.role !== 'annotation');
  const freeze = <T>(a: readonly T[] | undefined) => (a === undefined ? undefined : Object.freeze([...a]));
  const profile: ClientProfile = {
    ...spec,
    kind: 'profile',
    slots: Object.freeze([...spec.slots]),
    refSiblings: spec.refSiblings === 'any' ? 'any' : Object.freeze([...spec.refSiblings]),
    ...(spec.rejectedKeywords ? { rejectedKeywords: freeze(spec.rejectedKeywords) } : {}),
    ...(spec.allowedKeywords ? { allowedKeywords: freeze(spec.allowedKeywords) } : {}),
    ...(spec.formats ? { formats: freeze(spec.formats) } : {}),
    ...(spec.toolName ? { toolName: Object.freeze({ ...spec.toolName }) } : {}),
    ...(spec.strict ? { strict: Object.freeze({ ...spec.strict }) } : {}),
    rejected: Object.freeze(list),
    rejectedAnnotations: Object.freeze(rejectedAnnotations),
    rejectedValidation: Object.freeze(rejectedValidation),
  };
  return Object.freeze(profile);
}

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
  rejectedKeywords: ['allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'default'],
  formats: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'],
  maxDepth: 10,
  toolName: { pattern: '^[a-zA-Z0-9_-]{1,64}$', maxLength: 64, severity: 'error' },
  maxTools: 128,
  showsInstructions: false,
  rootObject: true,
  rootCombinators: false,
  strict: { allPropertiesRequired: true, closedObjects: true },
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

/** Every built-in profile, by name (the default, `mcp`, first). */
export const builtinProfiles: readonly ClientProfile[] = Object.freeze([
  profileMcp,
  profileClaude,
  profileOpenai,
  profileOpenaiStrict,
  profileGemini,
  profileKimi,
  profileRefFree,
]);

/** The name of a built-in profile. */
export type ProfileName = 'mcp' | 'claude' | 'openai' | 'openai-strict' | 'gemini' | 'kimi' | 'ref-free';

/** A built-in profile by name, or the profile itself; throws naming the known profiles otherwise. */
export function getProfile(profile: string | ClientProfile): ClientProfile {
  if (typeof profile !== 'string') {
    if (profile === null || typeof profile !== 'object' || profile.kind !== 'profile') throw new Error('`profile` must be a profile name or a profile made with defineProfile');
    return profile;
  }
  const found = builtinProfiles.find((p) => p.name === profile);
  if (!found) throw new Error(`unknown profile \`${profile}\` (known: ${builtinProfiles.map((p) => p.name).join(', ')})`);
  return found;
}
