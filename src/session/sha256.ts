/**
 * SHA-256 of a string's UTF-8 bytes, for overlay pins: node:crypto's, synchronous (Node, Deno and Bun all
 * provide `node:crypto`; WebCrypto's digest is asynchronous, which the pin checks are not). This module
 * held a hand-written FIPS 180-4 implementation; test/session/sha256.test.ts keeps the FIPS examples.
 *
 * `node:crypto` is loaded the first time a digest is taken, not when toolslim is imported: loading it
 * costs about as much CPU as a third of toolslim's own import (bench/results.md "Import cost"), and only
 * overlay pins need it. `node:module` is part of Node's bootstrap, so importing it costs nothing.
 */
import { createRequire } from 'node:module';

type CreateHash = typeof import('node:crypto').createHash;

let createHash: CreateHash | undefined;

/** The SHA-256 digest of `text` encoded as UTF-8 (lone surrogates become U+FFFD, as `TextEncoder` does), as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  createHash ??= (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).createHash;
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
