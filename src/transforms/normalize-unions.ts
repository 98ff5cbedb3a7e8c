import { defineTransform } from '../engine/define-transform.js';
import { hasOwn, isObject } from '../json/guards.js';
import { DIALECTS, type Dialect } from '../schema/keywords.js';
import { findReadableSites, rewriteReadable, splitMovedKeys, type ReadableKind } from '../schema/readable-types.js';

/** Options of {@link normalizeUnions}. */
export interface NormalizeUnionsOptions {
  /** The dialect of a schema without `$schema` (MCP: 2020-12). */
  readonly assume?: Dialect;
}

const CODES: Readonly<Record<ReadableKind, string>> = Object.freeze({ 'const-enum': 'const-to-enum', 'nullable-split': 'split-nullable-type', 'disjoint-oneof': 'disjoint-anyof-to-oneof' });

/**
 * Writes the unions of each tool's parameters in the form a `typescript` reader (OpenAI's harmony rules,
 * docs/render.md) shows as a type instead of `any`, keeping every verdict (schema/readable-types.ts holds
 * why each rewrite is exact): an `anyOf` whose branches are provably pairwise disjoint becomes `oneOf`
 * (rendered as a union); `type: ["object", "null"]` (or `"array"`) becomes a `oneOf` of the typed branch
 * and `{"type": "null"}` (rendered `{ … } | null` rather than `object | null`); a string `const` becomes a
 * one-value `enum` (rendered as the literal). Not in any preset: `presetForProfile` adds it for profiles
 * whose reader is `typescript`, which accept `oneOf` and have no strict-mode rules (`openai`); for a JSON
 * reader it only changes bytes.
 */
export const normalizeUnions = defineTransform<NormalizeUnionsOptions, undefined>({
  name: 'normalize-unions',
  description: 'Write unions as a TypeScript reader can read them: disjoint anyOf as oneOf, a nullable object or array as oneOf with null, a string const as a one-value enum',
  safety: 'lossless',
  defaultOptions: { assume: '2020-12' },
  messages: {
    'const-to-enum': 'Replaced `const` {value} with `enum` [{value}]{typed}: the same values, read as a literal',
    'split-nullable-type': 'Replaced `type` {type} with `oneOf` of `{"type": "{branch}"}` (holding {moved}) and `{"type": "null"}`: the same values, read as a type or null',
    'disjoint-anyof-to-oneof': 'Renamed `anyOf` to `oneOf`: its {count} branches accept no instance in common, so exactly one passes wherever one does',
  },
  validateOptions(options) {
    if (!DIALECTS.includes(options.assume as Dialect)) throw new Error(`\`assume\` must be one of ${DIALECTS.join(', ')}`);
  },
  apply(doc, ctx) {
    for (const d of doc.documents) {
      if (d.slot !== 'inputSchema') continue;
      for (const site of findReadableSites(d.schema, d.dialect)) {
        const holder = ctx.get(d.base + site.path);
        if (!isObject(holder)) continue;
        // Decided again on the holder as the earlier rewrites left it (each keeps every verdict on its own).
        const result = rewriteReadable(site.kind, holder, d.dialect);
        if (result.ok) ctx.replace(d.base + site.path, result.schema, CODES[site.kind], messageData(site.kind, holder, d.dialect));
      }
    }
  },
});

function messageData(kind: ReadableKind, holder: Record<string, unknown>, dialect: Dialect): Record<string, string | number> {
  if (kind === 'const-enum') return { value: JSON.stringify(holder.const), typed: hasOwn(holder, 'type') ? '' : ' and `type: "string"`' };
  if (kind === 'disjoint-oneof') return { count: Array.isArray(holder.anyOf) ? holder.anyOf.length : 0 };
  const t = holder.type as string[];
  const branch = t[0] === 'null' ? t[1]! : t[0]!;
  return { type: JSON.stringify(t), branch, moved: splitMovedKeys(holder, dialect).map((k) => `\`${k}\``).join(', ') };
}
