// The shared vocabulary of ../shared/docs/taxonomy.md: stage ids in install order and
// root-cause categories. Reports, rules, samples and tests use exactly these ids.

export const STAGES = [
  'release-image',
  'node-runtime',
  'render',
  'bootstrap-etcd',
  'bootstrap-control-plane',
  'masters-provision',
  'production-control-plane',
  'etcd-scaling',
  'bootstrap-complete',
  'workers',
  'cluster-operators',
] as const;

export type StageId = (typeof STAGES)[number];

/** Where stages run, in the order reports show them: a host group, or the cluster as a whole. */
export const STAGE_HOMES = ['bootstrap', 'masters', 'workers', 'cluster'] as const;

export type StageHome = (typeof STAGE_HOMES)[number];

/** Where each stage runs, for a stage the timeline gave no hosts (an implied or undecided one). */
export const STAGE_HOME: Record<StageId, StageHome> = {
  'release-image': 'bootstrap',
  'node-runtime': 'bootstrap',
  render: 'bootstrap',
  'bootstrap-etcd': 'bootstrap',
  'bootstrap-control-plane': 'bootstrap',
  'masters-provision': 'masters',
  'production-control-plane': 'masters',
  'etcd-scaling': 'masters',
  'bootstrap-complete': 'bootstrap',
  workers: 'workers',
  'cluster-operators': 'cluster',
};

export function isStageHome(value: string): value is StageHome {
  return (STAGE_HOMES as readonly string[]).includes(value);
}

export const STAGE_TITLES: Record<StageId, string> = {
  'release-image': 'Release image pulled on the bootstrap host',
  'node-runtime': 'CRI-O and kubelet running on the bootstrap host',
  render: 'Manifests rendered by bootkube',
  'bootstrap-etcd': 'Bootstrap etcd member running',
  'bootstrap-control-plane': 'Temporary control plane answering on 6443',
  'masters-provision': 'Masters booted from ignition and registered',
  'production-control-plane': 'Required control-plane pods running on the masters',
  'etcd-scaling': 'etcd scaled onto the masters',
  'bootstrap-complete': 'Bootstrap complete, control handed over',
  workers: 'Compute nodes joined',
  'cluster-operators': 'Cluster operators available',
};

export const CATEGORIES = [
  'registry-auth',
  'registry-unreachable',
  'image-missing',
  'registry-tls',
  'dns',
  'network-connectivity',
  'certificate-expired',
  'clock-skew',
  'etcd-health',
  'resource-exhaustion',
  'container-runtime',
  'ignition',
  'machine-config',
  'csr-pending',
  'proxy',
  'cloud-provider',
  'network-plugin',
  'install-config',
  'operator-degraded',
  'unknown',
] as const;

export type CategoryId = (typeof CATEGORIES)[number];

/** Position of a stage in install order (0-based). */
export function stageIndex(stage: StageId): number {
  return STAGES.indexOf(stage);
}

export function isStageId(value: unknown): value is StageId {
  return typeof value === 'string' && (STAGES as readonly string[]).includes(value);
}

export function isCategoryId(value: unknown): value is CategoryId {
  return typeof value === 'string' && (CATEGORIES as readonly string[]).includes(value);
}

/** The CI install failure modes dashboards join on. */
export type CiFailureMode = 'configuration' | 'infrastructure' | 'cluster bootstrap' | 'cluster creation' | 'cluster operator stability';
