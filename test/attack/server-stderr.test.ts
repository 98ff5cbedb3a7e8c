/**
 * Attack (issue 26, item 2, the server's own stderr): a server that prints its command line (with its
 * `--api-key=sk-…`) and a bearer token on stderr passed them through the proxy as they came. Now the
 * server's stderr goes through the same redaction as the proxy's own lines (src/cli/redact.ts), line by
 * line, so a secret split across two writes is hidden too.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../cli/helpers.js';
import { ProxyProcess, WIRE_SERVER, node } from '../cli/proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());
const dir = tempDir('toolslim-stderr-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'sk-PLANTEDstderr1a2b3c4d';
const TOKEN = 'PLANTEDtok777';

describe("the server's stderr", () => {
  it('is redacted: its argv secrets and a bearer token come out as ***, also when split across writes', async () => {
    const script = join(dir, 'chatty-server.mjs');
    // Prints its argv in two writes that split the key, then a bearer token, then serves as the wire server.
    writeFileSync(
      script,
      `const line = 'starting: ' + process.argv.slice(2).join(' ') + '\\n';
const cut = line.indexOf('PLANTEDstderr') + 4;
process.stderr.write(line.slice(0, cut));
await new Promise((r) => setTimeout(r, 50));
process.stderr.write(line.slice(cut) + 'upstream auth: Authorization: Bearer abcDEF123456ghi\\n');
await import(${JSON.stringify(pathToFileURL(WIRE_SERVER).href)});
`,
    );
    const p = new ProxyProcess(['--', node, script, `--api-key=${KEY}`, '--token', TOKEN]);
    try {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":1,"method":"ping"}');
      await p.until(1);
    } finally {
      p.end();
      await p.closed;
    }
    expect(p.stderr).toContain('starting: ');
    expect(p.stderr).toContain('--api-key=***');
    expect(p.stderr).toContain('--token ***');
    expect(p.stderr).toContain('Bearer ***');
    for (const s of [KEY, 'PLANTEDstderr', TOKEN, 'abcDEF123456ghi']) expect(p.stderr.includes(s), `stderr holds ${s}:\n${p.stderr}`).toBe(false);
  });
});
