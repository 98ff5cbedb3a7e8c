/**
 * `renders-as-any`: the parameters a `typescript` reader (OpenAI-family models, the harmony rules) cannot
 * see the type of, and why. Run for a profile whose reader is `typescript` and for `check --render
 * typescript`; one finding per place, at its pointer in the tools array.
 */
import type { Severity } from '../../core/report.js';
import { code } from '../../core/format.js';
import { toolName } from '../../core/tool.js';
import { isObject } from '../../json/guards.js';
import { appendPointer } from '../../json/pointer.js';
import { findAnyTypes, type AnyReason } from '../../render/index.js';
import type { Finding, LintCheck } from '../lint.js';

/** The default severity of `renders-as-any`. */
export const RENDERS_AS_ANY_SEVERITY: Severity = 'warning';

/** Why the reader sees `any` there, and what makes the type visible, per reason. */
const WHY: Readonly<Record<AnyReason, readonly [why: string, fix: string]>> = Object.freeze({
  ref: ['a `$ref` (the reader drops `$defs` and resolves no reference)', 'inline the definition (`presetForProfile(…, \'openai\')` runs inline-small-refs)'],
  anyOf: ['`anyOf` without `type` (the reader renders only `oneOf` as a union)', 'write `type: [X, "null"]` for a nullable X, or `oneOf` for a union'],
  allOf: ['`allOf` without `type`', 'merge the branches into one schema with a `type`'],
  const: ['`const` without `type`', 'write the `type` beside it (or `type: "string"` and `enum: [value]`)'],
  enum: ['a string `enum` without `type` (an enum is shown only under `type: "string"`)', 'add `type: "string"`'],
  'number-enum': ['an `enum` of non-strings without `type`', 'add the `type` (`number`, `integer`, `boolean`)'],
  'no-type': ['no `type`', 'add a `type`'],
  'unknown-type': ['a `type` the reader does not know (such as `"null"`)', 'use object, string, number, integer, boolean or array'],
  'nullable-object': ['`type` lists `object` with another type: the reader writes the word `object` and hides the properties', 'write `oneOf: [{ type: "object", … }, { type: "null" }]`, which the reader shows as a union'],
  'nullable-array': ['`type` lists `array` with another type: the reader writes the word `array` and hides `items`', 'write `oneOf: [{ type: "array", … }, { type: "null" }]`'],
  'too-deep': ['nesting deeper than the reader parses', 'flatten the schema'],
  cycle: ['the schema object contains itself', 'send plain JSON'],
  unreadable: ['reading the schema threw', 'send plain JSON'],
});

/**
 * The fixes for a client that refuses `oneOf` (openai-strict: the API answers "'oneOf' is not permitted"),
 * where `oneOf` is the one union the reader shows: no form that client accepts shows a nullable object or
 * array, or a union, so the fix is words, not a keyword (a nullable scalar still has its type list).
 */
const WITHOUT_ONE_OF: Readonly<Partial<Record<AnyReason, string>>> = Object.freeze({
  anyOf: 'for a nullable scalar X write `type: [X, "null"]`; for an object or a union no form the client accepts shows it (it refuses `oneOf`, the one union this reader shows): say the shape in the description',
  'nullable-object': 'none the client accepts: it refuses `oneOf`, the one union this reader shows; say the properties in the description',
  'nullable-array': 'none the client accepts: it refuses `oneOf`, the one union this reader shows; say what the items are in the description',
});

/** `renders-as-any` for a client that refuses `oneOf` or not: the same findings, fixes it can take. */
export function rendersAsAnyFor(options: { readonly oneOfRejected?: boolean } = {}): LintCheck {
  return (tools) => findings(tools, options.oneOfRejected === true);
}

/**
 * The `renders-as-any` findings of a located tools array: one per place the `typescript` reader renders
 * `any` (or hides a shape behind a bare `object`/`array`), naming the parameter path and why.
 */
export const rendersAsAny: LintCheck = (tools) => findings(tools, false);

function findings(tools: readonly unknown[], oneOfRejected: boolean): Finding[] {
  const out: Finding[] = [];
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    if (!isObject(tool)) continue;
    const base = appendPointer(appendPointer('', i), 'inputSchema');
    for (const a of findAnyTypes(tool.inputSchema)) {
      const [why, plainFix] = WHY[a.reason] ?? ['an unknown reason', 'see docs/render.md'];
      const fix = (oneOfRejected ? WITHOUT_ONE_OF[a.reason] : undefined) ?? plainFix;
      const param = a.path === '' ? 'the parameters' : code(a.path);
      out.push({
        severity: RENDERS_AS_ANY_SEVERITY,
        code: 'renders-as-any',
        tool: toolName(tool),
        toolIndex: i,
        path: base + a.path,
        message: `${param} renders as \`any\` for a TypeScript reader (openai, openai-strict): ${why}; fix: ${fix}`,
      });
    }
  }
  return out;
}
