// A stdio server that logs JSON to stdout, as a pino logger left on its default destination does: objects
// and arrays that are JSON but not JSON-RPC, between its real answers (found as a user: the proxy dropped
// non-JSON lines but passed these to the client).
import { createInterface } from 'node:readline';
const out = (text) => process.stdout.write(text + '\n');
out('{"level":30,"time":1700000000000,"pid":1,"msg":"server started"}');
out('[1,2,3]');
out('{"jsonrpc":"2.0"}');
out('{"jsonrpc":"1.0","method":"log"}');
out('{"method":"notifications/message","params":{"level":"info","data":"no jsonrpc member"}}');
out('[]');
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  out(JSON.stringify({ level: 30, msg: `got ${msg.method}` }));
  if (msg.id === undefined) return;
  if (msg.method === 'initialize') out(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'json-log', version: '1' } } }));
  else if (msg.method === 'tools/list') out(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'a', inputSchema: { type: 'object' } }] } }));
  else if (msg.method === 'ping') out(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no ping' } }));
  else {
    // A notification and a server request in one batch, then the answer: all JSON-RPC, all relayed.
    out(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } }, { jsonrpc: '2.0', id: 'srv-1', method: 'ping' }]));
    out(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'done' }] } }));
  }
});
