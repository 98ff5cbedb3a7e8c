/**
 * merge-allof (profiles that reject `allOf`: `gemini`, `openai-strict`): `{ allOf: [A, B, …], …own }` →
 * one schema with the keywords of the node and of every branch, where that is provably the same schema;
 * anything else is left and reported (`allof-kept`, saying why). zod-to-json-schema writes such shapes
 * (@kazuph/mcp-fetch 1.6.3: `{"allOf": [{"type": ["number", "string"]}, {"type": "number",
 * "exclusiveMinimum": 0, …}], "default": 5000}`).
 *
 * `allOf` is a conjunction, and so are the keywords of one schema object: merging them keeps every verdict
 * when no keyword's meaning depends on what stands beside it. So a merge is made only when:
 * - every branch is a schema object (a `true` branch accepts everything and is dropped; `false` is kept);
 * - `type` may stand in several places: the merged `type` is the intersection of their type sets, where
 *   `integer` is within `number` (an empty intersection is kept, not written as an unsatisfiable schema);
 * - `required` may stand in several places (their union), and `properties` too when no property name
 *   stands in two of them (zod's object intersections);
 * - every other keyword stands in at most one place (the node or one branch), annotations included;
 * - no place holds a keyword whose meaning depends on its siblings or names its place (`additionalProperties`,
 *   `additionalItems`, `unevaluated*`, `if`/`then`/`else`, `dependentSchemas`, `dependencies`, references,
 *   identifiers, anchors, `$schema`, and, in a branch, definitions), nor a keyword the dialect does not know;
 * - keywords read together (`items` and `prefixItems`, `contains` and `min`/`maxContains`, `minimum` and
 *   `exclusiveMinimum`, …: SIBLING_DEPENDENT_GROUPS) all stand in one place;
 * - no reference points into the `allOf` (its pointer would change), every reference resolves (one that
 *   does not might), and no branch embeds a schema resource (`$id`).
 * The node's keys keep their order, `allOf` replaced in place by the branches' keywords in branch order
 * (`type` where it first stands). Nodes are visited in preorder, so a merge moves no node already visited;
 * a merged node whose new `allOf` came from a branch is tried again.
 */
import { code } from '../../../core/format.js';
import { hasOwn, isObject } from '../../../json/guards.js';
import { appendPointer } from '../../../json/pointer.js';
import { DEFINITIONS_KEYWORDS, KEYWORD_TABLES, SIBLING_DEPENDENT_GROUPS, type Dialect, type KeywordTable } from '../../../schema/keywords.js';
import { collectRefInventory, resolveRefSite } from '../../../schema/refs.js';
import { CHILD, childrenOf } from '../../../schema/walk.js';
import { setOwnKey, within } from '../nodes.js';
import type { AdaptStep } from '../step.js';

export const mergeAllOf: AdaptStep = {
  id: 'merge-allof',
  safety: 'annotation',
  applies: (p) => p.rejected.includes('allOf'),
  run(ed, { profile, dialect, source }) {
    const table = KEYWORD_TABLES[dialect];
    // The references are read only once an `allOf` is met (most schemas have none: no inventory walk for them).
    let doubt: ReturnType<typeof refDoubt> | undefined;
    const doubtOf = () => (doubt ??= source === 'unknown' ? 'the schema declares a `$schema` toolslim does not know, so what its keywords mean is not known' : refDoubt(ed.root, dialect));
    const stack = [''];
    while (stack.length > 0) {
      const path = stack.pop()!;
      const found = ed.get(path);
      if (!isObject(found)) continue;
      let node: Record<string, unknown> = found;
      while (hasOwn(node, 'allOf')) {
        const d = doubtOf();
        const plan = typeof d === 'string' ? { kept: d } : planMerge(node, path, table, dialect, d);
        if ('kept' in plan) {
          ed.note('error', 'allof-kept', appendPointer(path, 'allOf'), { reason: plan.kept, profile: profile.name });
          break;
        }
        ed.replace(path, plan.merged, 'merged-allof', { profile: profile.name });
        node = plan.merged;
      }
      const kids: unknown[] = [];
      childrenOf(node, table, kids);
      const paths: string[] = [];
      for (let i = 0; i < kids.length; i += 4) {
        if (kids[i] !== CHILD) continue;
        const at = appendPointer(path, kids[i + 2] as string);
        paths.push(kids[i + 3] === undefined ? at : appendPointer(at, kids[i + 3] as string | number));
      }
      for (let i = paths.length - 1; i >= 0; i--) stack.push(paths[i]!);
    }
  },
};

/** Keywords that may stand in no place of a merge, with why (what they depend on or name). */
const HELD: Readonly<Record<string, string>> = Object.freeze({
  additionalProperties: 'its meaning depends on `properties` and `patternProperties` beside it',
  additionalItems: 'its meaning depends on `items` beside it',
  unevaluatedProperties: 'its meaning depends on every keyword beside it',
  unevaluatedItems: 'its meaning depends on every keyword beside it',
  if: '`then` and `else` follow the `if` beside them',
  then: '`then` follows the `if` beside it',
  else: '`else` follows the `if` beside it',
  dependentSchemas: 'toolslim keeps conditional schemas where they stand',
  dependencies: 'toolslim keeps conditional schemas where they stand',
  $ref: 'draft-04/06/07 readers ignore what stands beside a reference, later ones apply it',
  $dynamicRef: 'a dynamic reference depends on where it stands',
  $recursiveRef: 'a dynamic reference depends on where it stands',
  $id: 'it sets the base URI of the schema it stands in',
  id: 'it sets the base URI of the schema it stands in',
  $anchor: 'it names the schema it stands in',
  $dynamicAnchor: 'it names the schema it stands in',
  $recursiveAnchor: 'it names the schema it stands in',
  $schema: 'it names the dialect of the schema it stands in',
  $vocabulary: 'it names the vocabularies of the schema it stands in',
});

const TYPE_NAMES: readonly string[] = Object.freeze(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

type Plan = { kept: string } | { merged: Record<string, unknown> };

/**
 * Whether every reference resolves (a string saying which does not, when one does not), else the pointers
 * references land on, and the embedded resources: a merge must move none of them.
 */
function refDoubt(root: unknown, dialect: Dialect): string | { targets: readonly string[]; resources: readonly string[] } {
  const inventory = collectRefInventory(root, dialect);
  const targets: string[] = [];
  for (const site of inventory.refs) {
    if (!site.inSchema) continue;
    const r = resolveRefSite(root, inventory, site);
    if (r.status !== 'resolved') return `\`${site.keyword}\` ${code(site.ref)} does not resolve here, so toolslim cannot tell whether it points into a branch`;
    targets.push(r.path);
  }
  return { targets, resources: inventory.resources.map((r) => r.path) };
}

function planMerge(node: Record<string, unknown>, path: string, table: KeywordTable, dialect: Dialect, refs: { targets: readonly string[]; resources: readonly string[] }): Plan {
  const allOf = node.allOf;
  if (!Array.isArray(allOf) || allOf.length === 0) return { kept: '`allOf` is not a non-empty array of schemas' };
  const at = appendPointer(path, 'allOf');
  const target = refs.targets.find((t) => within(t, at));
  if (target !== undefined) return { kept: `a reference points into it (${code(target)}), and merging would move what it names` };
  const resource = refs.resources.find((r) => within(r, at));
  if (resource !== undefined) return { kept: `it embeds a schema resource (\`$id\` at ${code(resource)})` };
  // The places: the node itself (without `allOf`), then each branch that is not `true`.
  const places: { name: string; schema: Record<string, unknown> }[] = [{ name: 'the schema itself', schema: node }];
  for (let i = 0; i < allOf.length; i++) {
    const b = allOf[i];
    if (b === true) continue;
    if (b === false) return { kept: `\`allOf/${i}\` is \`false\` (no value matches it)` };
    if (!isObject(b)) return { kept: `\`allOf/${i}\` is not a schema` };
    places.push({ name: `\`allOf/${i}\``, schema: b });
  }
  const where = new Map<string, string>();
  const types: unknown[] = [];
  // `required` and `properties` may stand in several places (zod's object intersections: each branch an
  // object with its own): `required` lists are a conjunction (their union), and `properties` with no name in
  // two places apply each subschema to its own member either way (`additionalProperties` and the other
  // keywords that read `properties` are refused above, and a group split across places below).
  const required: string[] = [];
  let requiredPlaces = 0;
  const properties: Record<string, unknown> = {};
  const propertyPlace = new Map<string, string>();
  let propertiesPlaces = 0;
  for (const { name, schema } of places) {
    for (const k of Object.keys(schema)) {
      if (schema === node && k === 'allOf') continue;
      if (Object.prototype.hasOwnProperty.call(HELD, k)) return { kept: `${name} holds \`${k}\` (${HELD[k]})` };
      if (schema !== node && DEFINITIONS_KEYWORDS.includes(k)) return { kept: `${name} holds \`${k}\` (moving definitions changes the pointers that name them)` };
      if (!table.has(k)) return { kept: `${name} holds ${code(k)}, which is not a keyword of ${dialect}: what it means beside other keywords is not known` };
      if (k === 'type') {
        types.push(schema[k]);
        continue;
      }
      if (k === 'required') {
        const list = schema[k];
        if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) return { kept: `\`required\` in ${name} is not a list of names` };
        for (const x of list as string[]) if (!required.includes(x)) required.push(x);
        requiredPlaces++;
        if (!where.has(k)) where.set(k, name);
        continue;
      }
      if (k === 'properties') {
        const props = schema[k];
        if (!isObject(props)) return { kept: `\`properties\` in ${name} is not an object` };
        for (const p of Object.keys(props)) {
          const first = propertyPlace.get(p);
          if (first !== undefined) return { kept: `the property ${JSON.stringify(p)} stands in both ${first} and ${name} (its schemas would need an \`allOf\` of their own)` };
          propertyPlace.set(p, name);
          setOwnKey(properties, p, props[p]);
        }
        propertiesPlaces++;
        if (!where.has(k)) where.set(k, name);
        continue;
      }
      const first = where.get(k);
      if (first !== undefined) return { kept: `\`${k}\` stands in both ${first} and ${name}` };
      where.set(k, name);
    }
  }
  for (const group of SIBLING_DEPENDENT_GROUPS) {
    const present = group.filter((k) => (k === 'type' ? types.length > 0 : where.has(k)));
    if (present.length < 2) continue;
    const holders = places.filter((p) => present.some((k) => hasOwn(p.schema, k) && !(p.schema === node && k === 'allOf')));
    if (holders.length > 1) return { kept: `${present.map((k) => `\`${k}\``).join(', ')} are read together, and they stand in ${holders.map((p) => p.name).join(' and ')}` };
  }
  let type: unknown;
  if (types.length === 1) type = types[0];
  else if (types.length > 1) {
    const merged = intersectTypes(types);
    if (typeof merged === 'string') return { kept: merged };
    type = merged.length === 1 ? merged[0] : merged;
  }
  const out: Record<string, unknown> = {};
  const put = (k: string, v: unknown) => {
    if (k === 'type') {
      if (!hasOwn(out, 'type')) setOwnKey(out, 'type', type);
    } else if (k === 'required' && requiredPlaces > 1) {
      if (!hasOwn(out, 'required')) setOwnKey(out, 'required', required);
    } else if (k === 'properties' && propertiesPlaces > 1) {
      if (!hasOwn(out, 'properties')) setOwnKey(out, 'properties', properties);
    } else setOwnKey(out, k, v);
  };
  for (const k of Object.keys(node)) {
    if (k !== 'allOf') put(k, node[k]);
    else for (const p of places.slice(1)) for (const bk of Object.keys(p.schema)) put(bk, p.schema[bk]);
  }
  return { merged: out };
}

/**
 * The type names every `type` value accepts (`integer` is within `number`), in the order the first one
 * lists them (`number` read as `integer` where only that is common); a string saying why when a value is
 * not a type name or a list of them, or when no type is common.
 */
function intersectTypes(values: readonly unknown[]): string[] | string {
  const sets: string[][] = [];
  for (const v of values) {
    const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : undefined;
    if (list === undefined || list.length === 0 || !list.every((t) => typeof t === 'string' && TYPE_NAMES.includes(t))) return `\`type\` ${JSON.stringify(v)} is not a type name or a list of them`;
    sets.push(list as string[]);
  }
  const holds = (set: readonly string[], t: string) => set.includes(t) || (t === 'integer' && set.includes('number'));
  const common = new Set(TYPE_NAMES.filter((t) => sets.every((s) => holds(s, t))));
  if (common.has('number')) common.delete('integer');
  const out: string[] = [];
  for (const t of sets[0]!) {
    const name = common.has(t) ? t : t === 'number' && common.has('integer') ? 'integer' : undefined;
    if (name !== undefined && !out.includes(name)) out.push(name);
  }
  if (out.length === 0) return `the \`type\`s ${values.map((v) => JSON.stringify(v)).join(', ')} have no type in common (no value matches them all)`;
  return out;
}
