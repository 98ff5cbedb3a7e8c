/** sha256Hex against node:crypto (the independent oracle) and the FIPS 180-4 examples. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/session/sha256.js';

describe('sha256Hex', () => {
  it('gives the FIPS 180-4 example digests', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('property: equals node:crypto on any string (UTF-8, every padding length)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        expect(sha256Hex(s)).toBe(createHash('sha256').update(s, 'utf8').digest('hex'));
      }),
      { seed: 13_256, numRuns: 500 },
    );
    for (let n = 0; n < 140; n++) {
      const s = 'x'.repeat(n);
      expect(sha256Hex(s)).toBe(createHash('sha256').update(s).digest('hex'));
    }
  });

  it('hashes a megabyte quickly enough for a tools list', () => {
    const s = 'é'.repeat(500_000);
    // The test's timeout guards the time; no timed assertion (issue 31).
    expect(sha256Hex(s)).toBe(createHash('sha256').update(s).digest('hex'));
  });
});
