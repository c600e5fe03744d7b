// When each step of the installation happened, or that it never did: the baseline times of a
// healthy install, cut at the step the scenario's failure blocks. Every writer reads this.
import type { Prng } from './prng.js';
import type { World } from './model.js';
import { SECOND, type Micros } from './time.js';

/** Render stages of bootkube.sh, in order. */
export const RENDER_STAGES = [
  'openshift-manifests',
  'cvo-bootstrap',
  'etcd-bootstrap',
  'config-bootstrap',
  'kube-apiserver-bootstrap',
  'kube-controller-manager-bootstrap',
  'kube-scheduler-bootstrap',
  'ingress-operator-bootstrap',
  'mco-bootstrap',
  'cco-bootstrap',
] as const;

export type RenderStage = (typeof RENDER_STAGES)[number];

/** Steps a failure can stop; everything that depends on a blocked step never happens. */
export type Step =
  | 'release-pull'
  | 'crio'
  | `render:${RenderStage}`
  | 'etcd-healthy'
  | 'api-up'
  | 'master-ignition'
  | 'master-register'
  | 'master-ready'
  | 'required-pods'
  | 'cvo-overrides'
  | 'ceo'
  | 'progress'
  | 'workers-ready'
  | 'operators';

export interface Timeline {
  t0: Micros;
  gather: Micros;
  releaseStart: Micros;
  releasePulled?: Micros;
  crioUp?: Micros;
  kubeletUp?: Micros;
  bootkubeStart?: Micros;
  /** Start and end of each render stage that ran. */
  render: { stage: RenderStage; start: Micros; end?: Micros }[];
  etcdPodUp?: Micros;
  mcsUp?: Micros;
  waitEtcdStart?: Micros;
  etcdHealthy?: Micros;
  cbStart?: Micros;
  apiUp?: Micros;
  masterIgnition: (Micros | undefined)[];
  /** Start of each master's last boot (after the firstboot OS update). */
  masterBooted: (Micros | undefined)[];
  masterRegistered: (Micros | undefined)[];
  masterReady: (Micros | undefined)[];
  requiredPodsReady?: Micros;
  cvoOverrides?: Micros;
  ceoStart?: Micros;
  ceoDone?: Micros;
  bootkubeComplete?: Micros;
  progressDone?: Micros;
  workerRegistered: (Micros | undefined)[];
  workerReady: (Micros | undefined)[];
  operatorsDone?: Micros;
  /** The step the failure stopped, if any. */
  blocked?: Step;
}

function after(t: Micros | undefined, p: Prng, minS: number, maxS: number): Micros | undefined {
  return t === undefined ? undefined : t + p.int(minS * 1000, maxS * 1000) * 1000;
}

/** Computes the timeline; `block` names the first step that never completes. */
export function buildTimeline(w: World, block: Step | undefined, opts: { blockedMasters?: number[]; singleNode?: boolean } = {}): Timeline {
  const p = w.prng.fork('timeline');
  const stop = (s: Step): boolean => block === s;
  const tl: Timeline = { t0: w.t0, gather: w.gatherAt, render: [], releaseStart: w.t0 + p.int(14, 40) * SECOND, masterIgnition: [], masterBooted: [], masterRegistered: [], masterReady: [], workerRegistered: [], workerReady: [], blocked: block };
  const cap = (t: Micros | undefined): Micros | undefined => (t !== undefined && t < w.gatherAt ? t : undefined);

  tl.releasePulled = stop('release-pull') ? undefined : after(tl.releaseStart, p, 25, 140);
  tl.crioUp = stop('crio') ? undefined : after(tl.releasePulled, p, 3, 9);
  tl.kubeletUp = after(tl.crioUp ?? (stop('crio') ? tl.releasePulled : undefined), p, 2, 6);
  tl.bootkubeStart = after(tl.releasePulled, p, 2, 7);

  // bootkube.sh first resolves every component image with image_for (one podman run each).
  let t = tl.bootkubeStart === undefined ? undefined : tl.bootkubeStart + p.int(13, 19) * SECOND;
  for (const stage of tl.bootkubeStart === undefined ? [] : RENDER_STAGES) {
    const start = (t as Micros) + p.int(200, 1500) * 1000;
    const dur = stage === 'openshift-manifests' ? p.int(0, 1) : stage === 'cvo-bootstrap' ? p.int(15, 45) : stage === 'mco-bootstrap' ? p.int(8, 25) : p.int(3, 14);
    if (stop(`render:${stage}`)) {
      tl.render.push({ stage, start });
      t = undefined;
      break;
    }
    const end = start + dur * SECOND + p.int(0, 999_999);
    tl.render.push({ stage, start, end });
    t = end;
    if (stage === 'etcd-bootstrap' && tl.crioUp !== undefined && tl.kubeletUp !== undefined) tl.etcdPodUp = Math.max(end, tl.kubeletUp) + p.int(4, 20) * SECOND;
    if (stage === 'mco-bootstrap' && tl.crioUp !== undefined && tl.kubeletUp !== undefined) tl.mcsUp = Math.max(end, tl.kubeletUp) + p.int(5, 25) * SECOND;
  }
  const renderDone = t;
  tl.waitEtcdStart = after(renderDone, p, 0, 1);
  tl.etcdHealthy = stop('etcd-healthy') || tl.etcdPodUp === undefined ? undefined : after(Math.max(tl.waitEtcdStart ?? 0, tl.etcdPodUp), p, 2, 30);
  if (tl.waitEtcdStart === undefined) tl.etcdHealthy = undefined;
  tl.cbStart = after(tl.etcdHealthy, p, 3, 6);
  tl.apiUp = stop('api-up') ? undefined : after(tl.cbStart, p, 40, 150);

  const masters = w.masters.length;
  if (opts.singleNode) {
    // Bootstrap in place: cluster-bootstrap waits for no pods; the node then reboots as the master.
    tl.requiredPodsReady = cap(after(tl.apiUp, p, 150, 400));
    const reboot = after(tl.requiredPodsReady, p, 60, 150);
    tl.masterIgnition.push(cap(reboot));
    const booted = after(reboot, p, 90, 200);
    tl.masterBooted.push(cap(booted));
    tl.masterRegistered.push(cap(after(booted, p, 40, 90)));
    tl.masterReady.push(cap(after(tl.masterRegistered[0], p, 180, 420)));
    tl.progressDone = cap(after(tl.masterReady[0], p, 300, 900));
    tl.operatorsDone = stop('operators') ? undefined : cap(after(tl.progressDone, p, 20 * 60, 35 * 60));
    return tl;
  }
  for (let i = 0; i < masters; i++) {
    const blockedHere = opts.blockedMasters ? opts.blockedMasters.includes(i) : true;
    const ign = stop('master-ignition') && blockedHere ? undefined : after(tl.mcsUp, p, 40, 240);
    tl.masterIgnition.push(cap(ign));
    // Two reboots (firstboot OS update), then kubelet registers once the API answers.
    const booted = after(ign, p, 240, 420);
    tl.masterBooted.push(cap(booted));
    const reg = stop('master-register') && blockedHere ? undefined : booted !== undefined && tl.apiUp !== undefined ? Math.max(booted + 35 * SECOND, tl.apiUp) + p.int(5, 40) * SECOND : undefined;
    tl.masterRegistered.push(cap(reg));
    const ready = stop('master-ready') && blockedHere ? undefined : after(reg, p, 120, 420);
    tl.masterReady.push(cap(ready));
  }
  const allReady = tl.masterReady.every((x) => x !== undefined) ? Math.max(...(tl.masterReady as Micros[])) : undefined;
  const firstReady = tl.masterReady.filter((x): x is Micros => x !== undefined).sort((a, b) => a - b)[0];
  tl.requiredPodsReady = stop('required-pods') ? undefined : cap(after(masters === 1 ? firstReady : firstReady !== undefined && allReady !== undefined ? firstReady : undefined, p, 300, 900));
  if (masters === 0) tl.requiredPodsReady = undefined;
  tl.cvoOverrides = stop('cvo-overrides') ? undefined : cap(after(tl.requiredPodsReady, p, 8, 40));
  tl.ceoStart = cap(after(tl.cvoOverrides, p, 1, 20));
  tl.ceoDone = stop('ceo') ? undefined : cap(after(tl.ceoStart !== undefined && allReady !== undefined ? Math.max(tl.ceoStart, allReady) : undefined, p, 60, 600));
  tl.bootkubeComplete = cap(after(tl.ceoDone, p, 0, 1));
  tl.progressDone = stop('progress') ? undefined : cap(after(tl.bootkubeComplete, p, 5, 120));
  for (let i = 0; i < w.workers.length; i++) {
    const reg = cap(after(tl.progressDone ?? tl.bootkubeComplete, p, 6 * 60, 14 * 60));
    tl.workerRegistered.push(reg);
    tl.workerReady.push(stop('workers-ready') ? undefined : cap(after(reg, p, 90, 300)));
  }
  const workersOk = tl.workerReady.every((x) => x !== undefined);
  tl.operatorsDone = stop('operators') || !workersOk ? undefined : cap(after(tl.progressDone, p, 12 * 60, 25 * 60));
  return tl;
}

/** Render stage entry by name. */
export function renderStage(tl: Timeline, stage: RenderStage): { stage: RenderStage; start: Micros; end?: Micros } | undefined {
  return tl.render.find((r) => r.stage === stage);
}
