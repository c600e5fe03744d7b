// The similarity step of an analysis: mine the error-like lines as the reader streams them,
// then match the templates new near the failure against the known-issue knowledge base.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LineTap } from '../specs/line-filter.js';
import type { LogRef } from '../model/source-id.js';
import type { Bundle } from '../model/types.js';
import { bundleLogs } from '../model/walk.js';
import { createMiner, type TemplateMiner } from '../similarity/drain.js';
import { defaultKnowledgeBaseDir, knownIssueFiles, loadKnowledgeBase, type KnownIssue } from '../similarity/knowledge-base.js';
import { cacheKey, cacheRead, cacheWrite } from '../util/disk-cache.js';
import { packageRoot } from '../util/package-root.js';
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

/**
 * The shipped knowledge base, parsed and validated once per set of entry files: cached on disk
 * by the files' paths and text and the code and schema that validate them (YAML parsing is
 * start-up time every analysis would pay). A bad entry is never cached: the real load throws.
 */
export function shippedKnowledgeBase(): KnownIssue[] {
  if (shipped) return shipped;
  let key: string | undefined;
  try {
    const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
    const code = readFileSync(fileURLToPath(new URL(`../similarity/knowledge-base.${ext}`, import.meta.url)));
    const schema = readFileSync(join(packageRoot(), 'schema', 'known-issue.schema.json'));
    const files = knownIssueFiles(defaultKnowledgeBaseDir());
    key = cacheKey('kb-v1', code, schema, ...files.flatMap((f) => [f, readFileSync(f)]));
  } catch {
    key = undefined;
  }
  const hit = key === undefined ? undefined : cacheRead('kb', `${key}.json`);
  if (hit !== undefined) {
    try {
      const parsed = JSON.parse(hit) as KnownIssue[];
      if (Array.isArray(parsed)) return (shipped = parsed);
    } catch {
      // Damaged: load for real below.
    }
  }
  const kb = loadKnowledgeBase();
  if (key !== undefined) cacheWrite('kb', `${key}.json`, JSON.stringify(kb));
  return (shipped = kb);
}
