// The shared state one scenario's writers fill: world, timeline, each host's logs, service
// records, serial consoles, cluster facts for resources/, and the evidence and secrets the
// sample's expected.json lists. Failures hook into the writers through `FailureHooks`.
import { HostLogs, PlainLog } from './host-logs.js';
import type { HostInfo, World } from './model.js';
import { ServiceRecord } from './records.js';
import { Systemd } from './systemd.js';
import type { Step, Timeline } from './timeline.js';
import type { Micros } from './time.js';

/** Where an evidence line lives: a host's file, or a file at the bundle root. */
export interface EvidenceRef {
  host: 'bootstrap' | 'root' | { master: number } | { serial: string };
  /** Path inside the host's part: `journals/bootkube.log`, `containers/etcd-<id>.log`. */
  rel: string;
  contains: string;
}

export interface SecretRef {
  host: EvidenceRef['host'];
  rel: string;
  value: string;
  kind: string;
}

export interface Story {
  w: World;
  tl: Timeline;
  /** Noise density: the scenario's noise level times --scale. */
  density: number;
  sd: Systemd;
  boot: HostLogs;
  masters: HostLogs[];
  records: Map<string, ServiceRecord>;
  serial: Map<string, { host: HostInfo | undefined; name: string; log: PlainLog }>;
  evidence: EvidenceRef[];
  secrets: SecretRef[];
  hooks: FailureHooks;
  /** Extra lines the failure wants in gather.log (e.g. oc errors, ssh errors). */
  gatherNotes: string[];
  /** Cluster facts the resources writer reads. */
  cluster: ClusterFacts;
  /** When the bootstrap host's part was gathered (earlier than the bundle for bootstrap in place). */
  bootUntil: Micros;
}

export interface ClusterFacts {
  /** The bootstrap API answered at gather time. */
  apiAtGather: boolean;
  /** Node conditions override: node name → Ready condition reason/message. */
  nodeNotReady: Map<string, { reason: string; message: string }>;
  /** Pending CSRs (worker or master names) at gather time. */
  pendingCsrs: { node: string; signer: 'kubelet-client' | 'kubelet-serving'; created: Micros }[];
  /** Cluster operator overrides: name → conditions. */
  operators: Map<string, { available: boolean; progressing: boolean; degraded: boolean; reason: string; message: string; since: Micros }>;
  /** Pods whose status to report specially: `ns/name` → status. */
  podStatus: Map<string, PodStatusOverride>;
  /** Cluster events (`oc get events`). */
  events: { t: Micros; ns: string; kind: string; name: string; reason: string; message: string; type: 'Normal' | 'Warning'; count?: number }[];
  /** default/kubernetes endpoints addresses. */
  apiEndpoints?: string[];
}

export interface PodStatusOverride {
  phase: 'Pending' | 'Running' | 'Failed';
  ready: boolean;
  waiting?: { reason: string; message: string };
  lastTerminated?: { reason: string; exitCode: number; at: Micros };
  restarts?: number;
}

/** Failure-specific words the baseline writers ask for while a step is stuck. */
export interface FailureHooks {
  /** Lines `release-image-download.sh` logs for one failed pull (podman's error). */
  releasePullError?(s: Story, t: Micros, attempt: number): string[];
  /** Seconds one failed pull attempt takes. */
  releasePullSeconds?: [number, number];
  /** Lines bootkube logs when a render stage's container fails; and the exit status. */
  renderError?(s: Story, stage: string, t: Micros, attempt: number): { lines: string[]; status: number };
  /** Lines around each failed `etcdctl endpoint health` on the bootstrap host. */
  etcdHealthError?(s: Story, t: Micros, attempt: number): string[];
  /** cluster-bootstrap's lines while the API never comes up (per attempt). */
  apiWait?(s: Story, from: Micros, to: Micros, attempt: number): { t: Micros; line: string }[];
  /** wait-for-ceo lines while etcd does not scale. */
  ceoWait?(s: Story, from: Micros, to: Micros): { t: Micros; line: string }[];
  /** Serial console lines of a master whose ignition fetch fails. */
  ignitionError?(s: Story, master: number, t: Micros, attempt: number): string[];
  /** SSH to the masters fails during gather (their folders stay empty). */
  mastersUnreachable?: boolean;
  /** Error of a master kubelet's calls to api-int while it cannot use the API (host time `t`). */
  masterApiError?(s: Story, t: Micros): string;
  /** Lines `oc patch` prints each time restoring the CVO overrides fails. */
  cvoOverridesError?(s: Story, t: Micros): string[];
  /** Status of the required pods cluster-bootstrap prints while waiting. */
  podStatus?(s: Story, t: Micros): Record<string, string>;
}

export function createStory(w: World, tl: Timeline, density: number, hooks: FailureHooks): Story {
  return {
    w,
    tl,
    density,
    sd: new Systemd(w.release.minor >= 13),
    boot: new HostLogs(w.bootstrap, w.prng.fork('host/bootstrap')),
    masters: w.masters.map((m, i) => new HostLogs(m, w.prng.fork(`host/master-${i}`))),
    records: new Map(),
    serial: new Map(),
    evidence: [],
    secrets: [],
    hooks,
    gatherNotes: [],
    bootUntil: tl.gather,
    cluster: {
      apiAtGather: false,
      nodeNotReady: new Map(),
      pendingCsrs: [],
      operators: new Map(),
      podStatus: new Map(),
      events: [],
    },
  };
}

export function record(s: Story, service: string): ServiceRecord {
  let r = s.records.get(service);
  if (!r) {
    r = new ServiceRecord(service);
    s.records.set(service, r);
  }
  return r;
}

/** The step the timeline stopped at. */
export function blocked(s: Story): Step | undefined {
  return s.tl.blocked;
}

/** True when `t` is set and before the gather. */
export function happened(s: Story, t: Micros | undefined): t is Micros {
  return t !== undefined && t <= s.tl.gather;
}
