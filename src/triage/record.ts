// One JSON line per bundle: what triage keeps of an analysis, independent of every other
// bundle, so shards analyzed on different machines can be merged. Every field is written, `null`
// where a value is absent, so the lines load into a warehouse table as they are.
import { createHash } from 'node:crypto';
import type { AnalysisResult } from '../analysis/analyze.js';
import { rootFinding } from '../result/root-finding.js';
import type { Evidence } from '../result/types.js';
import { lineTemplate } from '../similarity/line-template.js';
import { errorWeight } from '../similarity/tokens.js';
import type { CategoryId, StageId } from '../taxonomy.js';
import { isValidEpochMs } from '../text/time.js';
import { validator as validateRecordSchema } from '../util/compiled-schemas/triage-record-schema.js';

export const TRIAGE_RECORD_VERSION = 1;

/** What a failure is grouped by: the same failure gets the same id next week, on any machine. */
export interface FailureSignature {
  /** Stable across runs and machines: a hash of stage, category, rule and evidence template. */
  id: string;
  stage: StageId | null;
  category: CategoryId | null;
  ruleId: string | null;
  template: string;
}

/** A line of the root cause's own evidence, as a record keeps it (redacted like the rest). */
export interface RecordEvidence {
  file: string;
  line: number | null;
  host: string | null;
  text: string;
}

export type RecordVerdict = Pick<AnalysisResult['verdict'], 'status' | 'stage' | 'category' | 'confidence' | 'rootCause' | 'ciFailureMode'> & {
  knownIssue: string | null;
};

export interface TriageRecord {
  v: number;
  bundle: string;
  path: string;
  /** `failed-to-analyze`: the bundle was read but its analysis did not end (a limit, an error); `error` says why. */
  status: 'analyzed' | 'unreadable' | 'failed-to-analyze';
  /** Why an unreadable case could not be read, or why its analysis did not end. */
  error: string | null;
  gatheredAt: number | null;
  verdict: RecordVerdict | null;
  /** Ids of the known issues the logs looked like (with similarity on), best first. */
  similar: string[] | null;
  signature: FailureSignature | null;
  /** The lines the signature was taken from: the root cause's own, never a healed or benign one. */
  evidence: RecordEvidence[] | null;
  findings: string[] | null;
  problems: number | null;
  /** Files of a case folder that were neither its bundle nor text the reader reads (installer output, journals, console captures). */
  ignored: string[] | null;
}

/** The schema every record written validates against (`schema/triage-record.schema.json`). */
export const TRIAGE_RECORD_SCHEMA = 'triage-record.schema.json';

function hash(parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 12);
}

/**
 * The evidence in the order a reader wants it: the line the finding marks as its point first,
 * else the most error-like, each with its masked template. A finding may cite context beside its
 * point (podman's `system refresh` before a failed pull); keying on that would group unrelated
 * failures and split related ones.
 */
function byWeight(evidence: readonly Evidence[]): { e: Evidence; template: string }[] {
  const scored = evidence.map((e, i) => {
    const line = lineTemplate(e.text);
    return { e, template: line.template, score: (e.match ? 2 : 0) + errorWeight(line.template, line.level), i };
  });
  // Stable: among equals the earlier line leads.
  return scored.sort((a, b) => b.score - a.score || a.i - b.i);
}

/** The template of the line a failure is keyed on (see byWeight); '' without evidence. */
export function keyTemplate(evidence: readonly Evidence[]): string {
  return byWeight(evidence)[0]?.template ?? '';
}

const at = (e: Evidence): string => `${e.file}\u0000${e.line ?? ''}\u0000${e.text}`;

/**
 * The root cause's own evidence: the lines of the finding the verdict names, less every line
 * a healthy install prints (`benign`) and every line a recovered finding cites (an error a later
 * success healed). Without a named finding, the failed stage's own evidence, unless a finding
 * decided that stage (its line would be a lower-ranked finding's). Never another finding's line.
 */
export function causeEvidence(result: AnalysisResult): Evidence[] {
  const v = result.verdict;
  if (v.status !== 'failed') return [];
  const healed = new Set(result.findings.filter((f) => f.recovered).flatMap((f) => f.evidence.map(at)));
  const own = (list: readonly Evidence[]): Evidence[] => list.filter((e) => !e.benign && !healed.has(at(e)));
  if (v.rootCause !== null) {
    const root = rootFinding(result);
    return root ? own(root.evidence) : [];
  }
  const stage = result.stages.find((s) => s.id === v.stage);
  if (!stage || stage.basis === 'finding') return [];
  return own(stage.evidence);
}

/** Longest template kept in a signature (the schema's maxLength). */
const TEMPLATE_MAX = 300;

/** The failure signature of an analysis, keyed on the root cause's own evidence. */
export function signatureOf(result: AnalysisResult, evidence: readonly Evidence[] = causeEvidence(result)): FailureSignature {
  const v = result.verdict;
  if (v.status !== 'failed') {
    return { id: hash([v.status]), stage: null, category: null, ruleId: null, template: v.status };
  }
  const template = keyTemplate(evidence).slice(0, TEMPLATE_MAX);
  return { id: hash([v.stage ?? '', v.category ?? '', v.rootCause ?? '', template]), stage: v.stage, category: v.category, ruleId: v.rootCause, template };
}

/**
 * Lines of evidence a record keeps, and how much of each: enough for a CI dashboard's failure
 * body, while a record stays near 1-2 KB (fleets merge 100k of them; the verdict's summary
 * paragraph would double that and is left to `analyze`).
 */
const EVIDENCE_LINES = 3;
const EVIDENCE_CHARS = 500;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The triage record of one analyzed bundle. */
export function recordOf(path: string, result: AnalysisResult): TriageRecord {
  const v = result.verdict;
  const evidence = byWeight(causeEvidence(result)).map((x) => x.e);
  return {
    v: TRIAGE_RECORD_VERSION,
    bundle: result.bundle.name,
    path,
    status: 'analyzed',
    error: null,
    // A date the record's schema takes: from 1970 to the year 9999 (the reader reports others as a problem).
    gatheredAt: result.bundle.gatheredAt !== undefined && isValidEpochMs(result.bundle.gatheredAt) ? result.bundle.gatheredAt : null,
    verdict: {
      status: v.status,
      stage: v.stage,
      category: v.category,
      confidence: v.confidence,
      rootCause: v.rootCause,
      ciFailureMode: v.ciFailureMode,
      knownIssue: v.knownIssue ?? null,
    },
    similar: result.similar.length > 0 ? result.similar.map((s) => s.id) : null,
    signature: signatureOf(result, evidence),
    evidence:
      evidence.length > 0
        ? evidence.slice(0, EVIDENCE_LINES).map((e) => ({ file: e.file, line: e.line ?? null, host: e.host ?? null, text: cut(e.text, EVIDENCE_CHARS) }))
        : null,
    findings: [...new Set(result.findings.map((f) => f.ruleId))],
    problems: result.problems.length,
    ignored: null,
  };
}

/** The record of a bundle that could not be read at all. */
export function unreadableRecord(path: string, bundle: string, error: string): TriageRecord {
  return {
    v: TRIAGE_RECORD_VERSION,
    bundle,
    path,
    status: 'unreadable',
    error,
    gatheredAt: null,
    verdict: null,
    similar: null,
    signature: null,
    evidence: null,
    findings: null,
    problems: null,
    ignored: null,
  };
}

/** The record of a bundle whose analysis did not end: over its time or memory limit, or an error. */
export function failedRecord(path: string, bundle: string, error: string): TriageRecord {
  return { ...unreadableRecord(path, bundle, error), status: 'failed-to-analyze' };
}

/** What makes two records the same case: its name and the path analyzed (the same file merged twice, a resumed run). */
export function recordIdentity(r: Pick<TriageRecord, 'bundle' | 'path'>): string {
  return `${r.bundle}\u0000${r.path}`;
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
  return validateRecordSchema(value) === true;
}

/**
 * Parses JSON lines written by triage. A line that is no JSON, or a record with a field of the
 * wrong type (validated against the schema), is skipped and counted, never trusted.
 */
export function parseRecords(text: string, file: string): ParsedRecords {
  const out: ParsedRecords = { records: [], skipped: 0, errors: [] };
  const validate = validateRecordSchema;
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
