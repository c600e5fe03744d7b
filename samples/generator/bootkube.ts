// bootkube.service: its journal (render stages, etcdctl health, cluster-bootstrap's output,
// CVO overrides, wait-for-ceo, "bootkube.service complete"), its restarts after failures, and
// its service record, following bootkube.sh.template's messages and stage names.
import { klog } from './log-formats.js';
import { createdLine, MANIFESTS, machineApiManifests, noMatchLine, skippedLine, type ManifestLine } from './manifests-catalog.js';
import { podmanRunEvents, releaseLabels } from './podman-events.js';
import type { Prng } from './prng.js';
import type { ServiceRecord } from './records.js';
import { happened, record, type Story } from './story.js';
import { RENDER_STAGES, type RenderStage } from './timeline.js';
import { goDuration, isoMillis, MINUTE, SECOND, type Micros } from './time.js';
import type { Journal } from './journal.js';

const RENDER_MESSAGE: Record<RenderStage, string> = {
  'openshift-manifests': 'Moving OpenShift manifests in with the rest of them',
  'cvo-bootstrap': 'Rendering Cluster Version Operator Manifests...',
  'etcd-bootstrap': 'Rendering CEO Manifests...',
  'config-bootstrap': 'Rendering cluster config manifests...',
  'kube-apiserver-bootstrap': 'Rendering Kubernetes API server core manifests...',
  'kube-controller-manager-bootstrap': 'Rendering Kubernetes Controller Manager core manifests...',
  'kube-scheduler-bootstrap': 'Rendering Kubernetes Scheduler core manifests...',
  'ingress-operator-bootstrap': 'Rendering Ingress Operator core manifests...',
  'mco-bootstrap': 'Rendering MCO manifests...',
  'cco-bootstrap': 'Rendering CCO manifests...',
};

/** The podman container name and image component of each render stage. */
export const RENDER_CONTAINER: Record<RenderStage, { name: string; image: string } | undefined> = {
  'openshift-manifests': undefined,
  'cvo-bootstrap': { name: 'cvo-render', image: 'release' },
  'etcd-bootstrap': { name: 'etcd-render', image: 'cluster-etcd-operator' },
  'config-bootstrap': { name: 'config-render', image: 'cluster-config-operator' },
  'kube-apiserver-bootstrap': { name: 'kube-apiserver-render', image: 'cluster-kube-apiserver-operator' },
  'kube-controller-manager-bootstrap': { name: 'kube-controller-render', image: 'cluster-kube-controller-manager-operator' },
  'kube-scheduler-bootstrap': { name: 'kube-scheduler-render', image: 'cluster-kube-scheduler-operator' },
  'ingress-operator-bootstrap': { name: 'ingress-render', image: 'cluster-ingress-operator' },
  'mco-bootstrap': { name: 'mco-render', image: 'machine-config-operator' },
  'cco-bootstrap': { name: 'cco-render', image: 'cloud-credential-operator' },
};

/** Line of bootkube.sh where each stage's command runs (for the records' errorLine). */
const ERROR_LINE: Record<string, number> = {
  'cvo-bootstrap': 117,
  'etcd-bootstrap': 146,
  'config-bootstrap': 174,
  'kube-apiserver-bootstrap': 201,
  'kube-controller-manager-bootstrap': 229,
  'kube-scheduler-bootstrap': 262,
  'ingress-operator-bootstrap': 285,
  'mco-bootstrap': 314,
  'cco-bootstrap': 384,
  'cb-bootstrap': 583,
  'wait-for-ceo': 612,
};

const REQUIRED = ['openshift-kube-apiserver/kube-apiserver', 'openshift-kube-scheduler/openshift-kube-scheduler', 'openshift-kube-controller-manager/kube-controller-manager', 'openshift-cluster-version/cluster-version-operator'];

/** Image components bootkube.sh resolves with image_for at every start. */
const IMAGE_FOR = ['machine-config-operator', 'machine-os-content', 'etcd', 'pod', 'cluster-etcd-operator', 'cluster-config-operator', 'cluster-kube-apiserver-operator', 'cluster-kube-controller-manager-operator', 'cluster-kube-scheduler-operator', 'cluster-ingress-operator', 'cloud-credential-operator', 'hyperkube', 'cluster-policy-controller', 'cluster-bootstrap', 'keepalived-ipfailover', 'coredns', 'haproxy-router', 'baremetal-runtimecfg'];

class Bootkube {
  readonly j: Journal;
  readonly p: Prng;
  pid = 0;
  cbPid = 0;
  run = 0;
  readonly rec?: ServiceRecord;
  private readonly dup: boolean;

  constructor(readonly s: Story) {
    this.j = s.boot.journal('bootkube');
    this.p = s.boot.prng.fork('bootkube');
    this.rec = s.w.profile.serviceRecords ? record(s, 'bootkube') : undefined;
    this.dup = s.w.profile.journaldContainerLogs;
  }

  say(t: Micros, msg: string): void {
    this.j.add(t, 'bootkube.sh', msg, this.pid);
  }

  /** Output of a named podman container run in the foreground: bootkube.sh's stdout, and on newer hosts journald's copy. */
  container(t: Micros, ident: string, msg: string): void {
    this.say(t, msg);
    if (this.dup) this.j.add(t, ident, msg, this.cbPid);
  }

  /** A (re)start of the unit: systemd line, image_for lookups. Returns when the script is past them. */
  start(t: Micros, until?: Micros): Micros {
    const { s, p } = this;
    this.run++;
    this.pid = this.run === 1 ? s.boot.pid('bootkube.sh', 2500, 2900) : this.pid + p.int(900, 30000);
    s.sd.started(this.j, t, 'bootkube');
    this.rec?.start(t + 150_000);
    let at = t + 400_000;
    const labels = releaseLabels(s.w.release.version, p.hex(64));
    // The first run resolves every image; restarts show the same lookups again.
    const lookups = this.run === 1 ? IMAGE_FOR.length : Math.max(3, Math.round(IMAGE_FOR.length * Math.min(1, s.density / 4)));
    const each = until !== undefined ? Math.max(200_000, Math.floor((until - at) / lookups) - 60_000) : 0;
    for (let i = 0; i < lookups; i++) {
      at = podmanRunEvents(this.j, p, this.pid + 20 + i * 11, at, { image: s.w.release.releaseImage, labels, id: p.hex(64) }, each ? each - p.int(0, 90_000) : p.int(250_000, 900_000));
    }
    return at;
  }

  fail(t: Micros, stage: string, status: number): Micros {
    const { s, p } = this;
    const message = this.j.lastMessages(3, t).join('\n');
    const line = `${ERROR_LINE[stage] ?? 98} main /usr/local/bin/bootkube.sh`;
    if (this.rec?.stageOpen) this.rec.stageEnd(t, 'failure', { line, message });
    this.rec?.end(t, 'failure', { line, message });
    s.sd.failed(this.j, t + 20_000, 'bootkube', status, { restart: true, counter: this.run, cpu: `${p.int(2, 40)}.${p.int(100, 999)}s` });
    s.boot.fail('bootkube', 'Bootstrap a Kubernetes cluster');
    return t + 5 * SECOND + 30_000;
  }
}

export function writeBootkube(s: Story): void {
  const { w, tl } = s;
  if (!happened(s, tl.bootkubeStart)) {
    s.boot.journal('bootkube');
    return;
  }
  const b = new Bootkube(s);
  const { p } = b;
  let t = b.start(tl.bootkubeStart, tl.render[0]?.start);

  // Render stages.
  const done = new Set<RenderStage>();
  const renderOnce = (from: Micros): { ok: boolean; t: Micros } => {
    let at = from;
    for (const stage of RENDER_STAGES) {
      if (done.has(stage)) continue;
      const r = tl.render.find((x) => x.stage === stage);
      if (!r) return { ok: false, t: at };
      const start = b.run === 1 ? Math.max(r.start, at + 10_000) : at + p.int(200, 900) * 1000;
      b.rec?.stageStart(start, stage);
      b.say(start + 20_000, RENDER_MESSAGE[stage]);
      if (r.end !== undefined) {
        const end = start + (r.end - r.start);
        b.rec?.stageEnd(end, 'success');
        done.add(stage);
        at = end;
        continue;
      }
      // This stage's container fails; bootkube exits and systemd restarts it.
      const failAt = start + p.int(3, 40) * SECOND;
      const err = s.hooks.renderError?.(s, stage, failAt, b.run) ?? { lines: ['Error: unknown failure'], status: 125 };
      err.lines.forEach((l, i) => b.say(failAt + i * 1000, l));
      return { ok: false, t: b.fail(failAt + err.lines.length * 1000 + 10_000, stage, err.status) };
    }
    return { ok: true, t: at };
  };

  let r = renderOnce(t);
  while (!r.ok) {
    if (r.t >= tl.gather) return;
    t = b.start(r.t);
    r = renderOnce(t);
  }
  t = r.t;

  // Wait for etcd.
  const waitEtcd = (from: Micros, first: boolean): Micros | undefined => {
    b.rec?.stageStart(from, 'wait-for-etcd');
    let at = from + 200_000;
    const healthyAt = tl.etcdHealthy;
    let attempt = 0;
    while (healthyAt === undefined || at < healthyAt) {
      if (at >= tl.gather) return undefined;
      attempt++;
      const lines = s.hooks.etcdHealthError?.(s, at, attempt) ?? etcdUnreachable(s, p, at);
      lines.forEach((l, i) => b.say(at + i * 1000, l));
      at += lines.length * 1000 + p.int(5, 10) * SECOND;
      b.say(at, 'etcdctl failed. Retrying in 5 seconds...');
      at += 5 * SECOND + p.int(100_000, 900_000);
      if (!first && healthyAt !== undefined && at >= healthyAt) break;
    }
    b.say(at + p.int(600_000, 1_600_000), `https://localhost:2379 is healthy: successfully committed proposal: took = ${p.int(5, 30)}.${p.int(100000, 999999)}ms`);
    at += 2 * SECOND;
    b.rec?.stageEnd(at, 'success');
    return at;
  };
  const afterEtcd = waitEtcd(Math.max(t, tl.waitEtcdStart ?? t), true);
  if (afterEtcd === undefined) return;
  t = afterEtcd;

  // cluster-bootstrap, restarted until it succeeds or the gather stops everything.
  let cbDone = false;
  const manifests = [...MANIFESTS, ...(w.spec.platform === 'aws' || w.spec.platform === 'vsphere' ? machineApiManifests(w.masters.length, w.workers.length) : [])];
  let firstCb = true;
  while (!cbDone) {
    if (w.profile.verifyApiUrls) t = verifyUrls(s, b, t);
    b.say(t + 100_000, 'Starting cluster-bootstrap...');
    b.rec?.stageStart(t + 50_000, 'cb-bootstrap');
    const cbStart = firstCb ? Math.max(tl.cbStart ?? 0, t + 300_000) : t + 300_000;
    b.cbPid = b.pid + p.int(200, 2000);
    const res = clusterBootstrap(s, b, cbStart, firstCb, manifests);
    firstCb = false;
    if (res.ok) {
      b.rec?.stageEnd(res.t, 'success');
      t = res.t;
      cbDone = true;
      break;
    }
    if (res.t >= tl.gather) return;
    if (w.profile.resourcesOnlyWhenUp) {
      b.say(res.t + 200_000, 'Using /etc/kubernetes/bootstrap-secrets/kubeconfig as KUBECONFIG');
      b.say(res.t + 300_000, 'Gathering cluster resources ...');
      b.say(res.t + 9 * SECOND, 'Waiting for logs ...');
    }
    t = b.start(b.fail(res.t + 10 * SECOND, 'cb-bootstrap', 1));
    if (t >= tl.gather) return;
    // The .done files skip rendering; etcd is checked again.
    const again = waitEtcd(t + 300_000, false);
    if (again === undefined) return;
    t = again;
  }

  if (w.spec.masterLayout === 'single-node') {
    // bootstrap-in-place.sh takes over: etcd stops, the master ignition is written, the
    // bootstrap phase's logs are gathered (that bundle ends here), then the host reboots.
    b.say(t + 2 * SECOND, 'Stop etcd static pod by moving the manifest');
    b.say(t + 3 * SECOND, 'Waiting for etcd to go down');
    b.say(t + 14 * SECOND, 'Creating master ignition and writing it to disk');
    b.say(t + 16 * SECOND, 'Gathering installer bootstrap logs');
    s.bootUntil = t + 16 * SECOND + 500_000;
    return;
  }
  // CVO overrides and wait-for-ceo.
  b.rec?.stageStart(t + 100_000, 'cvo-overrides');
  // The patch comes after its stage started: the planned time may fall inside cluster-bootstrap.
  const cvo = tl.cvoOverrides === undefined ? undefined : Math.max(tl.cvoOverrides, t + 200_000);
  if (cvo === undefined) {
    // `oc patch` through api-int keeps failing; bootkube.sh retries every 10 seconds.
    for (let at = t + 2 * SECOND; at < tl.gather; at += Math.round((p.int(10, 16) * SECOND) / Math.min(1, Math.max(0.2, s.density)))) {
      (s.hooks.cvoOverridesError?.(s, at) ?? []).forEach((l, k) => b.say(at + k * 100_000, l));
      b.say(at + 10 * SECOND, 'Trying again to restore CVO overrides');
    }
    return;
  }
  b.say(cvo, 'clusterversion.config.openshift.io/version patched');
  b.rec?.stageEnd(cvo + 100_000, 'success');
  const ceoStart = Math.max(cvo + 200_000, tl.ceoStart ?? cvo);
  if (ceoStart >= tl.gather) return;
  let ceoAttemptStart = ceoStart;
  for (;;) {
    b.rec?.stageStart(ceoAttemptStart, 'wait-for-ceo');
    b.say(ceoAttemptStart + 50_000, 'Waiting for CEO to finish...');
    b.cbPid = b.pid + p.int(200, 2000);
    const ceoEnd = tl.ceoDone;
    if (ceoEnd !== undefined) {
      let at = ceoAttemptStart + p.int(2, 6) * SECOND;
      while (at < ceoEnd - 3 * SECOND) {
        b.container(at, 'wait-for-ceo', klog(at, 'I', 1, 'waitforceo.go:67', 'waiting on condition EtcdRunningInCluster in etcd CR /cluster to be True.'));
        at += Math.round((p.int(3, 12) * SECOND + p.int(0, 999_999)) / Math.min(1, Math.max(0.3, s.density)));
      }
      b.container(ceoEnd, 'wait-for-ceo', klog(ceoEnd, 'I', 1, 'waitforceo.go:64', 'Cluster etcd operator bootstrapped successfully'));
      b.container(ceoEnd + 2_500, 'wait-for-ceo', klog(ceoEnd + 2_500, 'I', 1, 'waitforceo.go:58', 'cluster-etcd-operator bootstrap etcd'));
      b.rec?.stageEnd(ceoEnd + 200_000, 'success');
      break;
    }
    // etcd never reaches the masters: wait-for-ceo times out, bootkube fails and restarts.
    const timeout = ceoAttemptStart + 30 * MINUTE;
    const until = Math.min(timeout, tl.gather);
    const lines = s.hooks.ceoWait?.(s, ceoAttemptStart + 3 * SECOND, until) ?? [];
    for (const l of lines) b.container(l.t, 'wait-for-ceo', l.line);
    if (timeout >= tl.gather) return;
    b.container(timeout, 'wait-for-ceo', klog(timeout, 'W', 1, 'waitforceo.go:74', 'failed waiting for EtcdRunningInCluster: timed out waiting for the condition'));
    b.container(timeout + 1000, 'wait-for-ceo', 'Error: timed out waiting for the condition');
    let at = b.start(b.fail(timeout + 2 * SECOND, 'wait-for-ceo', 1));
    const again = waitEtcd(at + 200_000, false);
    if (again === undefined) return;
    at = again;
    b.say(at + 100_000, 'Waiting for CEO to finish...');
    ceoAttemptStart = at + 100_000;
    if (ceoAttemptStart >= tl.gather) return;
  }
  if (!happened(s, tl.bootkubeComplete)) return;
  b.say(tl.bootkubeComplete, 'bootkube.service complete');
  b.rec?.end(tl.bootkubeComplete + 10_000, 'success');
  s.sd.succeeded(b.j, tl.bootkubeComplete + 30_000, 'bootkube', `${p.int(8, 50)}.${p.int(100, 999)}s`);
}

function etcdUnreachable(s: Story, p: Prng, t: Micros): string[] {
  const v = s.w.release.etcdVersion;
  return [
    `{"level":"warn","ts":"${isoMillis(t)}","logger":"client","caller":"v3@v${v}/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"etcd-endpoints://0xc000${p.hex(6)}/localhost:2379","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: last connection error: connection error: desc = \\"transport: Error while dialing dial tcp [::1]:2379: connect: connection refused\\""}`,
    'https://localhost:2379 is unhealthy: failed to commit proposal: context deadline exceeded',
    'Error: unhealthy cluster',
  ];
}

/** bootstrap-verify-api-server-urls.sh: resolve stages before cluster-bootstrap (4.13+). */
function verifyUrls(s: Story, b: Bootkube, t: Micros): Micros {
  const { w } = s;
  let at = t + 100_000;
  for (const [type, url, stage] of [['API_URL', w.apiName, 'resolve-api-url'], ['API_INT_URL', w.apiIntName, 'resolve-api-int-url']] as const) {
    b.say(at, `Checking if ${url} of type ${type} is resolvable`);
    b.say(at + 1000, `Starting stage ${stage}`);
    b.rec?.stageStart(at + 2000, stage);
    const bad = s.w.spec.failure === 'api-int-dns' && type === 'API_INT_URL';
    at += b.p.int(30_000, 400_000);
    if (bad) {
      b.say(at, `Unable to resolve ${type} ${url}`);
      b.rec?.stageEnd(at + 5000, 'failure', { line: `54 resolve_url /usr/local/bin/bootstrap-verify-api-server-urls.sh`, message: b.j.lastMessages(3, at).join('\n') });
    } else {
      b.say(at, `Successfully resolved ${type} ${url}`);
      b.rec?.stageEnd(at + 5000, 'success');
    }
    at += 10_000;
  }
  return at;
}

/** One run of the cluster-bootstrap container. */
function clusterBootstrap(s: Story, b: Bootkube, start: Micros, first: boolean, manifests: ManifestLine[]): { ok: boolean; t: Micros } {
  const { tl } = s;
  const { p } = b;
  const say = (t: Micros, m: string): void => b.container(t, 'cluster-bootstrap', m);
  say(start, 'Starting temporary bootstrap control plane...');
  say(start + p.int(100_000, 900_000), `Waiting up to ${goDuration(20 * MINUTE)} for the Kubernetes API`);
  const apiTimeout = start + 20 * MINUTE;
  const apiUp = tl.apiUp === undefined ? undefined : first ? Math.max(tl.apiUp, start + 20 * SECOND) : start + p.int(15, 60) * SECOND;
  if (apiUp === undefined || apiUp > apiTimeout) {
    const until = Math.min(apiTimeout, tl.gather);
    for (const l of s.hooks.apiWait?.(s, start + 2 * SECOND, until, b.run) ?? []) say(l.t, l.line);
    if (apiTimeout >= tl.gather) return { ok: false, t: tl.gather };
    say(apiTimeout, 'Error: timed out waiting for the condition');
    return { ok: false, t: apiTimeout + 2 * SECOND };
  }
  say(apiUp, 'API is up');
  let at = apiUp + p.int(1, 4) * SECOND;
  const late = manifests.filter((m) => m.lateKind);
  for (const m of manifests) {
    if (first && m.lateKind) continue;
    say(at, first ? createdLine(m) : skippedLine(m));
    at += p.int(20_000, 600_000);
  }
  if (first && late.length) {
    for (let round = 1; round <= p.int(2, 4); round++) {
      say(at, `[#${round}] failed to create some manifests:`);
      for (const m of late) say(at + 1000, noMatchLine(m));
      at += p.int(3, 9) * SECOND;
    }
    for (const m of late) {
      say(at, createdLine(m));
      at += p.int(100_000, 900_000);
    }
  }
  // Required pods: statuses printed as they change, until ready or timeout.
  const podsTimeout = at + 60 * MINUTE;
  const ready = tl.requiredPodsReady;
  const end = ready !== undefined && ready <= podsTimeout ? ready : Math.min(podsTimeout, tl.gather);
  let last = '';
  for (let t = at + 2 * SECOND; t < end; t += Math.round((p.int(25, 35) * SECOND) / Math.min(1, Math.max(0.25, s.density)))) {
    const statuses = s.hooks.podStatus?.(s, t) ?? defaultPodStatus(s, t);
    const block = REQUIRED.map((r) => `\tPod Status:${r.padStart(24)}\t${statuses[r] ?? 'DoesNotExist'}`).join('\n');
    if (block === last && p.chance(0.6)) continue;
    last = block;
    REQUIRED.forEach((r, i) => say(t + i * 300, `\tPod Status:${r.padStart(24)}\t${statuses[r] ?? 'DoesNotExist'}`));
  }
  if (ready !== undefined && ready <= podsTimeout) {
    say(ready, 'All self-hosted control plane components successfully started');
    say(ready + 300_000, 'Sending bootstrap-success event.Waiting for remaining assets to be created.');
    const td = ready + p.int(20, 90) * SECOND;
    say(td, 'Tearing down temporary bootstrap control plane...');
    b.say(td + p.int(1, 3) * SECOND, s.w.spec.masterLayout === 'single-node' ? 'Sending bootstrap-finished event.' : 'Sending bootstrap-finished event.Restoring CVO overrides');
    if (s.w.profile.journaldContainerLogs) b.j.add(td + p.int(1, 3) * SECOND, 'cluster-bootstrap', 'Sending bootstrap-finished event.', b.cbPid);
    return { ok: true, t: td + 3 * SECOND };
  }
  if (podsTimeout >= tl.gather) return { ok: false, t: tl.gather };
  say(podsTimeout, 'Error: error while checking pod status: timed out waiting for the condition');
  say(podsTimeout + 1000, 'Tearing down temporary bootstrap control plane...');
  return { ok: false, t: podsTimeout + 3 * SECOND };
}

function defaultPodStatus(s: Story, t: Micros): Record<string, string> {
  const { tl } = s;
  const firstReady = tl.masterReady.filter((x): x is Micros => x !== undefined).sort((a, b) => a - b)[0];
  const out: Record<string, string> = {};
  if (firstReady === undefined || t < firstReady) {
    out['openshift-cluster-version/cluster-version-operator'] = 'Pending';
    return out;
  }
  const ready = tl.requiredPodsReady;
  const span = ready !== undefined ? ready - firstReady : 15 * MINUTE;
  const f = (t - firstReady) / span;
  out['openshift-cluster-version/cluster-version-operator'] = f > 0.1 ? 'Ready' : 'Pending';
  out['openshift-kube-scheduler/openshift-kube-scheduler'] = f > 0.55 ? 'Ready' : f > 0.3 ? 'RunningNotReady' : f > 0.15 ? 'Pending' : 'DoesNotExist';
  out['openshift-kube-controller-manager/kube-controller-manager'] = f > 0.7 ? 'Ready' : f > 0.4 ? 'RunningNotReady' : f > 0.2 ? 'Pending' : 'DoesNotExist';
  out['openshift-kube-apiserver/kube-apiserver'] = f > 0.95 ? 'Ready' : f > 0.75 ? 'RunningNotReady' : 'DoesNotExist';
  return out;
}
