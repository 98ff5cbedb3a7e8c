/**
 * SHA-256 of a string's UTF-8 bytes, for overlay pins: node:crypto's, synchronous (Node, Deno and Bun all
 * provide `node:crypto`; WebCrypto's digest is asynchronous, which the pin checks are not). This module
 * held a hand-written FIPS 180-4 implementation; test/session/sha256.test.ts keeps the FIPS examples.
 */
import { createHash } from 'node:crypto';

/** The SHA-256 digest of `text` encoded as UTF-8 (lone surrogates become U+FFFD, as `TextEncoder` does), as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
