/**
 * The collision oracle the collision tests share: every pair of texts compared by the Jaccard index of their
 * character-bigram sets, with plain Sets of two-character strings. It shares no code with the search
 * (src/lint/collisions.ts) and prunes nothing.
 */

/**
 * For each text, the others whose score is at or above `threshold` (and above 0), most similar first, ties
 * by position, at most `partners` of them.
 */
export function allPairsPartners(texts: readonly string[], threshold: number, partners: number): { toolIndex: number; score: number }[][] {
  const sets = texts.map((text) => {
    const chars = Array.from(text);
    const set = new Set<string>();
    for (let i = 0; i + 1 < chars.length; i++) set.add(chars[i]! + '\u0000' + chars[i + 1]!);
    return set;
  });
  return texts.map((_, x) => {
    const found: { toolIndex: number; score: number }[] = [];
    for (let y = 0; y < texts.length; y++) {
      if (y === x) continue;
      let inter = 0;
      for (const g of sets[x]!) if (sets[y]!.has(g)) inter++;
      const union = sets[x]!.size + sets[y]!.size - inter;
      const score = union === 0 ? 0 : inter / union;
      if (score >= threshold && score > 0) found.push({ toolIndex: y, score });
    }
    found.sort((p, q) => q.score - p.score || p.toolIndex - q.toolIndex);
    return found.slice(0, partners);
  });
}
