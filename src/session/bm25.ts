/**
 * A small Okapi BM25 ranker: what the proxy's search tool (`toolslim proxy --search`, tool-search.ts) ranks
 * cold tools by, over their names and descriptions, and the same ranking the session bench prices its
 * search-based mechanisms with (bench/lib/sessions/peers.ts imports it: one implementation).
 *
 * Score of document d for query q: Σ over the distinct terms t of q that d holds of
 *   idf(t) · tf(t,d) · (k1 + 1) / (tf(t,d) + k1 · (1 − b + b · |d| / avgdl)),
 * idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5)) (the non-negative form Lucene uses), k1 = 1.2, b = 0.75.
 * A term repeated in the query counts once. Ties keep document order, so a ranking is deterministic.
 *
 * Terms: lower-cased runs of letters and digits, with snake_case, kebab-case and camelCase split into words
 * (`get_fileContents` → get, file, contents), so a tool's name is searchable by its words.
 */

export interface Bm25Options {
  readonly k1?: number;
  readonly b?: number;
}

/**
 * The terms of a text (see the module comment). The camelCase split is one pass: a space before an ASCII
 * capital that follows a lowercase letter or digit (`getFile` → get File), or that follows a capital and
 * precedes a lowercase letter (`HTTPServer` → HTTP Server), as the replacements
 * `/([a-z0-9])([A-Z])/g → '$1 $2'` then `/([A-Z]+)([A-Z][a-z])/g → '$1 $2'` place it (checked against them).
 * The second expression retried its capital run from every start: a search query of 40,000 capitals took
 * 0.6 s, 400,000 a minute, on the proxy's one thread.
 */
export function terms(text: string): string[] {
  let spaced = '';
  let from = 0;
  for (let i = 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 65 || c > 90) continue;
    const before = text.charCodeAt(i - 1);
    const after = text.charCodeAt(i + 1); // NaN past the end
    if ((before >= 97 && before <= 122) || (before >= 48 && before <= 57) || (before >= 65 && before <= 90 && after >= 97 && after <= 122)) {
      spaced += text.slice(from, i) + ' ';
      from = i;
    }
  }
  spaced += text.slice(from);
  return spaced.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export class Bm25 {
  readonly #docs: Map<string, number>[];
  readonly #lengths: number[];
  readonly #df = new Map<string, number>();
  readonly #avgdl: number;
  readonly #k1: number;
  readonly #b: number;
  /**
   * Each term's documents and counts, in document order: a query reads only the documents holding its
   * terms. (Reading every document for every term of the query made a query of 50,000 distinct words over
   * 31,560 tools take 54 s, on the proxy's one thread; a search tool's query is whatever the model sends.)
   */
  readonly #postings = new Map<string, { readonly docs: number[]; readonly tfs: number[] }>();
  /** Each document's length normalisation, `1 − b + b · |d| / avgdl` (1 when every document is empty). */
  readonly #norms: number[];

  constructor(documents: readonly string[], options: Bm25Options = {}) {
    this.#k1 = options.k1 ?? 1.2;
    this.#b = options.b ?? 0.75;
    this.#docs = documents.map((d) => {
      const tf = new Map<string, number>();
      for (const t of terms(d)) tf.set(t, (tf.get(t) ?? 0) + 1);
      return tf;
    });
    this.#lengths = documents.map((_d, i) => [...this.#docs[i]!.values()].reduce((a, b) => a + b, 0));
    for (const tf of this.#docs) for (const t of tf.keys()) this.#df.set(t, (this.#df.get(t) ?? 0) + 1);
    const total = this.#lengths.reduce((a, b) => a + b, 0);
    this.#avgdl = documents.length === 0 ? 0 : total / documents.length;
    this.#norms = this.#lengths.map((len) => (this.#avgdl === 0 ? 1 : 1 - this.#b + (this.#b * len) / this.#avgdl));
    this.#docs.forEach((tf, i) => {
      for (const [t, f] of tf) {
        let p = this.#postings.get(t);
        if (p === undefined) this.#postings.set(t, (p = { docs: [], tfs: [] }));
        p.docs.push(i);
        p.tfs.push(f);
      }
    });
  }

  get size(): number {
    return this.#docs.length;
  }

  idf(term: string): number {
    const n = this.#df.get(term) ?? 0;
    const N = this.#docs.length;
    return Math.log(1 + (N - n + 0.5) / (n + 0.5));
  }

  /**
   * The BM25 score of every document for `query`, in document order. Each document's terms are added in
   * the query's order, as the formula reads (so the sums are the same floating-point numbers).
   */
  scores(query: string): number[] {
    const out = new Array<number>(this.#docs.length).fill(0);
    const k1 = this.#k1;
    for (const t of new Set(terms(query))) {
      const p = this.#postings.get(t);
      if (p === undefined) continue;
      const idf = this.idf(t);
      for (let j = 0; j < p.docs.length; j++) {
        const i = p.docs[j]!;
        const f = p.tfs[j]!;
        out[i] = out[i]! + (idf * f * (k1 + 1)) / (f + k1 * this.#norms[i]!);
      }
    }
    return out;
  }

  /** Document indexes by descending score (ties in document order); documents that score 0 come last, in order. */
  rank(query: string): number[] {
    const s = this.scores(query);
    return s.map((_v, i) => i).sort((a, b) => s[b]! - s[a]! || a - b);
  }

  /** The documents that score above 0 for `query`, best first (ties in document order), at most `limit`. */
  top(query: string, limit: number): number[] {
    const s = this.scores(query);
    const hits: number[] = [];
    for (let i = 0; i < s.length; i++) if (s[i]! > 0) hits.push(i);
    return hits.sort((a, b) => s[b]! - s[a]! || a - b).slice(0, limit);
  }
}

/**
 * A regex search as a model writes one for a tool-search feature (Anthropic's regex variant), stood in for by
 * the query's content words as an alternation (`weather|forecast|city`), case-insensitive, over name and
 * description: documents ranked by how many distinct words match, ties in document order. Words of fewer
 * than 3 letters and a short stop list are left out (a model does not put them in a pattern).
 */
export function regexRank(documents: readonly string[], query: string): number[] {
  const words = [...new Set(terms(query).filter((w) => w.length >= 3 && !STOP.has(w)))];
  const docs = documents.map((d) => new Set(terms(d)));
  const hits = docs.map((d) => words.filter((w) => [...d].some((t) => t.includes(w))).length);
  return hits.map((_v, i) => i).sort((a, b) => hits[b]! - hits[a]! || a - b);
}

const STOP = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'you', 'your', 'are', 'can', 'please', 'then', 'also', 'have', 'has', 'will', 'what', 'which', 'all', 'its', 'out', 'there', 'them', 'those', 'these', 'was', 'were', 'would', 'could', 'should', 'about', 'after', 'before', 'under', 'over', 'just', 'but', 'not', 'any', 'some', 'one', 'let', 'like', 'need', 'want', 'make', 'sure', 'now']);
