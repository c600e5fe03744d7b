// What similarity costs on one bundle: mining throughput and the time each mode adds (for `npm run bench`).
import { readBundle, type ReadOptions } from '../ingest/read-bundle.js';
import { createMiner } from './drain.js';
import { loadKnowledgeBase, type KnownIssue } from './knowledge-base.js';
import { findSimilar } from './match.js';

/** Options of `measureMining`. */
export interface MiningBenchOptions {
  /** Also time `--similarity embeddings` with this model folder. */
  modelDir?: string;
  cacheDir?: string;
  /** Knowledge base to match against; default the shipped one. */
  kb?: readonly KnownIssue[];
  read?: Omit<ReadOptions, 'observeLines'>;
}

/** One mode's cost on top of the plain read. */
export interface ModeCost {
  mode: 'off' | 'lexical' | 'embeddings';
  /** Milliseconds added to the plain read (mining, candidates, matching, model load). */
  addedMs: number;
  /** Known issues found. */
  matches: number;
}

/** The measurements. */
export interface MiningBenchResult {
  bundle: string;
  /** Lines the reader streamed through the observer. */
  lines: number;
  /** Read with a no-op line observer, ms. */
  readMs: number;
  /** The same read with the miner attached, ms. */
  minedReadMs: number;
  /** Lines mined per second of mining time (the difference of the two reads). */
  linesPerSecond: number;
  templates: number;
  overflow: number;
  modes: ModeCost[];
}

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await f();
  return { ms: performance.now() - t0, value };
}

/**
 * Reads `bundle` twice (a no-op observer, then the miner) and matches its candidates in each
 * mode. The difference of the reads is the mining time; lines per second are over it.
 */
export async function measureMining(bundle: string, options: MiningBenchOptions = {}): Promise<MiningBenchResult> {
  const kb = options.kb ?? loadKnowledgeBase();
  let lines = 0;
  // The same call per line as the miner's, doing nothing: the read's own cost.
  const base = await timed(() => readBundle(bundle, { ...options.read, observeLines: () => () => void lines++ }));
  const miner = createMiner();
  const mined = await timed(() => readBundle(bundle, { ...options.read, observeLines: miner.observer }));
  const miningMs = Math.max(1, mined.ms - base.ms);
  const stats = miner.stats();

  const modes: ModeCost[] = [{ mode: 'off', addedMs: 0, matches: 0 }];
  const lexical = await timed(async () => findSimilar(miner.candidates(), kb, { mode: 'lexical' }));
  modes.push({ mode: 'lexical', addedMs: Math.round(miningMs + lexical.ms), matches: lexical.value.length });
  if (options.modelDir) {
    const emb = await timed(async () =>
      findSimilar(miner.candidates(), kb, { mode: 'embeddings', modelDir: options.modelDir, ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}) }),
    );
    modes.push({ mode: 'embeddings', addedMs: Math.round(miningMs + emb.ms), matches: emb.value.length });
  }
  return {
    bundle,
    lines,
    readMs: Math.round(base.ms),
    minedReadMs: Math.round(mined.ms),
    linesPerSecond: Math.round(lines / (miningMs / 1000)),
    templates: stats.templates,
    overflow: stats.overflow,
    modes,
  };
}

/** The measurements as a few lines of text. */
export function formatMiningBench(r: MiningBenchResult): string {
  const out = [
    `template mining on ${r.bundle}: ${r.lines} lines, ${r.templates} templates${r.overflow > 0 ? ` (${r.overflow} lines past the cap)` : ''}`,
    `  read ${r.readMs} ms, read + mining ${r.minedReadMs} ms: ${r.linesPerSecond.toLocaleString('en-US')} lines/s mined`,
    ...r.modes.map((m) => `  --similarity ${m.mode.padEnd(10)} +${m.addedMs} ms${m.mode === 'off' ? '' : ` (${m.matches} known issues matched)`}`),
  ];
  return `${out.join('\n')}\n`;
}
