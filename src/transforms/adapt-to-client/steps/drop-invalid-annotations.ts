/**
 * drop-invalid-annotations (profiles whose client validates the schema against the 2020-12 meta-schema,
 * `claude`): annotations whose value breaks it (`"description": null`) are dropped; no verdict depends on
 * them.
 */
import { parsePointer } from '../../../json/pointer.js';
import { metaSchemaErrors } from '../../../profiles/check.js';
import type { ClientProfile } from '../../../profiles/profiles.js';
import { indexNodes, isAnnotation, within } from '../nodes.js';
import type { AdaptStep, StepEditor } from '../step.js';

export const dropInvalidAnnotations: AdaptStep = {
  id: 'drop-invalid-annotations',
  safety: 'annotation',
  applies: (p) => p.metaSchema === true,
  run: (ed, { profile }) => dropInvalid(ed, profile),
};

function dropInvalid(ed: StepEditor, p: ClientProfile): void {
  const nodes = indexNodes(ed.root);
  const drops: { path: string; keyword: string }[] = [];
  for (const e of metaSchemaErrors(ed.root)) {
    if (e.path === '') continue;
    const tokens = parsePointer(e.path);
    const keyword = tokens[tokens.length - 1]!;
    const parent = e.path.slice(0, e.path.lastIndexOf('/'));
    if (!isAnnotation(keyword) || !nodes.has(parent)) continue;
    if (drops.some((d) => within(e.path, d.path))) continue;
    drops.push({ path: e.path, keyword });
  }
  for (let i = drops.length - 1; i >= 0; i--) ed.remove(drops[i]!.path, 'dropped-invalid-annotation', { keyword: drops[i]!.keyword, dialect: p.dialect, profile: p.name });
}
