/**
 * Runs synchronous code under a deadline that also stops an endless loop. A test's own timeout cannot: vitest
 * waits for the test's function to return, so a loop that never ends holds the run until CI gives up. Node's
 * `vm` timeout stops whatever JavaScript runs, the functions of this context it calls included.
 */
import { runInNewContext } from 'node:vm';

/** `fn()`, or an error once it has run `ms` milliseconds. */
export function runBounded<T>(fn: () => T, ms: number): T {
  try {
    return runInNewContext('fn()', { fn }, { timeout: ms }) as T;
  } catch (e) {
    if ((e as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new Error(`did not return within ${ms} ms`);
    throw e;
  }
}
