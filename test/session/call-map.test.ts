/**
 * CallMap (session/call-map.ts): how a call of a served tool reaches the server, read from the report of
 * the run that served it. The lists are converted by the real tuned preset (openai-strict, gemini); the
 * arguments and what the server should get are written by hand.
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { presetForProfile, transformTools } from '../../src/index.js';
import { CallMap } from '../../src/session/call-map.js';
import { REGEXP_FALLBACK_FLAG } from '../../src/verify/bounded-regexp.js';
import { deepFreeze } from '../helpers/freeze.js';

const strict = (tools: unknown[]) => CallMap.fromResult(transformTools(deepFreeze(tools), { transforms: presetForProfile('safe', 'openai-strict') }));

describe('CallMap', () => {
  it('is empty when nothing was renamed or made nullable, and leaves every call alone', () => {
    const map = strict([{ name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] } }]);
    expect(map.empty).toBe(true);
    expect(map.toServer('a', { x: null })).toBeUndefined();
  });

  it('follows $defs references and anyOf branches; a null is dropped only where every schema listing it made it nullable', () => {
    const map = strict([
      {
        name: 'find',
        inputSchema: {
          type: 'object',
          properties: {
            where: { $ref: '#/$defs/Where' },
            either: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: [] }, { type: 'object', properties: { a: { type: ['string', 'null'] } }, required: ['a'] }] },
          },
          required: ['where', 'either'],
          $defs: { Where: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } }, required: ['city'] } },
        },
      },
    ]);
    expect(map.has('find')).toBe(true);
    // `zip` (through the reference) was optional; in `either`, the second branch declares `a` nullable itself.
    expect(map.toServer('find', { where: { city: 'Oslo', zip: null }, either: { a: null } })).toEqual({ name: 'find', arguments: { where: { city: 'Oslo' }, either: { a: null } }, removed: [['where', 'zip']] });
    // Nothing to drop: undefined (the call goes as it came).
    expect(map.toServer('find', { where: { city: 'Oslo', zip: '0150' }, either: {} })).toBeUndefined();
  });

  it('a discriminated union: a branch whose own const/enum refuses the call does not keep its null', () => {
    // Found attacking the proxy: branch x has `a` optional (made nullable), branch y declares `a` required and
    // nullable itself. A `kind: "x"` call with `a: null` kept the null (branch y lists `a`), and the server's
    // own schema refused it. Verdicts of the server's schema written by hand beside each expectation.
    const server = {
      type: 'object',
      required: ['v'],
      additionalProperties: false,
      properties: {
        v: {
          anyOf: [
            { type: 'object', properties: { kind: { type: 'string', enum: ['x'] }, a: { type: 'string' } }, required: ['kind'], additionalProperties: false },
            { type: 'object', properties: { kind: { const: 'y' }, a: { type: ['string', 'null'] } }, required: ['kind', 'a'], additionalProperties: false },
          ],
        },
      },
    };
    const map = strict([{ name: 'pick', inputSchema: server }]);
    // {v: {kind: 'x', a: null}} fails both branches of the server's schema; {v: {kind: 'x'}} passes branch x.
    expect(map.toServer('pick', { v: { kind: 'x', a: null } })).toEqual({ name: 'pick', arguments: { v: { kind: 'x' } }, removed: [['v', 'a']] });
    // {v: {kind: 'y', a: null}} passes branch y as it is: the null is the server's own.
    expect(map.toServer('pick', { v: { kind: 'y', a: null } })).toBeUndefined();
    // Without the discriminator neither branch can be ruled out: the null stays (as before).
    expect(map.toServer('pick', { v: { a: null } })).toBeUndefined();
  });

  it('keeps key order, never writes through __proto__, and leaves nesting past its bound as it is', () => {
    const map = strict([{ name: 't', inputSchema: { type: 'object', properties: { __proto__x: { type: 'string' }, deep: { type: 'object', properties: { next: {} } }, b: { type: 'string' } } } }]);
    const args = JSON.parse('{"b":null,"__proto__":{"polluted":true},"__proto__x":null,"deep":null}') as Record<string, unknown>;
    const out = map.toServer('t', args)!;
    expect(Object.keys(out.arguments as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    let deep: unknown = { next: null };
    for (let i = 0; i < 5000; i++) deep = { next: deep };
    expect(() => map.toServer('t', { deep })).not.toThrow();
  });

  // The timeout is the guard: the key met the server's pattern with `u`, which V8 cannot bound (32 a's and a
  // "!" took 98 s, each one fewer half that: these 30 some 25 s, 40 some 7 hours); bounded as the argument check's
  // patterns are (bounded-regexp.ts), as the CLI runs it.
  it('meets a server\'s patternProperties with a model\'s long key at once, and still tells which keys match', () => {
    setFlagsFromString(REGEXP_FALLBACK_FLAG);
    const map = strict([{ name: 't', inputSchema: { type: 'object', properties: { x: { type: 'string' }, o: { type: 'object', properties: { y: { type: 'string' } }, patternProperties: { '^(a+)+$': { type: 'object', properties: { z: { type: 'string' } } } } } } } }]);
    const miss = 'a'.repeat(30) + '!';
    const hit = 'a'.repeat(5000);
    // `x`, `y` and `z` were optional, made required and nullable: their nulls go. The key the pattern does not
    // match leads nowhere (its `z` stays); the one it matches leads to `z`.
    expect(map.toServer('t', { x: null, o: { y: null, [miss]: { z: null }, [hit]: { z: null } } })).toEqual({
      name: 't',
      arguments: { o: { [miss]: { z: null }, [hit]: {} } },
      removed: [['x'], ['o', 'y'], ['o', hit, 'z']],
    });
  });

  it('maps a renamed tool back by the report, whatever its arguments', () => {
    const r = transformTools(deepFreeze([{ name: '9lives', inputSchema: { type: 'object' } }]), { transforms: presetForProfile('safe', 'gemini') });
    const map = CallMap.fromResult(r);
    expect([...map.renames]).toEqual([['_9lives', '9lives']]);
    expect(map.toServer('_9lives', { any: null })).toEqual({ name: '9lives', arguments: { any: null }, removed: [] });
    expect(map.toServer('_9lives', undefined)).toEqual({ name: '9lives', removed: [] });
    expect(map.toServer('9lives', {})).toBeUndefined();
  });
});
