/** Turning `description-collision` off must skip the comparison itself, not only hide its findings. */
import { describe, expect, it, vi } from 'vitest';
import * as collisions from '../../src/lint/collisions.js';
import { lintTools } from '../../src/lint/index.js';

vi.mock('../../src/lint/collisions.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/lint/collisions.js')>();
  return { ...real, findCollisions: vi.fn(real.findCollisions) };
});

const tools = [
  { name: 'a_one', description: 'Same words here', inputSchema: { type: 'object' } },
  { name: 'a_two', description: 'Same words here', inputSchema: { type: 'object' } },
];

describe('description-collision off', () => {
  it('runs the comparison by default', () => {
    vi.mocked(collisions.findCollisions).mockClear();
    expect(lintTools(tools).some((f) => f.code === 'description-collision')).toBe(true);
    expect(collisions.findCollisions).toHaveBeenCalledTimes(1);
  });

  it('does not run it when the severity is off or the threshold is false', () => {
    vi.mocked(collisions.findCollisions).mockClear();
    expect(lintTools(tools, { severity: { 'description-collision': 'off' } }).some((f) => f.code === 'description-collision')).toBe(false);
    expect(lintTools(tools, { collisionThreshold: false }).some((f) => f.code === 'description-collision')).toBe(false);
    expect(collisions.findCollisions).not.toHaveBeenCalled();
  });
});
