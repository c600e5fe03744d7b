// Where a line comes from tells the stage: a log's stage is its registry row's (bundle-sources.ts,
// by unit or container: unit-stage.ts), a service-record stage's is the taxonomy's table, an
// installer phase's is below; and the few refinements a line's own words make (which bootkube
// step printed it, which pod kubelet speaks of). Names are those of the installer's bootstrap
// scripts (bootkube.sh.template and its siblings) and the installer's commands.
import type { InstallerPhase } from '../model/types.js';
import { RECORDED_STAGES, type CategoryId, type StageId } from '../taxonomy.js';
import { compileGlob } from '../util/glob.js';
import { logRowOf } from './bundle-sources.js';
import type { SourceId } from '../model/source-id.js';
import { nameTable } from '../util/name-table.js';

/** Services whose whole run is the release-image stage (node-image-pull: OKD and layered OS). */
export const RELEASE_IMAGE_SERVICES: readonly string[] = RECORDED_STAGES.filter((r) => r.recorded === '*' && r.stage === 'release-image').map((r) => r.service);

/**
 * The taxonomy stage of a bootkube service-record stage (the taxonomy's recorded stages);
 * undefined for names bootlens does not know (reported, not guessed). `cb-bootstrap` depends on
 * whether the bootstrap API answered.
 */
export function bootkubeRecordStage(name: string, bootstrapApiAnswered: boolean): StageId | undefined {
  const row = RECORDED_STAGES.find((r) => r.service === 'bootkube' && compileGlob(r.recorded).test(name));
  if (!row) return undefined;
  return !bootstrapApiAnswered && row.beforeApi ? row.beforeApi : row.stage;
}

/** The stage a log's lines speak of by default, from where the log was gathered (its row's stage). */
export function stageOfSource(source: SourceId): StageId | undefined {
  return logRowOf(source)?.stage(source);
}

// bootkube.sh prints each step before it runs it (bootkube.sh.template); the lines after a
// marker are that step's output, whatever they say.
const BOOTKUBE_MARKERS: [RegExp, StageId][] = [
  [/^Pulling release image/, 'release-image'],
  [/^Rendering /, 'render'],
  [/^Starting etcd|^Waiting for etcd cluster/, 'bootstrap-etcd'],
  [/^Starting cluster-bootstrap/, 'bootstrap-control-plane'],
  // cluster-bootstrap tears its temporary control plane down at its end, failed or not.
  [/^API is up|Pod Status:|^Created "|^Skipped "|^Tearing down temporary bootstrap control plane/, 'production-control-plane'],
  [/^Restoring CVO overrides|restore CVO overrides/, 'bootstrap-complete'],
  [/^Waiting for CEO to finish/, 'etcd-scaling'],
  [/^bootkube\.service complete/, 'bootstrap-complete'],
];

// Without a marker before it, a bootkube line's own words say which step printed it.
const BOOTKUBE_WORDS: [RegExp, StageId][] = [
  // A render image given a flag it does not know names the flag, whatever the flag's words say.
  [/unknown (?:shorthand )?flag|flag provided but not defined|image_for|\/assets\//, 'render'],
  [/\/etc\/crio|crio\.conf|crio\.sock|cri-o|crio\.service/i, 'node-runtime'],
  [/etcdctl|etcd cluster|unhealthy cluster|:2379\b|etcd-bootstrap|endpoint health/i, 'bootstrap-etcd'],
  [/CVO overrides|cvo-overrides/i, 'bootstrap-complete'],
  [/wait-for-ceo|cluster-etcd-operator|etcd operator/i, 'etcd-scaling'],
  [/Pod Status:|error while checking pod status|self-hosted control plane|DoesNotExist|unable to get REST mapping|no matches for kind/, 'production-control-plane'],
  [/Unable to connect to the server|connection to the server|Failed to create "|:6443\b|Waiting for API|cluster-bootstrap/i, 'bootstrap-control-plane'],
];

/** The step a bootkube.sh progress line starts, if it is one. */
export function bootkubeMarker(text: string): StageId | undefined {
  const t = text.trim();
  for (const [re, stage] of BOOTKUBE_MARKERS) if (re.test(t)) return stage;
  return undefined;
}

/** The stage a pod that kubelet or CRI-O names belongs to, on the bootstrap host or a master. */
function podStage(text: string, master: boolean): StageId | undefined {
  if (/openshift-etcd\/|etcd-bootstrap|etcd-member|pod="?etcd/.test(text)) return master ? 'etcd-scaling' : 'bootstrap-etcd';
  if (/openshift-kube-apiserver\/|bootstrap-kube-apiserver|kube-controller-manager|kube-scheduler|openshift-kube-/.test(text)) return master ? 'production-control-plane' : 'bootstrap-control-plane';
  if (/openshift-ovn-kubernetes|openshift-sdn|openshift-multus|openshift-network-operator/.test(text)) return 'production-control-plane';
  if (/openshift-machine-config-operator\/machine-config-server|machine-config-server/.test(text)) return master ? 'production-control-plane' : 'masters-provision';
  if (/openshift-cluster-version\//.test(text)) return 'etcd-scaling';
  return undefined;
}

// A pull of the release payload itself (`ocp-release`, `origin-release`, OKD's `okd` release),
// wherever it happens: older releases pulled it from bootkube.sh.
const RELEASE_PAYLOAD = /\/(?:ocp|origin|okd)-release(?:-nightly)?[:@]|openshift-release-dev\/ocp-release|\/okd[:@]|\/release@sha256:|release-image-download|RELEASE_IMAGE/;

/** A worker's ignition config, as the machine-config server and ignition name it. */
const WORKER_CONFIG = /config\/worker\b|pool "worker"|worker\.ign\b/;

/** Masters' pod-level trouble (pulls, sandboxes, the pod network): the pods run after the node joined. */
const MASTER_POD_LEVEL = /NetworkPluginNotReady|network is not ready|CNI|cni config|Failed to create pod sandbox|ErrImagePull|ImagePullBackOff|Back-off pulling image|Failed to pull image|PullImage from image service failed|pod_workers|Error syncing pod/;

/**
 * The stage one line speaks of: its log's stage, refined where a log speaks for several steps
 * (bootkube.sh runs them all; kubelet runs every pod). `previous` is the step the last
 * bootkube marker before the line started, when known.
 */
export function stageOfLine(source: SourceId, text: string, previous?: StageId): StageId | undefined {
  const base = stageOfSource(source);
  const master = source.host?.role === 'master';
  // Serving or fetching a pool's ignition: the worker pool's is the workers' step.
  if (base === 'masters-provision' && WORKER_CONFIG.test(text)) return 'workers';
  if (RELEASE_PAYLOAD.test(text) && /pull|manifest|image|registry|x509|unauthorized|denied|timeout|refused|no such host/i.test(text)) {
    if (!master && base !== 'node-runtime') return 'release-image';
  }
  if (source.kind === 'journal' || source.kind === 'unit-status-journal') {
    if (source.unit === 'bootkube' && !master) {
      const marker = bootkubeMarker(text);
      if (marker) return marker;
      if (previous) return previous;
      for (const [re, stage] of BOOTKUBE_WORDS) if (re.test(text)) return stage;
      return base;
    }
    if (source.unit === 'kubelet' || source.unit === 'crio') {
      const pod = podStage(text, master);
      if (pod) return pod;
      if (master && MASTER_POD_LEVEL.test(text)) return 'production-control-plane';
    }
  }
  return base;
}

/**
 * The stage an installer phase waits on. A failed wait for bootstrapping covers the masters
 * joining through bootstrap-complete: the latest of them is named, and evidence of an earlier
 * one's failure wins over it.
 */
export function stageOfInstallerPhase(phase: InstallerPhase): StageId | undefined {
  switch (phase) {
    case 'infrastructure':
      // The installer creates the machines before anything boots: the masters cannot be provisioned.
      return 'masters-provision';
    case 'kubernetes-api':
      return 'bootstrap-control-plane';
    case 'bootstrap':
      return 'bootstrap-complete';
    case 'cluster':
      return 'cluster-operators';
    case 'gather':
      return undefined;
  }
}

/** Stages an installer phase spans, first to last (a failed wait leaves them all unproven). */
export function stagesOfInstallerPhase(phase: InstallerPhase): StageId[] {
  switch (phase) {
    case 'kubernetes-api':
      return ['bootstrap-control-plane'];
    case 'bootstrap':
      return ['masters-provision', 'production-control-plane', 'etcd-scaling', 'bootstrap-complete'];
    case 'cluster':
      return ['workers', 'cluster-operators'];
    case 'infrastructure':
      return ['masters-provision'];
    case 'gather':
      return [];
  }
}

/**
 * The category a failing source points to when its words name none (the taxonomy's meanings):
 * CRI-O and kubelet that cannot run are the container runtime, ignition is ignition, the pod
 * network's daemons are the network plugin, etcd is etcd's health, the machine API is the cloud.
 */
export function categoryOfSource(source: SourceId): CategoryId | undefined {
  const master = source.host?.role === 'master';
  const name = source.unit ?? source.container ?? '';
  if (source.kind === 'serial') return 'ignition';
  if (source.kind === 'journal' || source.kind === 'unit-status-journal') {
    if (/^(?:crio|crio-configure|crio-wipe)$/.test(name) || (!master && name === 'kubelet')) return 'container-runtime';
    if (/^ignition/.test(name)) return 'ignition';
    if (/^(?:machine-config-daemon|pivot)/.test(name)) return 'machine-config';
    if (/^(?:ovs|openvswitch|wait-for-br-ex)/.test(name)) return 'network-plugin';
    if (name === 'chronyd') return 'clock-skew';
    if (name === 'approve-csr') return 'csr-pending';
    return undefined;
  }
  if (source.kind === 'container') {
    if (/^etcd/.test(name)) return 'etcd-health';
    if (/^(?:ovnkube|ovn-|northd|nbdb|sbdb|ovs-|sdn|openshift-sdn|multus|kube-multus|network-operator|whereabouts)/.test(name)) return 'network-plugin';
    if (/^(?:machine-controller|machineset-controller|machine-api|capi-|capa-|capz-|capg-|capv-|cluster-api)/.test(name)) return 'cloud-provider';
    if (/^machine-config-daemon/.test(name)) return 'machine-config';
    if (/^(?:cluster-machine-approver|machine-approver)/.test(name)) return 'csr-pending';
  }
  return undefined;
}

/** The stage the workloads of a namespace belong to (for events and pods the API reports). */
export function stageOfNamespace(namespace: string | undefined): StageId {
  const ns = namespace ?? '';
  if (ns === 'openshift-etcd' || ns === 'openshift-etcd-operator') return 'etcd-scaling';
  if (/^openshift-(?:kube-apiserver|kube-controller-manager|kube-scheduler|ovn-kubernetes|sdn|multus|network-operator)$/.test(ns)) return 'production-control-plane';
  if (ns === 'openshift-machine-api' || ns === 'openshift-cluster-machine-approver') return 'workers';
  return 'cluster-operators';
}

/** Journal identifiers (`<identifier>[pid]:`) of the bootstrap scripts and daemons, and the unit each logs for. */
const IDENTIFIER_UNITS = nameTable<string>({
  'release-image-download.sh': 'release-image',
  'release-image-download': 'release-image',
  'release-image-pivot.sh': 'release-image-pivot',
  'bootstrap-pivot.sh': 'bootstrap-pivot',
  'node-image-pull.sh': 'node-image-pull',
  'bootkube.sh': 'bootkube',
  'cluster-bootstrap': 'bootkube',
  'crio-configure.sh': 'crio-configure',
  crio: 'crio',
  'kubelet.sh': 'kubelet',
  kubelet: 'kubelet',
  kubenswrapper: 'kubelet',
  hyperkube: 'kubelet',
  'approve-csr.sh': 'approve-csr',
  'report-progress.sh': 'progress',
  ignition: 'ignition',
  'machine-config-daemon': 'machine-config-daemon-firstboot',
  'configure-ovs.sh': 'ovs-configuration',
});

/** The unit a journal identifier (`bootkube.sh`, `kubenswrapper`) logs for, when it is one of the bootstrap's scripts or daemons. */
export function unitOfIdentifier(identifier: string): string | undefined {
  return Object.hasOwn(IDENTIFIER_UNITS, identifier) ? IDENTIFIER_UNITS[identifier] : undefined;
}

/**
 * The source a journal line really comes from: `journalctl -u a -u b` output kept in one file
 * mixes units, and each line's identifier says whose it is (release-image-download.sh lines in
 * a bootkube file are the release image's).
 */
export function sourceOfJournalLine(source: SourceId, identifier: string | undefined): SourceId {
  if (!identifier || (source.kind !== 'journal' && source.kind !== 'unit-status-journal')) return source;
  const unit = unitOfIdentifier(identifier);
  return unit && unit !== source.unit ? { ...source, unit } : source;
}
