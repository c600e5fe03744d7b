// The finding a verdict names. A rule may fire more than once (the generic reading once per unit
// it read), and the verdict names a rule: of its findings, the one that holds the cause's own
// evidence line, else the one of the verdict's category and stage, else of its category, else of
// its stage, else the first; never a recovered one.
import type { AnalysisResult, Finding, Verdict } from './types.js';

type Named = Pick<Verdict, 'rootCause' | 'category' | 'stage' | 'reasons'>;

/** The finding `verdict` names among `findings`. */
export function rootFindingOf(verdict: Named, findings: readonly Finding[]): Finding | undefined {
  // A result saved before verdicts carried reasons has none.
  const cause = (verdict.reasons ?? []).find((r) => r.kind === 'cause');
  const line = cause?.kind === 'cause' ? cause.evidence : undefined;
  let best: Finding | undefined;
  let bestScore = -1;
  for (const f of findings) {
    if (f.ruleId !== verdict.rootCause || f.recovered) continue;
    const holds = line !== undefined && f.evidence.some((e) => e.file === line.file && e.line === line.line);
    const score = (holds ? 4 : 0) + (f.category === verdict.category ? 2 : 0) + (f.stage === verdict.stage ? 1 : 0);
    if (score > bestScore) {
      best = f;
      bestScore = score;
    }
  }
  return best;
}

export function rootFinding(result: AnalysisResult): Finding | undefined {
  return rootFindingOf(result.verdict, result.findings);
}
