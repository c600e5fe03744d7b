// Is a confidence a probability? Verdicts binned by their confidence, each bin's share that was
// right, and the expected calibration error (the bins' |confidence - share right|, weighted by
// their size). A verdict is right when it names the thread's stage and category (a failure), or
// does not call a healthy install failed.
import type { CaseOutcome } from './evaluate.js';

/** A verdict is right when stage and category are both the thread's (or a healthy install is not called failed). */
export function verdictRight(o: CaseOutcome): boolean {
  return o.expected.status === 'failed' ? o.stageOk && o.categoryOk : o.got.status !== 'failed';
}

export interface ReliabilityBin {
  from: number;
  to: number;
  n: number;
  meanConfidence: number;
  shareRight: number;
}

const EDGES = [0, 0.2, 0.4, 0.6, 0.8, 1.0001];

/** Verdicts with a confidence, binned; refused cases have none and are left out. */
export function reliability(outcomes: readonly { confidence: number; right: boolean }[]): { bins: ReliabilityBin[]; ece: number; highWrong: { n: number; wrong: number } } {
  const bins: ReliabilityBin[] = [];
  let ece = 0;
  const total = outcomes.length;
  for (let i = 0; i + 1 < EDGES.length; i++) {
    const inBin = outcomes.filter((o) => o.confidence >= EDGES[i] && o.confidence < EDGES[i + 1]);
    if (inBin.length === 0) continue;
    const mean = inBin.reduce((s, o) => s + o.confidence, 0) / inBin.length;
    const share = inBin.filter((o) => o.right).length / inBin.length;
    bins.push({ from: EDGES[i], to: Math.min(1, EDGES[i + 1]), n: inBin.length, meanConfidence: mean, shareRight: share });
    ece += (inBin.length / total) * Math.abs(mean - share);
  }
  const high = outcomes.filter((o) => o.confidence >= 0.8);
  return { bins, ece, highWrong: { n: high.length, wrong: high.filter((o) => !o.right).length } };
}

/** The reliability table as text. */
export function reliabilityText(title: string, outcomes: readonly { confidence: number; right: boolean }[]): string[] {
  const r = reliability(outcomes);
  const out = [title, 'confidence   verdicts  mean conf.  share right'];
  for (const b of r.bins) out.push(`${b.from.toFixed(1)}-${b.to.toFixed(1)}    ${String(b.n).padStart(8)}  ${b.meanConfidence.toFixed(2).padStart(10)}  ${(100 * b.shareRight).toFixed(1).padStart(9)} %`);
  out.push(`expected calibration error ${r.ece.toFixed(3)}; at 0.8 or more: ${r.highWrong.wrong} of ${r.highWrong.n} wrong (${r.highWrong.n ? ((100 * r.highWrong.wrong) / r.highWrong.n).toFixed(1) : '-'} %)`);
  return out;
}
