// The vocabulary every report, rule, sample and test speaks: the bootstrap stages in install
// order, the root-cause categories, and how the bootstrap services' recorded stages map onto
// them. The one source of these ids: docs/taxonomy.md is generated from this module
// (`node dist/scripts/taxonomy-doc.js`) and the schemas' enums are checked against it.

/** Where stages run, in the order reports show them: a host group, or the cluster as a whole. */
export const STAGE_HOMES = ['bootstrap', 'masters', 'workers', 'cluster'] as const;

export type StageHome = (typeof STAGE_HOMES)[number];

/** One stage: what happens in it and where a bundle shows it. */
export interface StageInfo {
  id: string;
  /** The stage done, in a few words (the verdict names it so). */
  title: string;
  /** The step of the installation overview it belongs to (OpenShift's "installation process" steps 1-10). */
  installStep: string;
  happens: string;
  /** Where a bundle shows it. */
  shownBy: string;
  /** Where it runs, for a stage the timeline gave no hosts. */
  home: StageHome;
}

/** The eleven stages, in the order an installation passes them. */
export const STAGE_TABLE = [
  {
    id: 'release-image',
    title: 'Release image pulled on the bootstrap host',
    installStep: '1',
    happens: 'the bootstrap host pulls the release payload and resolves every component image (`image_for`)',
    shownBy: '`release-image`/`release-image-download`/`node-image-pull` journals and service records',
    home: 'bootstrap',
  },
  {
    id: 'node-runtime',
    title: 'CRI-O and kubelet running on the bootstrap host',
    installStep: '1',
    happens: 'CRI-O is configured, kubelet starts on the bootstrap host',
    shownBy: '`crio-configure`, `crio`, `kubelet` journals; failed units',
    home: 'bootstrap',
  },
  {
    id: 'render',
    title: 'Manifests rendered by bootkube',
    installStep: '2',
    happens:
      "bootkube renders manifests with each operator's image (cvo, etcd, config, kube-apiserver, kube-controller-manager, kube-scheduler, ingress, machine-config, cloud-credential, auth)",
    shownBy: 'bootkube service-record stages ending in `-bootstrap`; `bootkube` journal',
    home: 'bootstrap',
  },
  {
    id: 'bootstrap-etcd',
    title: 'Bootstrap etcd member running',
    installStep: '2',
    happens: 'the single-member etcd static pod starts on the bootstrap host',
    shownBy: 'etcd container logs and inspect files, static pod manifests, etcd member list',
    home: 'bootstrap',
  },
  {
    id: 'bootstrap-control-plane',
    title: 'Temporary control plane answering on 6443',
    installStep: '2',
    happens: 'temporary kube-apiserver, controller-manager and scheduler static pods; API answers on 6443',
    shownBy: 'bootkube journal ("Waiting for API"), container logs, pod manifests',
    home: 'bootstrap',
  },
  {
    id: 'masters-provision',
    title: 'Masters booted from ignition and registered',
    installStep: '3',
    happens: 'masters fetch their ignition from the machine-config server on 22623, boot, register their kubelets, get CSRs approved',
    shownBy: '`control-plane/<ip>/` journals, `approve-csr` journal, nodes and CSR resources, serial logs',
    home: 'masters',
  },
  {
    id: 'production-control-plane',
    title: 'Required control-plane pods running on the masters',
    installStep: '4',
    happens: 'cluster-bootstrap (`cb-bootstrap`) applies manifests and waits for the required pods on the masters',
    shownBy: 'bootkube journal pod-status lines, `cb-bootstrap` stage',
    home: 'masters',
  },
  {
    id: 'etcd-scaling',
    title: 'etcd scaled onto the masters',
    installStep: '5',
    happens: 'the CVO runs; the etcd operator scales etcd onto the masters (`wait-for-ceo`)',
    shownBy: '`wait-for-ceo` stage, etcd operator status, member list',
    home: 'masters',
  },
  {
    id: 'bootstrap-complete',
    title: 'Bootstrap complete, control handed over',
    installStep: '6-8',
    happens: 'CVO overrides restored, bootkube completes, the bootstrap member leaves etcd, control is handed over',
    shownBy: '"bootkube.service complete", progress service, `bootstrap-complete` event',
    home: 'bootstrap',
  },
  {
    id: 'workers',
    title: 'Compute nodes joined',
    installStep: '9',
    happens: 'compute nodes join and their CSRs are approved',
    shownBy: 'nodes and CSR resources',
    home: 'workers',
  },
  {
    id: 'cluster-operators',
    title: 'Cluster operators available',
    installStep: '10',
    happens: 'the cluster operators become Available and not Degraded; install completes',
    shownBy: '`clusteroperators`, `clusterversion` resources',
    home: 'cluster',
  },
] as const satisfies readonly StageInfo[];

export type StageId = (typeof STAGE_TABLE)[number]['id'];

/** Stage ids in install order. */
export const STAGES: readonly StageId[] = STAGE_TABLE.map((s) => s.id);

export const STAGE_TITLES = Object.fromEntries(STAGE_TABLE.map((s) => [s.id, s.title])) as Record<StageId, string>;

/** Where each stage runs, for a stage the timeline gave no hosts (an implied or undecided one). */
export const STAGE_HOME = Object.fromEntries(STAGE_TABLE.map((s) => [s.id, s.home])) as Record<StageId, StageHome>;

/** One root-cause category: what it means and the evidence it usually has. */
export interface CategoryInfo {
  id: string;
  meaning: string;
  typicalEvidence: string;
}

export const CATEGORY_TABLE = [
  { id: 'registry-auth', meaning: 'the pull secret is missing, wrong or lacks a registry', typicalEvidence: '`unauthorized`, `authentication required`, HTTP 401/403 on pull' },
  { id: 'registry-unreachable', meaning: 'the registry or mirror cannot be reached', typicalEvidence: '`dial tcp ... i/o timeout`, `connection refused` on pull, proxy errors' },
  { id: 'image-missing', meaning: 'the mirror lacks an image or digest', typicalEvidence: '`manifest unknown`, `not found` for an image reference' },
  { id: 'registry-tls', meaning: "the registry's certificate is not trusted", typicalEvidence: '`x509: certificate signed by unknown authority` on pull' },
  { id: 'dns', meaning: 'a name does not resolve (api, api-int, *.apps, registry)', typicalEvidence: '`no such host`, `server misbehaving`' },
  {
    id: 'network-connectivity',
    meaning: 'a host or load balancer port cannot be reached (6443, 22623, 2379/2380)',
    typicalEvidence: '`connection refused`, `i/o timeout`, `no route to host` to cluster endpoints',
  },
  {
    id: 'certificate-expired',
    meaning: 'a certificate expired, typically ignition configs older than 24 h',
    typicalEvidence: '`x509: certificate has expired or is not yet valid` with current time after NotAfter',
  },
  { id: 'clock-skew', meaning: 'host clocks disagree or are wrong', typicalEvidence: '`not yet valid`, NTP/chrony failures, timestamps out of order' },
  {
    id: 'etcd-health',
    meaning: 'etcd cannot form or keep quorum, or is too slow',
    typicalEvidence: '`etcdserver: request timed out`, `leader changed`, slow fdatasync, member list wrong',
  },
  { id: 'resource-exhaustion', meaning: 'disk, memory or CPU too small or full', typicalEvidence: '`no space left on device`, OOM kills, eviction, disk pressure' },
  { id: 'container-runtime', meaning: 'CRI-O or kubelet cannot run pods', typicalEvidence: '`Failed to create pod sandbox`, cgroup errors, crio unit failed' },
  { id: 'ignition', meaning: 'a host cannot fetch or apply its ignition', typicalEvidence: 'ignition fetch errors to 22623, `GET ... config/master` failures' },
  { id: 'machine-config', meaning: 'a rendered machine config does not match the disk', typicalEvidence: '`content mismatch`, `unexpected on-disk state`' },
  { id: 'csr-pending', meaning: 'node certificate requests are not approved', typicalEvidence: 'pending CSRs, nodes missing or NotReady with approve-csr errors' },
  { id: 'proxy', meaning: 'the cluster-wide proxy is wrong or bypasses too little', typicalEvidence: 'proxy errors, `noProxy` missing cluster networks' },
  { id: 'cloud-provider', meaning: 'the platform refuses: credentials, quotas, instance or LB creation', typicalEvidence: 'cloud API errors, credentials-request failures' },
  {
    id: 'network-plugin',
    meaning: 'the pod network (OVN-Kubernetes, OpenShift SDN) does not come up',
    typicalEvidence: 'network operator degraded, CNI errors, `network is not ready`',
  },
  { id: 'install-config', meaning: 'the install configuration is inconsistent', typicalEvidence: 'overlapping CIDRs, wrong platform values, unsupported versions' },
  { id: 'operator-degraded', meaning: 'a named cluster operator is Degraded or not Available, cause not further known', typicalEvidence: 'clusteroperator conditions' },
  { id: 'unknown', meaning: 'evidence of failure, cause not determined', typicalEvidence: '' },
] as const satisfies readonly CategoryInfo[];

export type CategoryId = (typeof CATEGORY_TABLE)[number]['id'];

/** Category ids, in the order of the table. */
export const CATEGORIES: readonly CategoryId[] = CATEGORY_TABLE.map((c) => c.id);

/**
 * How a bootstrap service's recorded stage maps onto the taxonomy (names from the installer's
 * bootkube.sh template and its sibling scripts). `recorded` is a stage name, a `*` glob, or `*`
 * for every stage of the service; the first row that matches decides. A release may add or
 * rename stages: an unknown `*-bootstrap` name is `render`, any other is reported, not guessed.
 */
export interface RecordedStage {
  service: string;
  recorded: string;
  stage: StageId;
  /** The stage instead while the bootstrap API never answered. */
  beforeApi?: StageId;
  note?: string;
}

export const RECORDED_STAGES: readonly RecordedStage[] = [
  { service: 'release-image', recorded: '*', stage: 'release-image', note: 'its one stage is `pull-release-image`' },
  { service: 'release-image-pivot', recorded: '*', stage: 'release-image', note: 'OKD and layered OS' },
  { service: 'node-image-pull', recorded: '*', stage: 'release-image', note: 'OKD and layered OS' },
  { service: 'bootkube', recorded: 'wait-for-etcd', stage: 'bootstrap-etcd' },
  { service: 'bootkube', recorded: 'cb-bootstrap', stage: 'production-control-plane', beforeApi: 'bootstrap-control-plane' },
  { service: 'bootkube', recorded: 'wait-for-ceo', stage: 'etcd-scaling' },
  { service: 'bootkube', recorded: 'cvo-overrides', stage: 'bootstrap-complete' },
  { service: 'bootkube', recorded: 'restore-cvo-overrides', stage: 'bootstrap-complete', note: 'the hand-over step' },
  { service: 'bootkube', recorded: 'openshift-manifests', stage: 'render' },
  { service: 'bootkube', recorded: 'konnectivity*', stage: 'bootstrap-control-plane', note: 'konnectivity-certs, konnectivity-server-bootstrap, ... prepare the bootstrap API' },
  {
    service: 'bootkube',
    recorded: '*-bootstrap',
    stage: 'render',
    note: 'cvo-, etcd-, config-, kube-apiserver-, kube-controller-manager-, kube-scheduler-, ingress-operator-, mco-, cco-bootstrap and any other',
  },
];

/** The CI install failure modes dashboards join on. */
export const CI_FAILURE_MODES = ['configuration', 'infrastructure', 'cluster bootstrap', 'cluster creation', 'cluster operator stability'] as const;

export type CiFailureMode = (typeof CI_FAILURE_MODES)[number];

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

export function isStageHome(value: string): value is StageHome {
  return (STAGE_HOMES as readonly string[]).includes(value);
}
