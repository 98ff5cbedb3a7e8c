/** The .ts examples run as scripts (as a reader would run them), and their output is checked. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lintTools } from '../src/lint/index.js';
import { compile } from './helpers/ajv.js';
import { tempDir } from './helpers/temp.js';

const ROOT = join(import.meta.dirname, '..');

function runExample(file: string, args: readonly string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'examples', file), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not finish; stderr: ${stderr}`));
    }, 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('examples/server-registration.ts', () => {
  it('lists optimized tools, computes once per tool set, and still calls tools', async () => {
    const r = await runExample('server-registration.ts');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^optimized 2 tools: \d+ → \d+ bytes$/),
      'tools/list: get_forecast, get_alerts',
      'optimized 1 time(s) for 2 listings',
      'tools/call get_forecast: Forecast for Paris: 2 day(s) of sunshine',
      expect.stringMatching(/^optimized 3 tools: \d+ → \d+ bytes$/),
      'after registering one more: get_forecast, get_alerts, get_uv_index',
      'optimized 2 time(s)',
    ]);
  });
});

describe('examples/openapi-converter.ts', () => {
  const spec = JSON.parse(readFileSync(join(ROOT, 'examples', 'petstore.openapi.json'), 'utf8'));
  // Read off the spec by hand: which components each operation's input reaches (Pet reaches Category and Tag).
  const reached: Record<string, string[]> = { updatePet: ['Category', 'Tag', 'Pet'], addPet: ['Category', 'Tag', 'Pet'], placeOrder: ['Order'], createUser: ['User'], createUsersWithListInput: ['User'], updateUser: ['User'] };

  const out = join(tempDir('toolslim-example-'), 'tools.json');
  let r: Awaited<ReturnType<typeof runExample>>;
  beforeAll(async () => {
    r = await runExample('openapi-converter.ts', ['--out', out]);
  });

  it('gives each operation only the components it reaches', () => {
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { tools } = JSON.parse(readFileSync(out, 'utf8')) as { tools: { name: string; inputSchema: Record<string, unknown> }[] };
    const operationIds = Object.values(spec.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(tools.map((t) => t.name)).toEqual(operationIds);
    for (const tool of tools) {
      const kept = Object.keys((tool.inputSchema.$defs as object | undefined) ?? {});
      expect(kept, tool.name).toEqual(reached[tool.name] ?? []);
      expect(() => compile(tool.inputSchema, 'draft2020'), tool.name).not.toThrow();
    }
    expect(lintTools(tools).filter((f) => f.severity === 'error')).toEqual([]);
    for (const tool of tools) expect(r.stdout).toMatch(new RegExp(`^${tool.name} +\\d+ → +\\d+ bytes {2}keeps: ${(reached[tool.name] ?? ['\\(none\\)']).join(', ')}$`, 'm'));
    expect(r.stdout).toMatch(/^total: \d+ → \d+ bytes of input schemas for 19 operations$/m);
  });

  it('the pruned addPet schema still judges pets as the spec says', () => {
    const addPet = (JSON.parse(readFileSync(out, 'utf8')).tools as { name: string; inputSchema: object }[]).find((t) => t.name === 'addPet')!;
    const validate = compile(addPet.inputSchema, 'draft2020');
    expect(validate({ body: { name: 'doggie', photoUrls: ['u'], category: { id: 1, name: 'Dogs' }, tags: [{ id: 2, name: 't' }], status: 'sold' } })).toBe(true);
    expect(validate({ body: { name: 'doggie' } })).toBe(false); // photoUrls is required
    expect(validate({ body: { name: 'doggie', photoUrls: [], category: { id: 'one' } } })).toBe(false); // Category.id is an integer
    expect(validate({ body: { name: 'doggie', photoUrls: [], tags: [{ name: 5 }] } })).toBe(false); // Tag.name is a string
    expect(validate({})).toBe(false); // body is required
  });
});
