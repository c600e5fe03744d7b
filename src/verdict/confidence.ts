// A verdict's confidence as a probability: how often a verdict made on this basis was right on
// the real corpus. The table is fitted by `npm run calibrate` (scripts/calibrate.ts) from the
// corpus, never tuned per case, and written to calibration.ts beside this module.
import type { CategoryId } from '../taxonomy.js';
import { CALIBRATION } from './calibration.js';
import type { Confidence } from '../result/types.js';

/** What a verdict's cause rests on: the features the calibration groups verdicts by. */
export type ConfidenceBasis =
  | { kind: 'rule'; confidence: Confidence; generic: boolean; sameStage: boolean; stageFailed: boolean; category: CategoryId }
  | { kind: 'similar'; score: number }
  | { kind: 'similar-only'; score: number }
  | { kind: 'no-cause' }
  | { kind: 'healthy' };

/** The calibration bins a basis falls into, most specific first. */
export function basisKeys(b: ConfidenceBasis): string[] {
  switch (b.kind) {
    case 'rule': {
      const rule = b.generic ? 'generic' : `rule-${b.confidence}`;
      return [`${rule}/${b.stageFailed ? 'stage-failed' : 'stage-open'}/${b.sameStage ? 'same' : 'earlier'}`, rule, 'rule'];
    }
    case 'similar':
    case 'similar-only':
      return [`${b.kind}/${b.score >= 0.8 ? 'high' : b.score >= 0.6 ? 'mid' : 'low'}`, b.kind];
    default:
      return [b.kind];
  }
}

/** One calibration bin: verdicts on this basis, how many were right, the smoothed rate. */
export interface CalibrationBin {
  n: number;
  right: number;
  p: number;
}

export interface CalibrationTable {
  /** How it was fitted: the script and the corpus size. */
  fittedBy: string;
  bins: Record<string, CalibrationBin>;
}

/** Bins with fewer verdicts than this fall back to the coarser bin that holds them. */
export const MIN_BIN = 5;

/** The prior before any calibration: the basis's nominal strength (used when the table lacks a bin). */
export function prior(b: ConfidenceBasis): number {
  switch (b.kind) {
    case 'rule':
      return b.generic ? 0.3 : { high: 0.9, medium: 0.6, low: 0.3 }[b.confidence];
    case 'similar':
      return Math.min(0.55, 0.2 + 0.4 * b.score);
    case 'similar-only':
      return Math.min(0.45, 0.2 + 0.4 * b.score);
    case 'no-cause':
      return 0.25;
    case 'healthy':
      return 0.8;
  }
}

/** The probability a verdict on this basis is right, from the fitted table (or the prior). */
export function calibratedConfidence(b: ConfidenceBasis, t: CalibrationTable = CALIBRATION): number {
  for (const key of basisKeys(b)) {
    const bin = t.bins[key];
    if (bin && bin.n >= MIN_BIN) return Math.round(bin.p * 100) / 100;
  }
  return Math.round(prior(b) * 100) / 100;
}
