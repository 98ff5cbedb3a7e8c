/**
 * add-root-type (profiles whose client requires `type: "object"` at the root): a root `inputSchema`
 * without `type` gets it. MCP sends a tool's arguments as a JSON object, always
 * (`CallToolRequest.params.arguments`), so the same arguments are accepted; a root whose `type` says
 * something else is left and reported by the checker.
 */
import { hasOwn, isObject } from '../../../json/guards.js';
import type { AdaptStep } from '../step.js';

export const addRootType: AdaptStep = {
  id: 'add-root-type',
  safety: 'annotation',
  applies: (p) => p.rootObject === true,
  run(ed, { profile, isArguments }) {
    if (isArguments && isObject(ed.root) && !hasOwn(ed.root, 'type')) ed.add('/type', 'object', 'added-root-type', { profile: profile.name });
  },
};
