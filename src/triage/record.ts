// One JSON line per bundle: what triage keeps of an analysis, independent of every other
// bundle, so shards analyzed on different machines can be merged.
import { createHash } from 'node:crypto';
import type { AnalysisResult } from '../analysis/analyze.js';
import type { Evidence } from '../result/types.js';
import { lineTemplate } from '../similarity/line-template.js';
import { errorWeight } from '../similarity/tokens.js';
import type { CategoryId, StageId } from '../taxonomy.js';
import { schemaValidator } from '../util/schema.js';

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
  /** Files of a case folder that were neither its bundle nor the installer's output. */
  ignored?: string[];
}

/** The schema every record written validates against (`schema/triage-record.schema.json`). */
export const TRIAGE_RECORD_SCHEMA = 'triage-record.schema.json';

function hash(parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 12);
}

/**
 * The template of the line a failure is keyed on: of the root cause's own evidence (else the
 * failed stage's), the line the finding marks as its point, else the most error-like one, else
 * the first. A finding may cite context beside its point (podman's `system refresh` before a
 * failed pull); keying on that would group unrelated failures and split related ones.
 */
export function keyTemplate(evidence: readonly Evidence[]): string {
  let best = '';
  let bestScore = -1;
  for (const e of evidence) {
    const line = lineTemplate(e.text);
    const score = (e.match ? 2 : 0) + errorWeight(line.template, line.level);
    if (score > bestScore) {
      best = line.template;
      bestScore = score;
    }
  }
  return best;
}

/** The failure signature of an analysis: the same failure gets the same id next week. */
export function signatureOf(result: AnalysisResult): Signature {
  const v = result.verdict;
  if (v.status !== 'failed') {
    return { id: hash([v.status]), stage: null, category: null, ruleId: null, template: v.status };
  }
  const root = result.findings.find((f) => f.ruleId === v.rootCause);
  const evidence = root?.evidence.length ? root.evidence : (result.stages.find((s) => s.id === v.stage)?.evidence ?? []);
  const template = keyTemplate(evidence).slice(0, 300);
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

/** What parseRecords kept and skipped. */
export interface ParsedRecords {
  records: TriageRecord[];
  /** How many lines were skipped. */
  skipped: number;
  /** Why, for the first few skipped lines (`file:line: reason`). */
  errors: string[];
}

/** Skipped lines described one by one; past this the rest are only counted. */
const MAX_ERRORS = 20;

/** Whether a value is a record as the schema defines it (every field of the right type). */
export function isTriageRecord(value: unknown): value is TriageRecord {
  return schemaValidator(TRIAGE_RECORD_SCHEMA)(value) === true;
}

/**
 * Parses JSON lines written by triage. A line that is no JSON, or a record with a field of the
 * wrong type (validated against the schema), is skipped and counted, never trusted.
 */
export function parseRecords(text: string, file: string): ParsedRecords {
  const out: ParsedRecords = { records: [], skipped: 0, errors: [] };
  const validate = schemaValidator(TRIAGE_RECORD_SCHEMA);
  const skip = (line: number, why: string): void => {
    out.skipped++;
    if (out.errors.length < MAX_ERRORS) out.errors.push(`${file}:${line}: ${why}`);
  };
  let start = 0;
  let n = 0;
  // Line by line without splitting the whole text: files of 100k records stay cheap.
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end);
    n++;
    start = end < 0 ? text.length + 1 : end + 1;
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skip(n, 'not JSON');
      continue;
    }
    if (validate(value)) out.records.push(value as TriageRecord);
    else {
      const e = validate.errors?.[0];
      skip(n, `not a bootlens triage record${e ? ` (${e.instancePath || 'record'} ${e.message ?? 'invalid'})` : ''}`);
    }
  }
  return out;
}
