// Release facts derived from a version string: Kubernetes/RHCOS/CRI-O versions, image pull
// specs by digest, and the profile of files and formats that release's scripts produce.
import type { Prng } from './prng.js';
import type { Profile, ReleaseInfo } from './model.js';

const COMPONENTS = [
  'machine-config-operator',
  'machine-os-content',
  'rhel-coreos',
  'etcd',
  'pod',
  'cluster-etcd-operator',
  'cluster-config-operator',
  'cluster-kube-apiserver-operator',
  'cluster-kube-controller-manager-operator',
  'cluster-kube-scheduler-operator',
  'cluster-ingress-operator',
  'cloud-credential-operator',
  'hyperkube',
  'cluster-policy-controller',
  'cluster-bootstrap',
  'keepalived-ipfailover',
  'coredns',
  'haproxy-router',
  'baremetal-runtimecfg',
  'cluster-network-operator',
  'ovn-kubernetes',
  'multus-cni',
  'oauth-server',
  'console',
  'console-operator',
  'cluster-authentication-operator',
  'oauth-apiserver',
  'openshift-apiserver',
  'cluster-openshift-apiserver-operator',
  'kube-rbac-proxy',
  'cluster-machine-approver',
  'cluster-dns-operator',
  'cluster-monitoring-operator',
];

/** Major/minor of `4.14.8` or `4.15.0-0.okd-scos-...`. */
export function minorOf(version: string): number {
  const m = /^4\.(\d+)\./.exec(version);
  if (!m) throw new Error(`unsupported version ${version}`);
  return Number(m[1]);
}

const KUBE: Record<number, string> = { 7: '1.20', 12: '1.25', 13: '1.26', 14: '1.27', 15: '1.28', 16: '1.29', 17: '1.30', 18: '1.31' };
const RHEL: Record<number, string> = { 7: '47.84', 12: '412.86', 13: '413.92', 14: '414.92', 15: '415.92', 16: '416.94', 17: '417.94', 18: '418.94' };

export function releaseInfo(version: string, prng: Prng): ReleaseInfo {
  const minor = minorOf(version);
  const okd = version.includes('okd');
  const kube = KUBE[minor] ?? `1.${minor + 13}`;
  const patch = prng.int(3, 14);
  const kubeGitTag = prng.hex(7);
  const osStamp = `${2000 + prng.int(21, 25)}${String(prng.int(1, 12)).padStart(2, '0')}${String(prng.int(10, 28)).padStart(2, '0')}${String(prng.int(0, 23)).padStart(2, '0')}${String(prng.int(10, 59)).padStart(2, '0')}`;
  const osVersion = okd ? `${minor + 400}.9.${osStamp}-0` : `${RHEL[minor] ?? `4${minor}.94`}.${osStamp}-0`;
  const digest = (): string => `sha256:${prng.hex(64)}`;
  const releaseRepo = okd ? 'quay.io/okd/scos-release' : 'quay.io/openshift-release-dev/ocp-release';
  const contentRepo = okd ? 'quay.io/okd/scos-content' : 'quay.io/openshift-release-dev/ocp-v4.0-art-dev';
  const images: Record<string, string> = {};
  for (const c of COMPONENTS) images[c] = `${contentRepo}@${digest()}`;
  return {
    version,
    minor,
    okd,
    kubeVersion: `v${kube}.${patch}`,
    kubeGitTag,
    osVersion,
    crioVersion: `${kube}.${prng.int(1, 9)}-${prng.int(2, 12)}.rhaos4.${minor}.git${prng.hex(7)}.el${minor >= 13 ? 9 : 8}`,
    etcdVersion: minor >= 12 ? `3.5.${minor >= 16 ? prng.int(14, 16) : prng.int(6, 13)}` : '3.4.14',
    releaseImage: okd ? `${releaseRepo}:${version}` : `${releaseRepo}@${digest()}`,
    images,
  };
}

export function profileFor(minor: number): Profile {
  return {
    serviceRecords: minor >= 8,
    journalHeader: minor <= 12,
    bootstrapNetwork: true,
    podmanNamedFiles: minor >= 14,
    renderRm: minor >= 14,
    journaldContainerLogs: minor >= 14,
    verifyApiUrls: minor >= 13,
    resourcesOnlyWhenUp: minor >= 15,
    releaseImageDownloadJournal: minor >= 15,
    masterJournalsNew: minor >= 17,
    masterExtras: minor >= 18,
    kubeletIdent: minor >= 11 ? 'kubenswrapper' : 'hyperkube',
    bootstrapKubeletIdent: minor >= 11 ? 'kubelet.sh' : 'hyperkube',
    crioIsoTime: minor >= 17,
    imageMetadataStage: minor >= 16,
    goTlsPrefix: minor >= 14,
    gatherKubeconfigLine: minor >= 10,
  };
}
