/**
 * SEP-2549 cache hints on served lists (src/session/cache-hints.ts): added only on sessions of 2026-07-28
 * or later (the spec's caching page: servers MUST send `ttlMs` and `cacheScope` from that version), only
 * where the server's result lacks them, with the values that promise nothing (0 ms, private).
 */
import { describe, expect, it } from 'vitest';
import { hasCacheHints, missingCacheHints } from '../../src/session/cache-hints.js';

describe('missingCacheHints', () => {
  it('only from 2026-07-28 on, and only dated versions', () => {
    expect(hasCacheHints('2025-11-25')).toBe(false);
    expect(hasCacheHints('2025-06-18')).toBe(false);
    expect(hasCacheHints('2026-07-28')).toBe(true);
    expect(hasCacheHints('2027-01-01')).toBe(true);
    expect(hasCacheHints('DRAFT-2026-v1')).toBe(false);
    expect(hasCacheHints(undefined)).toBe(false);
    expect(missingCacheHints('2025-11-25', { tools: [] })).toEqual({});
  });

  it('adds what the server left out, keeps what it sent', () => {
    expect(missingCacheHints('2026-07-28', { tools: [] })).toEqual({ ttlMs: 0, cacheScope: 'private' });
    expect(missingCacheHints('2026-07-28', { tools: [], ttlMs: 60000 })).toEqual({ cacheScope: 'private' });
    expect(missingCacheHints('2026-07-28', { tools: [], ttlMs: 60000, cacheScope: 'public' })).toEqual({});
  });
});
