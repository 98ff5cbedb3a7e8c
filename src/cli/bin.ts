#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { REGEXP_FALLBACK_FLAG } from '../verify/bounded-regexp.js';
import { main } from './main.js';

// A server's patterns meet text toolslim did not write (a model's arguments in the proxy, a server's own
// defaults and examples in the gate's instances): V8 may bound their backtracking (bounded-regexp.ts).
// (Set here, in the CLI's own process: the library leaves its caller's V8 flags alone.)
setFlagsFromString(REGEXP_FALLBACK_FLAG);

// A reader that stops early (`toolslim report … | head`) is not an error.
// (The proxy listens too: a client that stops reading is gone, and the server is stopped first.)
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') {
    if (process.stdout.listenerCount('error') > 1) return;
    process.exit(0);
  }
  throw e;
});

main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then((code) => {
  process.exitCode = code;
  // Exit once stdout and stderr are flushed: a stray timer (a failed SDK request's timeout) must not hold the process.
  let open = 2;
  const flushed = () => --open === 0 && process.exit(code);
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
});
