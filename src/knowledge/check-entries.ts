// `kb check`: runs every knowledge-base entry against healthy bundles (a match is noise) and,
// when given, failed ones (an entry matching none of them is dead).
import { InputError } from '../archive/walk-bundle.js';
import { readBundle } from '../ingest/read-bundle.js';
import { createMiner, type CandidateOptions, type CandidateTemplate } from '../similarity/drain.js';
import { loadKnowledgeBase, type KnownIssue } from '../similarity/knowledge-base.js';
import { findSimilar, type SimilarityMode, type SimilarLine } from '../similarity/match.js';
import { KbOptionError, type KbReadOptions } from './add-entry.js';
import { byCodeUnits } from '../util/byte-order.js';

async function mineBundle(bundle: string, read: KbReadOptions | undefined, candidates: CandidateOptions): Promise<CandidateTemplate[]> {
  const miner = createMiner();
  await readBundle(bundle, { ...read, observeLines: miner.observer });
  return miner.candidates(candidates);
}

/** `kb check --healthy <bundles...> [--against <bundles...>]`. */
export interface KbCheckOptions {
  /** Bundles of installations that succeeded: no entry may match them. */
  healthy: readonly string[];
  /** Bundles of failed installations: every entry should match at least one. */
  against?: readonly string[];
  /** Knowledge-base folder; default the shipped one. */
  kbDir?: string;
  mode?: Exclude<SimilarityMode, 'off'>;
  modelDir?: string;
  cacheDir?: string;
  minScore?: number;
  read?: KbReadOptions;
}

/** An entry that matched a bundle. */
export interface KbCheckMatch {
  id: string;
  bundle: string;
  score: number;
  lines: SimilarLine[];
}

/** The outcome of `kb check`. */
export interface KbCheckResult {
  entries: number;
  /** Entries that matched a healthy bundle: they fire on good installs. */
  noisy: KbCheckMatch[];
  /** With `against`: entries that matched none of those bundles. */
  unmatched: string[];
  /** With `against`: what each entry matched. */
  matched: KbCheckMatch[];
  /** Bundles that could not be read. */
  unreadable: { bundle: string; message: string }[];
}

// A healthy bundle has no failure to centre a window on: every error-like line counts.
const HEALTHY_CANDIDATES: CandidateOptions = { limit: 200, windowMs: 7 * 24 * 3_600_000 };

async function matchBundles(
  bundles: readonly string[],
  kb: readonly KnownIssue[],
  options: KbCheckOptions,
  candidates: CandidateOptions,
  unreadable: KbCheckResult['unreadable'],
): Promise<KbCheckMatch[]> {
  const out: KbCheckMatch[] = [];
  for (const bundle of bundles) {
    let cands: CandidateTemplate[];
    try {
      cands = await mineBundle(bundle, options.read, candidates);
    } catch (err) {
      if (err instanceof InputError) {
        unreadable.push({ bundle, message: err.message });
        continue;
      }
      throw err;
    }
    const similar = await findSimilar(cands, kb, {
      mode: options.mode ?? 'lexical',
      limit: kb.length,
      ...(options.modelDir !== undefined ? { modelDir: options.modelDir } : {}),
      ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
      ...(options.minScore !== undefined ? { minScore: options.minScore } : {}),
    });
    for (const s of similar) out.push({ id: s.id, bundle, score: s.score, lines: s.matchedLines });
  }
  return out;
}

/**
 * Runs every knowledge-base entry against healthy bundles (matches are noise) and, when
 * given, against failed bundles (entries matching none are reported).
 */
export async function checkEntries(options: KbCheckOptions): Promise<KbCheckResult> {
  if (options.healthy.length === 0) throw new KbOptionError('kb check: give at least one --healthy bundle');
  const kb = loadKnowledgeBase(options.kbDir);
  const unreadable: KbCheckResult['unreadable'] = [];
  const noisy = await matchBundles(options.healthy, kb, options, HEALTHY_CANDIDATES, unreadable);
  let matched: KbCheckMatch[] = [];
  let unmatched: string[] = [];
  if (options.against && options.against.length > 0) {
    matched = await matchBundles(options.against, kb, options, {}, unreadable);
    const hit = new Set(matched.map((m) => m.id));
    unmatched = kb.map((e) => e.id).filter((id) => !hit.has(id));
  }
  const order = (a: KbCheckMatch, b: KbCheckMatch): number => byCodeUnits(a.id, b.id) || b.score - a.score || byCodeUnits(a.bundle, b.bundle);
  return { entries: kb.length, noisy: noisy.sort(order), unmatched, matched: matched.sort(order), unreadable };
}

/** Whether the check found problems (the CLI exits 1 then). */
export function kbCheckFailed(result: KbCheckResult): boolean {
  return result.noisy.length > 0 || result.unmatched.length > 0;
}
