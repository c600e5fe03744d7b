// The order findings are reported in and the weights severities and confidences carry: stable,
// so golden tests and diffs of two runs compare.
import { stageIndex } from '../taxonomy.js';
import type { Confidence, Finding, Severity } from './types.js';
import { byCodeUnits } from '../util/byte-order.js';

export const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, error: 1, warning: 2, info: 3 };
export const CONFIDENCE_SCORE: Record<Confidence, number> = { high: 0.9, medium: 0.6, low: 0.3 };

/** Findings in a stable order: stage, severity, rule id, then location. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      stageIndex(a.stage) - stageIndex(b.stage) ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      byCodeUnits(a.ruleId, b.ruleId) ||
      byCodeUnits(a.evidence[0]?.file ?? '', b.evidence[0]?.file ?? '') ||
      (a.evidence[0]?.line ?? 0) - (b.evidence[0]?.line ?? 0),
  );
}
