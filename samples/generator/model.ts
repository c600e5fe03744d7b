// The scenario model: what a sample describes (release, platform, hosts, timing, layout,
// the failure and the verdict it should get) and the world derived from it.
import type { Prng } from './prng.js';
import type { Micros } from './time.js';
import type { CategoryId, StageId } from '../../src/taxonomy.js';

/** The taxonomy's stage and category ids (src/taxonomy.ts, docs/taxonomy.md). */
export type { CategoryId, StageId };

export type Platform = 'aws' | 'vsphere' | 'baremetal' | 'none';

/**
 * How the masters' parts sit in the bundle: plain folders (`control-plane/<ip>/`), nested
 * archives (`control-plane/<ip>/log-bundle-<ID>.tar.gz` or `control-plane/<ip>.tar.gz`),
 * absent because SSH to them failed, or the single node's own part (`control-plane/master/`).
 */
export type MasterLayout = 'folders' | 'nested-bundle' | 'nested-ip' | 'unreachable' | 'single-node';

export type FailureName =
  | 'none'
  | 'release-pull-unauthorized'
  | 'release-mirror-x509'
  | 'release-proxy-refused'
  | 'crio-opt-cni'
  | 'mirror-manifest-unknown'
  | 'bootstrap-disk-full'
  | 'bootstrap-etcd-slow-disk'
  | 'bootstrap-clock-behind'
  | 'localhost-cert-expired'
  | 'apiserver-oom'
  | 'api-int-dns'
  | 'mcs-port-blocked'
  | 'masters-image-pull-timeout'
  | 'ovn-no-gateway'
  | 'etcd-peer-port-blocked'
  | 'cvo-overrides-lb'
  | 'worker-csr-pending'
  | 'sno-console-degraded';

export interface ScenarioSpec {
  /** Directory name under samples/. */
  name: string;
  /** One line: what failed. */
  summary: string;
  /** A paragraph for the sample's README. */
  description: string;
  seed: string;
  /** Release version: `4.14.8`, `4.7.19`, `4.15.0-0.okd-scos-2024-01-18-223523`. */
  version: string;
  platform: Platform;
  clusterName: string;
  baseDomain: string;
  /** Machine network, a /24: `10.0.0.0/24`. */
  machineCidr: string;
  /** Last octets of the hosts. */
  hosts: { bootstrap: number; masters: number[]; workers: number[] };
  /** Bootstrap host boot time, ISO UTC. */
  start: string;
  /** Minutes from boot until the gather ran. */
  gatherAfterMinutes: number;
  masterLayout: MasterLayout;
  /** The installer combined the bootstrap, serial and Cluster API archives (4.16+). */
  combined?: boolean;
  /** Serial console logs of the VMs are in the bundle. */
  serialLogs?: boolean;
  /** Disconnected install: release and component images come from this mirror. */
  mirror?: string;
  /** HTTP proxy the hosts use. */
  proxy?: string;
  /** Name server the hosts get from DHCP (default: one on the machine network). */
  dnsServer?: string;
  /** Keep only this fraction of the finished archive (a damaged download). */
  truncate?: number;
  /** Healthy chatter relative to a typical bundle (1 = typical at --scale 1). */
  noise: number;
  failure: FailureName;
  expected: { stage: StageId | null; category: CategoryId | null };
}

export interface HostInfo {
  role: 'bootstrap' | 'master' | 'worker';
  index: number;
  ip: string;
  /** What `hostname` prints. */
  hostname: string;
  /** The Kubernetes node name. */
  nodeName: string;
  mac: string;
  iface: string;
  bootId: string;
  /** Boot ids of earlier boots (hosts that rebooted during the install). */
  earlierBoots: string[];
  /** Offset of the host's clock from true time (clock-skew scenarios). */
  clockOffset: Micros;
  pids: Record<string, number>;
}

export interface ReleaseInfo {
  version: string;
  minor: number;
  okd: boolean;
  kubeVersion: string;
  kubeGitTag: string;
  osVersion: string;
  crioVersion: string;
  etcdVersion: string;
  releaseImage: string;
  /** Component name (as `oc adm release info` names it) → pull spec by digest. */
  images: Record<string, string>;
}

/** Which files and formats the release writes (the gather scripts change over time). */
export interface Profile {
  serviceRecords: boolean;
  journalHeader: boolean;
  bootstrapNetwork: boolean;
  podmanNamedFiles: boolean;
  renderRm: boolean;
  journaldContainerLogs: boolean;
  verifyApiUrls: boolean;
  resourcesOnlyWhenUp: boolean;
  releaseImageDownloadJournal: boolean;
  masterJournalsNew: boolean;
  masterExtras: boolean;
  kubeletIdent: 'hyperkube' | 'kubenswrapper';
  bootstrapKubeletIdent: 'hyperkube' | 'kubelet.sh';
  crioIsoTime: boolean;
  imageMetadataStage: boolean;
  goTlsPrefix: boolean;
  gatherKubeconfigLine: boolean;
}

export interface World {
  spec: ScenarioSpec;
  prng: Prng;
  release: ReleaseInfo;
  profile: Profile;
  clusterDomain: string;
  infraId: string;
  clusterId: string;
  apiName: string;
  apiIntName: string;
  apiVip: string;
  ingressVip: string;
  gateway: string;
  dnsServer: string;
  prefix: number;
  bootstrap: HostInfo;
  masters: HostInfo[];
  workers: HostInfo[];
  t0: Micros;
  gatherAt: Micros;
  gatherId: string;
  /** The installer host's clock minus the bootstrap host's (0 unless the bootstrap clock is off). */
  installerClockOffset: Micros;
}
