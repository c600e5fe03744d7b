// The stage a unit's or a container's work is part of, by its name and host: the tables behind
// the stage of the journal and container rows of the source registry (specs/bundle-sources.ts).
// Names are those of the installer's bootstrap scripts (bootkube.sh.template and its siblings),
// installer-gather.sh and installer-masters-gather.sh, and the static pod manifests.
import type { SourceId } from '../model/source-id.js';
import type { StageId } from '../taxonomy.js';
import { nameTable } from '../util/name-table.js';

/** Units of the bootstrap host and the stage their work is part of. */
const BOOTSTRAP_UNITS = nameTable<StageId>({
  'release-image': 'release-image',
  'release-image-download': 'release-image',
  'release-image-pivot': 'release-image',
  'node-image-pull': 'release-image',
  'node-image-overlay': 'release-image',
  'bootstrap-pivot': 'release-image',
  'rpm-ostree': 'release-image',
  'rpm-ostreed': 'release-image',
  ignition: 'release-image',
  'ignition-firstboot-complete': 'release-image',
  'crio-configure': 'node-runtime',
  crio: 'node-runtime',
  'crio-wipe': 'node-runtime',
  kubelet: 'node-runtime',
  'bootstrap-kubelet': 'node-runtime',
  'systemd-sysusers': 'node-runtime',
  chronyd: 'node-runtime',
  NetworkManager: 'node-runtime',
  bootkube: 'render',
  'openshift-manifests': 'render',
  keepalived: 'bootstrap-control-plane',
  haproxy: 'bootstrap-control-plane',
  coredns: 'bootstrap-control-plane',
  'kube-apiserver': 'bootstrap-control-plane',
  'approve-csr': 'masters-provision',
  ironic: 'masters-provision',
  'master-bmh-update': 'masters-provision',
  'build-ironic-env': 'masters-provision',
  'extract-machine-os': 'masters-provision',
  'image-customization': 'masters-provision',
  'metal3-baremetal-operator': 'masters-provision',
  progress: 'bootstrap-complete',
  'report-progress': 'bootstrap-complete',
});

/** Units of a master (or the single node) and their stage: they boot, join, then run pods. */
const MASTER_UNITS = nameTable<StageId>({
  ignition: 'masters-provision',
  'ignition-fetch': 'masters-provision',
  'ignition-fetch-offline': 'masters-provision',
  'ignition-firstboot-complete': 'masters-provision',
  'machine-config-daemon-firstboot': 'masters-provision',
  'machine-config-daemon-pull': 'masters-provision',
  'machine-config-daemon-host': 'masters-provision',
  pivot: 'masters-provision',
  'rpm-ostree': 'masters-provision',
  'rpm-ostreed': 'masters-provision',
  kubelet: 'masters-provision',
  crio: 'masters-provision',
  'crio-wipe': 'masters-provision',
  'node-valid-hostname': 'masters-provision',
  NetworkManager: 'masters-provision',
  'nodeip-configuration': 'masters-provision',
  chronyd: 'masters-provision',
  // The host's own network (br-ex for OVN-Kubernetes) is set up at boot, before kubelet runs.
  'ovs-configuration': 'masters-provision',
  'ovs-vswitchd': 'masters-provision',
  ovsdb: 'masters-provision',
  'ovsdb-server': 'masters-provision',
  openvswitch: 'masters-provision',
  'wait-for-br-ex-up': 'masters-provision',
  'openshift-azure-routes': 'production-control-plane',
  'openshift-gcp-routes': 'production-control-plane',
  'kube-apiserver': 'production-control-plane',
});

/** Units a release adds under a known family's name (`kubelet-pause-image`, `release-image-pivot`). */
function unitFamily(unit: string, master: boolean): StageId | undefined {
  if (/^(?:release-image|node-image|bootstrap-pivot)/.test(unit)) return master ? 'masters-provision' : 'release-image';
  if (/^(?:kubelet|crio)/.test(unit)) return master ? 'masters-provision' : 'node-runtime';
  if (/^(?:ignition|machine-config-daemon|rpm-ostree)/.test(unit)) return master ? 'masters-provision' : 'release-image';
  if (/^bootkube/.test(unit)) return master ? undefined : 'render';
  return undefined;
}

/** Containers of the bootstrap host (podman render containers, static pods) by name. */
function bootstrapContainerStage(name: string): StageId | undefined {
  if (/-render$|^render-|^bootkube-render|^openshift-manifests|^cvo-render/.test(name)) return 'render';
  if (/^etcd|^etcdctl/.test(name)) return 'bootstrap-etcd';
  if (name === 'cluster-bootstrap') return 'production-control-plane';
  if (/^(?:kube-apiserver|kube-controller-manager|kube-scheduler|cluster-policy-controller|setup|bootstrap-control-plane|kube-apiserver-insecure-readyz|keepalived|haproxy|coredns|konnectivity)/.test(name)) {
    return 'bootstrap-control-plane';
  }
  if (name === 'machine-config-server' || /^(?:ironic|metal3|image-customization|dnsmasq|httpd)/.test(name)) return 'masters-provision';
  // The CVO runs from the bootstrap API and creates the operators that scale etcd.
  if (name.startsWith('cluster-version-operator')) return 'etcd-scaling';
  if (/^(?:wait-for-ceo|cluster-etcd-operator)/.test(name)) return 'etcd-scaling';
  if (name === 'release' || name === 'release-image') return 'release-image';
  return undefined;
}

/**
 * 4.1-4.3 ran etcd on the masters from the start: the static etcd-member pod (containers
 * discovery, certs, etcd-member), before the master joined; bootkube waited for it. 4.4+ scale
 * etcd there later with the etcd operator.
 */
export function isStaticEtcdMemberContainer(name: string): boolean {
  return /^(?:etcd-member|discovery|certs)$/.test(name);
}

/** Containers of a master by name: the control plane's pods, the network plugin's, the operators'. */
function masterContainerStage(name: string): StageId | undefined {
  if (isStaticEtcdMemberContainer(name)) return 'bootstrap-etcd';
  if (/^etcd/.test(name)) return 'etcd-scaling';
  if (/^(?:ovnkube|ovn-|northd|nbdb|sbdb|ovs-|sdn|openshift-sdn|multus|kube-multus|whereabouts|network-operator|cni-plugins|bond-cni|routeoverride|egress-router|kube-rbac-proxy-ovn)/.test(name)) {
    return 'production-control-plane';
  }
  if (/^(?:kube-apiserver|kube-controller-manager|kube-scheduler|cluster-policy-controller|setup|keepalived|haproxy|coredns|mdns-publisher|machine-config-server)/.test(name)) {
    return 'production-control-plane';
  }
  // The machine API creates the compute machines (and approves their CSRs through the node link).
  if (/^(?:machine-controller|machineset-controller|machine-api|nodelink-controller|machine-healthcheck|cluster-autoscaler|cluster-api|capi-|capa-|capz-|capg-|capv-|cluster-machine-approver|machine-approver)/.test(name)) return 'workers';
  if (/^machine-config-daemon/.test(name)) return 'cluster-operators';
  if (/^(?:cluster-version-operator|etcd-operator|cluster-etcd-operator)/.test(name)) return 'etcd-scaling';
  if (/operator|^(?:oauth|console|router|ingress|image-registry|prometheus|alertmanager|authentication|openshift-apiserver|apiserver|controller-manager|dns|node-resolver|insights|marketplace)/.test(name)) {
    return 'cluster-operators';
  }
  return undefined;
}

/** The roles of the hosts that run a unit, by the tables above: empty for a unit they do not name. */
export function rolesOfUnit(unit: string): ('bootstrap' | 'master')[] {
  const roles: ('bootstrap' | 'master')[] = [];
  if (Object.hasOwn(BOOTSTRAP_UNITS, unit)) roles.push('bootstrap');
  if (Object.hasOwn(MASTER_UNITS, unit)) roles.push('master');
  return roles;
}

/** The stage of a journal's unit, on the bootstrap host or a master. */
export function unitStage(source: SourceId): StageId | undefined {
  const master = source.host?.role === 'master';
  const unit = source.unit ?? '';
  return (master ? MASTER_UNITS : BOOTSTRAP_UNITS)[unit] ?? unitFamily(unit, master);
}

/** The stage of a container's work, on the bootstrap host or a master. */
export function containerStage(source: SourceId): StageId | undefined {
  const name = source.container ?? '';
  return source.host?.role === 'master' ? masterContainerStage(name) : bootstrapContainerStage(name);
}
