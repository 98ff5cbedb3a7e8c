/**
 * close-objects (lossy): the conversion OpenAI's SDKs apply before sending a schema in strict mode
 * (openai-python `lib/_pydantic.py` `_ensure_strict_json_schema`; the Structured Outputs guide's
 * "Supported schemas": every object has `additionalProperties: false`, every property is listed in
 * `required`, an optional one is emulated by a union with `null`):
 * - every object schema gets `additionalProperties: false` (the schema then refuses keys it did not list),
 *   also where it said `true` or `{}`;
 * - every property missing from `required` is listed there and made nullable: `type: "string"` becomes
 *   `type: ["string", "null"]` (and `null` joins an `enum`), an object or anything else is wrapped as
 *   `anyOf: [<schema>, { "type": "null" }]` (the model then sends `null` where it would have left the
 *   property out; a client that forwards the call should drop those nulls before the server sees them).
 * What cannot be closed without changing what it means is left and reported, named: an open map
 * (`additionalProperties` holding a schema, `patternProperties`), a free-form object (`type: "object"`
 * with no `properties`), which closed would accept only `{}`, and the branches of a `oneOf` that may
 * overlap (oneof-exclusive.ts): closed, they would accept a value the original refuses because it matched
 * two branches (issue 26 item 13: Notion's `parent`).
 */
import { hasOwn, isObject } from '../../../json/guards.js';
import { appendPointer } from '../../../json/pointer.js';
import { isObjectSchema } from '../../../profiles/check.js';
import { UNION_KEYWORDS } from '../../../schema/keywords.js';
import { walkSchema } from '../../../schema/walk.js';
import type { AdaptStep, StepEditor } from '../step.js';
import { isUnder, overlappingOneOfs } from './oneof-exclusive.js';

export const closeObjects: AdaptStep = {
  id: 'close-objects',
  option: 'closeObjects',
  safety: 'lossy',
  applies: (p) => p.strict !== undefined && (p.strict.closedObjects || p.strict.allPropertiesRequired),
  run(ed, { profile }) {
    const strict = profile.strict!;
    const objects: string[] = [];
    // Objects inside the branches of a oneOf that may overlap stay as they are (closing them would widen it).
    const overlap = overlappingOneOfs(ed.root);
    walkSchema(ed.root, '', {
      table: UNION_KEYWORDS,
      onSchema(node, path) {
        if (isObject(node) && isObjectSchema(node) && !isUnder(path, overlap.open)) objects.push(path);
      },
    });
    // Walking back through preorder: a node's descendants are edited before it (wrapping a property in
    // `anyOf` moves the paths below it, never those above it).
    for (let i = objects.length - 1; i >= 0; i--) {
      const path = objects[i]!;
      if (strict.allPropertiesRequired) requireAll(ed, path, profile.name);
      if (strict.closedObjects) close(ed, path, profile.name);
    }
    // What could not be closed, named where it now sits (wrapping a property in `anyOf` moved paths below it).
    const kept = overlap.oneOfs.length === 0 ? overlap : overlappingOneOfs(ed.root);
    for (const path of kept.oneOfs) ed.note('error', 'oneof-overlap', appendPointer(path, 'oneOf'), { profile: profile.name });
    for (const r of kept.refs) ed.note('error', 'oneof-overlap-ref', r.def, { at: r.at, profile: profile.name });
    if (strict.closedObjects) {
      walkSchema(ed.root, '', {
        table: UNION_KEYWORDS,
        onSchema(node, path) {
          if (!isObject(node) || !isObjectSchema(node) || node.additionalProperties === false || isUnder(path, kept.open)) return;
          if (hasOwn(node, 'patternProperties')) ed.note('error', 'open-map', appendPointer(path, 'patternProperties'), { keyword: 'patternProperties', profile: profile.name });
          else if (!acceptsEveryKey(node.additionalProperties)) ed.note('error', 'open-map', appendPointer(path, 'additionalProperties'), { keyword: 'additionalProperties', profile: profile.name });
          else if (!isObject(node.properties)) ed.note('error', 'free-form-object', path, { profile: profile.name });
        },
      });
    }
  },
};

function close(ed: StepEditor, path: string, profile: string): void {
  const node = ed.get(path) as Record<string, unknown>;
  const ap = node.additionalProperties;
  if (ap === false) return;
  const at = appendPointer(path, 'additionalProperties');
  // An open map or a free-form object stays open (named after every edit, below).
  if (hasOwn(node, 'patternProperties') || !acceptsEveryKey(ap) || !isObject(node.properties)) return;
  if (ap === undefined) ed.add(at, false, 'closed-object', { profile });
  else ed.replace(at, false, 'closed-object', { profile });
}

/**
 * An `additionalProperties` that lets any other key through with any value: absent, `true`, or the empty
 * schema `{}` (which accepts every instance, as `true` does: zod's `.passthrough()` writes it). Such an
 * object is closed like one that says nothing; a schema with keywords is an open map.
 */
function acceptsEveryKey(ap: unknown): boolean {
  return ap === undefined || ap === true || (isObject(ap) && Object.keys(ap).length === 0);
}

function requireAll(ed: StepEditor, path: string, profile: string): void {
  const node = ed.get(path) as Record<string, unknown>;
  if (!isObject(node.properties)) return;
  if (hasOwn(node, 'required') && !Array.isArray(node.required)) {
    ed.note('error', 'required-invalid', appendPointer(path, 'required'), { profile });
    return;
  }
  const listed = new Set(Array.isArray(node.required) ? node.required : []);
  const missing = Object.keys(node.properties).filter((k) => !listed.has(k));
  if (missing.length === 0) return;
  const props = appendPointer(path, 'properties');
  for (const name of missing) {
    const at = appendPointer(props, name);
    const next = nullable(ed.get(at));
    if (next !== undefined) ed.replace(at, next, 'made-nullable', { name, profile });
  }
  const required = [...(Array.isArray(node.required) ? node.required : []), ...missing];
  const names = missing.map((k) => `\`${k}\``).join(', ');
  if (hasOwn(node, 'required')) ed.replace(appendPointer(path, 'required'), required, 'listed-required', { names, profile });
  else ed.add(appendPointer(path, 'required'), required, 'listed-required', { names, profile });
}

/** `schema` also accepting `null`, or undefined when it already does. */
function nullable(schema: unknown): unknown {
  if (schema === true) return undefined;
  if (!isObject(schema)) return { anyOf: [schema, { type: 'null' }] };
  const keys = Object.keys(schema);
  if (keys.length === 0) return undefined;
  const t = schema.type;
  const types = typeof t === 'string' ? [t] : Array.isArray(t) && t.every((x) => typeof x === 'string') ? (t as string[]) : undefined;
  // Objects are wrapped (`anyOf`), as the guide writes nullable objects; scalars and arrays take `null` in `type`.
  if (types !== undefined && !types.includes('object') && !hasOwn(schema, 'const') && (!hasOwn(schema, 'enum') || Array.isArray(schema.enum))) {
    const enumOk = !Array.isArray(schema.enum) || schema.enum.includes(null);
    if (types.includes('null') && enumOk) return undefined;
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const v = k === 'type' ? (types.includes('null') ? t : [...types, 'null']) : k === 'enum' && !enumOk ? [...(schema.enum as unknown[]), null] : schema[k];
      if (k === '__proto__') Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
      else out[k] = v;
    }
    return out;
  }
  return { anyOf: [schema, { type: 'null' }] };
}
