/**
 * describe-formats (lossy): a `format` value the client does not accept (Gemini takes `enum`, `date-time`
 * and the numeric formats; OpenAI strict mode a short list) leaves the schema and goes into its
 * `description` as `(format: uri)`.
 *
 * Why the description and not just removal: for these clients the schema is read by a model, not a
 * validator, and `format` is a hint about what to write; the description keeps that hint where the model
 * still reads it, in a few bytes. Why lossy: toolslim's gate reads `format` as an assertion (ajv with
 * formats), so the schema now accepts strings it refused; the server still validates with its own schema.
 *
 * A schema without a description gets `format: uri`; a property whose name that would only restate
 * (`date_format` with `format: date`) gets `(format: date)`, which strip-noise keeps: it removes a
 * description that only restates the name, so the next run would have dropped the hint.
 */
import { isObject } from '../../../json/guards.js';
import { appendPointer, parsePointer } from '../../../json/pointer.js';
import { UNION_KEYWORDS } from '../../../schema/keywords.js';
import { walkSchema } from '../../../schema/walk.js';
import { restatesName } from '../../strip-noise/rules/restated-names.js';
import type { AdaptStep } from '../step.js';

export const describeFormats: AdaptStep = {
  id: 'describe-formats',
  option: 'describeFormats',
  safety: 'lossy',
  applies: (p) => p.formats !== undefined && !p.rejected.includes('format'),
  run(ed, { profile }) {
    const accepted = new Set(profile.formats ?? []);
    const found: { path: string; format: string; description: unknown; hasDescription: boolean; property: string | undefined }[] = [];
    walkSchema(ed.root, '', {
      table: UNION_KEYWORDS,
      onSchema(node, path, keyword) {
        if (!isObject(node) || typeof node.format !== 'string' || accepted.has(node.format)) return;
        const property = keyword === 'properties' ? parsePointer(path).at(-1) : undefined;
        found.push({ path, format: node.format, description: node.description, hasDescription: Object.prototype.hasOwnProperty.call(node, 'description'), property });
      },
    });
    // Document order reversed: each node's own keys are edited, so no path of another finding moves.
    for (let i = found.length - 1; i >= 0; i--) {
      const f = found[i]!;
      const data = { format: f.format, profile: profile.name };
      const note = `(format: ${f.format})`;
      const alone = f.property !== undefined && restatesName(f.property, `format: ${f.format}`) ? note : `format: ${f.format}`;
      const at = appendPointer(f.path, 'description');
      if (!f.hasDescription) ed.add(at, alone, 'described-format', data);
      else if (typeof f.description === 'string') ed.replace(at, f.description.trim() === '' ? alone : `${f.description.trimEnd()} ${note}`, 'described-format', data);
      ed.remove(appendPointer(f.path, 'format'), typeof f.description === 'string' || !f.hasDescription ? 'moved-format' : 'dropped-format', data);
    }
  },
};
