/**
 * Child process of usage-store.test.ts: `node --import tsx usage-writer.ts <file> <prefix> <count> <flushEvery> [startAtMs]`
 * begins one session, then records `count` calls (alternating `<prefix>_tool` and `shared`), flushing after
 * every `flushEvery` calls and at the end.
 */
import { UsageStore } from '../../src/session/usage-store.js';

const [file, prefix, countText, everyText, startText] = process.argv.slice(2);
const count = Number(countText);
const every = Number(everyText);
// Both writers start at the same moment, so their flushes overlap.
const start = Number(startText ?? 0);
while (Date.now() < start) {
  // spin: a few hundred milliseconds at most
}
const store = UsageStore.open(file!, { lockTimeoutMs: 20_000 });
store.beginSession();
for (let i = 0; i < count; i++) {
  store.record(i % 2 === 0 ? `${prefix}_tool` : 'shared');
  if ((i + 1) % every === 0) store.flush();
}
store.flush();
process.stdout.write('done\n');
