/** adapt-to-client on inputs built to hurt: exponential reference fan-out, long chains, `__proto__` names. */
import { expect, it } from 'vitest';
import { adaptToClient, checkToolsForProfile } from '../../src/index.js';
import { verdicts } from '../helpers/ajv.js';
import { deepFreeze, jsonClone } from '../helpers/freeze.js';

it('stops an exponential fan-out before building it, reports the cap and leaves the tool as it was', () => {
  const defs: Record<string, unknown> = { L40: { type: 'string' } };
  for (let i = 0; i < 40; i++) defs[`L${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/L${i + 1}` }, b: { $ref: `#/$defs/L${i + 1}` } } };
  const tools = deepFreeze([{ name: 'fan', inputSchema: { type: 'object', properties: { x: { $ref: '#/$defs/L0' } }, $defs: defs } }]);
  // Built, the fan-out would hold 2^40 nodes: the test's timeout is the guard, not a timed assertion.
  const r = adaptToClient(tools, { profile: 'ref-free' });
  expect(r.tools[0]).toBe(tools[0]);
  expect(r.report.changes).toEqual([]);
  expect(r.report.diagnostics[0]).toMatchObject({ severity: 'error', code: 'growth-capped', path: '/0/inputSchema' });
});

it('inlines a long chain of definitions without recursion, and keeps verdicts', () => {
  const n = 300;
  const defs: Record<string, unknown> = { [`D${n}`]: { type: 'integer', minimum: 0 } };
  for (let i = 0; i < n; i++) defs[`D${i}`] = { $ref: `#/$defs/D${i + 1}` };
  const schema = { type: 'object', properties: { v: { $ref: '#/$defs/D0' } }, $defs: defs };
  const tools = deepFreeze([{ name: 'chain', inputSchema: schema }]);
  const r = adaptToClient(tools, { profile: 'ref-free', growthCap: 2 });
  expect(r.tools[0]!.inputSchema).toEqual({ type: 'object', properties: { v: { type: 'integer', minimum: 0 } } });
  const samples = [{ v: 1 }, { v: -1 }, { v: 'x' }, {}];
  expect(verdicts(r.tools[0]!.inputSchema, samples)).toEqual(verdicts(jsonClone(schema), samples));
});

it('treats `__proto__` and `constructor` as ordinary names everywhere', () => {
  const inputSchema = JSON.parse('{"type":"object","properties":{"__proto__":{"$ref":"#/$defs/__proto__"},"constructor":{"$ref":"#/properties/__proto__"}},"$defs":{"__proto__":{"type":"string","$comment":"c"}}}');
  const tools = deepFreeze([{ name: 'proto', inputSchema }]);
  for (const profile of ['ref-free', 'kimi', 'openai-strict', 'gemini']) {
    const r = adaptToClient(tools, { profile });
    expect(r.report.skipped, profile).toEqual([]);
    expect(checkToolsForProfile(r.tools, profile).filter((f) => f.code.startsWith('ref')), profile).toEqual([]);
    const samples = [JSON.parse('{"__proto__":"a","constructor":"b"}'), JSON.parse('{"__proto__":1}'), JSON.parse('{"constructor":2}')];
    expect(verdicts(r.tools[0]!.inputSchema, samples), profile).toEqual(verdicts(jsonClone(inputSchema), samples));
    expect(Object.getPrototypeOf(r.tools[0]!.inputSchema)).toBe(Object.prototype);
  }
});

it('refuses options it cannot use', () => {
  expect(() => adaptToClient([], { profile: 'nope' })).toThrow(/unknown profile `nope`/);
  expect(() => adaptToClient([], { growthCap: 0.5 })).toThrow(/growthCap/);
});
