// The blind figure: how bootlens did on each case when it was first scored, before any change the
// case prompted (its `blind:` record), summed up beside how today's code does on the same cases.
// The blind figure is the one that predicts the next bundle; the tuned one measures fit.
import type { RealCase } from './cases.js';
import { pct, type CaseOutcome } from './evaluate.js';

export interface BlindSummary {
  /** Cases with a `blind:` record. */
  scored: number;
  failures: number;
  healthy: number;
  stageOk: number;
  categoryOk: number;
  healthyCalledFailed: string[];
  /** The printable summary. */
  text: string;
}

function blindRight(c: RealCase): { stage: boolean; category: boolean } {
  const b = c.blind;
  if (!b) return { stage: false, category: false };
  if (c.expected.status === 'healthy') return { stage: b.status !== 'failed', category: b.status !== 'failed' };
  const failed = b.status === 'failed';
  return { stage: failed && b.stage === c.expected.stage, category: failed && b.category === c.expected.category };
}

function said(b: NonNullable<RealCase['blind']>): string {
  return b.status === 'failed' ? `${b.stage ?? '-'}/${b.category ?? '-'}` : b.status;
}

/**
 * Sums up the blind records of `cases`; with `today` (today's outcomes of the same run), also how
 * today's code does on the blind cases, so the two figures speak of the same cases.
 */
export function summarizeBlind(cases: RealCase[], today: CaseOutcome[] = []): BlindSummary {
  const scored = cases.filter((c) => c.blind);
  const failed = scored.filter((c) => c.expected.status === 'failed');
  const healthy = scored.filter((c) => c.expected.status === 'healthy');
  const stageOk = failed.filter((c) => blindRight(c).stage).length;
  const categoryOk = failed.filter((c) => blindRight(c).category).length;
  const healthyCalledFailed = healthy.filter((c) => c.blind?.status === 'failed').map((c) => c.id);
  const out: string[] = [];
  out.push(
    `blind (as first scored, before any change the case prompted; ${failed.length} failures, ${healthy.length} healthy with blind:): ` +
      `stage ${pct(stageOk, failed.length)} (${stageOk}/${failed.length}), category ${pct(categoryOk, failed.length)} (${categoryOk}/${failed.length}), ` +
      `healthy called failed ${healthyCalledFailed.length}/${healthy.length}`,
  );
  const byId = new Map(today.map((o) => [o.id, o]));
  const now = scored.map((c) => byId.get(c.id)).filter((o): o is CaseOutcome => o !== undefined);
  if (now.length === scored.length && scored.length > 0) {
    const f = now.filter((o) => o.expected.status === 'failed');
    const s = f.filter((o) => o.stageOk).length;
    const k = f.filter((o) => o.categoryOk).length;
    const h = now.filter((o) => o.expected.status === 'healthy' && o.got.status === 'failed').length;
    out.push(`  today's code on the same cases: stage ${pct(s, f.length)} (${s}/${f.length}), category ${pct(k, f.length)} (${k}/${f.length}), healthy called failed ${h}/${healthy.length}`);
  }
  const misses = scored.filter((c) => !blindRight(c).stage || !blindRight(c).category);
  if (misses.length > 0) {
    out.push('  blind misses (expected → first scored, with):');
    for (const c of misses) {
      const b = c.blind as NonNullable<RealCase['blind']>;
      const expected = c.expected.status === 'failed' ? `${c.expected.stage}/${c.expected.category}` : 'healthy';
      out.push(`    ${c.id}: ${expected} → ${said(b)} (${b.scoredWith}, ${b.on})`);
    }
  }
  return { scored: scored.length, failures: failed.length, healthy: healthy.length, stageOk, categoryOk, healthyCalledFailed, text: out.join('\n') };
}
