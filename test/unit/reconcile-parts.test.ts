/**
 * reconcile-dialect is a folder of parts (conversions/<id>.ts and the stamp), each naming the codes it
 * writes. These checks tie the names to the message table and to each part's hand-written fixtures
 * (test/fixtures/reconcile-dialect/rules/<id>/): a part's fixtures must show it at work, by one of its codes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reconcileDialect } from '../../src/index.js';
import { CONVERSIONS } from '../../src/transforms/reconcile-dialect/index.js';
import { DOCUMENT_CODES, MESSAGES, SOURCE_FINDINGS } from '../../src/transforms/reconcile-dialect/messages.js';
import { STAMP_PART } from '../../src/transforms/reconcile-dialect/stamp.js';

const rulesDir = join(import.meta.dirname, '..', 'fixtures', 'reconcile-dialect', 'rules');
const parts: readonly { id: string; codes: readonly string[] }[] = [...CONVERSIONS, STAMP_PART];

it('lists every conversion and the stamp as its parts, in the walk’s order', () => {
  expect((reconcileDialect.parts ?? []).map((p) => p.id)).toEqual(parts.map((p) => p.id));
});

it('names every message code: in a part, or among the document-level steps (never both)', () => {
  const named = new Set([...parts.flatMap((p) => p.codes), ...DOCUMENT_CODES]);
  expect([...named].filter((c) => !(c in MESSAGES)), 'codes without a message').toEqual([]);
  expect(Object.keys(MESSAGES).filter((c) => !named.has(c)), 'messages no part names').toEqual([]);
  for (const c of DOCUMENT_CODES) expect(parts.filter((p) => p.codes.includes(c)).map((p) => p.id), `document code ${c}`).toEqual([]);
  for (const c of SOURCE_FINDINGS) expect(MESSAGES, `source finding ${c}`).toHaveProperty(c);
});

describe.each(parts.map((p) => [p.id, p] as const))('%s', (id, part) => {
  it('has fixtures that show it at work, by one of its codes', () => {
    const dir = join(rulesDir, id);
    const cases = readdirSync(dir);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      const read = (f: string) => (existsSync(join(dir, c, f)) ? (JSON.parse(readFileSync(join(dir, c, f), 'utf8')) as { code: string }[]) : []);
      const codes = [...read('changes.json'), ...read('diagnostics.json')].map((e) => e.code);
      expect(codes.filter((code) => part.codes.includes(code)), `${id}/${c} writes none of ${part.codes.join(', ')}`).not.toEqual([]);
    }
  });
});
