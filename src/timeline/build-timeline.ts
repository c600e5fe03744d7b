// Decides each stage's status from the model: service records first, then bootkube's journal
// markers (older releases write no records), then cluster resources and the installer log.
// A stage with no evidence is unknown; stages after the first failure are not reached.
import type { LineFilter } from '../specs/line-filter.js';
import type { Bundle, Host, Journal, JournalLine, ServiceRecord, ServiceStageRun } from '../model/types.js';
import { STAGES, stageIndex, type StageId } from '../taxonomy.js';
import { filterId } from '../specs/source-id.js';
import { bootkubeStage, RELEASE_IMAGE_SERVICES } from './stage-map.js';
import type { Evidence, StageState, StageStatus, Timeline } from './types.js';

/** bootkube.sh and cluster-bootstrap progress messages (bootkube.sh.template, cluster-bootstrap). */
const MARKERS = {
  renderStart: 'Rendering ',
  etcdWait: 'Waiting for etcd cluster',
  etcdRetry: 'etcdctl failed. Retrying',
  cbStart: 'Starting cluster-bootstrap...',
  apiUp: 'API is up',
  podsStarted: 'All self-hosted control plane components successfully started',
  podStatusError: 'error while checking pod status',
  ceoWait: 'Waiting for CEO to finish',
  complete: 'bootkube.service complete',
  teardown: 'Tearing down temporary bootstrap control plane',
} as const;

type MarkerName = keyof typeof MARKERS;

/** Line filters the reader must apply so the timeline sees bootkube's markers in any journal size. */
export const TIMELINE_FILTERS: LineFilter[] = (Object.keys(MARKERS) as MarkerName[]).map((name) => ({
  id: filterId('timeline', name),
  appliesTo: (s) => (s.kind === 'journal' || s.kind === 'unit-status-journal') && s.host?.role === 'bootstrap' && s.unit === 'bootkube',
  literals: [MARKERS[name]],
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
    if (!seen.has(l.line) && l.text.includes(MARKERS[name])) {
      seen.add(l.line);
      out.push(l);
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** systemd's verdict on a unit from its own lines: the last start/finish/failure wins. */
function unitOutcome(j: Journal | undefined): { status: 'ok' | 'failed' | 'running'; line: JournalLine } | undefined {
  if (!j) return undefined;
  for (let i = j.systemdLines.length - 1; i >= 0; i--) {
    const l = j.systemdLines[i];
    if (/Failed with result|Main process exited, code=(exited|killed|dumped), status=(?!0\/)/.test(l.text)) return { status: 'failed', line: l };
    if (/^Finished |Deactivated successfully|Succeeded\.$/.test(l.text)) return { status: 'ok', line: l };
    if (/^Started /.test(l.text)) return { status: 'running', line: l };
  }
  return undefined;
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
    s.evidence = evidence;
    if (times.start !== undefined) s.start = times.start;
    if (times.end !== undefined) s.end = times.end;
    s.hosts = hosts;
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
  const render = run.stages.filter((s) => bootkubeStage(s.name, apiAnswered) === 'render');
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
    const id = bootkubeStage(st.name, apiAnswered);
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
  const apiUp = first('apiUp');
  const podsStarted = first('podsStarted');
  const podError = last('podStatusError');
  const ceo = first('ceoWait');
  const complete = first('complete');

  if (etcdWait || cbStart) {
    const to = etcdWait ?? cbStart;
    board.decide('render', 'ok', 'bootkube journal', [ev(to as JournalLine)], { start: rendering?.time, end: to?.time }, ['bootstrap']);
  } else if (rendering) {
    board.decide('render', stopped ? 'failed' : 'in-progress', 'bootkube journal', [ev(rendering), ...(unit ? [ev(unit.line)] : [])], { start: rendering.time }, ['bootstrap']);
  }
  if (cbStart) {
    board.decide('bootstrap-etcd', 'ok', 'bootkube journal', [ev(cbStart)], { start: etcdWait?.time, end: cbStart.time }, ['bootstrap']);
  } else if (etcdWait) {
    const retry = last('etcdRetry');
    board.decide('bootstrap-etcd', stopped ? 'failed' : 'in-progress', 'bootkube journal', [ev(retry ?? etcdWait), ...(unit && stopped ? [ev(unit.line)] : [])], { start: etcdWait.time }, ['bootstrap']);
  }
  if (apiUp || apiAnswered) {
    board.decide('bootstrap-control-plane', 'ok', apiUp ? 'bootkube journal' : 'cluster resources', apiUp ? [ev(apiUp)] : [], { start: cbStart?.time, end: apiUp?.time }, ['bootstrap']);
  } else if (cbStart) {
    board.decide('bootstrap-control-plane', stopped ? 'failed' : 'in-progress', 'bootkube journal', [ev(cbStart), ...(unit && stopped ? [ev(unit.line)] : [])], { start: cbStart.time }, ['bootstrap']);
  }
  if (podsStarted) {
    board.decide('production-control-plane', 'ok', 'bootkube journal', [ev(podsStarted)], { start: apiUp?.time, end: podsStarted.time }, ['bootstrap', 'masters']);
  } else if (podError) {
    board.decide('production-control-plane', 'failed', 'bootkube journal', [ev(podError)], { start: apiUp?.time, end: podError.time }, ['bootstrap', 'masters']);
  }
  if (complete) {
    board.decide('etcd-scaling', 'ok', 'bootkube journal', [ev(complete)], { start: ceo?.time, end: complete.time }, ['bootstrap', 'masters']);
    board.decide('bootstrap-complete', 'ok', 'bootkube journal', [ev(complete)], { end: complete.time }, ['bootstrap']);
  } else if (ceo) {
    board.decide('etcd-scaling', stopped ? 'failed' : 'in-progress', 'bootkube journal', [ev(ceo), ...(unit && stopped ? [ev(unit.line)] : [])], { start: ceo.time }, ['bootstrap', 'masters']);
  }
}

function fromResources(board: StageBoard, bundle: Bundle): void {
  const c = bundle.cluster;
  const nodes = c?.nodes;
  if (nodes) {
    const file = c?.files.find((f) => f.name === 'nodes')?.source.file ?? 'resources/nodes.json';
    const masters = nodes.filter((n) => n.roles.includes('master') || n.roles.includes('control-plane'));
    const expected = Math.max(c?.masterNames?.length ?? 0, bundle.masters.length, 1);
    const ready = masters.filter((n) => n.ready === 'True');
    const e: Evidence = { file, text: `${masters.length} master node(s) registered, ${ready.length} Ready, of ${expected} expected` };
    board.decide('masters-provision', masters.length >= expected ? 'ok' : masters.length > 0 ? 'in-progress' : 'failed', 'cluster resources (nodes)', [e], {}, ['masters']);
    const workers = nodes.filter((n) => n.roles.includes('worker') && !n.roles.includes('master') && !n.roles.includes('control-plane'));
    if (workers.length > 0) {
      const notReady = workers.filter((n) => n.ready !== 'True');
      board.decide('workers', notReady.length === 0 ? 'ok' : 'in-progress', 'cluster resources (nodes)', [{ file, text: `${workers.length} worker node(s), ${notReady.length} not Ready` }], {}, ['workers']);
    }
  }
  const ops = c?.clusterOperators;
  if (ops && ops.length > 0) {
    const file = ops[0].source.file;
    const bad = ops.filter((o) => o.conditions.some((x) => (x.type === 'Degraded' && x.status === 'True') || (x.type === 'Available' && x.status !== 'True')));
    const e: Evidence = { file, text: bad.length === 0 ? `all ${ops.length} cluster operators Available and not Degraded` : `${bad.length} of ${ops.length} cluster operators Degraded or not Available: ${bad.map((o) => o.name).join(', ')}` };
    board.decide('cluster-operators', bad.length === 0 ? 'ok' : 'in-progress', 'cluster resources (clusteroperators)', [e], {}, []);
  }
}

function fromInstallerLog(board: StageBoard, bundle: Bundle): void {
  const log = bundle.installerLog;
  if (!log) return;
  const file = log.source.file;
  if (log.installComplete) {
    board.decide('cluster-operators', 'ok', 'installer log', [{ file, text: 'Install complete!' }]);
  }
  if (log.bootstrapComplete) {
    board.decide('bootstrap-complete', 'ok', 'installer log', [{ file, text: 'Bootstrap status: complete' }]);
  }
  const bootstrapFailure = log.failures.find((f) => /bootstrap/i.test(f.text));
  if (!log.bootstrapComplete && bootstrapFailure) {
    const e: Evidence = { file, line: bootstrapFailure.line, text: bootstrapFailure.text };
    if (bootstrapFailure.time !== undefined) e.time = bootstrapFailure.time;
    board.decide('bootstrap-complete', 'failed', 'installer log', [e]);
  }
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
      s.evidence = by.evidence.slice(0, 1);
    }
    if (s.status === 'ok') laterOk = s;
    if (script && (s.status === 'ok' || s.status === 'failed' || s.status === 'in-progress')) laterStarted = s;
  }
  // After the first failure nothing later can have happened unless evidence says so.
  const firstFailed = STAGES.findIndex((id) => board.get(id).status === 'failed');
  if (firstFailed >= 0) {
    for (const id of STAGES.slice(firstFailed + 1)) {
      const s = board.get(id);
      if (s.status === 'unknown') s.status = 'not-reached';
    }
  }
}

/** Builds the stage timeline of a bundle. */
export function buildTimeline(bundle: Bundle): Timeline {
  const board = new StageBoard();
  const apiAnswered = bundle.cluster?.files.some((f) => f.status === 'ok') ?? false;
  if (bundle.bootstrap) {
    fromServiceRecords(board, bundle.bootstrap, apiAnswered);
    fromJournals(board, bundle.bootstrap, apiAnswered);
  }
  fromResources(board, bundle);
  fromInstallerLog(board, bundle);
  normalise(board);
  return { stages: STAGES.map((id) => board.get(id)) };
}
