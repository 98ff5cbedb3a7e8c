/**
 * An independent walk for "key order kept": at every object reachable by the same path in both documents,
 * the keys present in both appear in the same relative order. Returns the first places where they do not.
 */
export function keyOrderChanges(before: unknown, after: unknown, limit = 5): string[] {
  const out: string[] = [];
  const stack: [unknown, unknown, string][] = [[before, after, '']];
  while (stack.length > 0 && out.length < limit) {
    const [a, b, path] = stack.pop()!;
    if (a === b) continue; // shared by copy-on-write: untouched
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.min(a.length, b.length); i++) stack.push([a[i], b[i], `${path}/${i}`]);
      continue;
    }
    if (!isPlainObject(a) || !isPlainObject(b)) continue;
    const inA = Object.keys(a).filter((k) => Object.prototype.hasOwnProperty.call(b, k));
    const inB = Object.keys(b).filter((k) => Object.prototype.hasOwnProperty.call(a, k));
    if (inA.some((k, i) => inB[i] !== k)) out.push(`${path || '/'}: ${inA.join(',')} became ${inB.join(',')}`);
    for (const k of inA) stack.push([a[k], b[k], `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
