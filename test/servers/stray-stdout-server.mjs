// A stdio "server" that prefixes every answer with log text on the same line (issue 29, defect 9): its
// stdout lines are not JSON, so no answer ever reaches the client.
import { createInterface } from 'node:readline';
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  process.stdout.write('[info] handling request ' + JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'stray', version: '1' } } }) + '\n');
});
