// Matches a bundle's candidate templates against the known-issue knowledge base and ranks the entries.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CategoryId, StageId } from '../taxonomy.js';
import { cacheKey, cacheRead, cacheWrite } from '../util/disk-cache.js';
import type { LineRef } from './drain.js';
import { EmbeddingError, knowledgeBaseVectors, loadEmbedder } from './embeddings.js';
import type { KnownIssue } from './knowledge-base.js';
import { buildLexicalIndex, cosine, featuresOf, lexicalVector, type LexicalIndex, type SparseVector } from './lexical.js';
import { lineTemplate } from './line-template.js';
import { embeddingText } from './tokens.js';
import type { SimilarIssue, SimilarityMode, SimilarLine } from '../result/types.js';
import { byCodeUnits } from '../util/byte-order.js';

export type { SimilarIssue, SimilarityMode, SimilarLine } from '../result/types.js';

/** Every mode, for option parsing. */
export const SIMILARITY_MODES: readonly SimilarityMode[] = ['lexical', 'embeddings', 'off'];

/** What matching needs of a candidate: its template and the line it was first seen on. */
export interface SimilarityCandidate {
  template: string;
  example: LineRef;
  /** False when the template stopped before the failure (a transient error); it then counts less. */
  persisting?: boolean;
}



/** How to match. */
export interface FindSimilarOptions {
  mode: SimilarityMode;
  /** The sentence-transformer folder (embeddings mode). */
  modelDir?: string;
  /** Where knowledge-base vectors are cached (embeddings mode); default `~/.cache/bootlens`. */
  cacheDir?: string;
  /** Least score reported; default 0.45 lexical, 0.6 embeddings. */
  minScore?: number;
  /** Most issues returned; default 5. */
  limit?: number;
}

/** Default least score per mode: cosines of TF-IDF and of sentence embeddings run on different scales. */
export const DEFAULT_MIN_SCORE: Record<Exclude<SimilarityMode, 'off'>, number> = { lexical: 0.45, embeddings: 0.6 };

const MAX_MATCHED_LINES = 5;

interface PreparedCandidate {
  example: LineRef;
  /** The example line (header removed, masked) and the template, as one text. */
  template: string;
  /** 1, or less for an error that healed before the failure. */
  weight: number;
}

/** What a transient candidate's similarity is multiplied by. */
const TRANSIENT_WEIGHT = 0.8;

function prepare(candidates: readonly SimilarityCandidate[]): PreparedCandidate[] {
  const seen = new Set<string>();
  const out: PreparedCandidate[] = [];
  for (const c of candidates) {
    // The example keeps the words Drain turned into `<*>`; the template keeps the end of a line
    // the example was cut at. Together they carry all the words.
    const example = c.example.text ? lineTemplate(c.example.text).template : '';
    const template = example && example !== c.template ? `${example} ${c.template}` : c.template;
    if (seen.has(template)) continue;
    seen.add(template);
    out.push({ example: c.example, template, weight: c.persisting === false ? TRANSIENT_WEIGHT : 1 });
  }
  return out;
}

/** The masked template of each line of an entry. */
export function knownIssueTemplates(entry: KnownIssue): string[] {
  return entry.lines.map((l) => lineTemplate(l).template);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * Scores each entry from a similarity between candidates and its lines: for each entry line
 * the best candidate; the entry's score is 0.8 × the best line + 0.2 × the mean over its lines
 * (an entry whose every line shows up beats one that shares a single line).
 */
function rank(
  candidates: readonly PreparedCandidate[],
  kb: readonly KnownIssue[],
  similarity: (candidate: number, entry: KnownIssue, line: number) => number,
  lineWeights: ReadonlyMap<string, readonly number[]>,
  minScore: number,
  limit: number,
): SimilarIssue[] {
  const out: SimilarIssue[] = [];
  for (const entry of kb) {
    const weights = lineWeights.get(entry.id) ?? [];
    const best = entry.lines.map((_, li) => {
      let score = 0;
      let at = -1;
      const lw = weights[li] ?? 1;
      candidates.forEach((c, ci) => {
        const s = similarity(ci, entry, li) * c.weight * lw;
        if (s > score) {
          score = s;
          at = ci;
        }
      });
      return { score, at, li };
    });
    const top = Math.max(0, ...best.map((b) => b.score));
    const mean = best.reduce((a, b) => a + b.score, 0) / Math.max(1, best.length);
    const score = round(0.8 * top + 0.2 * mean);
    if (score < minScore) continue;
    const matched = new Map<string, SimilarLine>();
    for (const b of [...best].sort((x, y) => y.score - x.score)) {
      if (b.at < 0 || b.score < minScore) continue;
      const ex = candidates[b.at].example;
      const key = `${ex.file}\u0000${ex.line}`;
      if (!matched.has(key)) matched.set(key, { file: ex.file, line: ex.line, text: ex.text, score: round(b.score), knownLine: entry.lines[b.li] });
    }
    const issue: SimilarIssue = {
      id: entry.id,
      title: entry.title,
      stage: entry.stage,
      category: entry.category,
      score,
      matchedLines: [...matched.values()].slice(0, MAX_MATCHED_LINES),
      fix: entry.fix,
      references: entry.references,
    };
    if (entry.rule) issue.rule = entry.rule;
    out.push(issue);
  }
  return out.sort((a, b) => b.score - a.score || byCodeUnits(a.id, b.id)).slice(0, limit);
}

/** The knowledge base's TF-IDF model: the index and each entry line's vector. */
interface LexicalModel {
  index: LexicalIndex;
  vectors: Map<string, SparseVector[]>;
  /** Per entry line, how much it tells this entry apart (see `lineSpecificity`). */
  weights: Map<string, number[]>;
}

const lexicalModels = new WeakMap<readonly KnownIssue[], LexicalModel>();

/** The model as JSON: Maps as entry lists (numbers round-trip exactly). */
interface StoredModel {
  documents: number;
  unseen: number;
  idf: [string, number][];
  vectors: [string, [string, number][][]][];
  weights: [string, number[]][];
}

function storeModel(m: LexicalModel): string {
  const stored: StoredModel = {
    documents: m.index.documents,
    unseen: m.index.unseen,
    idf: [...m.index.idf],
    vectors: [...m.vectors].map(([id, lines]) => [id, lines.map((v) => [...v])]),
    weights: [...m.weights],
  };
  return JSON.stringify(stored);
}

/** Whether a value is an array whose items all pass `item`. */
function arrayOf<T>(value: unknown, item: (v: unknown) => v is T): value is T[] {
  return Array.isArray(value) && value.every(item);
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isFeature = (v: unknown): v is [string, number] => Array.isArray(v) && v.length === 2 && isString(v[0]) && isNumber(v[1]);
const isVectorList = (v: unknown): v is [string, number][][] => arrayOf(v, (x): x is [string, number][] => arrayOf(x, isFeature));

/** The model read back from the cache, every field checked (it is never trusted); undefined when it is not one. */
function restoreModel(text: string): LexicalModel | undefined {
  const s = JSON.parse(text) as Partial<Record<keyof StoredModel, unknown>> | null;
  if (s === null || typeof s !== 'object' || !isNumber(s.documents) || !isNumber(s.unseen) || !arrayOf(s.idf, isFeature)) return undefined;
  if (!arrayOf(s.vectors, (x): x is [string, [string, number][][]] => Array.isArray(x) && x.length === 2 && isString(x[0]) && isVectorList(x[1]))) return undefined;
  if (!arrayOf(s.weights, (x): x is [string, number[]] => Array.isArray(x) && x.length === 2 && isString(x[0]) && arrayOf(x[1], isNumber))) return undefined;
  return {
    index: { documents: s.documents, unseen: s.unseen, idf: new Map(s.idf) },
    vectors: new Map(s.vectors.map(([id, lines]) => [id, lines.map((v) => new Map(v))])),
    weights: new Map(s.weights),
  };
}

/** The code the model is computed by: a change to it is a new cache key. */
function modelSources(): string[] {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return ['./match', './lexical', './tokens', './line-template'].map((n) => readFileSync(fileURLToPath(new URL(`${n}.${ext}`, import.meta.url)), 'utf8'));
}

function computeModel(kb: readonly KnownIssue[]): LexicalModel {
  const kbFeatures = new Map(kb.map((e) => [e.id, knownIssueTemplates(e).map(featuresOf)] as const));
  const index = buildLexicalIndex([...kbFeatures.values()].flat());
  const vectors = new Map([...kbFeatures].map(([id, lines]) => [id, lines.map((f) => lexicalVector(index, f))] as const));
  return { index, vectors, weights: lineSpecificity(vectors) };
}

/**
 * The knowledge base's model, once per process and cached on disk by the entries' content and
 * the code that computes it (comparing every entry line with every other is start-up work).
 */
function lexicalModel(kb: readonly KnownIssue[]): LexicalModel {
  const known = lexicalModels.get(kb);
  if (known) return known;
  let key: string | undefined;
  try {
    key = cacheKey('lexical-model-v1', ...modelSources(), JSON.stringify(kb.map((e) => [e.id, e.lines])));
  } catch {
    key = undefined;
  }
  let model = key === undefined ? undefined : cacheRead('lexical-model', key, restoreModel);
  if (!model) {
    model = computeModel(kb);
    if (key !== undefined) cacheWrite('lexical-model', key, storeModel(model));
  }
  lexicalModels.set(kb, model);
  return model;
}

/**
 * A line that other entries share almost word for word (`Pull failed. Retrying ...`) says little
 * about which issue this is: its weight falls from 1 (nothing similar elsewhere, cosine ≤ 0.5)
 * to 0.3 (an identical line in another entry).
 */
function lineSpecificity(vectors: ReadonlyMap<string, readonly SparseVector[]>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [id, lines] of vectors) {
    out.set(
      id,
      lines.map((v) => {
        let closest = 0;
        for (const [other, otherLines] of vectors) {
          if (other === id) continue;
          for (const o of otherLines) closest = Math.max(closest, cosine(v, o));
        }
        return 1 - 0.7 * Math.min(1, Math.max(0, (closest - 0.5) / 0.5));
      }),
    );
  }
  return out;
}

/** Lexical matching: TF-IDF learnt from the knowledge-base lines, cosine per pair. */
function matchLexical(candidates: readonly PreparedCandidate[], kb: readonly KnownIssue[], minScore: number, limit: number): SimilarIssue[] {
  const model = lexicalModel(kb);
  const candVectors = candidates.map((c) => lexicalVector(model.index, featuresOf(c.template)));
  return rank(candidates, kb, (ci, entry, li) => cosine(candVectors[ci], (model.vectors.get(entry.id) ?? [])[li]), model.weights, minScore, limit);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/** Embedding matching: the model's unit vectors of candidate and entry texts, cosine per pair. */
async function matchEmbeddings(
  candidates: readonly PreparedCandidate[],
  kb: readonly KnownIssue[],
  options: FindSimilarOptions,
  minScore: number,
  limit: number,
): Promise<SimilarIssue[]> {
  if (!options.modelDir) throw new EmbeddingError('--similarity embeddings needs --model DIR (a local sentence-transformer folder)');
  const embedder = await loadEmbedder(options.modelDir);
  const kbVectors = await knowledgeBaseVectors(embedder, kb, (e) => knownIssueTemplates(e).map(embeddingText), options.cacheDir);
  // Templates, not raw lines: the model sees what varies masked away, as the entries are.
  const candVectors = await embedder.embed(candidates.map((c) => embeddingText(c.template)));
  // Which lines tell entries apart is a property of the knowledge base: the lexical model says it.
  const weights = lexicalModel(kb).weights;
  return rank(candidates, kb, (ci, entry, li) => Math.max(0, dot(candVectors[ci], (kbVectors.get(entry.id) ?? [])[li] ?? new Float32Array())), weights, minScore, limit);
}

/**
 * The known issues the candidates look like, best first. Scores are cosines (TF-IDF or
 * embeddings) combined per entry: 0.8 × its best-matched line + 0.2 × the mean over its lines.
 * Mode `off` returns nothing; `embeddings` loads the model from `modelDir` only, never the network.
 */
export async function findSimilar(
  candidates: readonly SimilarityCandidate[],
  kb: readonly KnownIssue[],
  options: FindSimilarOptions,
): Promise<SimilarIssue[]> {
  if (options.mode === 'off' || candidates.length === 0 || kb.length === 0) return [];
  const prepared = prepare(candidates);
  const limit = options.limit ?? 5;
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE[options.mode];
  if (options.mode === 'lexical') return matchLexical(prepared, kb, minScore, limit);
  return matchEmbeddings(prepared, kb, options, minScore, limit);
}
