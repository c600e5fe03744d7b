// What similarity costs on one bundle: mining throughput and the time each mode adds (for `npm run bench`).
import { readBundle, type ReadOptions } from '../src/ingest/read-bundle.js';
import { createMiner } from '../src/similarity/drain.js';
import { loadKnowledgeBase, type KnownIssue } from '../src/similarity/knowledge-base.js';
import { findSimilar } from '../src/similarity/match.js';

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
  /** Milliseconds of similarity work in-process: mining, candidates, matching, model load (not the scan's extra literals). */
  addedMs: number;
  /** Known issues found. */
  matches: number;
}

/** The measurements. */
export interface MiningBenchResult {
  bundle: string;
  /** Error-like lines the reader handed the miner's tap. */
  lines: number;
  /** The whole read with the miner attached, ms. */
  readMs: number;
  /** Time spent in the miner itself, ms. */
  miningMs: number;
  /** Lines mined per second of mining time. */
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
 * Reads `bundle` once with the miner's tap, timing the miner's own work line by line (two
 * clock reads per mined line cost far less than the mining), then matches its candidates in
 * each mode. End-to-end costs of each mode come from timing `analyze` itself (`npm run bench`).
 */
export async function measureMining(bundle: string, options: MiningBenchOptions = {}): Promise<MiningBenchResult> {
  const kb = options.kb ?? loadKnowledgeBase();
  const miner = createMiner();
  let lines = 0;
  let miningMs = 0;
  const read = await timed(() =>
    readBundle(bundle, {
      ...options.read,
      observeLines: (t) => {
        const tap = miner.tap(t);
        if (!tap) return undefined;
        // Both ways in, as the reader uses them: lines it handed over come as text, the rest as
        // views of their bytes (the miner decodes those only when it must).
        const timedCall = <A extends unknown[]>(f: (...args: A) => void) => (...args: A): void => {
          const t0 = performance.now();
          f(...args);
          miningMs += performance.now() - t0;
          lines++;
        };
        return {
          literals: tap.literals,
          observe: timedCall(tap.observe),
          ...(tap.observeLine ? { observeLine: timedCall(tap.observeLine) } : {}),
          // The reader spares a saturated miner the middle of long logs, as in analyze.
          ...(tap.saturated ? { saturated: tap.saturated } : {}),
        };
      },
    }),
  );
  const stats = miner.stats();
  const candidates = await timed(async () => miner.candidates());
  const modes: ModeCost[] = [{ mode: 'off', addedMs: 0, matches: 0 }];
  const lexical = await timed(async () => findSimilar(candidates.value, kb, { mode: 'lexical' }));
  modes.push({ mode: 'lexical', addedMs: Math.round(miningMs + candidates.ms + lexical.ms), matches: lexical.value.length });
  if (options.modelDir) {
    const emb = await timed(async () =>
      findSimilar(candidates.value, kb, { mode: 'embeddings', modelDir: options.modelDir, ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}) }),
    );
    modes.push({ mode: 'embeddings', addedMs: Math.round(miningMs + candidates.ms + emb.ms), matches: emb.value.length });
  }
  return {
    bundle,
    lines,
    readMs: Math.round(read.ms),
    miningMs: Math.round(miningMs),
    linesPerSecond: Math.round(lines / Math.max(miningMs / 1000, 1e-6)),
    templates: stats.templates,
    overflow: stats.overflow,
    modes,
  };
}

/** The measurements as a few lines of text. */
export function formatMiningBench(r: MiningBenchResult): string {
  const out = [
    `template mining on ${r.bundle}: ${r.lines} error-like lines, ${r.templates} templates${r.overflow > 0 ? ` (${r.overflow} lines past the cap)` : ''}`,
    `  read with the miner ${r.readMs} ms, of which mining ${r.miningMs} ms: ${r.linesPerSecond.toLocaleString('en-US')} lines/s mined`,
    ...r.modes.map((m) => `  --similarity ${m.mode.padEnd(10)} +${m.addedMs} ms in the miner and matcher${m.mode === 'off' ? '' : ` (${m.matches} known issues matched)`}`),
  ];
  return `${out.join('\n')}\n`;
}
