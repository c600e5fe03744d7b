// The similarity step of an analysis: mine the error-like lines as the reader streams them,
// then match the templates new near the failure against the known-issue knowledge base.
import type { LineTap } from '../specs/line-filter.js';
import type { LogRef } from '../model/source-id.js';
import type { Bundle } from '../model/types.js';
import { bundleLogs } from '../model/walk.js';
import { createMiner, type TemplateMiner } from '../similarity/drain.js';
import { loadKnowledgeBase, type KnownIssue } from '../similarity/knowledge-base.js';
import { findSimilar, type SimilarIssue, type SimilarityMode } from '../similarity/match.js';

/** How `analyze` looks for similar known issues. */
export interface SimilarityOptions {
  mode: SimilarityMode;
  /** The sentence-transformer folder (`embeddings`). */
  modelDir?: string;
  /** Where knowledge-base vectors are cached (`embeddings`). */
  cacheDir?: string;
  /** The knowledge base; default the shipped `rules/known-issues/`. */
  kb?: readonly KnownIssue[];
}

/** One analysis's similarity: hand `tap` to the reader, then call `match` with the model. */
export class SimilarityStep {
  private readonly miner: TemplateMiner | undefined;

  constructor(private readonly options: SimilarityOptions) {
    this.miner = options.mode === 'off' ? undefined : createMiner();
  }

  /** The reader's tap for a log: error-like lines only; undefined when similarity is off. */
  tap(target: LogRef): LineTap | undefined {
    return this.miner?.tap(target);
  }

  /** The known issues the mined candidates look like; loads the model when embeddings are asked for. */
  async match(bundle: Bundle): Promise<{ similar: SimilarIssue[]; candidates: number }> {
    const miner = this.miner;
    if (!miner) return { similar: [], candidates: 0 };
    // The miner saw error-like lines only: the model knows where each log really ends.
    for (const log of bundleLogs(bundle)) miner.noteFileEnd(log.source.file, log.lineCount, log.lastTime);
    const candidates = miner.candidates();
    const kb = this.options.kb ?? shippedKnowledgeBase();
    const similar = await findSimilar(candidates, kb, {
      mode: this.options.mode,
      ...(this.options.modelDir ? { modelDir: this.options.modelDir } : {}),
      ...(this.options.cacheDir ? { cacheDir: this.options.cacheDir } : {}),
    });
    return { similar, candidates: candidates.length };
  }
}

let shipped: KnownIssue[] | undefined;

/** The shipped knowledge base: the known failures of the shipped catalogue (loaded once with it). */
export function shippedKnowledgeBase(): KnownIssue[] {
  return (shipped ??= loadKnowledgeBase());
}
