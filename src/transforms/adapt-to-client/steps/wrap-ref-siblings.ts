/**
 * wrap-ref-siblings (profiles that accept only some keywords beside `$ref`, `kimi`: `description`):
 * `{ "$ref": X, "type": …, "description": … }` → `{ "allOf": [{ "$ref": X }], "type": …, "description": … }`.
 * In 2019-09 and later `$ref` is an applicator beside its siblings, so `allOf: [{ $ref }]` is the same
 * conjunction; in older dialects assertions beside `$ref` are read differently by readers, so they are
 * reported (`ref-siblings-ambiguous`), never rewritten.
 */
import { isObject } from '../../../json/guards.js';
import type { ClientProfile } from '../../../profiles/profiles.js';
import { isModernDialect } from '../../../schema/dialect.js';
import { DEFINITIONS_KEYWORDS, type Dialect } from '../../../schema/keywords.js';
import { collectRefInventory } from '../../../schema/refs.js';
import { isAnnotation, setOwnKey } from '../nodes.js';
import type { AdaptStep, StepEditor } from '../step.js';

export const wrapRefSiblings: AdaptStep = {
  id: 'wrap-ref-siblings',
  safety: 'annotation',
  applies: (p) => p.refSiblings !== 'any' && p.refs !== 'none',
  run: (ed, { dialect, profile }) => wrap(ed, dialect, profile),
};

function wrap(ed: StepEditor, dialect: Dialect, p: ClientProfile): void {
  const allowed = p.refSiblings as readonly string[];
  const inventory = collectRefInventory(ed.root, dialect);
  const sites = inventory.refs.filter((s) => s.inSchema && s.keyword === '$ref');
  for (let i = sites.length - 1; i >= 0; i--) {
    const site = sites[i]!;
    const node = ed.get(site.schemaPath);
    if (!isObject(node) || node.$ref !== site.ref) continue;
    const extra = Object.keys(node).filter((k) => k !== '$ref' && !allowed.includes(k));
    if (extra.length === 0) continue;
    const keys = extra.map((k) => `\`${k}\``).join(', ');
    if (!isModernDialect(dialect) && extra.some((k) => !isAnnotation(k) && !DEFINITIONS_KEYWORDS.includes(k) && k !== '$schema' && k !== '$comment')) {
      ed.note('error', 'ref-siblings-ambiguous', site.schemaPath, { ref: site.ref, keys, dialect });
      continue;
    }
    const out: Record<string, unknown> = {};
    const existing = Array.isArray(node.allOf) ? node.allOf : undefined;
    for (const k of Object.keys(node)) {
      if (k === '$ref') {
        if (!existing) setOwnKey(out, 'allOf', [{ $ref: node.$ref }]);
      } else if (k === 'allOf' && existing) setOwnKey(out, 'allOf', [...existing, { $ref: node.$ref }]);
      else setOwnKey(out, k, node[k]);
    }
    ed.replace(site.schemaPath, out, 'wrapped-ref', { ref: site.ref, keys, profile: p.name });
  }
}

