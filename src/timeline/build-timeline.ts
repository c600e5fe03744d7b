// Decides each stage's status from the model: service records first, then bootkube's journal
// markers (older releases write no records), then cluster resources and the installer log.
// A stage with no evidence is unknown; stages after the first failure are not reached.
import type { LineFilter } from '../specs/line-filter.js';
import type { Bundle, ClusterOperatorResource, Host, Journal, JournalLine, ServiceRecord, ServiceStageRun } from '../model/types.js';
import { STAGES, stageIndex, type StageId } from '../taxonomy.js';
import { filterId } from '../model/source-id.js';
import { bootkubeRecordStage, RELEASE_IMAGE_SERVICES, stageOfInstallerPhase } from '../specs/source-stage.js';
import { isStaticEtcdMemberContainer } from '../specs/unit-stage.js';
import type { Evidence, StageBasis } from '../result/types.js';
import type { StageState, StageStatus, Timeline } from './types.js';

/** The kind of evidence a decision's words name. */
function basisOf(decidedBy: string): StageBasis {
  if (decidedBy === 'service records') return 'service-records';
  if (decidedBy === 'installer log') return 'installer-log';
  if (decidedBy.startsWith('cluster resources')) return 'resources';
  if (decidedBy.startsWith('masters')) return 'masters';
  return 'journal';
}

/**
 * bootkube.sh and cluster-bootstrap progress messages (bootkube.sh.template, cluster-bootstrap),
 * in the order the script prints them: rendering, etcd, cluster-bootstrap (the API, then the
 * required pods), restoring the CVO overrides, waiting for the etcd operator, complete.
 */
const MARKERS = {
  renderStart: ['Rendering '],
  etcdWait: ['Waiting for etcd cluster', 'Starting etcd'],
  etcdRetry: ['etcdctl failed. Retrying'],
  cbStart: ['Starting cluster-bootstrap...'],
  apiUp: ['API is up'],
  // cluster-bootstrap creating manifests or polling pods: the bootstrap API answers.
  cbWorking: ['Pod Status:', 'Created "', 'Skipped "', 'unable to get REST mapping'],
  podsStarted: ['All self-hosted control plane components successfully started'],
  podStatusError: ['error while checking pod status'],
  cvoRestore: ['Restoring CVO overrides', 'restore CVO overrides'],
  ceoWait: ['Waiting for CEO to finish'],
  complete: ['bootkube.service complete'],
  teardown: ['Tearing down temporary bootstrap control plane'],
} as const;

type MarkerName = keyof typeof MARKERS;

/** Line filters the reader must apply so the timeline sees bootkube's markers in any journal size. */
export const TIMELINE_FILTERS: LineFilter[] = (Object.keys(MARKERS) as MarkerName[]).map((name) => ({
  id: filterId('timeline', name),
  appliesTo: (s) => (s.kind === 'journal' || s.kind === 'unit-status-journal') && s.host?.role === 'bootstrap' && s.unit === 'bootkube',
  literals: MARKERS[name],
}));

function lineEvidence(j: Journal, l: JournalLine, host = 'bootstrap'): Evidence {
  const e: Evidence = { file: j.source.file, line: l.line, text: l.raw ?? l.text, host };
  if (l.time !== undefined) e.time = l.time;
  return e;
}

/** Lines of a bootstrap journal carrying a marker, from its kept matches and its tail. */
function markerLines(j: Journal | undefined, name: MarkerName): JournalLine[] {
  if (!j) return [];
  const id = filterId('timeline', name);
  const seen = new Set<number>();
  const out: JournalLine[] = [];
  for (const m of j.matched) {
    if (m.filterIds.includes(id)) {
      seen.add(m.entry.line);
      out.push(m.entry);
    }
  }
  for (const l of [...j.head, ...j.tail]) {
    if (!seen.has(l.line) && MARKERS[name].some((m) => l.text.includes(m))) {
      seen.add(l.line);
      out.push(l);
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** systemd's verdict on a unit, as the reader found it. */
function unitOutcome(j: Journal | undefined): Journal['outcome'] {
  return j?.outcome;
}

class StageBoard {
  readonly states = new Map<StageId, StageState>();

  constructor() {
    for (const id of STAGES) this.states.set(id, { id, status: 'unknown', hosts: [], evidence: [] });
  }

  /** Sets a stage's status unless a stronger source already decided it. */
  decide(id: StageId, status: StageStatus, decidedBy: string, evidence: Evidence[], times: { start?: number; end?: number } = {}, hosts: string[] = []): void {
    const s = this.states.get(id) as StageState;
    if (s.status !== 'unknown') return;
    s.status = status;
    s.decidedBy = decidedBy;
    s.basis = basisOf(decidedBy);
    s.evidence = evidence;
    // Records out of order (an end before its start) give no duration rather than a negative one.
    const ordered = times.start === undefined || times.end === undefined || times.start <= times.end;
    if (times.start !== undefined && ordered) s.start = times.start;
    if (times.end !== undefined) s.end = times.end;
    s.hosts = hosts;
  }

  /** Says why a stage no evidence decided stays unknown; any later decision replaces it. */
  note(id: StageId, why: string, evidence: Evidence[] = []): void {
    const s = this.states.get(id) as StageState;
    if (s.status !== 'unknown' || s.decidedBy !== undefined) return;
    s.decidedBy = why;
    s.evidence = evidence;
  }

  get(id: StageId): StageState {
    return this.states.get(id) as StageState;
  }
}

function stageEvidence(record: ServiceRecord, st: ServiceStageRun): Evidence {
  const text = st.result
    ? `${record.service} stage ${st.name} ended: ${st.result}${st.errorMessage ? ` (${st.errorMessage.split('\n').slice(-1)[0]})` : ''}`
    : `${record.service} stage ${st.name} started and did not end`;
  const e: Evidence = { file: st.source.file, text, host: 'bootstrap' };
  if (st.source.line !== undefined) e.line = st.source.line;
  const t = st.end ?? st.start;
  if (t !== undefined) e.time = t;
  return e;
}

function statusOf(result: string | undefined): StageStatus {
  return result === undefined ? 'in-progress' : result === 'success' ? 'ok' : 'failed';
}

function fromServiceRecords(board: StageBoard, host: Host, apiAnswered: boolean): void {
  for (const name of RELEASE_IMAGE_SERVICES) {
    const record = host.serviceRecords[name];
    const run = record?.runs[record.runs.length - 1];
    if (!record || !run) continue;
    const failedStage = run.stages.find((s) => s.result === 'failure');
    const e: Evidence = {
      file: record.source.file,
      text: `${name} service ${run.result ? `ended: ${run.result}` : 'started and did not end'}${run.errorMessage ?? failedStage?.errorMessage ? `: ${(run.errorMessage ?? failedStage?.errorMessage ?? '').split('\n').slice(-1)[0]}` : ''}`,
      host: 'bootstrap',
    };
    if (run.source.line !== undefined) e.line = run.source.line;
    board.decide('release-image', statusOf(run.result), 'service records', [e], { start: run.start, end: run.end }, ['bootstrap']);
  }
  const bootkube = host.serviceRecords['bootkube'];
  const run = bootkube?.runs[bootkube.runs.length - 1];
  if (!bootkube || !run) return;
  // Several record stages make up `render`: it failed if one failed, is ok when all ended well.
  const render = run.stages.filter((s) => bootkubeRecordStage(s.name, apiAnswered) === 'render');
  if (render.length > 0) {
    const bad = render.find((s) => s.result !== 'success');
    board.decide(
      'render',
      bad ? statusOf(bad.result) : 'ok',
      'service records',
      [stageEvidence(bootkube, bad ?? render[render.length - 1])],
      { start: render[0].start, end: bad ? bad.end : render[render.length - 1].end },
      ['bootstrap'],
    );
  }
  for (const st of run.stages) {
    const id = bootkubeRecordStage(st.name, apiAnswered);
    if (!id || id === 'render') continue;
    board.decide(id, statusOf(st.result), 'service records', [stageEvidence(bootkube, st)], { start: st.start, end: st.end }, id === 'production-control-plane' || id === 'etcd-scaling' ? ['bootstrap', 'masters'] : ['bootstrap']);
  }
  if (run.result === 'success') {
    const e: Evidence = { file: bootkube.source.file, text: 'bootkube service ended: success', host: 'bootstrap' };
    if (run.end !== undefined) e.time = run.end;
    board.decide('bootstrap-complete', 'ok', 'service records', [e], { end: run.end }, ['bootstrap']);
  }
}

function fromJournals(board: StageBoard, host: Host, apiAnswered: boolean): void {
  const bootkube = host.journals['bootkube'] ?? host.unitJournals['bootkube'];
  const first = (name: MarkerName): JournalLine | undefined => markerLines(bootkube, name)[0];
  const last = (name: MarkerName): JournalLine | undefined => markerLines(bootkube, name).slice(-1)[0];
  const ev = (l: JournalLine): Evidence => lineEvidence(bootkube as Journal, l);
  const unit = unitOutcome(bootkube);
  const stopped = unit?.status === 'failed';

  const release = host.journals['release-image'];
  const releaseOutcome = unitOutcome(release);
  if (release && releaseOutcome && releaseOutcome.status !== 'running') {
    board.decide('release-image', releaseOutcome.status, 'release-image journal', [lineEvidence(release, releaseOutcome.line)], { end: releaseOutcome.line.time }, ['bootstrap']);
  }
  for (const unitName of ['crio', 'kubelet']) {
    const out = unitOutcome(host.journals[unitName]);
    if (out?.status === 'failed') board.decide('node-runtime', 'failed', `${unitName} journal`, [lineEvidence(host.journals[unitName], out.line)], { end: out.line.time }, ['bootstrap']);
  }
  if (!bootkube) return;

  const rendering = first('renderStart');
  // Older releases print no "Waiting for etcd cluster": their first failed etcdctl marks the wait.
  const etcdWait = first('etcdWait') ?? first('etcdRetry');
  const cbStart = first('cbStart');
  const apiUp = first('apiUp') ?? first('cbWorking');
  const podError = last('podStatusError');
  // cluster-bootstrap tears down its control plane whether the pods came up or it gave up: the
  // tear-down says the pods started only once bootkube reported completion.
  const teardown = first('teardown');
  const complete = first('complete');
  const podsStarted = first('podsStarted') ?? (teardown && complete && !podError ? teardown : undefined);
  const cvo = first('cvoRestore');
  const ceo = first('ceoWait');
  // A later step's marker says every earlier step of the script ended well.
  const afterPods = cvo ?? ceo ?? complete;
  const afterEtcd = cbStart ?? apiUp ?? podsStarted ?? afterPods;
  const afterRender = etcdWait ?? afterEtcd;
  const open = (l: JournalLine): Evidence[] => [ev(l), ...(unit && stopped ? [ev(unit.line)] : [])];
  const state: StageStatus = stopped ? 'failed' : 'in-progress';

  if (afterRender) {
    board.decide('render', 'ok', 'bootkube journal', [ev(afterRender)], { start: rendering?.time, end: afterRender.time }, ['bootstrap']);
  } else if (rendering) {
    board.decide('render', state, 'bootkube journal', [ev(rendering), ...(unit ? [ev(unit.line)] : [])], { start: rendering.time }, ['bootstrap']);
  }
  if (afterEtcd) {
    board.decide('bootstrap-etcd', 'ok', 'bootkube journal', [ev(afterEtcd)], { start: etcdWait?.time, end: afterEtcd.time }, ['bootstrap']);
  } else if (etcdWait) {
    board.decide('bootstrap-etcd', state, 'bootkube journal', open(last('etcdRetry') ?? etcdWait), { start: etcdWait.time }, ['bootstrap']);
  }
  const apiSeen = apiUp ?? podsStarted ?? afterPods;
  if (apiSeen || apiAnswered) {
    board.decide('bootstrap-control-plane', 'ok', apiSeen ? 'bootkube journal' : 'cluster resources', apiSeen ? [ev(apiSeen)] : [], { start: cbStart?.time, end: apiSeen?.time }, ['bootstrap']);
  } else if (cbStart) {
    board.decide('bootstrap-control-plane', state, 'bootkube journal', open(cbStart), { start: cbStart.time }, ['bootstrap']);
  }
  const podsDone = podsStarted ?? afterPods;
  // A pod-status error after the last sign of success (a restarted bootkube failing again) wins.
  if (podsDone && !(podError && podError.line > podsDone.line)) {
    board.decide('production-control-plane', 'ok', 'bootkube journal', [ev(podsDone)], { start: apiUp?.time, end: podsDone.time }, ['bootstrap', 'masters']);
  } else if (podError) {
    board.decide('production-control-plane', 'failed', 'bootkube journal', [ev(podError)], { start: apiUp?.time, end: podError.time }, ['bootstrap', 'masters']);
  } else if (apiUp && cbStart) {
    // cluster-bootstrap polls the required pods: the masters' control plane is not up yet.
    board.decide('production-control-plane', state, 'bootkube journal', open(last('cbWorking') ?? apiUp), { start: apiUp.time }, ['bootstrap', 'masters']);
  }
  if (complete) {
    board.decide('etcd-scaling', 'ok', 'bootkube journal', [ev(complete)], { start: ceo?.time, end: complete.time }, ['bootstrap', 'masters']);
    board.decide('bootstrap-complete', 'ok', 'bootkube journal', [ev(complete)], { end: complete.time }, ['bootstrap']);
  } else if (ceo) {
    board.decide('etcd-scaling', state, 'bootkube journal', open(ceo), { start: ceo.time }, ['bootstrap', 'masters']);
  } else if (cvo) {
    // Restoring the CVO overrides hands control over: bootstrap-complete's own step.
    board.decide('bootstrap-complete', state, 'bootkube journal', open(last('cvoRestore') ?? cvo), { start: cvo.time }, ['bootstrap']);
  }
}

/**
 * The masters the install config asks for, when the bundle holds it; otherwise the most the
 * bundle shows exist (names listed, hosts gathered), which is a floor, never said to be expected.
 */
function expectedMasters(bundle: Bundle): { count: number; words: string } {
  const asked = bundle.renderedAssets?.installConfig?.controlPlaneReplicas;
  if (asked !== undefined) return { count: asked, words: `, of ${asked} in the install config` };
  const seen = Math.max(bundle.cluster?.masterNames?.length ?? 0, bundle.masters.length);
  return { count: Math.max(seen, 1), words: seen > 0 ? `, of ${seen} gathered (the install config is not in the bundle)` : '; the install config, which says how many to expect, is not in the bundle' };
}

const hasCondition = (o: ClusterOperatorResource, type: string, status: string): boolean => o.conditions.some((x) => x.type === type && x.status === status);

function fromResources(board: StageBoard, bundle: Bundle): void {
  const c = bundle.cluster;
  const nodes = c?.nodes;
  const computeAsked = bundle.renderedAssets?.installConfig?.computeReplicas;
  if (nodes) {
    const file = c?.files.find((f) => f.name === 'nodes')?.source.file ?? 'resources/nodes.json';
    const masters = nodes.filter((n) => n.roles.includes('master') || n.roles.includes('control-plane'));
    const expected = expectedMasters(bundle);
    const ready = masters.filter((n) => n.ready === 'True');
    const e: Evidence = { file, text: `${masters.length} master node(s) registered, ${ready.length} Ready${expected.words}` };
    board.decide('masters-provision', masters.length >= expected.count ? 'ok' : masters.length > 0 ? 'in-progress' : 'failed', 'cluster resources (nodes)', [e], {}, ['masters']);
    const workers = nodes.filter((n) => n.roles.includes('worker') && !n.roles.includes('master') && !n.roles.includes('control-plane'));
    if (workers.length > 0) {
      const notReady = workers.filter((n) => n.ready !== 'True');
      const all = notReady.length === 0 && (computeAsked === undefined || workers.length >= computeAsked);
      const of = computeAsked === undefined ? '' : `, of ${computeAsked} in the install config`;
      board.decide('workers', all ? 'ok' : 'in-progress', 'cluster resources (nodes)', [{ file, text: `${workers.length} worker node(s), ${notReady.length} not Ready${of}` }], {}, ['workers']);
    } else {
      board.note('workers', computeAsked === 0 ? 'install config: no compute nodes asked for' : 'cluster resources (nodes): no worker node registered', [{ file, text: computeAsked === 0 ? 'compute replicas 0 in the install config: the masters run the workloads' : `${nodes.length} node(s), none a worker` }]);
    }
  }
  const ops = c?.clusterOperators;
  if (ops && ops.length > 0) {
    const file = ops[0].source.file;
    const decidedBy = 'cluster resources (clusteroperators)';
    const silent = ops.filter((o) => o.conditions.length === 0);
    // An operator that reports nothing is not Available: only its own conditions say it is.
    if (silent.length === ops.length) {
      board.note('cluster-operators', `${decidedBy}: none reports conditions`, [{ file, text: `${ops.length} cluster operators, none reports conditions` }]);
      return;
    }
    const available = ops.filter((o) => hasCondition(o, 'Available', 'True') && !hasCondition(o, 'Degraded', 'True'));
    const bad = ops.filter((o) => o.conditions.length > 0 && !available.includes(o));
    const text =
      available.length === ops.length
        ? `all ${ops.length} cluster operators Available and not Degraded`
        : [
            `${available.length} of ${ops.length} cluster operators Available and not Degraded`,
            bad.length > 0 ? `Degraded or not Available: ${bad.map((o) => o.name).join(', ')}` : '',
            silent.length > 0 ? `${silent.length} report no conditions` : '',
          ]
            .filter(Boolean)
            .join('; ');
    board.decide('cluster-operators', available.length === ops.length ? 'ok' : 'in-progress', decidedBy, [{ file, text }], {}, []);
  }
}

function fromInstallerLog(board: StageBoard, bundle: Bundle): void {
  const log = bundle.installerLog;
  if (!log) return;
  const file = log.source.file;
  const at = (l: { line: number; text: string; raw?: string; time?: number }): Evidence => {
    const e: Evidence = { file, line: l.line, text: l.raw ?? l.text };
    if (l.time !== undefined) e.time = l.time;
    return e;
  };
  if (log.installComplete) board.decide('cluster-operators', 'ok', 'installer log', [{ file, text: 'Install complete!' }]);
  if (log.bootstrapComplete) board.decide('bootstrap-complete', 'ok', 'installer log', [{ file, text: 'Bootstrap status: complete' }]);
  if (log.apiUp) board.decide('bootstrap-control-plane', 'ok', 'installer log', [at(log.apiUp)], { end: log.apiUp.time }, ['bootstrap']);
  // The installer waits for the cluster only once bootstrapping completed.
  const clusterWait = log.waits.find((w) => w.phase === 'cluster');
  if (clusterWait) board.decide('bootstrap-complete', 'ok', 'installer log', [{ file, line: clusterWait.line, text: `Waiting up to ${clusterWait.timeout} for ${clusterWait.what}` }]);
  // The last failed wait (gathering aside) failed its phase's stage.
  const failed = [...log.failures].reverse().find((f) => f.phase !== 'gather' && !/Attempted to gather|gather/i.test(f.text));
  if (!failed && !log.installComplete) {
    // Output that ends inside a wait (cut off, or pasted while waiting): that wait's stage is stuck.
    const wait = log.waits[log.waits.length - 1];
    const still = log.stillWaiting[log.stillWaiting.length - 1];
    const phase = still && (!wait || still.line > wait.line) ? still.phase : wait?.phase;
    const resolved =
      phase === 'kubernetes-api' ? log.apiUp !== undefined && (!still || log.apiUp.line > still.line) || log.bootstrapComplete : phase === 'bootstrap' ? log.bootstrapComplete : false;
    const stage = phase ? stageOfInstallerPhase(phase) : undefined;
    if (stage && !resolved) {
      const e: Evidence = still && still.phase === phase ? at(still) : { file, line: wait?.line, text: `Waiting up to ${wait?.timeout} for ${wait?.what}` };
      board.decide(stage, 'in-progress', 'installer log', [e], {}, phase === 'kubernetes-api' ? ['bootstrap'] : []);
    }
  }
  if (!failed || log.installComplete) return;
  const stage = stageOfInstallerPhase(failed.phase);
  if (stage === 'bootstrap-complete' && log.bootstrapComplete) return;
  if (stage) board.decide(stage, 'failed', 'installer log', [at(failed)], { end: failed.time });
}

/**
 * bootkube.sh runs these in sequence on the bootstrap host: one that started implies the ones
 * before it ended. masters-provision runs beside cb-bootstrap, so only a later stage that
 * completed implies it.
 */
const SCRIPT_STAGES: readonly StageId[] = [
  'release-image',
  'node-runtime',
  'render',
  'bootstrap-etcd',
  'bootstrap-control-plane',
  'production-control-plane',
  'etcd-scaling',
  'bootstrap-complete',
];

function normalise(board: StageBoard): void {
  const seq = STAGES.slice(0, stageIndex('bootstrap-complete') + 1);
  let laterOk: StageState | undefined;
  let laterStarted: StageState | undefined;
  for (let i = seq.length - 1; i >= 0; i--) {
    const s = board.get(seq[i]);
    const script = SCRIPT_STAGES.includes(s.id);
    const by = s.status === 'unknown' ? (script ? laterStarted : undefined) ?? laterOk : undefined;
    if (by) {
      s.status = 'ok';
      s.decidedBy = `implied: ${by.id} ${by.status === 'ok' ? 'completed' : 'started'}`;
      s.basis = 'implied';
      s.implied = { by: by.id, how: by.status === 'ok' ? 'completed' : 'started' };
      s.evidence = by.evidence.slice(0, 1);
    }
    if (s.status === 'ok') laterOk = s;
    // The installer's failed or unfinished wait spans several stages: it proves none of them started.
    const spanOnly = s.basis === 'installer-log' && s.status !== 'ok';
    if (script && !spanOnly && (s.status === 'ok' || s.status === 'failed' || s.status === 'in-progress')) laterStarted = s;
  }
  // After the first failure nothing later can have happened unless evidence says so.
  const firstFailed = STAGES.findIndex((id) => board.get(id).status === 'failed');
  if (firstFailed >= 0) {
    for (const id of STAGES.slice(firstFailed + 1)) {
      const s = board.get(id);
      if (s.status === 'unknown') s.status = 'not-reached';
    }
  }
  explainUnknown(board);
}

/** Why a stage may stay unknown when a later one was decided: it does not run in bootkube.sh's sequence. */
const RUNS_BESIDE: Partial<Record<StageId, string>> = {
  'masters-provision': 'the masters boot beside cluster-bootstrap, which only waits for them',
  workers: 'compute nodes join beside the cluster operators',
};

/**
 * A stage left unknown before one that was decided reads as a contradiction unless the table says
 * why: no evidence of its own, and what was decided later does not imply it.
 */
function explainUnknown(board: StageBoard): void {
  STAGES.forEach((id, i) => {
    const s = board.get(id);
    if (s.status !== 'unknown' || s.decidedBy !== undefined) return;
    const later = STAGES.slice(i + 1)
      .map((x) => board.get(x))
      .find((x) => x.status === 'ok' || x.status === 'failed' || x.status === 'in-progress');
    if (!later) return;
    const how = later.status === 'ok' ? 'completed' : later.status === 'failed' ? 'failed' : 'in progress';
    s.decidedBy = `no evidence of its own; ${later.id} ${how} does not imply it${RUNS_BESIDE[id] ? ` (${RUNS_BESIDE[id]})` : ''}`;
  });
}

/** Masters whose own logs show pods running (not only 4.1-4.3's static etcd-member, which ran before they joined): they booted, got their ignition and joined. */
function fromMasters(board: StageBoard, bundle: Bundle): void {
  // Alone (a master's container log someone posted) it says too little to call any stage done.
  if (bundle.masters.length === 0 || STAGES.every((id) => board.get(id).status === 'unknown')) return;
  const joined = bundle.masters.filter((m) => m.containers.some((c) => (c.log?.lineCount ?? 0) > 0 && !isStaticEtcdMemberContainer(c.name ?? '')));
  if (joined.length === 0) return;
  const expected = expectedMasters(bundle);
  const first = joined.flatMap((m) => m.containers.map((c) => c.log?.source.file)).find((f): f is string => f !== undefined) ?? 'control-plane/';
  const e: Evidence = { file: first, text: `${joined.length} master(s) run pods (${joined.map((m) => m.address).join(', ')})${expected.words}` };
  board.decide('masters-provision', joined.length >= expected.count ? 'ok' : 'in-progress', 'masters\' containers', [e], {}, ['masters']);
}

/** bootkube or the installer saw the bootstrap API answer ("API is up", cluster-bootstrap creating manifests). */
function bootstrapApiSeen(bundle: Bundle): boolean {
  const host = bundle.bootstrap;
  const bootkube = host?.journals['bootkube'] ?? host?.unitJournals['bootkube'];
  return markerLines(bootkube, 'apiUp').length > 0 || markerLines(bootkube, 'cbWorking').length > 0 || bundle.installerLog?.apiUp !== undefined;
}

/** Builds the stage timeline of a bundle. */
export function buildTimeline(bundle: Bundle): Timeline {
  const board = new StageBoard();
  const apiAnswered = (bundle.cluster?.files.some((f) => f.status === 'ok') ?? false) || bootstrapApiSeen(bundle);
  if (bundle.bootstrap) {
    fromServiceRecords(board, bundle.bootstrap, apiAnswered);
    fromJournals(board, bundle.bootstrap, apiAnswered);
  }
  // The installer's output comes after the gather: its verdict on the operators is the latest.
  fromInstallerLog(board, bundle);
  fromResources(board, bundle);
  fromMasters(board, bundle);
  normalise(board);
  return { stages: STAGES.map((id) => board.get(id)) };
}
