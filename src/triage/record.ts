// One JSON line per bundle: what triage keeps of an analysis, independent of every other
// bundle, so shards analyzed on different machines can be merged.
import { createHash } from 'node:crypto';
import type { AnalysisResult } from '../analysis/analyze.js';
import { templateOf } from '../similarity/line-template.js';
import type { CategoryId, StageId } from '../taxonomy.js';

export const TRIAGE_RECORD_VERSION = 1;

export interface Signature {
  /** Stable across runs and machines: a hash of stage, category, rule and evidence template. */
  id: string;
  stage: StageId | null;
  category: CategoryId | null;
  ruleId: string | null;
  template: string;
}

export interface TriageRecord {
  v: number;
  bundle: string;
  path: string;
  status: 'analyzed' | 'unreadable';
  error?: string;
  gatheredAt?: number;
  verdict?: Pick<AnalysisResult['verdict'], 'status' | 'stage' | 'category' | 'confidence' | 'rootCause' | 'ciFailureMode' | 'knownIssue'>;
  /** Ids of the known issues the logs looked like (with similarity on), best first. */
  similar?: string[];
  signature?: Signature;
  findings?: string[];
  problems?: number;
}

function hash(parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 12);
}

/** The failure signature of an analysis: the same failure gets the same id next week. */
export function signatureOf(result: AnalysisResult): Signature {
  const v = result.verdict;
  if (v.status !== 'failed') {
    return { id: hash([v.status]), stage: null, category: null, ruleId: null, template: v.status };
  }
  const root = result.findings.find((f) => f.ruleId === v.rootCause);
  const evidence = root?.evidence[0]?.text ?? result.stages.find((s) => s.id === v.stage)?.evidence[0]?.text ?? '';
  const template = templateOf(evidence).slice(0, 300);
  return { id: hash([v.stage ?? '', v.category ?? '', root?.ruleId ?? '', template]), stage: v.stage, category: v.category, ruleId: root?.ruleId ?? null, template };
}

/** The triage record of one analyzed bundle. */
export function recordOf(path: string, result: AnalysisResult): TriageRecord {
  const v = result.verdict;
  const record: TriageRecord = {
    v: TRIAGE_RECORD_VERSION,
    bundle: result.bundle.name,
    path,
    status: 'analyzed',
    verdict: { status: v.status, stage: v.stage, category: v.category, confidence: v.confidence, rootCause: v.rootCause, ciFailureMode: v.ciFailureMode },
    signature: signatureOf(result),
    findings: [...new Set(result.findings.map((f) => f.ruleId))],
    problems: result.problems.length,
  };
  if (v.knownIssue) record.verdict = { ...record.verdict, knownIssue: v.knownIssue } as TriageRecord['verdict'];
  if (result.similar.length > 0) record.similar = result.similar.map((s) => s.id);
  if (result.bundle.gatheredAt !== undefined) record.gatheredAt = result.bundle.gatheredAt;
  return record;
}

/** The record of a bundle that could not be read at all. */
export function unreadableRecord(path: string, bundle: string, error: string): TriageRecord {
  return { v: TRIAGE_RECORD_VERSION, bundle, path, status: 'unreadable', error };
}

/** Parses JSON lines written by triage; lines that are not records are returned as errors. */
export function parseRecords(text: string, file: string): { records: TriageRecord[]; errors: string[] } {
  const records: TriageRecord[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const r = JSON.parse(line) as Partial<TriageRecord>;
      if (r?.v !== TRIAGE_RECORD_VERSION || typeof r.bundle !== 'string' || typeof r.path !== 'string' || (r.status !== 'analyzed' && r.status !== 'unreadable')) {
        errors.push(`${file}:${i + 1}: not a bootlens triage record`);
        return;
      }
      records.push(r as TriageRecord);
    } catch {
      errors.push(`${file}:${i + 1}: not JSON`);
    }
  });
  return { records, errors };
}
