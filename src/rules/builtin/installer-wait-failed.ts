// The installer's own output says which wait gave up (infrastructure, the Kubernetes API,
// bootstrapping, the cluster) and often why: the `Still waiting for ...` errors before it, the
// analysis of the bundle it gathered, the operator conditions it printed. For bundles that hold
// only the installer's output this is the stage and cause evidence; the errors go through the
// same signature table as every log line.
import type { InstallerLine, InstallerLog, InstallerPhase } from '../../model/types.js';
import { bootkubeRecordStage, stageOfInstallerPhase } from '../../specs/source-stage.js';
import type { CategoryId, StageId } from '../../taxonomy.js';
import type { Evidence } from '../../result/types.js';
import { defineRule } from '../define-rule.js';
import { messageSpan } from '../evidence.js';
import { mostTelling } from '../read-message.js';
import type { RuleContext } from '../types.js';

/** What the installer printed after a wait failed, not why it failed: gathering, the status it could not list. */
const AFTERMATH = /Attempted to gather ClusterOperator status after wait failure|Attempted to gather debug logs|Failed to gather|gather bootstrap|Use the following commands|Bootstrap gather logs captured|Log bundle written|failed to (?:ssh|connect to the bootstrap)/i;

/** A line the installer printed (`raw`, and its message as `text`), or a condition it reported (`text` alone). */
interface Witness {
  line: number;
  text: string;
  raw?: string;
  time?: number;
}

function evidenceOf(log: InstallerLog, l: Witness): Evidence {
  const e: Evidence = { file: log.source.file, line: l.line, text: l.raw ?? l.text };
  if (l.time !== undefined) e.time = l.time;
  // A cut keeps the message whole: the installer's words, the operator's.
  const match = messageSpan(e.text, l.text);
  if (match) e.match = match;
  return e;
}

/** The phase that failed last: the last error-level line of a wait (gathering aside). */
function failedPhase(log: InstallerLog): InstallerLine | undefined {
  const waits = log.failures.filter((f) => f.phase !== 'gather' && !AFTERMATH.test(f.text));
  const fatal = [...waits].reverse().find((f) => f.level === 'fatal');
  return fatal ?? waits[waits.length - 1];
}

/**
 * A wait the output ends in, still waiting for an error (the run was cut off, or pasted while it
 * waited): its last `Still waiting ...` line stands for the failure.
 */
function stillWaitingAtEnd(ctx: RuleContext, log: InstallerLog): InstallerLine | undefined {
  const wait = log.waits[log.waits.length - 1];
  const last = log.stillWaiting[log.stillWaiting.length - 1];
  if (!last || (wait && last.line < wait.line)) return undefined;
  if (last.phase === 'kubernetes-api' && log.apiUp && log.apiUp.line > last.line) return undefined;
  if (last.phase === 'bootstrap' && log.bootstrapComplete) return undefined;
  return mostTelling(ctx, [last]) ? last : undefined;
}

/** The operators a failed cluster wait names (`waiting on a, b`, `still updating: a, b`). */
function waitingOperators(text: string): string[] {
  const m = /(?:waiting on|still updating:|are not available:)\s+([a-z0-9-]+(?:,\s*[a-z0-9-]+)*)/.exec(text);
  return m ? m[1].split(/,\s*/) : [];
}

/** Whether only the operators that check the *.apps routes (authentication, console) are waiting. */
function onlyRouteOperators(text: string): boolean {
  const ops = waitingOperators(text);
  return ops.length > 0 && ops.every((o) => o === 'authentication' || o === 'console');
}

/** The stage the installer's analysis of the gathered bundle names, if it printed one. */
function analysisStage(log: InstallerLog): { stage: StageId; line: InstallerLine } | undefined {
  for (const l of log.analysis) {
    if (/failed to download the release image|did not execute the release-image/.test(l.text)) return { stage: 'release-image', line: l };
    const st = /The bootkube service failed at stage "([^"]+)"/.exec(l.text);
    if (st) {
      const stage = bootkubeRecordStage(st[1], false);
      if (stage) return { stage, line: l };
    }
    if (/konnectivity/.test(l.text)) return { stage: 'bootstrap-control-plane', line: l };
  }
  return undefined;
}

/** The lines that may say why a phase failed, in order of how directly they say it. */
function witnesses(log: InstallerLog, phase: InstallerPhase, failure: InstallerLine): Witness[][] {
  const inPhase = (l: InstallerLine): boolean => l.phase === phase;
  const conditions = log.operatorConditions
    .filter((c) => (c.condition === 'Degraded' && c.status === 'True') || (c.condition === 'Available' && c.status === 'False'))
    .map((c) => ({ text: `Cluster operator ${c.operator} ${c.condition} is ${c.status} with ${c.reason ?? ''}: ${c.message}`, line: c.line, ...(c.time !== undefined ? { time: c.time } : {}) }));
  return [
    log.analysis.filter((l) => !/^The bootstrap machine|^The bootkube service|^Invalid log bundle/.test(l.text)),
    log.stillWaiting.filter(inPhase).slice(-20),
    log.failures.filter((f) => inPhase(f) && !AFTERMATH.test(f.text)),
    phase === 'cluster' ? conditions : [],
    [failure],
  ];
}

export const installerWaitFailed = defineRule({
  meta: {
    id: 'installer-wait-failed',
    title: 'The installer gave up waiting',
    stage: 'bootstrap-complete',
    category: 'unknown',
    severity: 'error',
    confidence: 'low',
    description:
      "`openshift-install` creates the infrastructure, then waits for the Kubernetes API (20 min), for bootstrapping to complete (30-45 min) and for the cluster to initialize (40 min+). The wait that failed places the failure: infrastructure errors stop the masters being provisioned, an API that never answers is the bootstrap control plane, a failed bootstrap wait is bootstrap-complete unless other evidence names an earlier step, and a cluster that does not initialize is the cluster operators. Why it failed comes from the installer's own lines: its `Still waiting for ...` errors, its analysis of the gathered bundle, the operator conditions it printed.",
    fix: [
      'Gather the bootstrap logs if not done: `openshift-install gather bootstrap --dir <install-dir>` (add `--bootstrap <ip> --master <ip>` for user-provisioned infrastructure).',
      'Run `openshift-install wait-for bootstrap-complete --log-level=debug` (or `wait-for install-complete`) to resume waiting with more detail.',
      'Act on the quoted error: a name that does not resolve, an API load balancer that refuses, a certificate not trusted or expired, a cloud quota, an operator that is degraded.',
    ],
    references: [
      'https://github.com/openshift/installer/blob/master/cmd/openshift-install/create.go',
      'https://github.com/openshift/installer/blob/master/pkg/gather/service/analyze.go',
      'https://github.com/openshift/installer/blob/master/docs/user/troubleshootingbootstrap.md',
      'https://github.com/openshift/hive/blob/master/config/configmaps/install-log-regexes-configmap.yaml',
    ],
  },
  inputs: [{ log: 'installer' }],
  check(ctx) {
    const log = ctx.bundle.installerLog;
    if (!log || log.installComplete) return [];
    const failure = failedPhase(log) ?? stillWaitingAtEnd(ctx, log);
    if (!failure) return [];
    const phase = failure.phase === 'gather' ? 'bootstrap' : failure.phase;
    const analysed = phase === 'bootstrap' ? analysisStage(log) : undefined;
    let stage: StageId | undefined = analysed?.stage ?? stageOfInstallerPhase(phase);
    if (!stage) return [];
    let category: CategoryId = 'unknown';
    let why: string | undefined;
    const evidence: Evidence[] = [];
    for (const group of witnesses(log, phase, failure)) {
      const found = mostTelling(ctx, group);
      if (!found) continue;
      category = found.reading.category;
      why = group[found.index].text;
      evidence.push(evidenceOf(log, group[found.index]));
      break;
    }
    if (phase === 'cluster' && category === 'unknown' && onlyRouteOperators(failure.text)) {
      // authentication and console alone still waiting: ingress is up, but their health checks of
      // the *.apps routes (oauth-openshift, console-openshift-console) fail - most often the
      // wildcard record for *.apps that does not resolve.
      category = 'dns';
      why = 'only authentication and console, whose health checks reach the *.apps routes, are waiting';
    }
    // Still waiting for the API for a reason that is the bootstrap host's own (its API cannot be reached).
    if (phase === 'bootstrap' && !analysed && log.apiUp === undefined && log.stillWaiting.some((l) => l.phase === 'kubernetes-api')) stage = 'bootstrap-control-plane';
    if (analysed) evidence.unshift(evidenceOf(log, analysed.line));
    if (!evidence.some((e) => e.line === failure.line)) evidence.push(evidenceOf(log, failure));
    return [
      ctx.finding({
        symptom: true,
        message: `${failure.text}${why !== undefined && why !== failure.text ? ` (${why.trim()})` : ''}`,
        evidence,
        stage,
        category,
        // A named cause from the installer's own errors is worth more than a bare time-out.
        confidence: category === 'unknown' ? 'low' : 'medium',
        captures: { phase },
      }),
    ];
  },
});
