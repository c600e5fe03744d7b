// What a rule is (metadata + check), what it reports (findings with evidence), and what the
// engine records per rule (fired, passed, skipped for missing input).
import type { LineFilter } from '../specs/line-filter.js';
import type { Bundle, EpochMs, SourceRef } from '../model/types.js';
import type { CategoryId, StageId } from '../taxonomy.js';
import type { Timeline } from '../timeline/types.js';
import type { Confidence, Evidence, Finding, Severity } from '../result/types.js';
import type { LineOrigin, Reading } from '../catalogue/classify.js';

export type { Confidence, Finding, Severity } from '../result/types.js';
export { CONFIDENCE_SCORE, SEVERITY_ORDER } from '../result/order.js';

export interface RuleMeta {
  id: string;
  title: string;
  stage: StageId;
  category: CategoryId;
  severity: Severity;
  confidence: Confidence;
  description: string;
  /** Ordered steps; may hold `{placeholders}` filled from the finding's captures. */
  fix: string[];
  references: string[];
  status?: 'stable' | 'experimental' | 'deprecated';
  /** Where the rule came from: a YAML file or a TypeScript module. */
  origin: string;
}


export type RuleStatus = 'fired' | 'passed' | 'skipped' | 'error';

export interface RuleResult {
  ruleId: string;
  status: RuleStatus;
  /** For skipped rules: the sources that were missing. */
  missing?: string[];
  /** For rules that threw: the message (a bug in the rule, reported, not fatal). */
  error?: string;
  findings: number;
  durationMs: number;
}

/** What a rule's check sees: the frozen model, the stage timeline, and its own kept lines. */
export interface RuleContext {
  bundle: Bundle;
  timeline: Timeline;
  /** Builds a finding with the rule's metadata; TypeScript rules may name a more precise stage or category. */
  finding(init: FindingInit): Finding;
  /** What the message catalogue makes of a line: its program message, its decisive error, its category. */
  read(text: string, where?: LineOrigin): Reading | undefined;
}

export interface FindingInit {
  message: string;
  evidence: Evidence[];
  captures?: Record<string, string>;
  confidence?: Confidence;
  severity?: Severity;
  stage?: StageId;
  category?: CategoryId;
  /** A distinct title for this finding (several findings of one rule). */
  title?: string;
  /** It says what failed or waited, not why. */
  symptom?: boolean;
}

/** The outcome of a check: findings, or a skip naming what was missing. */
export type CheckResult = Finding[] | { missing: string[] };

export interface Rule {
  meta: RuleMeta;
  /** Lines the rule needs the reader to keep from large logs. */
  filters: LineFilter[];
  check(ctx: RuleContext): CheckResult;
}

/** A reference to a source, for evidence. */
export function evidenceFrom(ref: SourceRef, text: string, extra: Partial<Evidence> = {}): Evidence {
  const e: Evidence = { file: ref.file, text, ...extra };
  if (ref.line !== undefined && e.line === undefined) e.line = ref.line;
  return e;
}
