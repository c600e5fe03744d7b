// The typed model of one installer log bundle. Pure data: no rule logic lives here.
// Every parsed item carries a SourceRef so findings can cite the file and line.
import type { ContainerRuntime, LogKind, SourceId } from './source-id.js';

export type { ContainerRuntime, HostSelector, LogKind, SourceId } from './source-id.js';

/** Where a fact came from: the entry's path inside the bundle (nested archives joined with `!/`). */
export interface SourceRef {
  file: string;
  /** 1-based line number, when the fact comes from one line. */
  line?: number;
}

/** Epoch milliseconds (UTC). Journals written in `short` form are read as UTC, as RHCOS hosts run. */
export type EpochMs = number;

export type ReadProblemKind =
  | 'unreadable-input'
  | 'truncated-archive'
  | 'corrupt-archive'
  | 'corrupt-entry'
  | 'unparseable'
  | 'empty'
  | 'api-unavailable'
  | 'too-large'
  | 'limit'
  | 'link-not-followed'
  | 'unsafe-path'
  | 'missing-part';

/** Something in the bundle that could not be read, or was read only in part. */
export interface ReadProblem {
  kind: ReadProblemKind;
  /** Entry path, or the bundle itself for whole-archive damage. */
  file: string;
  /** 1-based line, when the problem is at one line of the file. */
  line?: number;
  message: string;
  /** Data of the bundle was left unread because of it (a limit that stopped or skipped reading). */
  leftOut?: boolean;
}

// ---------------------------------------------------------------- logs

/**
 * A line's severity as its writer stated it, in one vocabulary whatever the spelling (klog's
 * `E`, logrus' `error`, journald's `err`): the parsers decide it (parsers/line-level.ts).
 */
export type Level = 'fatal' | 'error' | 'warning' | 'info' | 'debug';

/** One line (or one multi-line entry) of any log, with its position in the file. */
export interface LogLine {
  line: number;
  /** Parsed time of the line, when it carries one. */
  time?: EpochMs;
  /** The message text (for journals: after `identifier[pid]: `). */
  text: string;
  /** The line as written, when it differs from `text` (journal header, klog prefix). */
  raw?: string;
  /** Severity as the line states it (klog's letter, logfmt's or JSON's `level`), in one vocabulary. */
  level?: Level;
  /** Seconds since boot, for kernel-style lines (`[  591.204871] ...`, serial consoles). */
  monotonic?: number;
  /** Set when the line was longer than the line-length limit and was cut. */
  truncated?: boolean;
}

export interface JournalLine extends LogLine {
  hostname?: string;
  identifier?: string;
  pid?: number;
  /** Index into `Journal.boots` of the boot this line belongs to. */
  boot?: number;
  /** Continuation lines journalctl printed under this entry (multi-line messages). */
  continuation?: string[];
}

export type LogFormat =
  | 'journal'
  | 'klog'
  | 'logfmt'
  | 'json'
  | 'plain';

/**
 * A log read as a stream. Only a bounded part is kept: the head, the tail and the lines
 * that matched a registered line filter (see `LineFilter`); the rest is counted.
 */
export interface LogSummary<L extends LogLine = LogLine> {
  source: SourceRef;
  /** Which log this is (host, kind, unit or container), as the layout named its path. */
  sourceId: SourceId;
  kind: LogKind;
  /** The format most of its lines were in. */
  format: LogFormat;
  bytes: number;
  lineCount: number;
  /** Lines that were cut at the line-length limit. */
  truncatedLines: number;
  firstTime?: EpochMs;
  lastTime?: EpochMs;
  /** Seconds since boot of the last kernel-style line (serial consoles carry no wall time). */
  lastMonotonic?: number;
  /** First lines of the file (up to the head limit). */
  head: L[];
  /** Last lines of the file (up to the tail limit), in order. */
  tail: L[];
  /** Lines kept because a registered filter matched them, in order, with filter ids. */
  matched: MatchedLine<L>[];
  /** Matches beyond the per-file cap were counted, not kept. */
  matchedDropped: number;
}

export interface MatchedLine<L extends LogLine = LogLine> {
  entry: L;
  filterIds: string[];
  /** The raw lines just before and after, for context in reports. */
  before: string[];
  after: string[];
}

export interface JournalBoot {
  /** The boot id from `-- Boot <id> --`, when printed. */
  id?: string;
  /** Line number of the marker. */
  line: number;
}

export interface Journal extends LogSummary<JournalLine> {
  kind: 'journal' | 'unit-status-journal';
  /** The unit the file was gathered for, from its file name (`bootkube` for `bootkube.log`). */
  unit: string;
  boots: JournalBoot[];
  /** The file said `-- No entries --`. */
  noEntries: boolean;
  /** Hostnames seen in line headers. */
  hostnames: string[];
  /** Lines from systemd about the unit itself (start, exit status, failure), kept whole. */
  systemdLines: JournalLine[];
  /** What systemd said last about the unit (from `systemdLines`). */
  outcome?: UnitOutcome;
}

/** A unit's state as systemd last reported it: running, finished well, or failed. */
export interface UnitOutcome {
  status: 'ok' | 'failed' | 'running';
  /** systemd's line that said so. */
  line: JournalLine;
}

// ---------------------------------------------------------------- service records

export type ServicePhase =
  | 'service start'
  | 'service end'
  | 'stage start'
  | 'stage end'
  | 'pre-command start'
  | 'pre-command end'
  | 'post-command start'
  | 'post-command end';

export interface ServiceRecordEntry {
  source: SourceRef;
  timestamp?: EpochMs;
  /** Kept as written so an unknown phase from a newer release is not lost. */
  phase: ServicePhase | string;
  result?: 'success' | 'failure' | string;
  stage?: string;
  preCommand?: string;
  postCommand?: string;
  errorLine?: string;
  errorMessage?: string;
}

export interface ServiceStageRun {
  name: string;
  start?: EpochMs;
  end?: EpochMs;
  /** Undefined while the stage had started but not ended. */
  result?: 'success' | 'failure' | string;
  errorLine?: string;
  errorMessage?: string;
  /** The entry that ended the stage (with its result), or that started it while it runs. */
  source: SourceRef;
}

/** One run of a service: from one `service start` to its `service end` (or the end of the file). */
export interface ServiceRun {
  start?: EpochMs;
  end?: EpochMs;
  result?: 'success' | 'failure' | string;
  stages: ServiceStageRun[];
  errorLine?: string;
  errorMessage?: string;
  /** The `service start` entry. */
  source: SourceRef;
  /** The `service end` entry, which carries the run's result and error. */
  endSource?: SourceRef;
}

export interface ServiceRecord {
  /** Service name, from the file name (`bootkube` for `bootkube.json`). */
  service: string;
  source: SourceRef;
  entries: ServiceRecordEntry[];
  /** Every run, in order; the last one is what the service did last. */
  runs: ServiceRun[];
}

// ---------------------------------------------------------------- static pods and containers

export interface PodContainerSpec {
  name: string;
  image?: string;
  command: string[];
  args: string[];
}

export interface HostPathVolume {
  name: string;
  path: string;
}

export interface StaticPod {
  source: SourceRef;
  name: string;
  namespace?: string;
  containers: PodContainerSpec[];
  initContainers: PodContainerSpec[];
  hostPaths: HostPathVolume[];
  hostNetwork: boolean;
}

export interface Container {
  runtime: ContainerRuntime;
  id: string;
  name?: string;
  image?: string;
  imageRef?: string;
  /** Normalised: running, exited, created, unknown (CRI-O's CONTAINER_EXITED becomes exited). */
  state?: string;
  exitCode?: number;
  reason?: string;
  createdAt?: EpochMs;
  startedAt?: EpochMs;
  finishedAt?: EpochMs;
  restartCount?: number;
  attempt?: number;
  podName?: string;
  podNamespace?: string;
  oomKilled?: boolean;
  /** The inspect file, when there was one. */
  inspectSource?: SourceRef;
  /** The container's own log, when gathered. */
  log?: LogSummary;
}

// ---------------------------------------------------------------- etcd

export interface EtcdMember {
  /** Hex id as etcdctl prints it in tables. */
  id: string;
  name: string;
  status?: string;
  peerUrls: string[];
  clientUrls: string[];
  isLearner: boolean;
}

export interface EtcdMemberList {
  source: SourceRef;
  format: 'table' | 'simple' | 'json';
  members: EtcdMember[];
  clusterId?: string;
}

export interface EtcdEndpointHealth {
  endpoint: string;
  healthy: boolean;
  took?: string;
  error?: string;
  source: SourceRef;
}

export interface EtcdInfo {
  memberLists: EtcdMemberList[];
  health: EtcdEndpointHealth[];
}

// ---------------------------------------------------------------- systemd, network

export interface FailedUnit {
  unit: string;
  load?: string;
  active?: string;
  sub?: string;
  description?: string;
  source: SourceRef;
}

export interface UnitStatus {
  unit: string;
  source: SourceRef;
  description?: string;
  loaded?: string;
  /** e.g. `failed (Result: exit-code) since ...`. */
  active?: string;
  activeState?: string;
  result?: string;
  since?: EpochMs;
  mainPid?: number;
  exitStatus?: string;
  /** The journal lines `systemctl status` printed below the header. */
  journal: JournalLine[];
}

export interface NetInterface {
  name: string;
  state?: string;
  mtu?: number;
  mac?: string;
  addresses: { family: 'inet' | 'inet6'; address: string; prefix: number; scope?: string }[];
}

export interface Route {
  destination: string;
  via?: string;
  dev?: string;
  source?: string;
  raw: string;
}

export interface NetworkInfo {
  hostname?: string;
  interfaces: NetInterface[];
  routes: Route[];
  nameservers: string[];
  searchDomains: string[];
  hosts: { address: string; names: string[] }[];
  sources: SourceRef[];
}

// ---------------------------------------------------------------- rendered assets

export interface CertificateInfo {
  source: SourceRef;
  subject: string;
  issuer: string;
  notBefore: EpochMs;
  notAfter: EpochMs;
  serialNumber: string;
  isCA: boolean;
  fingerprint256: string;
}

/** The bootstrap host's /var/opt/openshift; its static pod manifests go to the bootstrap Host. */
export interface RenderedAssets {
  /** Every file path seen under rendered-assets/, for file-glob rules. */
  files: string[];
  certificates: CertificateInfo[];
  /** What the rendered install config (ConfigMap kube-system/cluster-config-v1) asks for. */
  installConfig?: InstallConfigFacts;
}

/** Machine counts of the install config; a count it does not state is absent. */
export interface InstallConfigFacts {
  source: SourceRef;
  /** `controlPlane.replicas`: the masters expected. */
  controlPlaneReplicas?: number;
  /** The sum of `compute[].replicas`: the workers expected (0: the masters run the workloads). */
  computeReplicas?: number;
}

// ---------------------------------------------------------------- cluster resources

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: EpochMs;
}

export interface NodeResource {
  source: SourceRef;
  name: string;
  roles: string[];
  ready: 'True' | 'False' | 'Unknown';
  conditions: Condition[];
  addresses: { type: string; address: string }[];
  kubeletVersion?: string;
  created?: EpochMs;
  taints: string[];
}

export type CsrState = 'Pending' | 'Approved' | 'Issued' | 'Denied' | 'Failed';

export interface CsrResource {
  source: SourceRef;
  name: string;
  requestor?: string;
  signerName?: string;
  created?: EpochMs;
  state: CsrState;
  conditions: Condition[];
}

export interface ClusterOperatorResource {
  source: SourceRef;
  name: string;
  conditions: Condition[];
  versions: { name: string; version: string }[];
}

export interface MachineConfigPoolResource {
  source: SourceRef;
  name: string;
  conditions: Condition[];
  /** The rendered MachineConfig the pool runs (`status.configuration.name`), once rendered. */
  renderedConfig?: string;
  machineCount?: number;
  readyMachineCount?: number;
  degradedMachineCount?: number;
}

/** A Machine of the machine API (`oc get machines -n openshift-machine-api -o json`). */
export interface MachineResource {
  source: SourceRef;
  name: string;
  /** `master`, `worker`, ... from the machine-role label, else from the name. */
  role?: string;
  /** Provisioning, Provisioned, Running, Deleting, Failed. */
  phase?: string;
  errorReason?: string;
  errorMessage?: string;
}

/** An aggregated API (`oc get apiservices -o json`): whether the API server can reach what serves it. */
export interface ApiServiceResource {
  source: SourceRef;
  /** `v1.packages.operators.coreos.com`. */
  name: string;
  /** `<namespace>/<name>` of the service behind it; none for the APIs kube-apiserver serves itself. */
  service?: string;
  conditions: Condition[];
}

export interface ClusterVersionResource {
  source: SourceRef;
  desiredVersion?: string;
  desiredImage?: string;
  history: { state: string; version?: string; image?: string; started?: EpochMs; completed?: EpochMs }[];
  conditions: Condition[];
}

export interface ContainerStatusResource {
  name: string;
  ready: boolean;
  restartCount: number;
  image?: string;
  waitingReason?: string;
  waitingMessage?: string;
  terminatedReason?: string;
  lastTerminatedReason?: string;
  lastExitCode?: number;
}

export interface PodResource {
  source: SourceRef;
  namespace: string;
  name: string;
  node?: string;
  phase?: string;
  conditions: Condition[];
  containers: ContainerStatusResource[];
}

export interface EventResource {
  source: SourceRef;
  namespace?: string;
  kind?: string;
  object?: string;
  reason?: string;
  message?: string;
  type?: string;
  count: number;
  firstTime?: EpochMs;
  lastTime?: EpochMs;
}

/** State of one `resources/*` file: parsed, empty, or holding the error `oc` printed. */
export interface ResourceFileStatus {
  source: SourceRef;
  name: string;
  status: 'ok' | 'empty' | 'error' | 'unparseable' | 'too-large';
  /** First line of what `oc` printed instead of JSON. */
  message?: string;
  items?: number;
}

export interface ClusterResources {
  files: ResourceFileStatus[];
  nodes?: NodeResource[];
  csrs?: CsrResource[];
  clusterOperators?: ClusterOperatorResource[];
  clusterVersion?: ClusterVersionResource[];
  machineConfigPools?: MachineConfigPoolResource[];
  machines?: MachineResource[];
  pods?: PodResource[];
  events?: EventResource[];
  apiServices?: ApiServiceResource[];
  /** Plain-text lists (`nodes.list`, `masters.list`). */
  nodeNames?: string[];
  masterNames?: string[];
}

// ---------------------------------------------------------------- installer and gather logs

export interface OperatorConditionReport {
  operator: string;
  condition: string;
  status: string;
  reason?: string;
  message: string;
  line: number;
  time?: EpochMs;
}

/**
 * What the installer was doing: creating infrastructure, waiting for the Kubernetes API, for
 * bootstrapping to complete, for the cluster to initialize (operators), or gathering logs.
 */
export type InstallerPhase = 'infrastructure' | 'kubernetes-api' | 'bootstrap' | 'cluster' | 'gather';

/** An installer line with the phase it was printed in. */
export interface InstallerLine extends LogLine {
  phase: InstallerPhase;
}

export interface InstallerLog extends LogSummary {
  kind: 'installer';
  version?: string;
  releaseImage?: string;
  /** `Waiting up to 20m0s ... for the Kubernetes API ...` and similar. */
  waits: { what: string; timeout: string; line: number; time?: EpochMs; phase: InstallerPhase }[];
  /** Lines reporting a timeout or a failed wait, or printed at error level or above. */
  failures: InstallerLine[];
  /** `Still waiting for the Kubernetes API: <error>` and like lines: why a wait was still waiting. */
  stillWaiting: InstallerLine[];
  /** `API v1.x up`: the bootstrap control plane answered. */
  apiUp?: InstallerLine;
  /** The installer's analysis of the bundle it gathered (`The bootstrap machine failed to ...`), with the error lines it quoted. */
  analysis: InstallerLine[];
  operatorConditions: OperatorConditionReport[];
  bootstrapComplete: boolean;
  installComplete: boolean;
}

export interface GatherLog extends LogSummary {
  kind: 'gather';
  /** Masters the script tried to collect from (`Collecting info from <addr>`). */
  mastersAttempted: string[];
  /** The script said `No masters found!`. */
  noMasters: boolean;
  /** ssh/scp errors and similar, as printed. */
  errors: LogLine[];
}

// ---------------------------------------------------------------- hosts and bundle

export type HostRole = 'bootstrap' | 'master';

export interface Host {
  role: HostRole;
  /** IP or name the gather used (`control-plane/<address>/`); `bootstrap` for the bootstrap host. */
  address: string;
  hostname?: string;
  journals: Record<string, Journal>;
  /** `unit-status/<unit>.log` journals, by unit. */
  unitJournals: Record<string, Journal>;
  unitStatus: Record<string, UnitStatus>;
  serviceRecords: Record<string, ServiceRecord>;
  containers: Container[];
  /** Logs of `bootstrap/containers/bootstrap-control-plane/`. */
  controlPlaneLogs: LogSummary[];
  etcd?: EtcdInfo;
  network?: NetworkInfo;
  failedUnits: FailedUnit[];
  /** `failed-units.txt` was present (an empty list then means no failed unit). */
  failedUnitsListed: boolean;
  /** Static pod manifests (for the bootstrap host: those of its rendered assets). */
  staticPods: StaticPod[];
}

export type BundleFormat = 'tar.gz' | 'tar' | 'zip' | 'directory' | 'file';

export interface BundleLayout {
  /** Bootstrap files sat one level deeper (single-node bootstrap-in-place). */
  bootstrapInPlace: boolean;
  /** Nested archives that were read through, in order. */
  nestedArchives: string[];
  /** `control-plane/` was absent or held no host. */
  mastersMissing: boolean;
  /** Files outside the bundle's own layout read by their content (absent when none was). */
  readByContent?: ReadByContent[];
}

/** A file read by its content (a console capture or a journal beside a bundle), and as what. */
export interface ReadByContent {
  file: string;
  /** What it was read as, for people: `the serial console of master-0 (serial/master-0-serial.log)`. */
  as: string;
}

export interface BundleMeta {
  /** Bundle name: the file or folder name the user gave. */
  name: string;
  path: string;
  format: BundleFormat;
  /** `<GATHER_ID>` from `log-bundle-<GATHER_ID>`, when the bundle has one. */
  gatherId?: string;
  /** The time used to give year-less journal timestamps a year. */
  referenceTime?: EpochMs;
  entries: number;
  /** Uncompressed bytes of all entries read. */
  bytes: number;
  /** Regular files no parser reads (kept as a count; they are not evidence). */
  otherFiles: number;
  layout: BundleLayout;
}

export interface Bundle {
  meta: BundleMeta;
  bootstrap?: Host;
  masters: Host[];
  cluster?: ClusterResources;
  renderedAssets?: RenderedAssets;
  serialLogs: LogSummary[];
  clusterApiLogs: LogSummary[];
  gatherLog?: GatherLog;
  installerLog?: InstallerLog;
  problems: ReadProblem[];
}
