/**
 * What a client profile is: the types, and {@link defineProfile}, which freezes a profile and derives its
 * rejected keywords. The built-in profiles are data in `profiles.ts`; what each one reads and pays is
 * described by its {@link ReaderSpec} (issue 27).
 */
import type { Severity } from '../core/report.js';
import type { SchemaSlot } from '../core/tool.js';
import type { RendererName } from '../render/index.js';
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

/** The tokenizers toolslim counts with (`toolslim/tokens`); another model's own is named as a stand-in. */
export type ReaderTokenizer = 'o200k_base' | 'cl100k_base';

/** The fields of a tool a client forwards to its model (never `outputSchema`, `annotations`, `_meta`, `icons`). */
export type ForwardedField = 'name' | 'description' | 'inputSchema';

/**
 * What the model pays for on every request, before it loads any schema: `everything` when the client sends
 * every forwarded field up front; `names` or `names+descriptions` when it defers schemas (tool search) and
 * lists only those; `nothing` when it lists no tool until one is searched for. The server's `instructions`
 * are paid on top when the profile `showsInstructions`.
 */
export type AlwaysPaid = 'everything' | 'names' | 'names+descriptions' | 'nothing';

/** What a client's model reads and pays for (issue 27): the text its prompt holds and the unit it counts in. */
export interface ReaderSpec {
  /** The renderer that writes a tool as the model reads it. */
  readonly renderer: RendererName;
  /** The tokenizer that counts that text. */
  readonly tokenizer: ReaderTokenizer;
  /** The fields of each tool the client forwards. */
  readonly forwards: readonly ForwardedField[];
  /** What is paid on every request whatever the model calls (see {@link AlwaysPaid}). */
  readonly alwaysPaid: AlwaysPaid;
  /**
   * Set when the renderer or the tokenizer is a stand-in (the client's real format or tokenizer is not
   * public, or not a dependency): what stands in for what, shown wherever a figure in this unit is.
   */
  readonly standIn?: string;
}

/** The reader of a profile that names none: compact JSON counted in o200k_base, a stand-in. */
export const DEFAULT_READER: ReaderSpec = Object.freeze({
  renderer: 'json',
  tokenizer: 'o200k_base',
  forwards: Object.freeze(['name', 'description', 'inputSchema'] as const),
  alwaysPaid: 'everything',
  standIn: 'compact JSON (the MCP wire form) and o200k_base stand in for a reader the profile does not name',
});

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
  /** What the client's model reads and pays (default: compact JSON counted in o200k_base, labelled a stand-in). */
  readonly reader?: ReaderSpec;
  /** The profile's page (`docs/profiles/<name>.md`). */
  readonly docs: string;
}

/** A client profile, frozen, with its rejected keywords split by role. */
export interface ClientProfile extends ClientProfileSpec {
  readonly kind: 'profile';
  readonly reader: ReaderSpec;
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
    reader: spec.reader === undefined ? DEFAULT_READER : Object.freeze({ ...spec.reader, forwards: Object.freeze([...spec.reader.forwards]) }),
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

