/**
 * Live objects from library callers (issue 12 item 5): a tool with a throwing getter, an accessor, or a
 * Proxy (throwing, revoked or quiet) is skipped with a reason naming the tool and the pointer; it never
 * aborts the batch, and the other tools are optimized exactly as they are without it.
 */
import { describe, expect, it } from 'vitest';
import { lintTools, transformTools } from '../../src/index.js';
import { checkJsonTool } from '../../src/engine/input.js';

const good = (name: string) => ({
  name,
  description: `Tool ${name}`,
  inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'The id of the thing to act on' } }, $defs: { Unused: { type: 'string' } } },
});

function liveTools() {
  const throwingGetter = { name: 'getter', inputSchema: { type: 'object', get properties(): unknown { throw new Error('boom'); } } };
  const quietGetter = { name: 'quiet-getter', inputSchema: { type: 'object', properties: { get a() { return { type: 'string' }; } } } };
  const throwingProxy = new Proxy(good('trap'), {
    get(target, key) {
      if (key === 'inputSchema') throw new Error('trap');
      return (target as Record<string | symbol, unknown>)[key];
    },
  });
  const ownKeysProxy = { name: 'keys', inputSchema: new Proxy({}, { ownKeys: () => { throw new Error('no keys'); } }) };
  const quietProxy = new Proxy(good('quiet-proxy'), {});
  const revoked = Proxy.revocable({ name: 'revoked' }, {});
  revoked.revoke();
  const nameGetter = { get name(): string { throw new Error('no name'); }, inputSchema: { type: 'object' } };
  return { list: [good('a'), throwingGetter, quietGetter, throwingProxy, ownKeysProxy, quietProxy, revoked.proxy, nameGetter, good('b'), good('c')], live: [1, 2, 3, 4, 5, 6, 7] };
}

describe('live objects', () => {
  it('are skipped with the tool and pointer named; the rest of the batch is optimized as without them', () => {
    const { list, live } = liveTools();
    for (const transforms of [['safe'], ['max'], ['prune-unreachable-defs', 'promote-common-params']]) {
      const r = transformTools(list, { transforms });
      const skips = r.report.skipped.filter((s) => s.transform === 'input');
      expect(skips.map((s) => s.toolIndex)).toEqual(live);
      expect(skips.map((s) => `${s.tool} ${s.reason}`)).toEqual([
        'getter an accessor (getter/setter) is not a JSON value at `/1/inputSchema/properties`',
        'quiet-getter an accessor (getter/setter) is not a JSON value at `/2/inputSchema/properties/a`',
        'trap a Proxy is not plain JSON (pass a plain copy of the tool) at `/3`',
        'keys a Proxy is not plain JSON (pass a plain copy of the tool) at `/4/inputSchema`',
        'quiet-proxy a Proxy is not plain JSON (pass a plain copy of the tool) at `/5`',
        ' a Proxy is not plain JSON (pass a plain copy of the tool) at `/6`',
        ' an accessor (getter/setter) is not a JSON value at `/7/name`',
      ]);
      // Live tools come back as the same objects; the plain ones as a run without the live ones makes them.
      for (const i of live) expect(r.tools[i]).toBe(list[i]);
      const alone = transformTools([good('a'), good('b'), good('c')], { transforms });
      expect([r.tools[0], r.tools[8], r.tools[9]]).toEqual(alone.tools);
      expect(r.instructions).toBe(alone.instructions);
      expect(r.report.skipped.filter((s) => s.transform !== 'input')).toEqual([]);
    }
  });

  it('onError: throw names the tool and pointer instead of a TypeError', () => {
    const { list } = liveTools();
    expect(() => transformTools(list, { onError: 'throw' })).toThrow('tool `getter` (index 1): an accessor (getter/setter) is not a JSON value at `/1/inputSchema/properties`');
  });

  it('lintTools reports them as invalid tools instead of throwing', () => {
    const { list } = liveTools();
    const invalid = lintTools(list, { collisionThreshold: false }).filter((f) => f.code === 'invalid-tool');
    expect(invalid.map((f) => f.toolIndex)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('the input check calls no getter: at an object key, an array element, inherited from a polluted prototype; a setter-only accessor too', () => {
    let calls = 0;
    const schema = () => ({ type: 'string' });
    const atKey = { name: 'at-key', inputSchema: { type: 'object', properties: { get a() { calls++; return schema(); } } } };
    const element: unknown[] = [{ type: 'string' }];
    Object.defineProperty(element, 1, { enumerable: true, get: () => (calls++, schema()) });
    const atElement = { name: 'at-element', inputSchema: { type: 'object', properties: { a: { anyOf: element } } } };
    const setterOnly = { name: 'setter-only', inputSchema: { type: 'object', properties: {} as Record<string, unknown> } };
    Object.defineProperty(setterOnly.inputSchema.properties, 'a', { enumerable: true, set: () => { calls++; } });
    const problems = [atKey, atElement, setterOnly].map((t) => checkJsonTool(t, 1000, undefined, { bytes: 0 }, new Map()));
    expect(problems).toEqual([
      { path: '/inputSchema/properties/a', message: 'an accessor (getter/setter) is not a JSON value' },
      { path: '/inputSchema/properties/a/anyOf/1', message: 'an accessor (getter/setter) is not a JSON value' },
      { path: '/inputSchema/properties/a', message: 'an accessor (getter/setter) is not a JSON value' },
    ]);
    expect(calls).toBe(0);
    // The run skips them so (only its size of a skipped tool is what `JSON.stringify` writes of it, getters and all).
    const r = transformTools([good('a'), atKey, atElement, setterOnly, good('b')], { transforms: ['safe'] });
    expect(r.report.skipped.filter((s) => s.transform === 'input').map((s) => `${s.tool} ${s.reason}`)).toEqual([
      'at-key an accessor (getter/setter) is not a JSON value at `/1/inputSchema/properties/a`',
      'at-element an accessor (getter/setter) is not a JSON value at `/2/inputSchema/properties/a/anyOf/1`',
      'setter-only an accessor (getter/setter) is not a JSON value at `/3/inputSchema/properties/a`',
    ]);
    calls = 0;
    // A key a polluted prototype supplies is not the tool's: neither read through a getter nor counted.
    Object.defineProperty(Object.prototype, 'polluted', { enumerable: true, configurable: true, get: () => (calls++, 1) });
    let skipped: number;
    let before: number;
    let problem: unknown;
    try {
      const r = transformTools([good('c')], { measure: true });
      skipped = r.report.skipped.length;
      before = r.report.stats.before.bytes;
      problem = checkJsonTool(good('d'), 1000, undefined, { bytes: 0 }, new Map());
    } finally {
      // Removed before any assertion: the test runner's own objects inherit the getter too.
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(calls).toBe(0);
    expect(skipped).toBe(0);
    expect(problem).toBeUndefined();
    expect(before).toBe(Buffer.byteLength(JSON.stringify([good('c')])));
  });

  it('checkJsonTool never throws, whatever a trap does', () => {
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw 'a string';
        },
      },
    );
    expect(checkJsonTool({ name: 'x', inputSchema: { a: [hostile] } }, 1000)).toEqual({ path: '/inputSchema/a/0', message: 'a Proxy is not plain JSON (pass a plain copy of the tool)' });
    const weird = Object.create(null) as Record<string, unknown>;
    Object.defineProperty(weird, 'v', { enumerable: true, get: () => 1 });
    expect(checkJsonTool({ inputSchema: weird }, 1000)).toEqual({ path: '/inputSchema/v', message: 'an accessor (getter/setter) is not a JSON value' });
  });
});
