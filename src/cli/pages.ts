/** One `tools/list` result holding every page's tools, keyed like the first page, without `nextCursor`. */
export function mergePages(pages: readonly Record<string, unknown>[]): Record<string, unknown> {
  if (pages.length === 1 && !Object.prototype.hasOwnProperty.call(pages[0]!, 'nextCursor')) return pages[0]!;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(pages[0]!)) {
    if (key === 'nextCursor') continue;
    out[key] = key === 'tools' ? pages.flatMap((p) => p.tools as unknown[]) : pages[0]![key];
  }
  return out;
}
