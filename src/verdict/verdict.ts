// The verdict: the earliest stage that did not complete, the most likely root cause among the
// findings, a one-paragraph summary, and the CI failure mode dashboards join on.
import type { Verdict } from '../result/types.js';
import type { Finding, RuleResult } from '../rules/types.js';
import type { SimilarIssue } from '../similarity/match.js';
import { CONFIDENCE_SCORE } from '../rules/types.js';
import { stagesOfInstallerPhase } from '../specs/source-stage.js';
import { STAGE_TITLES, stageIndex, type CategoryId, type CiFailureMode, type StageId } from '../taxonomy.js';
import type { StageState, Timeline } from '../timeline/types.js';

export type { Verdict, VerdictStatus } from '../result/types.js';


/**
 * Categories that cause others: a DNS failure explains the API timeout that follows it, a
 * full disk explains etcd's slowness. Higher is more likely a root cause.
 */
const CAUSAL_RANK: Partial<Record<CategoryId, number>> = {
  'install-config': 3,
  dns: 3,
  'certificate-expired': 3,
  'clock-skew': 3,
  'registry-auth': 3,
  'image-missing': 3,
  'registry-tls': 3,
  proxy: 2.5,
  'registry-unreachable': 2.5,
  'network-connectivity': 2,
  'resource-exhaustion': 2,
  'cloud-provider': 2,
  ignition: 1.5,
  'machine-config': 1.5,
  'container-runtime': 1.5,
  'network-plugin': 1.5,
  'csr-pending': 1,
  'etcd-health': 1,
  'operator-degraded': 0.5,
  unknown: 0,
};

const SEVERITY_WEIGHT = { critical: 4, error: 3, warning: 1.5, info: 0 } as const;

/** How likely a finding is the root cause of a failure at `stage`; `healed` findings weigh less. */
export function rootCauseScore(f: Finding, stage: StageId | null, healed = false): number {
  let score = SEVERITY_WEIGHT[f.severity] * CONFIDENCE_SCORE[f.confidence] + (CAUSAL_RANK[f.category] ?? 0) * 0.75 - (healed ? 1.5 : 0);
  if (stage) {
    const d = stageIndex(f.stage) - stageIndex(stage);
    // A later stage's error is a consequence, not a cause; an earlier one may explain it.
    score += d === 0 ? 0.5 : d < 0 ? 0.3 : -3;
  }
  return score;
}

/** Findings sorted most-likely-cause first; ties go to the earlier stage, then the rule id. */
export function rankFindings(findings: readonly Finding[], stage: StageId | null, healed: (f: Finding) => boolean = () => false): Finding[] {
  return [...findings].sort(
    (a, b) =>
      rootCauseScore(b, stage, healed(b)) - rootCauseScore(a, stage, healed(a)) || stageIndex(a.stage) - stageIndex(b.stage) || a.ruleId.localeCompare(b.ruleId),
  );
}

/**
 * What a cause explains: a name that does not resolve explains the refused connections, the
 * unhealthy etcd and the failed ignition fetch that follow; a clock behind explains certificates
 * not yet valid; a full disk explains a slow etcd. Categories a finding of the key category can
 * be the cause of.
 */
const EXPLAINS: Partial<Record<CategoryId, readonly CategoryId[]>> = {
  dns: ['network-connectivity', 'registry-unreachable', 'etcd-health', 'ignition', 'csr-pending', 'operator-degraded', 'unknown'],
  'clock-skew': ['certificate-expired', 'registry-tls', 'etcd-health', 'ignition', 'operator-degraded', 'unknown'],
  'certificate-expired': ['network-connectivity', 'ignition', 'csr-pending', 'operator-degraded', 'unknown'],
  proxy: ['registry-unreachable', 'network-connectivity', 'operator-degraded', 'unknown'],
  'resource-exhaustion': ['etcd-health', 'container-runtime', 'operator-degraded', 'unknown'],
  'network-connectivity': ['etcd-health', 'ignition', 'csr-pending', 'operator-degraded', 'unknown'],
  'registry-auth': ['container-runtime', 'operator-degraded', 'unknown'],
  'image-missing': ['container-runtime', 'operator-degraded', 'unknown'],
  'registry-tls': ['container-runtime', 'operator-degraded', 'unknown'],
  'registry-unreachable': ['container-runtime', 'operator-degraded', 'unknown'],
  'install-config': ['operator-degraded', 'unknown'],
  'cloud-provider': ['operator-degraded', 'unknown'],
  'network-plugin': ['operator-degraded', 'unknown'],
  'machine-config': ['operator-degraded', 'unknown'],
  'etcd-health': ['operator-degraded', 'unknown'],
};

/** `a`'s evidence began before `b`'s, by the bundle's own clock. */
function startedBefore(a: Finding, b: Finding): boolean {
  return a.firstTime !== undefined && b.firstTime !== undefined && a.firstTime < b.firstTime;
}

/**
 * The cause behind the top-ranked finding: a serious finding of the same or an earlier stage, in
 * a stage not seen complete, whose category explains the top one's (DNS behind an unhealthy etcd),
 * followed as far as it goes.
 */
function explainedBy(top: Finding, ranked: readonly Finding[], timeline: Timeline): Finding {
  let root = top;
  for (let hops = 0; hops < 4; hops++) {
    const cause = ranked.find(
      (f) =>
        f !== root &&
        // A serious finding, or a warning a rule written for it is sure of; never a bare lead.
        (f.severity === 'critical' || f.severity === 'error' || (f.severity === 'warning' && f.confidence !== 'low')) &&
        // A cause comes first: in the same or an earlier stage, or, on any host, earlier by the
        // bundle's clock (masters' etcd failing its peers while cluster-bootstrap waits for them).
        (stageIndex(f.stage) <= stageIndex(root.stage) || startedBefore(f, root)) &&
        !settled(f, timeline, true) &&
        (EXPLAINS[f.category] ?? []).includes(root.category),
    );
    if (!cause) return root;
    root = cause;
  }
  return root;
}

/** The CI install failure mode of a verdict. */
export function ciFailureMode(stage: StageId, category: CategoryId): CiFailureMode {
  if (['install-config', 'registry-auth', 'image-missing', 'registry-tls', 'certificate-expired'].includes(category)) return 'configuration';
  if (['cloud-provider', 'dns', 'network-connectivity', 'registry-unreachable', 'proxy', 'resource-exhaustion', 'clock-skew'].includes(category)) {
    return 'infrastructure';
  }
  if (stage === 'workers') return 'cluster creation';
  if (stage === 'cluster-operators') return 'cluster operator stability';
  return 'cluster bootstrap';
}

function firstFailedStage(timeline: Timeline): StageState | undefined {
  return timeline.stages.find((s) => s.status === 'failed');
}

function where(f: Finding): string {
  const e = f.evidence[0];
  if (!e) return '';
  return ` (${e.file}${e.line ? `:${e.line}` : ''})`;
}

export interface VerdictInput {
  timeline: Timeline;
  findings: readonly Finding[];
  results: readonly RuleResult[];
  /** Known issues the logs look like, best first: the cause when no rule found one. */
  similar?: readonly SimilarIssue[];
}

/**
 * A finding whose stage the timeline saw complete (by its own evidence, not implied): the
 * install got past it, so the error healed. Installs are eventually consistent.
 */
function settled(f: Finding, timeline: Timeline, evenImplied = false): boolean {
  const s = timeline.stages.find((x) => x.id === f.stage);
  return s?.status === 'ok' && (evenImplied || s.implied === undefined);
}

/**
 * The stage table with the findings' word added: a stage a serious finding speaks of was reached,
 * whatever the timeline could tell (masters' etcd failing while the bootstrap host waited), so it
 * is never `not-reached`.
 */
export function stagesWithFindings(timeline: Timeline, findings: readonly Finding[]): Timeline {
  const stages = timeline.stages.map((s) => {
    if (s.status !== 'not-reached') return s;
    const f = findings.find((x) => x.stage === s.id && (x.severity === 'critical' || x.severity === 'error'));
    if (!f) return s;
    const state: StageState = { ...s, status: 'in-progress', decidedBy: `finding ${f.ruleId}`, basis: 'finding', evidence: f.evidence.slice(0, 1), hosts: f.hosts };
    if (f.firstTime !== undefined) state.start = f.firstTime;
    return state;
  });
  return { stages };
}

/** Draws the verdict from whatever evidence exists. */
/** Confidence in a cause found only by similarity: below any rule's, growing with the score. */
function similarityConfidence(issue: SimilarIssue, ceiling: number): number {
  return Math.min(ceiling, 0.2 + 0.4 * issue.score);
}

/** The best similar issue that can explain a failure at `stage` (not one of a later stage). */
function similarCause(similar: readonly SimilarIssue[], stage: StageId | undefined): SimilarIssue | undefined {
  if (stage === undefined) return similar[0];
  const fits = similar.filter((s) => stageIndex(s.stage) <= stageIndex(stage));
  return fits.find((s) => s.stage === stage) ?? fits[0];
}

/** How a similar issue reads in a summary: what it is, how close, where, and the first step. */
function similarText(issue: SimilarIssue): string[] {
  const line = issue.matchedLines[0];
  const where = line ? `, e.g. ${line.file}:${line.line}` : '';
  const parts = [`The logs look like known issue ${issue.id}: ${issue.title} (similarity ${issue.score.toFixed(2)}${where}).`];
  if (issue.fix[0]) parts.push(`First step: ${issue.fix[0]}`);
  return parts;
}

/** The stages each installer wait spans (specs/source-stage.ts): a failed wait leaves them all unproven. */
const INSTALLER_SPANS: readonly StageId[][] = (['infrastructure', 'kubernetes-api', 'bootstrap', 'cluster'] as const).map(stagesOfInstallerPhase);

/** Least similarity for calling a failure where no stage and no rule saw one. */
const SIMILAR_ONLY_SCORE = 0.6;

/** Noise: every line the finding cites is one healthy installs print. */
function onlyBenign(f: Finding): boolean {
  return f.evidence.length > 0 && f.evidence.every((e) => e.benign === true);
}

export function decideVerdict({ timeline, findings: all, results, similar = [] }: VerdictInput): Verdict {
  // A recovered finding (info) or one whose every line is benign is never a cause.
  const findings = all.filter((f) => f.recovered === undefined && !onlyBenign(f));
  // Serious findings in stages not seen complete; a stage implied complete by a later one counts
  // as complete here, since the install got past it.
  const serious = findings.filter((f) => (f.severity === 'critical' || f.severity === 'error') && !settled(f, timeline, true));
  const failed = firstFailedStage(timeline);
  const stuck = timeline.stages.find((s) => s.status === 'in-progress');
  // The stage: the timeline's first failure; else the earlier of the first stage still in
  // progress when the bundle was gathered (stuck: a gathered install is over) and the first
  // stage a serious finding names.
  const findingStage = serious.map((f) => f.stage).sort((a, b) => stageIndex(a) - stageIndex(b))[0];
  // The earliest stage that did not complete: the timeline's first failure, the first stage
  // still in progress when the bundle was gathered (a gathered install is over: it is stuck),
  // or an earlier stage a serious finding names that the timeline never saw complete (masters
  // that never joined explain the cluster-bootstrap time-out that follows).
  const candidates = [failed?.id, stuck?.id, findingStage].filter((x): x is StageId => x !== undefined).sort((a, b) => stageIndex(a) - stageIndex(b));
  let stage: StageId | undefined = candidates[0];
  const leads = findings.filter((f) => f.severity === 'warning' && !settled(f, timeline, true));
  const earliestLead = (within: (id: StageId) => boolean): StageId | undefined =>
    leads.map((f) => f.stage).filter(within).sort((a, b) => stageIndex(a) - stageIndex(b))[0];
  if (!stage && !timeline.stages.some((s) => s.status === 'ok')) {
    // Nothing failed and nothing was seen complete: the errors there are are all the evidence.
    stage = earliestLead(() => true);
  } else if (stage && timeline.stages.find((s) => s.id === stage)?.basis === 'installer-log') {
    // The installer only says which wait failed (or never ended); a lead inside that wait's
    // span names the step.
    const span = INSTALLER_SPANS.find((ids) => ids.includes(stage as StageId)) ?? [];
    stage = earliestLead((id) => span.includes(id) && stageIndex(id) < stageIndex(stage as StageId)) ?? stage;
  }

  const checked = results.filter((r) => r.status !== 'skipped').length;
  const skipped = results.filter((r) => r.status === 'skipped').length;
  if (!stage) {
    const ok = timeline.stages.filter((s) => s.status === 'ok').map((s) => s.id);
    const known = ok.length === 0 ? similar.find((x) => x.score >= SIMILAR_ONLY_SCORE) : undefined;
    if (known) {
      // Nothing seen complete and no rule fired, but the logs read like a known failure.
      return {
        status: 'failed',
        stage: known.stage,
        category: known.category,
        confidence: Math.round(similarityConfidence(known, 0.45) * 100) / 100,
        summary: [`No stage was seen to fail and no rule fired.`, ...similarText(known)].join(' '),
        rootCause: null,
        knownIssue: known.id,
        ciFailureMode: ciFailureMode(known.stage, known.category),
      };
    }
    return {
      // With no stage seen complete there is nothing to call healthy.
      status: ok.length > 0 ? 'healthy' : 'inconclusive',
      stage: null,
      category: null,
      confidence: ok.length > 0 ? 0.8 : 0.5,
      summary:
        `No failure found. Stages seen complete: ${ok.length > 0 ? ok.join(', ') : 'none (the bundle holds too little to tell)'}. ` +
        `${checked} rules checked and passed${skipped > 0 ? `; ${skipped} skipped for missing input` : ''}.`,
      rootCause: null,
      ciFailureMode: null,
    };
  }

  // A finding in a stage the install was seen to get past healed: it is no cause.
  const open = findings.filter((f) => f.severity !== 'info' && !settled(f, timeline));
  const ranked = rankFindings(open, stage, (f) => settled(f, timeline));
  const top = ranked[0] && rootCauseScore(ranked[0], stage, settled(ranked[0], timeline)) > 0 ? ranked[0] : undefined;
  const root = top ? explainedBy(top, ranked, timeline) : undefined;
  // Similarity names the cause when no rule did, or when the rule could not say what kind it is.
  const known = !root || root.category === 'unknown' ? similarCause(similar, stage) : undefined;
  const category: CategoryId = (root?.category === 'unknown' ? undefined : root?.category) ?? known?.category ?? 'unknown';
  const stageTitle = STAGE_TITLES[stage];
  const state = timeline.stages.find((s) => s.id === stage);
  const hosts = state && state.hosts.length > 0 ? ` on ${state.hosts.join(', ')}` : '';
  let confidence = root && !known ? CONFIDENCE_SCORE[root.confidence] : known ? similarityConfidence(known, 0.55) : 0.25;
  if (root && root.stage !== stage) confidence *= 0.85;
  if (root && failed && failed.id === stage) confidence = Math.min(0.97, confidence + 0.05);
  const how = state?.status === 'failed' ? 'failed' : state?.status === 'in-progress' ? 'did not complete' : 'shows errors';
  const parts = [`The installation ${how} at stage ${stage} (${stageTitle})${hosts}.`];
  if (root) {
    parts.push(`Most likely cause: ${root.title} — ${root.message}${where(root)}.`);
    if (known) parts.push(...similarText(known));
    else if (root.fix[0]) parts.push(`First step: ${root.fix[0]}`);
  } else {
    const decided = state?.evidence[0];
    parts.push(`No rule identified the cause${decided ? `; the stage was decided by ${state?.decidedBy}: ${decided.text}` : ''}.`);
    if (known) parts.push(...similarText(known));
  }
  return {
    status: 'failed',
    stage,
    category,
    confidence: Math.round(confidence * 100) / 100,
    summary: parts.join(' '),
    rootCause: root?.ruleId ?? null,
    ...(known ? { knownIssue: known.id } : {}),
    ciFailureMode: ciFailureMode(stage, category),
  };
}
