// The finding a verdict names. A rule may fire more than once (the generic reading once per unit
// it read), and the verdict names a rule: of its findings, the one of the verdict's category and
// stage, else of its category, else of its stage, else the first; never a recovered one.
import type { AnalysisResult, Finding } from './types.js';

export function rootFinding(result: AnalysisResult): Finding | undefined {
  const v = result.verdict;
  let best: Finding | undefined;
  let bestScore = -1;
  for (const f of result.findings) {
    if (f.ruleId !== v.rootCause || f.recovered) continue;
    const score = (f.category === v.category ? 2 : 0) + (f.stage === v.stage ? 1 : 0);
    if (score > bestScore) {
      best = f;
      bestScore = score;
    }
  }
  return best;
}
