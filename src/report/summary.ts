// What the Markdown, HTML and JUnit reports say alike: the verdict headline, which stages count as failed, findings per stage.
import type { AnalysisResult, Finding, HostSummary, Severity, StageState, StageStatus } from '../result/types.js';
import { STAGE_TITLES, STAGES, type StageId } from '../taxonomy.js';

/** Severities from most to least serious. */
export const SEVERITIES: readonly Severity[] = ['critical', 'error', 'warning', 'info'];

/** A short word for each stage status, as the reports show it. */
export const STATUS_LABEL: Record<StageStatus, string> = {
  ok: 'ok',
  failed: 'failed',
  'in-progress': 'in progress',
  'not-reached': 'not reached',
  unknown: 'unknown',
};

/**
 * Where the verdict's category came from when no rule decided it: `from similarity to known
 * issue X` (a weaker basis than a rule; the confidence is lower for it). Undefined otherwise.
 */
export function knownIssueBasis(r: AnalysisResult): string | undefined {
  return r.verdict.knownIssue ? `from similarity to known issue ${r.verdict.knownIssue}` : undefined;
}

/**
 * The verdict in one line: `FAILED at bootstrap-etcd (etcd-health, confidence 0.65)`, or with
 * `, from similarity to known issue X` inside the brackets when no rule decided the category.
 */
export function verdictHeadline(r: AnalysisResult): string {
  const v = r.verdict;
  const basis = knownIssueBasis(r);
  if (v.status === 'failed') return `FAILED at ${v.stage ?? 'an unknown stage'} (${v.category ?? 'unknown'}, confidence ${v.confidence}${basis ? `, ${basis}` : ''})`;
  if (v.status === 'healthy') return 'No failure found';
  return 'Inconclusive: too little in the bundle to judge';
}

/** The stage's title from the taxonomy. */
export function stageTitle(id: StageId): string {
  return STAGE_TITLES[id];
}

/**
 * A stage the reports mark as failed: the timeline says so, or the verdict names it (a stage
 * still in progress when the bundle was gathered, or one only the findings point at).
 */
export function isFailedStage(r: AnalysisResult, s: StageState): boolean {
  return s.status === 'failed' || (r.verdict.status === 'failed' && r.verdict.stage === s.id);
}

/** Findings grouped by stage, in taxonomy order; stages without findings are left out. */
export function findingsByStage(findings: readonly Finding[]): { stage: StageId; findings: Finding[] }[] {
  return STAGES.map((stage) => ({ stage, findings: findings.filter((f) => f.stage === stage) })).filter((g) => g.findings.length > 0);
}

/** The host list of a finding: its own hosts, else the hosts of its evidence. */
export function findingHosts(f: Finding): string[] {
  const hosts = f.hosts.length > 0 ? f.hosts : f.evidence.map((e) => e.host).filter((h): h is string => !!h);
  return [...new Set(hosts)];
}

/** `file:line`, the way evidence is cited. */
export function evidenceLocation(e: { file: string; line?: number }): string {
  return `${e.file}${e.line ? `:${e.line}` : ''}`;
}

/** `bootstrap (name)`, `master 10.0.0.5 (name)`. */
export function hostLabel(h: HostSummary): string {
  const who = h.role === h.address ? h.role : `${h.role} ${h.address}`;
  return `${who}${h.hostname && h.hostname !== h.address ? ` (${h.hostname})` : ''}`;
}

/** `0.94`: a similarity score as every report shows it. */
export function similarityScore(score: number): string {
  return score.toFixed(2);
}

/** How the similar issues were found, in one sentence (for the top of their section). */
export function similarityNote(r: AnalysisResult): string {
  const how = r.similarity.mode === 'embeddings' ? 'Embedding' : 'Lexical';
  const n = r.similarity.candidates;
  return `${how} matching of ${n} candidate log template${n === 1 ? '' : 's'} against the known-issue knowledge base; a similar issue is a lead to check, not a diagnosis.`;
}

