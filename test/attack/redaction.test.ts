/**
 * Attack (issue 26, item 2): secrets of the proxy's configuration never leave the process. A server started
 * with `--api-key=sk-…` (and other secret-looking words), an HTTP URL with userinfo and a query token, and a
 * header value are planted; every output — the JSON-RPC errors the client gets, stderr, the overlay's
 * `rebuild`, a capture file, the stats and usage files — is grepped for them. Before the fix, the command
 * line was quoted whole in "… exited with status 3" errors and in the overlay, and the URL in every HTTP
 * error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, run, waitFor } from '../cli/helpers.js';
import { ProxyProcess, WIRE_SERVER, node } from '../cli/proxy-helpers.js';
import { makeRedactor, redactArgs, redactUrl, targetSecrets } from '../../src/cli/redact.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(() => requireBuild());

const dir = tempDir('toolslim-redact-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Planted secrets: none of these may appear in any output. */
const SECRETS = ['sk-PLANTEDa1b2c3d4e5f6', 'PLANTEDtokenQ9x', 'PLANTEDpw77', 'PLANTEDsecret3', 'Xk9fQ2mZ7vLp4RtY8wNb3Hc', 'PLANTEDpass1'];
const SERVER_ARGS = [WIRE_SERVER, '--api-key=sk-PLANTEDa1b2c3d4e5f6', '--token', 'PLANTEDtokenQ9x', 'DB_PASSWORD=PLANTEDpw77', '--client-secret=PLANTEDsecret3', 'Xk9fQ2mZ7vLp4RtY8wNb3Hc', '--password', 'PLANTEDpass1'];

function expectClean(where: string, text: string, secrets: readonly string[] = SECRETS): void {
  for (const s of secrets) expect(text.includes(s), `${where} holds the planted secret ${s}:\n${text}`).toBe(false);
}

describe('redaction (unit, hand-written expectations)', () => {
  it('hides secret-looking arguments and keeps the rest', () => {
    expect(redactArgs(['node', 'server.mjs', '--api-key=abc', '--token', 'tok', '--port', '8080', 'API_KEY=zz', 'x=sk-abcdefghijk', 'Xk9fQ2mZ7vLp4RtY8wNb3Hc', '@scope/pkg-name-that-is-long', '/home/u/Project2/Server.mjs'])).toEqual([
      'node',
      'server.mjs',
      '--api-key=***',
      '--token',
      '***',
      '--port',
      '8080',
      'API_KEY=***',
      'x=***',
      '***',
      '@scope/pkg-name-that-is-long',
      '/home/u/Project2/Server.mjs',
    ]);
  });
  it('hides a personal access token named `pat` as a word of its flag or variable, not `path`, `pattern` or `patch` (found as a user: `--github-pat <token>` was written out)', () => {
    expect(redactArgs(['--github-pat', 'SECRETB8', '--pat=tok1', 'GITLAB_PAT=tok2', '--path', '/srv/x', '--pattern', 'a*', '--patch', 'p1', '--pat', 'tok3'])).toEqual([
      '--github-pat',
      '***',
      '--pat=***',
      'GITLAB_PAT=***',
      '--path',
      '/srv/x',
      '--pattern',
      'a*',
      '--patch',
      'p1',
      '--pat',
      '***',
    ]);
  });
  it('hides a key passed as a bare argument: published key prefixes, and long lower-case or hex keys; keeps paths, packages, names and UUIDs', () => {
    // Found as a user: `capture -- mcp-server-neon start <key>` (Neon's documented usage) wrote the key into the
    // capture's server.args. Neon keys (`napi_` + lower case and digits) and hex keys have no upper case, which
    // the mixed-case rule needs. Keys below are made up in each issuer's published shape.
    const keys = [
      'napi_2kq9x7m4b1v8c3n6z0p5l2k8j4h7g1f3d9s6a0q8w2e5r7t1y4u6i9o3p2k5j8',
      'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
      'AKIAIOSFODNN7EXAMPLE',
      '3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c8e',
      'sbp_0123456789abcdef0123456789abcdef01234567',
      'xoxb-123456789012-1234567890123-abcdefghijklmnop',
      'fc-0123456789abcdef0123456789abcdef',
      'sk_live_51Habcdefghijklmnop0123456789',
    ];
    expect(redactArgs(['start', ...keys])).toEqual(['start', ...keys.map(() => '***')]);
    expect(redactArgs(['--key-file', 'KEY=napi_2kq9x7m4b1v8c3n6z0p5l2k8j4h7g1f3d9s6'])).toEqual(['--key-file', 'KEY=***']);
    const kept = [
      '/usr/lib/node_modules/@neondatabase/mcp-server-neon/dist/index.js',
      '@modelcontextprotocol/server-everything',
      'my-very-long-project-name-2024-production',
      '123e4567-e89b-12d3-a456-426614174000',
      'secret_manager_name_for_prod',
      'ghp_is_a_prefix',
      'fc-layout-component-name-here',
      'abcdefghijklmnopqrstuvwxyzabcdefgh',
      '12345678901234567890123456789012',
      'https://example.com/mcp',
    ];
    expect(redactArgs(kept)).toEqual(kept);
  });
  it('hides URL userinfo, query values and fragment', () => {
    expect(redactUrl('https://me:pw@example.com:8443/mcp?token=abc&x=1#frag')).toBe('https://***@example.com:8443/mcp?token=***&x=***#***');
    expect(redactUrl('http://127.0.0.1:9/mcp')).toBe('http://127.0.0.1:9/mcp');
  });
  it('hides a key carried in a URL path, in a URL and in a URL passed as an argument; keeps ordinary paths', () => {
    // Found attacking the CLI: a Zapier-style URL (the key is a path segment), passed to `mcp-remote` as an
    // argument or given as --url, was written whole into captures and errors (only userinfo, query and
    // fragment were hidden, and a word with `/` or `:` never looked like a key).
    const key = 'ODc1N2E3ZTQtY2U4Yy00ZjFkLWI2ZTUtM2I0ZDM2ZmQ4YzI3OjE2NjY=';
    expect(redactUrl(`https://mcp.zapier.com/api/mcp/s/${key}/mcp`)).toBe('https://mcp.zapier.com/api/mcp/s/***/mcp');
    expect(redactUrl(`https://mcp.zapier.com/api/mcp/s/${encodeURIComponent(key)}/mcp`)).toBe('https://mcp.zapier.com/api/mcp/s/***/mcp');
    expect(redactUrl('https://example.com/v1/workspaces/my-team-workspace/mcp')).toBe('https://example.com/v1/workspaces/my-team-workspace/mcp');
    expect(redactArgs(['-y', 'mcp-remote', `https://mcp.zapier.com/api/mcp/s/${key}/mcp`, `--url=https://x.example/s/${key}/sse`, '--api-key=https://x.example/a', 'https://example.com/mcp?token=abc'])).toEqual([
      '-y',
      'mcp-remote',
      'https://mcp.zapier.com/api/mcp/s/***/mcp',
      '--url=https://x.example/s/***/sse',
      '--api-key=***',
      'https://example.com/mcp?token=***',
    ]);
    // The key is one of the target's secrets, so the redactor hides it in any text, raw or encoded.
    for (const target of [
      { kind: 'stdio' as const, command: 'npx', args: ['-y', 'mcp-remote', `https://mcp.zapier.com/api/mcp/s/${key}/mcp`] },
      { kind: 'http' as const, url: `https://mcp.zapier.com/api/mcp/s/${key}/mcp` },
    ]) {
      const r = makeRedactor(targetSecrets(target));
      expect(r(`cannot reach https://mcp.zapier.com/api/mcp/s/${key}/mcp (${encodeURIComponent(key)})`)).toBe('cannot reach https://mcp.zapier.com/api/mcp/s/***/mcp (***)');
    }
  });
  it('hides a key inside a longer word: a header passed to the server (`x-api-key:<key>`, `--header=X-Api-Key: <key>`), JSON config, `label:<key>`', () => {
    // Found as a user: `capture -- node server.mjs x-api-key:ghp_…` (mcp-remote's documented `--header Name:value`
    // usage, or a JSON config argument) printed the key whole in "… exited with status 0" and in the capture's
    // server.args: only a word that was a key as a whole (or a flag's `=value`) was recognised.
    const ghp = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const rnd = 'Zx9Qm2Lp8Rt4Vn6Bc1Hs3Kd7Fg5Jw0Ya';
    expect(
      redactArgs(['--header', `x-api-key:${ghp}`, `Authorization:${rnd}`, `--header=X-Api-Key: shortval`, `{"apiKey":"plain-value","region":"eu"}`, `label:${ghp}`, `{"nested":{"token":"${rnd}"}}`]),
    ).toEqual(['--header', 'x-api-key:***', 'Authorization:***', '--header=X-Api-Key: ***', '{"apiKey":"***","region":"eu"}', 'label:***', '{"nested":{"token":"***"}}']);
    // What is no secret stays: a header without a secret name, a path with a colon, a JSON value under an ordinary key.
    const kept = ['Accept:application/json', 'C:\\Users\\me\\server.js', 'localhost:8080', '{"region":"eu-west-1","debug":true}', 'host:port', 'x-request-id:12345'];
    expect(redactArgs(kept)).toEqual(kept);
    // Each such key is one of the target's secrets, so the server's own stderr loses it too.
    const r = makeRedactor(targetSecrets({ kind: 'stdio', command: 'node', args: ['s.mjs', `x-api-key:${ghp}`, `{"apiKey":"plain-value"}`] }));
    expect(r(`bad option x-api-key:${ghp} with plain-value`)).toBe('bad option x-api-key:*** with ***');
  });
  it('hides a connection string’s password: libpq key/value (`host=db password=…`) and ADO.NET (`Server=db;Password=…;`)', () => {
    // Found as a user: `capture -- <server> --dsn "host=db user=admin password=hunter2secret"` printed the
    // password whole in "cannot start …" (only URL userinfo, `NAME=` words and flags were recognised).
    expect(
      redactArgs(['--dsn', 'host=db user=admin password=hunter2secret dbname=app', '--conn', 'Server=db;Database=app;User Id=sa;Password=hunter2secret;', "host=db password='a b c' port=5432", 'x=1&api_token=abc&y=2']),
    ).toEqual(['--dsn', 'host=db user=admin password=*** dbname=app', '--conn', 'Server=db;Database=app;User Id=sa;Password=***;', 'host=db password=*** port=5432', 'x=1&api_token=***&y=2']);
    const kept = ['host=db user=admin dbname=app sslmode=require', 'Server=db;Database=app;Trusted_Connection=True;', 'a=b c=d'];
    expect(redactArgs(kept)).toEqual(kept);
    // The password is one of the target's secrets, so the server's own stderr loses it too.
    const r = makeRedactor(targetSecrets({ kind: 'stdio', command: 'node', args: ['s.mjs', '--dsn', 'host=db password=hunter2secret'] }));
    expect(r('FATAL: password authentication failed (hunter2secret)')).toBe('FATAL: password authentication failed (***)');
  });
  it('hides the given values anywhere in a text, raw and URL-decoded, and sk- keys and bearer tokens always', () => {
    const r = makeRedactor(['a b/c+secret', 'short']);
    expect(r('x a%20b%2Fc%2Bsecret y a b/c+secret z short')).toBe('x *** y *** z short');
    expect(r('key sk-ABCDEFGHIJKLMNOP and Bearer abc.def-ghi')).toBe('key *** and Bearer ***');
  });
});

describe('proxy over stdio: a secret on the server command line', () => {
  it('is in no error the client gets, no stderr line, no stats or usage file', async () => {
    const stats = join(dir, 'stats.jsonl');
    const usage = join(dir, 'usage.json');
    const p = new ProxyProcess(['--timeout', '0.5', '--stats', stats, '--usage', usage, '--hot-set', '2', '--', node, ...SERVER_ARGS, '--list-delay', '3000']);
    try {
      await p.initialize();
      // The list is late: the timeout message names the server.
      p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      const timedOut = await p.until(1);
      expect(JSON.stringify(timedOut.message.error)).toMatch(/did not answer tools\/list within 0\.5s/);
      expectClean('the tools/list error', timedOut.line);
      // A call waits for the list (the session checks it): that fails the same way, naming the server.
      p.send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}');
      const waited = await p.until(2);
      expect(JSON.stringify(waited.message.error)).toContain('--api-key=***');
      expectClean('the tools/call error', waited.line);
    } finally {
      p.end();
      await p.closed;
    }
    // The server dies mid-call: "… exited with status 3 before answering tools/call".
    const q = new ProxyProcess(['--', node, ...SERVER_ARGS]);
    try {
      await q.initialize();
      q.send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"crash","arguments":{}}}');
      const crashed = await q.until(2);
      expect(JSON.stringify(crashed.message.error)).toMatch(/exited with status 3 before answering tools\/call/);
      expect(JSON.stringify(crashed.message.error)).toContain('--api-key=***');
      expectClean('the tools/call error', crashed.line);
    } finally {
      q.end();
      await q.closed;
    }
    expectClean('stderr', q.stderr);
    expectClean('stderr', p.stderr);
    for (const f of [stats, usage]) if (existsSync(f)) expectClean(f, readFileSync(f, 'utf8'));
  });

  it('optimize --overlay stores the rebuild command redacted and says so; capture files too', async () => {
    const overlay = join(dir, 'overlay.json');
    const made = await run(['optimize', '--overlay', overlay, '--', node, ...SERVER_ARGS]);
    expect(made.code, made.stderr).toBe(0);
    const text = readFileSync(overlay, 'utf8');
    expectClean('the overlay', text);
    expectClean('optimize stderr', made.stderr);
    const rebuild = (JSON.parse(text) as { rebuild: string }).rebuild;
    expect(rebuild).toContain('--api-key=***');
    expect(rebuild).toMatch(/# secrets replaced with \*\*\*/);
    const capture = join(dir, 'capture.json');
    const captured = await run(['capture', '-o', capture, '--', node, ...SERVER_ARGS]);
    expect(captured.code, captured.stderr).toBe(0);
    expectClean('the capture file', readFileSync(capture, 'utf8'));
    // A key in the path of a URL the server is given (`mcp-remote <url>`).
    const pathKey = 'PLANTEDpathKey0a1B2c3D4e5F6g7H8';
    const viaUrl = join(dir, 'capture-url.json');
    const urlCaptured = await run(['capture', '-o', viaUrl, '--', node, WIRE_SERVER, `https://mcp.example.com/api/mcp/s/${pathKey}/mcp`]);
    expect(urlCaptured.code, urlCaptured.stderr).toBe(0);
    const urlText = readFileSync(viaUrl, 'utf8');
    expectClean('the capture file (URL argument)', urlText, [pathKey]);
    expect(urlText).toContain('https://mcp.example.com/api/mcp/s/***/mcp');
    // A server that fails during the read: the CLI's error names it redacted.
    const failed = await run(['check', '--timeout', '0.5', '--', node, ...SERVER_ARGS, '--list-delay', '3000']);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/timed out/);
    expectClean('check stderr', failed.stderr);
  });
});

describe('a server that sends a secret of its command line back', () => {
  // Found as a user: @baruchiro/paperless-mcp writes its `--baseUrl` into its initialize `instructions`, so a
  // URL with a token in it went into the capture file (which is meant to be committed) without a word.
  // The server's text is kept as it came (what a server sends is not redacted); the CLI says where it is.
  it('capture and optimize warn, naming the place and never the secret; a server that does not gets no warning', async () => {
    const token = 'PLANTEDtokenQ9xEchoed';
    const echo = ['--token', token, '--instructions', `Open documents at http://paperless.local/?token=${token}`];
    const capture = join(dir, 'echo-capture.json');
    const captured = await run(['capture', '-o', capture, '--', node, WIRE_SERVER, ...echo]);
    expect(captured.code, captured.stderr).toBe(0);
    expect(readFileSync(capture, 'utf8')).toContain(token); // the server's text, as it came
    expect(captured.stderr).toMatch(/warning: the server sends back a secret given on its command line or URL \(in its initialize result\)/);
    expectClean('capture stderr', captured.stderr, [token]);
    const optimized = await run(['optimize', '-o', join(dir, 'echo-opt.json'), '--', node, WIRE_SERVER, ...echo]);
    expect(optimized.code, optimized.stderr).toBe(0);
    expect(optimized.stderr).toContain('warning: the server sends back a secret');
    expectClean('optimize stderr', optimized.stderr, [token]);
    const quiet = await run(['capture', '-o', join(dir, 'quiet.json'), '--', node, WIRE_SERVER, '--token', token, '--instructions', 'Open documents at http://paperless.local/']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('warning');
  });
});

describe('a server that lists a secret of its command line (the proxy)', () => {
  // Found as a user: @bnb-chain/mcp writes the PRIVATE_KEY it was started with as the `default` of a parameter
  // of 26 of its 45 tools; through the proxy, the client and its model got it without a word.
  it('the proxy serves the list as the server sent it and says on stderr which tools hold the secret, never the secret', async () => {
    const token = 'PLANTEDtokenQ9xListed';
    const list = join(dir, 'listed-secret.json');
    writeFileSync(list, JSON.stringify({ tools: [{ name: 'plain', inputSchema: { type: 'object' } }, { name: 'transfer', inputSchema: { type: 'object', properties: { key: { type: 'string', default: token } } } }] }));
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--token', token, '--list-text', list]);
    try {
      await p.initialize();
      p.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      const listed = await p.until(1);
      expect(listed.line).toContain(token); // the server's text, as it came
      await waitFor(() => p.stderr.includes('tools/list holds a secret'));
      expect(p.stderr).toMatch(/warning: .*tools\/list holds a secret given on its command line or URL \(in tool `transfer`\)/);
      expectClean('proxy stderr', p.stderr, [token]);
    } finally {
      p.end();
      await p.closed;
    }
  });
});

describe('a server that writes a secret of its command line into its initialize result (the proxy)', () => {
  // Found as a user: a server behind \`proxy --url …?apiKey=…\` wrote its URL, key included, into its
  // \`instructions\`; capture warned, the proxy passed it to the client and its model without a word.
  it('the proxy forwards the result as sent and says so on stderr, never the secret; a clean server gets no warning', async () => {
    const token = 'PLANTEDtokenQ9xInit';
    const p = new ProxyProcess(['--', node, WIRE_SERVER, '--token', token, '--instructions', `Open documents at http://paperless.local/?token=${token}`]);
    try {
      const init = await p.initialize();
      expect(init).toContain(token); // the server's text, as it came
      await waitFor(() => p.stderr.includes('initialize result holds a secret'));
      expect(p.stderr).toMatch(/warning: .*'s initialize result holds a secret given on its command line or URL/);
      expectClean('proxy stderr', p.stderr, [token]);
    } finally {
      p.end();
      await p.closed;
    }
    const quiet = new ProxyProcess(['--', node, WIRE_SERVER, '--token', token, '--instructions', 'Open documents at http://paperless.local/']);
    try {
      await quiet.initialize();
      quiet.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      await quiet.until(1);
      expect(quiet.stderr).not.toContain('holds a secret');
    } finally {
      quiet.end();
      await quiet.closed;
    }
  });
});

describe('proxy --url: userinfo, query values and header values', () => {
  let http: Server | undefined;
  afterEach(async () => {
    await new Promise((r) => (http ? http.close(r) : r(undefined)));
    http = undefined;
  });

  /** A server that refuses everything with 500 and quotes the header it got in its plain-text body. */
  async function refusing(): Promise<string> {
    http = createServer((req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`bad key ${String(req.headers['x-api-key'])} for ${req.url}`);
    });
    await new Promise<void>((r) => http!.listen(0, '127.0.0.1', r));
    return `127.0.0.1:${(http.address() as AddressInfo).port}`;
  }

  it('a URL with a query token and a header: errors and stderr hold neither', async () => {
    const host = await refusing();
    const secrets = ['PLANTEDquery77', 'PLANTEDheader88'];
    const p = new ProxyProcess(['--url', `http://${host}/mcp?key=PLANTEDquery77`, '-H', 'X-Api-Key: PLANTEDheader88']);
    try {
      p.send('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"a","version":"0"}}}');
      const { line } = await p.until(0);
      expect(line).toMatch(/HTTP 500/);
      expect(line).toContain('key=***');
      expectClean('the initialize error', line, secrets);
    } finally {
      p.end();
      await p.closed;
    }
    expectClean('stderr', p.stderr, secrets);
  });

  it('a URL with a key in its path (a server quoting the path it was asked for): errors and stderr hold none of it', async () => {
    const host = await refusing();
    const secrets = ['PLANTEDpathKey9z8Y7x6W5v4U3t2S1'];
    const p = new ProxyProcess(['--url', `http://${host}/api/mcp/s/PLANTEDpathKey9z8Y7x6W5v4U3t2S1/mcp`]);
    try {
      p.send('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"a","version":"0"}}}');
      const { line } = await p.until(0);
      expect(line).toMatch(/HTTP 500/);
      expect(line).toContain('/api/mcp/s/***/mcp');
      expectClean('the initialize error', line, secrets);
    } finally {
      p.end();
      await p.closed;
    }
    expectClean('stderr', p.stderr, secrets);
  });

  it('a URL with userinfo (which fetch refuses, quoting the URL): the error holds none of it', async () => {
    const host = await refusing();
    const secrets = ['PLANTEDuser5', 'PLANTEDpass6'];
    const p = new ProxyProcess(['--url', `http://PLANTEDuser5:PLANTEDpass6@${host}/mcp`]);
    try {
      p.send('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"a","version":"0"}}}');
      const { line, message } = await p.until(0);
      expect(message.error).toBeDefined();
      expectClean('the initialize error', line, secrets);
    } finally {
      p.end();
      await p.closed;
    }
    expectClean('stderr', p.stderr, secrets);
  });

  it('a URL with userinfo is sent as Basic authentication (as curl does); a server echoing the header leaks none of it', async () => {
    // Hand-computed: base64("PLANTED user7:p@ss:PLANTED8") — the userinfo percent-decoded, joined by its first colon.
    const basic = `Basic ${Buffer.from('PLANTED user7:p@ss:PLANTED8').toString('base64')}`;
    let seen: { auth?: string; url?: string } = {};
    http = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen = { auth: req.headers.authorization, url: req.url };
        if (req.headers.authorization !== basic) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`bad credentials ${String(req.headers.authorization)}`);
          return;
        }
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const msg = JSON.parse(body) as { id?: number; method: string };
        if (msg.id === undefined) return void res.writeHead(202).end();
        const result = msg.method === 'initialize' ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'basic', version: '1' } } : { tools: [{ name: 'x', inputSchema: { type: 'object' } }] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      });
    });
    await new Promise<void>((r) => http!.listen(0, '127.0.0.1', r));
    const host = `127.0.0.1:${(http.address() as AddressInfo).port}`;
    const secrets = ['PLANTED user7', 'PLANTED%20user7', 'PLANTED8', basic.slice(6)];
    const capture = join(dir, 'basic-capture.json');
    const ok = await run(['capture', '-o', capture, '--url', `http://PLANTED%20user7:p%40ss%3APLANTED8@${host}/mcp`]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(seen).toEqual({ auth: basic, url: '/mcp' });
    expect((JSON.parse(readFileSync(capture, 'utf8')) as { toolsList: { tools: { name: string }[] } }).toolsList.tools.map((t) => t.name)).toEqual(['x']);
    expectClean('the capture file', readFileSync(capture, 'utf8'), secrets);
    expectClean('capture stderr', ok.stderr, secrets);
    // Wrong credentials: the server quotes the header it got; the error holds none of it.
    const bad = await run(['capture', '--url', `http://PLANTED%20user7:PLANTED8@${host}/mcp`]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/HTTP 500/);
    expectClean('capture stderr', bad.stderr, [...secrets, Buffer.from('PLANTED user7:PLANTED8').toString('base64')]);
    // Both kinds of credentials: a usage error naming both, before anything is sent.
    seen = {};
    const both = await run(['capture', '--url', `http://u:PLANTED8@${host}/mcp`, '-H', 'authorization: Bearer PLANTED8']);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/--url carries credentials .* and --header gives an Authorization header/);
    expect(seen).toEqual({});
    expectClean('capture stderr', both.stderr, secrets);
  });
});
