/**
 * reconcile-dialect's message table: one template per code. Each conversion (conversions/<id>.ts) names the
 * codes it writes in its `codes`; the rest are the document's own (document.ts, walk.ts, stamp.ts), listed
 * in {@link DOCUMENT_CODES}. test/unit/reconcile-parts.test.ts checks that the two agree.
 */

export const MESSAGES: Readonly<Record<string, string>> = {
  contradiction: 'Tool `{tool}`: {detail}',
  'unknown-dialect': '`$schema` is `{uri}`, not a dialect toolslim knows (draft-04, -06, -07, 2019-09, 2020-12); left the schema as it is',
  'embedded-dialect': 'Found a subschema declaring `{uri}` inside a {dialect} schema; left it as it is',
  unconvertible: '`{keyword}` ({dialect}) has no equivalent in {target}{reason}; left the tool unchanged (the schema stays {dialect})',
  'empty-enum': 'Found `enum: []`: no instance can be valid, and strict readers refuse the schema; expected at least one value',
  'kept-root-type': 'Kept `type: "object"` beside the root `$ref` ({dialect} ignores it, {target} applies it): MCP requires it, and tool arguments and results are objects',
  'referenced-ref-sibling': 'Found `{keyword}` beside `$ref`, which {dialect} readers ignore, with a `$ref` pointing into it: {target} readers would apply it and it cannot be dropped; left the tool unchanged',
  'removed-dead-referrer': 'Removed unreachable definition `{name}` from `{container}`: it holds, or points into, what {target} cannot say as {dialect} does, and would have kept the tool from being rewritten',
  'tuple-id': 'Found `$id` `{id}` inside the tuple `{at}`, and references that use it: 2020-12 writes tuples as `prefixItems`, in which ajv registers no identifier (its schema walker does not know the keyword), so they would no longer resolve; left the tool unchanged',
  'ambiguous-anchor': 'Found `{keyword}: "#{name}"`, which a `$ref` uses as an anchor, where the name is not unique (or the schema already has an anchor): the target cannot say it without changing what that `$ref` finds; left the tool unchanged',
  'kept-root-id': 'Kept `{keyword}` beside the root `$ref`: it names the document, and its references resolve against it either way',
  'ref-sibling-applies': '`{keyword}` beside `$ref` is ignored by {dialect} readers and now applies ({target}, option `refSiblings: apply`)',
  'kept-foreign-keyword': 'Kept `{keyword}` ({newer} keyword) although {dialect} readers ignore it: {why}',
  'referenced-foreign-keyword': 'Found `{keyword}` ({newer} keyword), which {dialect} readers ignore, with a `$ref` pointing into it: {target} readers would apply it and it cannot be dropped; left the tool unchanged',
  'kept-definitions': 'Kept `{from}` beside `{to}`: a `$ref` addresses the container itself',
  'kept-example': 'Kept OpenAPI `example` because `examples` is already present',
  'dropped-ref-sibling': 'Dropped `{keyword}` beside `$ref`: {dialect} ignores it, {target} would apply it',
  'dropped-foreign-keyword': 'Dropped `{keyword}`: it is a {newer} keyword that {dialect} ignores, and {target} would apply it',
  'dropped-inert-keyword': 'Dropped `{keyword}`, which has no effect here ({why})',
  'renamed-definitions': 'Renamed `{from}` to `{to}`',
  'merged-definition': 'Moved definition `{name}` from `{from}` into `{to}` as `{newName}`',
  'removed-empty-container': 'Removed `{keyword}`, emptied by the merge into `{to}`',
  'converted-tuple': 'Renamed `{from}` to `{to}` (tuple form of {target})',
  'converted-dependencies': 'Rewrote `{from}` as `{to}`',
  'converted-id': 'Rewrote `{from}` as `{to}`',
  'converted-exclusive': 'Rewrote boolean `{keyword}` with `{bound}` as numeric `{keyword}`',
  'converted-nullable': 'Rewrote OpenAPI `nullable: true` as {how}',
  'inert-nullable': 'Removed OpenAPI `nullable: true`, which has no effect without `type` (OpenAPI 3.0.3: it adds `null` to the types `type` names, and other keywords keep their meaning)',
  'removed-nullable': 'Removed OpenAPI `nullable: {value}`, which allows nothing more',
  'converted-example': 'Rewrote OpenAPI `example` as `examples: [..]`',
  'wrapped-ref': 'Moved `$ref` into `allOf` so that its siblings still apply in {target}',
  'rewrote-ref': 'Pointed `$ref` at `{to}` (was `{from}`)',
  'removed-stamp': 'Removed `$schema` (`{uri}`): a schema without one is read as 2020-12',
  'wrote-stamp': 'Set `$schema` to `{uri}`',
  'kept-output-tuples':
    'Left `outputSchema` as it is: it holds tuple forms (`items` as an array, `additionalItems`) that 2020-12 writes as `prefixItems`, which a client checking results with a draft-07 validator (the MCP TypeScript SDK) does not read, and its `items: false` would refuse every valid result',
};

/** Codes written by the document-level steps rather than by a conversion. */
export const DOCUMENT_CODES: readonly string[] = ['contradiction', 'unknown-dialect', 'embedded-dialect', 'removed-dead-referrer', 'rewrote-ref', 'kept-output-tuples'];

/** Findings about the source schema, reported even when its rewrite is dropped. */
export const SOURCE_FINDINGS: ReadonlySet<string> = new Set(['unconvertible', 'tuple-id', 'ambiguous-anchor', 'referenced-foreign-keyword', 'referenced-ref-sibling', 'empty-enum', 'embedded-dialect']);
