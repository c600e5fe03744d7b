// The pods each host runs and when they start: the bootstrap host's static pods (etcd, MCS,
// bootstrap control plane, CVO) and the masters' daemon-set and control-plane pods.
import type { PodRef } from './noise.js';
import type { HostInfo, World } from './model.js';
import type { Prng } from './prng.js';
import type { Timeline } from './timeline.js';
import { SECOND, type Micros } from './time.js';

export interface PodSpec extends PodRef {
  kind: string;
  image: string;
  hostNetwork: boolean;
  /** Set when the pod's containers stopped (crash loop, teardown). */
  until?: Micros;
}

function uid32(p: Prng): string {
  return p.hex(32);
}

function uuid(p: Prng): string {
  return p.uuid();
}

/** Static pods of the bootstrap host, each from the moment kubelet started it. */
export function bootstrapPods(w: World, tl: Timeline): PodSpec[] {
  const p = w.prng.fork('pods/bootstrap');
  const h = w.bootstrap.hostname;
  const img = w.release.images;
  const out: PodSpec[] = [];
  const add = (since: Micros | undefined, namespace: string, name: string, kind: string, containers: string[], image: string, probe?: string): void => {
    const uid = uid32(p);
    if (since !== undefined && since < tl.gather) out.push({ namespace, name: `${name}-${h}`, uid, containers, kind, image, hostNetwork: true, since, probe });
  };
  add(tl.etcdPodUp, 'openshift-etcd', 'etcd-bootstrap-member', 'etcd', ['etcdctl', 'etcd'], img.etcd);
  add(tl.mcsUp, 'openshift-machine-config-operator', 'bootstrap-machine-config-operator', 'mcs', ['machine-config-controller', 'machine-config-server'], img['machine-config-operator']);
  if (w.spec.platform === 'vsphere' || w.spec.platform === 'baremetal') {
    const ns = w.spec.platform === 'vsphere' ? 'openshift-vsphere-infra' : 'openshift-kni-infra';
    add(tl.mcsUp === undefined ? undefined : tl.mcsUp + 2 * SECOND, ns, 'coredns', 'coredns', ['render-config', 'coredns'], img.coredns);
    add(tl.mcsUp === undefined ? undefined : tl.mcsUp + 3 * SECOND, ns, 'keepalived', 'keepalived', ['render-config-keepalived', 'keepalived'], img['keepalived-ipfailover']);
  }
  const cp = tl.cbStart === undefined ? undefined : tl.cbStart + p.int(6, 15) * SECOND;
  add(cp, 'openshift-kube-apiserver', 'bootstrap-kube-apiserver', 'kube-apiserver', ['kube-apiserver', 'kube-apiserver-insecure-readyz'], img.hyperkube, `${w.bootstrap.ip}:6443/readyz`);
  add(cp, 'kube-system', 'bootstrap-kube-controller-manager', 'kcm', ['kube-controller-manager', 'cluster-policy-controller'], img.hyperkube);
  add(cp, 'kube-system', 'bootstrap-kube-scheduler', 'scheduler', ['kube-scheduler'], img.hyperkube);
  add(cp, 'openshift-cluster-version', 'bootstrap-cluster-version-operator', 'cvo', ['cluster-version-operator'], w.release.releaseImage);
  if (w.spec.platform === 'aws' || w.spec.platform === 'vsphere') add(cp, 'openshift-cloud-credential-operator', 'cloud-credential-operator', 'cco', ['cloud-credential-operator'], img['cloud-credential-operator']);
  return out;
}

/** Pods of one master: daemon sets once registered, control plane once installed. */
export function masterPods(w: World, tl: Timeline, m: HostInfo): PodSpec[] {
  const p = w.prng.fork(`pods/master-${m.index}`);
  const img = w.release.images;
  const out: PodSpec[] = [];
  const reg = tl.masterRegistered[m.index];
  const ready = tl.masterReady[m.index];
  const add = (since: Micros | undefined, namespace: string, name: string, kind: string, containers: string[], image: string, hostNetwork = true): void => {
    if (since !== undefined && since < tl.gather) out.push({ namespace, name, uid: uuid(p), containers, kind, image, hostNetwork, since });
  };
  const sfx = (): string => p.alnum(5);
  if (w.spec.platform === 'vsphere' || w.spec.platform === 'baremetal') {
    const ns = w.spec.platform === 'vsphere' ? 'openshift-vsphere-infra' : 'openshift-kni-infra';
    const booted = tl.masterIgnition[m.index] === undefined ? undefined : (tl.masterIgnition[m.index] as Micros) + 300 * SECOND;
    add(booted, ns, `coredns-${m.nodeName}`, 'coredns', ['render-config', 'coredns', 'coredns-monitor'], img.coredns);
    add(booted, ns, `keepalived-${m.nodeName}`, 'keepalived', ['render-config-keepalived', 'keepalived', 'keepalived-monitor'], img['keepalived-ipfailover']);
    add(booted, ns, `haproxy-${m.nodeName}`, 'haproxy', ['haproxy', 'haproxy-monitor'], img['haproxy-router']);
  }
  const d = (s: number): Micros | undefined => (reg === undefined ? undefined : reg + s * SECOND);
  add(d(p.int(20, 60)), 'openshift-ovn-kubernetes', `ovnkube-node-${sfx()}`, 'ovnkube-node', ['ovn-controller', 'ovn-acl-logging', 'kube-rbac-proxy-node', 'kube-rbac-proxy-ovn-metrics', 'northd', 'nbdb', 'sbdb', 'ovnkube-controller'], img['ovn-kubernetes']);
  add(d(p.int(15, 50)), 'openshift-multus', `multus-${sfx()}`, 'multus', ['kube-multus'], img['multus-cni']);
  add(d(p.int(30, 90)), 'openshift-machine-config-operator', `machine-config-daemon-${sfx()}`, 'mcd', ['machine-config-daemon', 'kube-rbac-proxy'], img['machine-config-operator']);
  add(d(p.int(30, 90)), 'openshift-dns', `node-resolver-${sfx()}`, 'node-resolver', ['dns-node-resolver'], img['cluster-dns-operator']);
  const r = (s: number): Micros | undefined => (ready === undefined ? undefined : ready + s * SECOND);
  add(r(p.int(10, 60)), 'openshift-multus', `network-metrics-daemon-${sfx()}`, 'nmd', ['network-metrics-daemon', 'kube-rbac-proxy'], img['multus-cni'], false);
  add(r(p.int(60, 200)), 'openshift-etcd', `etcd-${m.nodeName}`, 'etcd', ['setup', 'etcd-ensure-env-vars', 'etcd-resources-copy', 'etcdctl', 'etcd', 'etcd-metrics', 'etcd-readyz'], img.etcd);
  add(r(p.int(90, 300)), 'openshift-kube-apiserver', `kube-apiserver-${m.nodeName}`, 'kube-apiserver', ['setup', 'kube-apiserver', 'kube-apiserver-cert-syncer', 'kube-apiserver-cert-regeneration-controller', 'kube-apiserver-insecure-readyz', 'kube-apiserver-check-endpoints'], img.hyperkube);
  return out;
}
