// Lexical similarity: TF-IDF over template words and word pairs, compared by cosine; no model, deterministic.
import { wordsOf } from './tokens.js';

/** A sparse, unit-length vector: feature → weight. */
export type SparseVector = ReadonlyMap<string, number>;

/** Inverse document frequencies learned from the knowledge-base lines. */
export interface LexicalIndex {
  /** Lines the frequencies were counted over. */
  readonly documents: number;
  readonly idf: ReadonlyMap<string, number>;
  /** Weight of a feature no knowledge-base line has (the rarest possible). */
  readonly unseen: number;
}

/**
 * Features of a template: its words, and each pair of neighbouring words (order carries
 * meaning: `connection refused` is not `refused connection`).
 */
export function featuresOf(template: string): string[] {
  const words = wordsOf(template);
  const out = [...words];
  for (let i = 0; i + 1 < words.length; i++) out.push(`${words[i]} ${words[i + 1]}`);
  return out;
}

/** Counts document frequencies over `documents` (each a feature list). */
export function buildLexicalIndex(documents: readonly (readonly string[])[]): LexicalIndex {
  const df = new Map<string, number>();
  for (const doc of documents) for (const f of new Set(doc)) df.set(f, (df.get(f) ?? 0) + 1);
  const n = documents.length;
  const idf = new Map<string, number>();
  // Smoothed so that a feature in every line still weighs a little.
  for (const [f, d] of df) idf.set(f, Math.log(1 + n / d));
  return { documents: n, idf, unseen: Math.log(1 + n) };
}

/** The unit TF-IDF vector of a feature list (sub-linear term frequency). */
export function lexicalVector(index: LexicalIndex, features: readonly string[]): SparseVector {
  const tf = new Map<string, number>();
  for (const f of features) tf.set(f, (tf.get(f) ?? 0) + 1);
  const v = new Map<string, number>();
  let norm = 0;
  for (const [f, count] of tf) {
    // Pairs count half: they confirm words already counted.
    const w = (1 + Math.log(count)) * (index.idf.get(f) ?? index.unseen) * (f.includes(' ') ? 0.5 : 1);
    v.set(f, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [f, w] of v) v.set(f, w / norm);
  return v;
}

/** Cosine of two unit vectors. */
export function cosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [f, w] of small) {
    const o = large.get(f);
    if (o !== undefined) dot += w * o;
  }
  return dot;
}
