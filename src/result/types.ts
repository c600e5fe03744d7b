// The result of one analysis: what every reporter reads and the JSON report (schema v1)
// writes. One home for these types, below every layer that fills them in.
import type { BundleLayout, EpochMs, ReadProblem } from '../model/types.js';
import type { CategoryId, CiFailureMode, StageId } from '../taxonomy.js';

export const SCHEMA_VERSION = 1;

/** One line cited as evidence, with a little context. */
/** A part of a line (UTF-16 offsets, end exclusive). */
export interface Span {
  start: number;
  end: number;
}

export interface Evidence {
  file: string;
  line?: number;
  text: string;
  time?: EpochMs;
  host?: string;
  /** Lines just before and after, when the reader kept them. */
  before?: string[];
  after?: string[];
  /** The part of `text` the finding is about: reporters cut long lines around it. */
  match?: Span;
  /** Values the finding names from `text` outside `match` (a file, a config, an image, a host), in line order: reporters keep them too. */
  facts?: Span[];
  /** How many times this line occurred, identical but for times and counters (attempts, not copies). */
  repeats?: number;
  /** The line is one every healthy install prints (a message the catalogue marks benign): never a cause. */
  benign?: boolean;
}

export type StageStatus = 'ok' | 'failed' | 'in-progress' | 'not-reached' | 'unknown';

/** The kind of evidence that decided a stage's status. */
export type StageBasis = 'service-records' | 'journal' | 'resources' | 'installer-log' | 'masters' | 'implied' | 'finding';

export interface StageState {
  id: StageId;
  status: StageStatus;
  start?: EpochMs;
  end?: EpochMs;
  hosts: string[];
  /** What decided the status, in words: service records, journal markers, resources, installer log. */
  decidedBy?: string;
  /** The kind of evidence that decided it (what code reads; decidedBy is for people). */
  basis?: StageBasis;
  /** No evidence of its own: a later stage of bootkube.sh's sequence completed or started. */
  implied?: { by: StageId; how: 'completed' | 'started' };
  evidence: Evidence[];
}

export type Severity = 'critical' | 'error' | 'warning' | 'info';
export type Confidence = 'high' | 'medium' | 'low';

export interface Finding {
  ruleId: string;
  title: string;
  stage: StageId;
  category: CategoryId;
  severity: Severity;
  confidence: Confidence;
  message: string;
  evidence: Evidence[];
  fix: string[];
  references: string[];
  /** Hosts the evidence came from. */
  hosts: string[];
  /** Time of the first and last evidence. */
  firstTime?: EpochMs;
  lastTime?: EpochMs;
  /** Values captured from the evidence (image, host, ...). */
  captures: Record<string, string>;
  /** A later success resolved it (the pull succeeded on retry, etcd became healthy): the line that says so. A recovered finding is info and never a cause. */
  recovered?: Evidence;
  /** It says what failed or waited, not why (a wait that timed out, a unit that exits): a cause found inside its window explains it. */
  symptom?: boolean;
}

export type VerdictStatus = 'failed' | 'healthy' | 'inconclusive';

/**
 * Why the verdict says what it says, as data (the summary words these): the stage that did not
 * complete and what showed it, the finding named as cause (and the symptom it explains), the
 * known issue the logs resemble, what to collect when no line names a cause, what the read left
 * out, the stages seen complete when nothing failed.
 */
export type VerdictReason =
  | { kind: 'stage'; stage: StageId; how: 'failed' | 'stuck' | 'finding' | 'lead'; basis?: StageBasis; finding?: string; evidence?: Evidence }
  | { kind: 'cause'; finding: string; explains?: string; evidence?: Evidence }
  | { kind: 'similar'; issue: string; score: number }
  | { kind: 'collect'; steps: string[] }
  | { kind: 'partial-read'; missed: string }
  | { kind: 'no-failure'; complete: StageId[]; checked: number; skipped: number }
  | { kind: 'nothing-failed' };

export interface Verdict {
  status: VerdictStatus;
  stage: StageId | null;
  category: CategoryId | null;
  /** 0..1: how sure the verdict is. */
  confidence: number;
  summary: string;
  /** The finding judged the root cause. */
  rootCause: string | null;
  /** The known issue the category came from, when no rule decided it (similarity). */
  knownIssue?: string;
  ciFailureMode: CiFailureMode | null;
  /** Why, as data: the summary is these, worded. */
  reasons: VerdictReason[];
  /**
   * What the confidence rests on, most specific first (e.g. `rule-high/stage-failed/same`,
   * `rule-high`, `rule`): it is the share of the real corpus's verdicts on that basis that were
   * right (`npm run calibrate`).
   */
  confidenceBasis: string[];
}

/** `lexical` (default, no model), `embeddings` (a local model), or `off`. */
export type SimilarityMode = 'lexical' | 'embeddings' | 'off';

/** A bundle line that matched a line of a known issue. */
export interface SimilarLine {
  file: string;
  line: number;
  text: string;
  /** Similarity of this line to `knownLine`, 0..1. */
  score: number;
  /** The knowledge-base line it matched. */
  knownLine: string;
}

/** A known issue this bundle's failure looks like. */
export interface SimilarIssue {
  id: string;
  title: string;
  stage: StageId;
  category: CategoryId;
  /** 0..1; see `findSimilar`. */
  score: number;
  /** The bundle lines that matched, best first (at most 5). */
  matchedLines: SimilarLine[];
  fix: string[];
  references: string[];
  /** The rule covering the same failure, when there is one. */
  rule?: string;
}

export interface HostSummary {
  role: 'bootstrap' | 'master';
  address: string;
  hostname?: string;
}

export interface AnalysisResult {
  schemaVersion: number;
  tool: { name: 'bootlens'; version: string };
  bundle: {
    name: string;
    format: string;
    gatherId?: string;
    /** When the bundle was gathered, by its gather id (absent without one), epoch ms. */
    gatheredAt?: number;
    hosts: HostSummary[];
    layout: BundleLayout;
  };
  verdict: Verdict;
  stages: StageState[];
  findings: Finding[];
  suppressed: { finding: Finding; reason: string }[];
  rules: {
    total: number;
    fired: string[];
    passed: string[];
    skipped: { ruleId: string; missing: string[] }[];
    errors: { ruleId: string; error: string }[];
    timing?: { ruleId: string; ms: number }[];
  };
  problems: ReadProblem[];
  /** Known issues the failure looks like, best first; empty when similarity is off or nothing matched. */
  similar: SimilarIssue[];
  /** How similarity ran: its mode and how many candidate templates the logs gave. */
  similarity: { mode: SimilarityMode; candidates: number };
}
