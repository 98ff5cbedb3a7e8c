/**
 * drop-rejected: annotations the client rejects (`default` for `openai-strict`; `$comment`, `examples`, …
 * for `gemini`), unknown keywords for a client that refuses fields it does not know (`gemini`), and
 * `$schema` when it names the dialect the client reads in anyway. Annotations never decide a verdict; a
 * keyword a remaining reference points into is kept.
 */
import { isObject } from '../../../json/guards.js';
import { appendPointer } from '../../../json/pointer.js';
import type { ClientProfile } from '../../../profiles/profiles.js';
import { UNION_KEYWORDS, type Dialect } from '../../../schema/keywords.js';
import { collectRefInventory, resolveRefSite } from '../../../schema/refs.js';
import { walkSchema } from '../../../schema/walk.js';
import { within } from '../nodes.js';
import type { AdaptStep, StepEditor } from '../step.js';

export const dropRejected: AdaptStep = {
  id: 'drop-rejected',
  safety: 'annotation',
  applies: (p) => p.rejectedAnnotations.length > 0 || p.unknownKeywords === 'reject' || p.rejected.includes('$schema'),
  run: (ed, { dialect, source, profile }) => drop(ed, dialect, source, profile),
};

function drop(ed: StepEditor, dialect: Dialect, source: 'declared' | 'assumed' | 'unknown', p: ClientProfile): void {
  const annotations = new Set(p.rejectedAnnotations);
  const allowed = new Set(p.allowedKeywords ?? []);
  const dropUnknown = p.unknownKeywords === 'reject';
  const dropSchemaUri = p.rejected.includes('$schema') && source === 'declared' && dialect === p.dialect;
  if (annotations.size === 0 && !dropUnknown && !dropSchemaUri) return;
  const schema = ed.root;
  const inventory = collectRefInventory(schema, dialect);
  // Never drop a keyword a remaining reference points into.
  const kept: string[] = [];
  for (const site of inventory.refs) {
    const r = resolveRefSite(schema, inventory, site);
    if (r.status === 'resolved') kept.push(r.path);
  }
  const holdsTarget = (path: string) => kept.some((t) => within(t, path));
  const drops: { path: string; code: string; keyword: string }[] = [];
  walkSchema(schema, '', {
    table: UNION_KEYWORDS,
    onSchema(node, path) {
      if (!isObject(node)) return;
      for (const k of Object.keys(node)) {
        const at = appendPointer(path, k);
        let code: string | undefined;
        if (annotations.has(k)) code = 'dropped-annotation';
        else if (dropUnknown && !UNION_KEYWORDS.has(k) && !allowed.has(k)) code = 'dropped-unknown-keyword';
        else if (dropSchemaUri && k === '$schema' && path === '') code = 'dropped-schema-uri';
        if (code && !holdsTarget(at)) drops.push({ path: at, code, keyword: k });
      }
    },
  });
  // Outermost first in document order; anything inside a dropped keyword goes with it.
  const chosen: typeof drops = [];
  for (const d of drops) if (!chosen.some((c) => within(d.path, c.path))) chosen.push(d);
  for (let i = chosen.length - 1; i >= 0; i--) {
    const d = chosen[i]!;
    ed.remove(d.path, d.code, { keyword: d.keyword, profile: p.name, dialect });
  }
}
