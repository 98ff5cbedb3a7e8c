/**
 * What to do about each kind of profile finding: the fix hint appended to the checker's messages, so that
 * `check --profile`, `report --profile` and a refused `optimize --profile` / `proxy --profile` all say
 * the same. A hint names what `toolslim optimize --profile <name>` does about the finding when it can,
 * and what has to change on the server when it cannot (toolslim never drops a tool and never restructures
 * arguments; it renames a tool only in the profile-tuned preset, for a caller that maps calls back).
 */
import { DEFAULT_MAX_DEPTH } from '../engine/options.js';
import type { ClientProfile } from './profiles.js';
import type { ProfileFindingCode } from './codes.js';

type Hint = (p: ClientProfile, message: string) => string;

const OPTIMIZE = (p: ClientProfile) => `\`toolslim optimize --profile ${p.name}\``;

const INLINE: Hint = (p) => `inline it: ${OPTIMIZE(p)} does, unless the reference is recursive or the copies would grow the schema more than the growth cap (2×) allows or nest it more than ${DEFAULT_MAX_DEPTH} levels deep`;
const HOIST: Hint = (p) => `${OPTIMIZE(p)} moves the target into the top-level \`$defs\` and repoints the reference`;

/** Fix hints by finding code: one for each code `checkToolForProfile` and `checkToolsForProfile` produce (codes.ts). */
export const PROFILE_HINTS: Readonly<Record<ProfileFindingCode, Hint>> = Object.freeze({
  'tool-count': (p) => `send at most ${p.maxTools} tools per request: split the server's tools across requests or leave some out (toolslim never drops a tool for you)`,
  'tool-invalid': (_p, message) =>
    message.startsWith('Found a tool that is not plain JSON')
      ? `pass the tool as the plain JSON a server sends (parsed JSON holds no object that contains itself and no live object)${/nesting deeper/.test(message) ? `, its schemas nested at most ${DEFAULT_MAX_DEPTH} levels deep` : ''}`
      : 'fix the server: every entry of `tools` is an object',
  'tool-name': (p) => `rename the tool on the server, or serve it through \`toolslim proxy --profile ${p.name}\`, which renames it and maps each call back (${OPTIMIZE(p)} renames it too, for a caller that maps calls back itself)`,
  'root-not-object': (p) => `describe the arguments as an object schema on the server (${OPTIMIZE(p)} adds a missing \`type: "object"\`, but never replaces another)`,
  'root-combinator': () => 'on the server, merge the alternatives into one object schema or move them below a property',
  'schema-invalid': (p) => `fix the schema on the server (${OPTIMIZE(p)} drops invalid annotations only)`,
  'ref-unsupported': INLINE,
  'defs-unsupported': INLINE,
  'ref-unresolvable': () => 'define the target in the schema, or drop the reference, on the server',
  'ref-external': () => 'bundle the other document into the schema’s `$defs` on the server',
  'ref-not-top-level': HOIST,
  'ref-not-defs-prefix': HOIST,
  'ref-sibling': (p) => `${OPTIMIZE(p)} moves \`$ref\` into \`allOf\` beside its siblings (2019-09 and later read it the same)`,
  'depth-exceeded': () => 'flatten the arguments on the server (toolslim does not restructure arguments)',
  'keyword-rejected': (p, message) =>
    /annotation/.test(message)
      ? `${OPTIMIZE(p)} drops it (an annotation: no argument is judged differently)`
      : `${OPTIMIZE(p)} converts it where the profile lists a conversion (docs/profiles/${p.name}.md); otherwise remove it on the server`,
  'keyword-unknown': (p) => `${OPTIMIZE(p)} drops unknown keywords that are annotations; remove the field on the server otherwise`,
  'format-unsupported': (p) => `${OPTIMIZE(p)} moves it into the description (lossy: the schema then accepts any string)`,
  'strict-additional-properties': (p) => `${OPTIMIZE(p)} closes every object (lossy); an open map (an \`additionalProperties\` schema, \`patternProperties\`, a free-form object) cannot be closed and must change on the server`,
  'strict-required': (p) => `${OPTIMIZE(p)} lists every property in \`required\` and makes the optional ones nullable (lossy: the model then sends \`null\` for a property it would leave out)`,
});

/**
 * The hints for what is left in toolslim's own output for the profile (a refused `optimize --profile` or
 * `proxy --profile`): those above that name `optimize --profile` as the fix would name the command that has
 * just run, so these say why it left the finding and what has to change instead. Codes not listed keep
 * their hint (it names the server, or the proxy).
 */
export const PROFILE_HINTS_AFTER_OPTIMIZE: Readonly<Partial<Record<ProfileFindingCode, Hint>>> = Object.freeze({
  'ref-unsupported': () => `toolslim left it: the reference is recursive, or inlining it would grow the schema more than the growth cap (2×) allows or nest it more than ${DEFAULT_MAX_DEPTH} levels deep; remove the reference on the server`,
  'defs-unsupported': () => `toolslim left it: a reference to it is recursive, or inlining would grow the schema more than the growth cap (2×) allows or nest it more than ${DEFAULT_MAX_DEPTH} levels deep; remove the definitions on the server`,
  'ref-not-top-level': () => 'toolslim could not move the target into the top-level `$defs` (an embedded resource, or a name the move would take twice); define it there on the server',
  'ref-not-defs-prefix': () => 'toolslim could not move the target into the top-level `$defs` (an embedded resource, or a name the move would take twice); define it there on the server',
  'ref-sibling': () => 'toolslim could not move `$ref` into `allOf` here; move the keywords beside it into the target, or drop them, on the server',
  'keyword-rejected': (p) => `no conversion \`${p.name}\` allows applies here (docs/profiles/${p.name}.md), or \`--no-lossy\` kept it; remove it on the server`,
  'keyword-unknown': () => 'it is not an annotation toolslim may drop; remove the field on the server',
  'format-unsupported': () => '`--no-lossy` keeps it (without it, toolslim moves it into the description: lossy); remove it on the server',
  'strict-additional-properties': () => 'an open map (an `additionalProperties` schema, `patternProperties`, a free-form object) cannot be closed: it must change on the server',
  'strict-required': () => '`--no-lossy` keeps optional properties optional (without it, toolslim makes them nullable and required: lossy); or make them required on the server',
});

/**
 * `message` with the hint for `code` appended (every code has one). `optimized`: the finding is in
 * toolslim's own output for this profile (see {@link PROFILE_HINTS_AFTER_OPTIMIZE}).
 */
export function withHint(code: ProfileFindingCode, message: string, p: ClientProfile, optimized = false): string {
  const hint = (optimized ? PROFILE_HINTS_AFTER_OPTIMIZE[code] : undefined) ?? PROFILE_HINTS[code];
  return `${message}; fix: ${hint(p, message)}`;
}
