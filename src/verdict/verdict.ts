// The verdict, decided from typed inputs: the stage table, the findings with their marks
// (recovered, benign), what the read left out, and the known issues the logs resemble. It names
// the earliest stage that did not complete and the finding that explains it, and says why in
// typed reasons; `words.ts` words them. Nothing here reads display text.
import type { Catalogue } from '../catalogue/types.js';
import { CONFIDENCE_SCORE, type Finding, type RuleResult } from '../rules/types.js';
import type { ReadProblem } from '../model/types.js';
import type { Evidence, StageBasis, Verdict, VerdictReason } from '../result/types.js';
import type { SimilarIssue } from '../similarity/match.js';
import { stagesOfInstallerPhase } from '../specs/source-stage.js';
import { stageIndex, type CategoryId, type CiFailureMode, type StageId } from '../taxonomy.js';
import type { StageState, Timeline } from '../timeline/types.js';
import { basisKeys, calibratedConfidence, type ConfidenceBasis } from './confidence.js';
import { collectFor } from './collect.js';
import { missedData, describeMissed } from './partial-read.js';

export type { Verdict, VerdictStatus } from '../result/types.js';
export { missedData, describeMissed } from './partial-read.js';

/**
 * Categories that cause others: a DNS failure explains the API timeout that follows it, a full
 * disk explains etcd's slowness. Higher is more likely a root cause. The order is the catalogue's
 * CAUSE_SPECIFICITY (what a message names) with connectivity under the specific causes it
 * often hides; the weights below it were chosen on the real corpus and are checked by it.
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

/** How likely a finding is the root cause of a failure at `stage`. */
export function rootCauseScore(f: Finding, stage: StageId | null): number {
  let score = SEVERITY_WEIGHT[f.severity] * CONFIDENCE_SCORE[f.confidence] + (CAUSAL_RANK[f.category] ?? 0) * 0.75;
  if (stage) {
    const d = stageIndex(f.stage) - stageIndex(stage);
    // A later stage's error is a consequence, not a cause; an earlier one may explain it.
    score += d === 0 ? 0.5 : d < 0 ? 0.3 : -3;
  }
  return score;
}

/** Findings sorted most-likely-cause first; ties go to the earlier stage, then the rule id. */
export function rankFindings(findings: readonly Finding[], stage: StageId | null): Finding[] {
  return [...findings].sort((a, b) => rootCauseScore(b, stage) - rootCauseScore(a, stage) || stageIndex(a.stage) - stageIndex(b.stage) || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
}

/**
 * What a cause explains: a name that does not resolve explains the refused connections, the
 * unhealthy etcd and the failed ignition fetch that follow; a clock behind explains certificates
 * not yet valid; a full disk explains a slow etcd.
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
 * `a` began while `b` went on, inside its window, on any host — where `b` is a wait that names
 * nothing (a symptom of category unknown: cluster-bootstrap's time-out): a wait that names its
 * own trouble (etcd unhealthy) is not explained by what failed after it started.
 */
function withinWindow(a: Finding, b: Finding): boolean {
  if (!b.symptom || b.category !== 'unknown' || a.firstTime === undefined || b.firstTime === undefined) return false;
  return a.firstTime >= b.firstTime && a.firstTime <= (b.lastTime ?? b.firstTime);
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

export interface VerdictInput {
  timeline: Timeline;
  /** Every finding, with its marks: a recovered or wholly benign one is never a cause. */
  findings: readonly Finding[];
  results: readonly RuleResult[];
  /** Known issues the logs look like, best first: the cause when no rule found one. */
  similar?: readonly SimilarIssue[];
  /** What the read could not read: a read that left data out is never called healthy. */
  problems?: readonly ReadProblem[];
  /** The message catalogue: what its symptoms say to collect when no line names a cause. */
  catalogue?: Catalogue;
}

/** Noise: every line the finding cites is one healthy installs print. */
function onlyBenign(f: Finding): boolean {
  return f.evidence.length > 0 && f.evidence.every((e) => e.benign === true);
}

/** A serious finding: critical or error. */
function serious(f: Finding): boolean {
  return f.severity === 'critical' || f.severity === 'error';
}

/** The stage's state in the table. */
function stateOf(timeline: Timeline, id: StageId | undefined): StageState | undefined {
  return id === undefined ? undefined : timeline.stages.find((s) => s.id === id);
}

/**
 * A finding whose stage the install was seen to get past: by that stage's own evidence, or (with
 * `evenImplied`) implied by a later stage of bootkube.sh's sequence. Installs are eventually
 * consistent: an error in a stage that completed healed.
 */
function settled(f: Finding, timeline: Timeline, evenImplied = false): boolean {
  const s = stateOf(timeline, f.stage);
  return s?.status === 'ok' && (evenImplied || s.implied === undefined);
}

/**
 * The cause behind the top-ranked finding: a serious finding (or a warning a rule is sure of) of
 * the same or an earlier stage, or one that began before it or inside its window on any host,
 * in a stage not seen complete, whose category explains the top one's, followed as far as it goes.
 */
function explainedBy(top: Finding, ranked: readonly Finding[], timeline: Timeline): Finding {
  let root = top;
  for (let hops = 0; hops < 4; hops++) {
    const cause = ranked.find(
      (f) =>
        f !== root &&
        (serious(f) || (f.severity === 'warning' && f.confidence !== 'low')) &&
        (stageIndex(f.stage) <= stageIndex(root.stage) || startedBefore(f, root) || withinWindow(f, root)) &&
        !settled(f, timeline, true) &&
        (EXPLAINS[f.category] ?? []).includes(root.category),
    );
    if (!cause) return root;
    root = cause;
  }
  return root;
}

/** The stages each installer wait spans: a failed wait leaves them all unproven. */
const INSTALLER_SPANS: readonly StageId[][] = (['infrastructure', 'kubernetes-api', 'bootstrap', 'cluster'] as const).map(stagesOfInstallerPhase);

/** Least similarity for calling a failure where no stage and no rule saw one. */
const SIMILAR_ONLY_SCORE = 0.6;

/**
 * The similar issues that may name a cause: not one of a stage seen complete, and not one whose
 * every matched line is a finding's healed or benign evidence (a pull that failed once, then
 * succeeded, resembles a known pull failure and explains nothing).
 */
function likeCauses(similar: readonly SimilarIssue[], findings: readonly Finding[], timeline: Timeline): SimilarIssue[] {
  const noise = new Set<string>();
  for (const f of findings) for (const e of f.evidence) if ((f.recovered !== undefined || e.benign) && e.line !== undefined) noise.add(`${e.file}:${e.line}`);
  const complete = new Set(timeline.stages.filter((s) => s.status === 'ok').map((s) => s.id));
  return similar.filter((s) => !complete.has(s.stage) && !s.matchedLines.every((l) => noise.has(`${l.file}:${l.line}`)));
}

/** The best similar issue that can explain a failure at `stage` (not one of a later stage). */
function similarCause(similar: readonly SimilarIssue[], stage: StageId | undefined): SimilarIssue | undefined {
  if (stage === undefined) return similar[0];
  const fits = similar.filter((s) => stageIndex(s.stage) <= stageIndex(stage));
  return fits.find((s) => s.stage === stage) ?? fits[0];
}

function firstEvidence(f: Finding): Evidence | undefined {
  return f.evidence[0];
}

/** The stage of the verdict: the earliest that did not complete, and what showed it. */
function failedStage(timeline: Timeline, findings: readonly Finding[]): { stage: StageId; reason: VerdictReason } | undefined {
  const open = findings.filter((f) => serious(f) && !settled(f, timeline, true));
  const failed = timeline.stages.find((s) => s.status === 'failed');
  const stuck = timeline.stages.find((s) => s.status === 'in-progress');
  const byFinding = [...open].sort((a, b) => stageIndex(a.stage) - stageIndex(b.stage))[0];
  // The earliest stage that did not complete: the table's first failure, the first stage still in
  // progress when the bundle was gathered (a gathered install is over: it is stuck), or an earlier
  // stage a serious finding names that the table never saw complete.
  const options: { stage: StageId; reason: VerdictReason }[] = [];
  if (failed) options.push({ stage: failed.id, reason: stageReason(failed, 'failed') });
  if (stuck) options.push({ stage: stuck.id, reason: stageReason(stuck, 'stuck') });
  if (byFinding) options.push({ stage: byFinding.stage, reason: { kind: 'stage', stage: byFinding.stage, how: 'finding', finding: byFinding.ruleId, ...withEvidence(firstEvidence(byFinding)) } });
  options.sort((a, b) => stageIndex(a.stage) - stageIndex(b.stage));
  let chosen = options[0];
  const leads = findings.filter((f) => f.severity === 'warning' && !settled(f, timeline, true));
  const earliestLead = (within: (id: StageId) => boolean): Finding | undefined =>
    leads.filter((f) => within(f.stage)).sort((a, b) => stageIndex(a.stage) - stageIndex(b.stage))[0];
  if (!chosen && !timeline.stages.some((s) => s.status === 'ok')) {
    // Nothing failed and nothing was seen complete: the errors there are are all the evidence.
    const lead = earliestLead(() => true);
    if (lead) chosen = { stage: lead.stage, reason: { kind: 'stage', stage: lead.stage, how: 'lead', finding: lead.ruleId, ...withEvidence(firstEvidence(lead)) } };
  } else if (chosen && stateOf(timeline, chosen.stage)?.basis === 'installer-log') {
    // The installer only says which wait failed (or never ended); a lead inside that wait's
    // span names the step.
    const span = INSTALLER_SPANS.find((ids) => ids.includes(chosen.stage)) ?? [];
    const lead = earliestLead((id) => span.includes(id) && stageIndex(id) < stageIndex(chosen.stage));
    if (lead) chosen = { stage: lead.stage, reason: { kind: 'stage', stage: lead.stage, how: 'lead', finding: lead.ruleId, ...withEvidence(firstEvidence(lead)) } };
  }
  return chosen;
}

function withEvidence(e: Evidence | undefined): { evidence?: Evidence } {
  return e ? { evidence: e } : {};
}

function stageReason(s: StageState, how: 'failed' | 'stuck'): VerdictReason {
  return { kind: 'stage', stage: s.id, how, ...(s.basis ? { basis: s.basis as StageBasis } : {}), ...withEvidence(s.evidence[0]) };
}

/** Draws the verdict from whatever evidence exists. */
export function decideVerdict({ timeline, findings: all, results, similar: allSimilar = [], problems = [], catalogue }: VerdictInput): Omit<Verdict, 'summary'> {
  // A recovered finding (info) or one whose every line is benign is never a cause.
  const findings = all.filter((f) => f.recovered === undefined && !onlyBenign(f));
  const chosen = failedStage(timeline, findings);
  const similar = likeCauses(allSimilar, all, timeline);

  if (!chosen) {
    const ok = timeline.stages.filter((s) => s.status === 'ok').map((s) => s.id);
    const known = ok.length === 0 ? similar.find((x) => x.score >= SIMILAR_ONLY_SCORE) : undefined;
    if (known) {
      // Nothing seen complete and no rule fired, but the logs read like a known failure.
      return {
        status: 'failed',
        stage: known.stage,
        category: known.category,
        confidence: calibratedConfidence({ kind: 'similar-only', score: known.score }),
        confidenceBasis: basisKeys({ kind: 'similar-only', score: known.score }),
        reasons: [{ kind: 'nothing-failed' }, { kind: 'similar', issue: known.id, score: known.score }],
        rootCause: null,
        knownIssue: known.id,
        ciFailureMode: ciFailureMode(known.stage, known.category),
      };
    }
    const checked = results.filter((r) => r.status !== 'skipped').length;
    const skipped = results.filter((r) => r.status === 'skipped').length;
    const missed = describeMissed(problems);
    // Healthy needs the install seen past the bootstrap's main work (the control plane running on
    // the masters, or later): nothing failing in a bundle that stops earlier says too little. A
    // read that left data out cannot show a healthy install: the part not read may hold the failure.
    const furthest = Math.max(-1, ...ok.map(stageIndex));
    const healthy = furthest >= stageIndex('production-control-plane') && missed === undefined;
    return {
      status: healthy ? 'healthy' : 'inconclusive',
      stage: null,
      category: null,
      confidence: healthy ? calibratedConfidence({ kind: 'healthy' }) : 0.5,
      confidenceBasis: healthy ? basisKeys({ kind: 'healthy' }) : ['inconclusive'],
      reasons: [
        ...(missed ? [{ kind: 'partial-read' as const, missed }] : []),
        { kind: 'no-failure', complete: ok, checked, skipped },
      ],
      rootCause: null,
      ciFailureMode: null,
    };
  }

  const { stage } = chosen;
  // A finding in a stage the install was seen to get past healed: it is no cause.
  const open = findings.filter((f) => f.severity !== 'info' && !settled(f, timeline));
  const ranked = rankFindings(open, stage);
  const top = ranked[0] && rootCauseScore(ranked[0], stage) > 0 ? ranked[0] : undefined;
  const root = top ? explainedBy(top, ranked, timeline) : undefined;
  // Similarity names the cause when no rule did, or when the rule could not say what kind it is.
  const known = !root || root.category === 'unknown' ? similarCause(similar, stage) : undefined;
  const category: CategoryId = (root?.category === 'unknown' ? undefined : root?.category) ?? known?.category ?? 'unknown';
  const state = stateOf(timeline, stage);
  const basis: ConfidenceBasis = root && !known
    ? { kind: 'rule', confidence: root.confidence, generic: root.captures.source !== undefined && root.ruleId === 'last-error', sameStage: root.stage === stage, stageFailed: state?.status === 'failed', category }
    : known
      ? { kind: 'similar', score: known.score }
      : { kind: 'no-cause' };
  const reasons: VerdictReason[] = [chosen.reason];
  if (root) reasons.push({ kind: 'cause', finding: root.ruleId, ...(root !== top && top ? { explains: top.ruleId } : {}), ...withEvidence(firstEvidence(root)) });
  if (known) reasons.push({ kind: 'similar', issue: known.id, score: known.score });
  if (category === 'unknown') reasons.push({ kind: 'collect', steps: collectFor(stage, root, catalogue) });
  return {
    status: 'failed',
    stage,
    category,
    confidence: calibratedConfidence(basis),
    confidenceBasis: basisKeys(basis),
    reasons,
    rootCause: root?.ruleId ?? null,
    ...(known ? { knownIssue: known.id } : {}),
    ciFailureMode: ciFailureMode(stage, category),
  };
}

/**
 * The stage table with the findings' word added: a stage a serious finding speaks of was reached,
 * whatever the timeline could tell (masters' etcd failing while the bootstrap host waited), so it
 * is never `not-reached`.
 */
export function stagesWithFindings(timeline: Timeline, findings: readonly Finding[]): Timeline {
  const stages = timeline.stages.map((s) => {
    if (s.status !== 'not-reached') return s;
    const f = findings.find((x) => x.stage === s.id && serious(x) && x.recovered === undefined);
    if (!f) return s;
    const state: StageState = { ...s, status: 'in-progress', decidedBy: `finding ${f.ruleId}`, basis: 'finding', evidence: f.evidence.slice(0, 1), hosts: f.hosts };
    if (f.firstTime !== undefined) state.start = f.firstTime;
    return state;
  });
  return { stages };
}

/**
 * The stage table agreeing with the verdict: the verdict's stage did not complete, so its row is
 * never `unknown` or `not-reached` — it is in progress, shown with the verdict's evidence.
 */
export function stagesWithVerdict(timeline: Timeline, verdict: Pick<Verdict, 'stage' | 'reasons'>): Timeline {
  if (!verdict.stage) return timeline;
  const why = verdict.reasons.find((r) => r.kind === 'stage');
  const evidence = why && why.kind === 'stage' ? why.evidence : undefined;
  return {
    stages: timeline.stages.map((s) =>
      s.id === verdict.stage && (s.status === 'unknown' || s.status === 'not-reached')
        ? { ...s, status: 'in-progress' as const, decidedBy: 'the verdict: the earliest stage that did not complete', basis: 'finding' as const, evidence: evidence ? [evidence] : s.evidence }
        : s,
    ),
  };
}
