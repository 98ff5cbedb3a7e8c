/**
 * Where the bytes of a tools array are: which share is prose (tool and schema descriptions), names, data
 * values (`enum`, `const`, `default`, `examples`) and everything else (keywords, structure, other tool
 * fields). Measured before and after a pipeline, it shows how much is left that a meaning-keeping
 * rewrite could still touch.
 */
import { SCHEMA_SLOTS } from '../../src/index.js';
import { hasOwn, isObject } from '../../src/json/guards.js';
import { walkSchema } from '../../src/schema/walk.js';

export const COMPOSITION_PARTS = ['tool descriptions', 'schema descriptions', 'names', 'data values', 'everything else'] as const;
export type CompositionPart = (typeof COMPOSITION_PARTS)[number];
export type Composition = Record<CompositionPart, number>;

const DATA_KEYWORDS = ['enum', 'const', 'default', 'examples'];
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** UTF-8 bytes of the compact JSON of `tools`, split into parts that add up to the whole. */
export function composition(tools: readonly unknown[]): Composition {
  const out: Composition = { 'tool descriptions': 0, 'schema descriptions': 0, names: 0, 'data values': 0, 'everything else': 0 };
  let total = jsonBytes(tools);
  for (const tool of tools) {
    if (!isObject(tool)) continue;
    if (typeof tool.description === 'string') out['tool descriptions'] += jsonBytes(tool.description);
    if (typeof tool.name === 'string') out.names += jsonBytes(tool.name);
    for (const slot of SCHEMA_SLOTS) {
      const schema = tool[slot];
      if (!isObject(schema)) continue;
      walkSchema(schema, '', {
        onSchema(node) {
          if (!isObject(node)) return;
          if (typeof node.description === 'string') out['schema descriptions'] += jsonBytes(node.description);
          if (isObject(node.properties)) for (const name of Object.keys(node.properties)) out.names += jsonBytes(name);
          for (const k of DATA_KEYWORDS) if (hasOwn(node, k)) out['data values'] += jsonBytes(node[k]);
        },
      });
    }
  }
  for (const part of COMPOSITION_PARTS) if (part !== 'everything else') total -= out[part];
  out['everything else'] = total;
  return out;
}

/** Sum of several compositions. */
export function addCompositions(list: readonly Composition[]): Composition {
  const out = Object.fromEntries(COMPOSITION_PARTS.map((p) => [p, 0])) as Composition;
  for (const c of list) for (const p of COMPOSITION_PARTS) out[p] += c[p];
  return out;
}
