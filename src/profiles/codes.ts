/**
 * The codes of the profile checker's findings (check.ts), closed: every finding it makes carries one of
 * these (its findings are typed with {@link ProfileFindingCode}, and test/profiles/codes.test.ts reads the
 * checker's source for any other), and every one has a fix hint (hints.ts). The CLI reports them as
 * `profile-<code>`; `--rule`, a config file's `rules` and `lintTools`' `severity` accept exactly those.
 * @internal
 */
export const PROFILE_FINDING_CODES = Object.freeze([
  'tool-count',
  'tool-invalid',
  'tool-name',
  'root-not-object',
  'root-combinator',
  'schema-invalid',
  'ref-unsupported',
  'defs-unsupported',
  'ref-unresolvable',
  'ref-external',
  'ref-not-top-level',
  'ref-not-defs-prefix',
  'ref-sibling',
  'depth-exceeded',
  'keyword-rejected',
  'keyword-unknown',
  'format-unsupported',
  'strict-additional-properties',
  'strict-required',
] as const);

/** One code of {@link PROFILE_FINDING_CODES}. @internal */
export type ProfileFindingCode = (typeof PROFILE_FINDING_CODES)[number];

/** Whether `code` is one the profile checker makes (without the CLI's `profile-` prefix). @internal */
export function isProfileFindingCode(code: string): code is ProfileFindingCode {
  return (PROFILE_FINDING_CODES as readonly string[]).includes(code);
}
