/**
 * `optimize` delivers what steps write for the server's instructions (promote-common-params, --preset max):
 * into a capture file's initialize.instructions, or --instructions FILE; any other output fails naming the
 * step and writes nothing. What should be delivered is computed independently with transformTools.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { transformTools } from '../../src/api.js';
import { requireBuild, ROOT, run } from './helpers.js';
import { node, WIRE_SERVER } from './proxy-helpers.js';
import { tempDir } from '../helpers/temp.js';

const SHARED = join(ROOT, 'test', 'servers', 'shared-params-tools.json');
const tools = JSON.parse(readFileSync(SHARED, 'utf8'));
const expected = transformTools(tools, { transforms: ['max'] });
const dir = tempDir('toolslim-opt-instr-');

beforeAll(() => requireBuild());

describe('optimize --preset max: instructions are delivered or the run refuses', () => {
  it('a bare tools array on stdout has no place for them: exit 2, nothing written, the step named', async () => {
    const r = await run(['optimize', SHARED, '--preset', 'max']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "toolslim optimize: promote-common-params moves parameter descriptions into text for the server's instructions, and a bare tools array on stdout has no place for it: give --instructions <file> (and have the server send that text in its initialize result), optimize a capture file (its initialize.instructions gets the text), or leave promote-common-params out\n",
    );
    const out = join(dir, 'never.json');
    const f = await run(['optimize', SHARED, '--preset', 'max', '-o', out]);
    expect(f.code).toBe(2);
    expect(f.stderr).toContain(`a bare tools array on ${out} has no place for it`);
    expect(existsSync(out)).toBe(false);
    const result = join(dir, 'result.json');
    writeFileSync(result, JSON.stringify({ tools }));
    expect((await run(['optimize', result, '--preset', 'max'])).stderr).toContain('a ListToolsResult on stdout has no place for it');
  });

  it('--instructions FILE takes them, and stderr says where they must go', async () => {
    const out = join(dir, 'slim.json');
    const instructions = join(dir, 'instructions.txt');
    const r = await run(['optimize', SHARED, '--preset', 'max', '-o', out, '--instructions', instructions]);
    expect(r.code).toBe(0);
    expect(readFileSync(instructions, 'utf8')).toBe(expected.instructions);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(expected.tools);
    expect(r.stderr).toContain(`toolslim: promote-common-params moved text into the server's instructions: written to ${instructions}; the server must send it in its initialize result (toolslim proxy does that itself)\n`);
  });

  it('a live server’s capture: appended to initialize.instructions', async () => {
    const r = await run(['optimize', '--preset', 'max', '--', node, WIRE_SERVER, '--tools', SHARED, '--instructions', 'Wire docs.']);
    expect(r.code).toBe(0);
    const capture = JSON.parse(r.stdout);
    expect(capture.initialize.instructions).toBe(`Wire docs.\n\n${expected.instructions}`);
    expect(capture.toolsList).toEqual({ tools: expected.tools });
    expect(r.stderr).toContain("toolslim: promote-common-params moved text into the server's instructions: appended to initialize.instructions in the output; a server serving these tools must send it in its initialize result (toolslim proxy --preset max does)\n");
  });

  it('a capture file without instructions gets the member, laid out as the file is', async () => {
    const input = join(dir, 'capture.json');
    const capture = { server: { command: 'x' }, initialize: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } }, toolsList: { tools } };
    writeFileSync(input, JSON.stringify(capture, null, 2) + '\n');
    const out = join(dir, 'capture-out.json');
    const r = await run(['optimize', input, '--preset', 'max', '-o', out]);
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(JSON.parse(text)).toEqual({ ...capture, initialize: { ...capture.initialize, instructions: expected.instructions }, toolsList: { tools: expected.tools } });
    expect(text).toContain(`    "serverInfo": {\n      "name": "s",\n      "version": "1"\n    },\n    "instructions": ${JSON.stringify(expected.instructions)}\n  },\n`);
  });

  it('the envelope is checked before the work (issue 26 item 12): a ListToolsResult is refused even when no step would have moved text', async () => {
    // Two tools that share no parameter: promote-common-params moves nothing, so a check made after the
    // work (as before) let this run write its output; made from the plan, before the work, it refuses.
    const plain = { tools: [
      { name: 'a', description: 'A.', inputSchema: { type: 'object', properties: { x: { type: 'string', description: 'X.' } } } },
      { name: 'b', description: 'B.', inputSchema: { type: 'object', properties: { y: { type: 'number', description: 'Y.' } } } },
    ] };
    expect(transformTools(plain.tools, { transforms: ['max'] }).instructions ?? '').toBe('');
    const input = join(dir, 'plain-result.json');
    writeFileSync(input, JSON.stringify(plain));
    const out = join(dir, 'plain-out.json');
    const r = await run(['optimize', '--preset', 'max', '-o', out, input]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`promote-common-params moves parameter descriptions into text for the server's instructions, and a ListToolsResult on ${out} has no place for it`);
    expect(existsSync(out)).toBe(false);
    // With a place for the text, the same run goes through.
    expect((await run(['optimize', '--preset', 'max', '-o', out, '--instructions', join(dir, 'plain-instr.txt'), input])).code).toBe(0);
  });
});
