// rendered-assets/openshift: the bootstrap host's /var/opt/openshift as bootkube left it —
// installer manifests, each completed render stage's output and .done marker, static pod
// manifests, tls/*.crt — after the gather script deleted *secret*, *kubeconfig* and *.key.
import { bootstrapCertificates } from './certs.js';
import { cvoBootstrapPod, etcdMemberPod, kcmPod, kubeApiserverPod, mcoBootstrapPod, schedulerPod } from './static-pods.js';
import type { Story } from './story.js';
import { HOUR, MINUTE, type Micros } from './time.js';
import { Tree } from './tree.js';

function installConfig(s: Story): string {
  const { w } = s;
  const sp = w.spec;
  const platform =
    sp.platform === 'aws'
      ? `  aws:\n    region: us-east-2\n`
      : sp.platform === 'vsphere'
        ? `  vsphere:\n    apiVIPs:\n    - ${w.apiVip}\n    ingressVIPs:\n    - ${w.ingressVip}\n    failureDomains:\n    - name: generated-failure-domain\n      region: generated-region\n      server: vcenter.${sp.baseDomain}\n      topology:\n        computeCluster: /DC1/host/Cluster1\n        datacenter: DC1\n        datastore: /DC1/datastore/vsanDatastore\n        networks:\n        - VM Network\n      zone: generated-zone\n`
        : sp.platform === 'baremetal'
          ? `  baremetal:\n    apiVIPs:\n    - ${w.apiVip}\n    ingressVIPs:\n    - ${w.ingressVip}\n`
          : '  none: {}\n';
  const proxy = sp.proxy ? `proxy:\n  httpProxy: ${sp.proxy}\n  httpsProxy: ${sp.proxy}\n  noProxy: .${w.clusterDomain},${sp.machineCidr}\n` : '';
  const mirror = sp.mirror
    ? `${w.release.minor >= 14 ? 'imageDigestSources' : 'imageContentSources'}:\n- mirrors:\n  - ${sp.mirror}/ocp4/openshift4\n  source: quay.io/openshift-release-dev/ocp-release\n- mirrors:\n  - ${sp.mirror}/ocp4/openshift4\n  source: quay.io/openshift-release-dev/ocp-v4.0-art-dev\n`
    : '';
  return `apiVersion: v1
baseDomain: ${sp.baseDomain}
compute:
- architecture: amd64
  hyperthreading: Enabled
  name: worker
  platform: {}
  replicas: ${sp.hosts.workers.length}
controlPlane:
  architecture: amd64
  hyperthreading: Enabled
  name: master
  platform: {}
  replicas: ${sp.hosts.masters.length}
metadata:
  creationTimestamp: null
  name: ${sp.clusterName}
networking:
  clusterNetwork:
  - cidr: 10.128.0.0/14
    hostPrefix: 23
  machineNetwork:
  - cidr: ${sp.machineCidr}
  networkType: ${w.release.minor >= 12 ? 'OVNKubernetes' : 'OpenShiftSDN'}
  serviceNetwork:
  - 172.30.0.0/16
platform:
${platform}publish: External
${proxy}${mirror}sshKey: |
  ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${w.prng.fork('ssh').bytes(32).toString('base64').replace(/=+$/, '').slice(0, 43)} admin@bastion.${sp.baseDomain}
`;
}

function configMap(name: string, namespace: string, data: Record<string, string>): string {
  const body = Object.entries(data)
    .map(([k, v]) => `  ${k}: |\n${v.replace(/\n$/, '').split('\n').map((l) => `    ${l}`).join('\n')}`)
    .join('\n');
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\ndata:\n${body}\n`;
}

/** When the installer generated the ignition configs (and their certificates). */
export function ignitionGeneratedAt(s: Story): Micros {
  const p = s.w.prng.fork('ignition-age');
  if (s.w.spec.failure === 'localhost-cert-expired') return s.w.t0 - 3 * 24 * HOUR - p.int(2, 9) * HOUR;
  return s.w.t0 - p.int(25, 170) * MINUTE + s.w.installerClockOffset;
}

export function renderedAssets(s: Story): Tree {
  const { w, tl } = s;
  const t = new Tree();
  const base = 'openshift';
  const sp = w.spec;
  t.dir(`${base}/auth`);
  const manifests: Record<string, string> = {
    'cluster-config.yaml': configMap('cluster-config-v1', 'kube-system', { 'install-config': installConfig(s) }),
    'cluster-dns-02-config.yml': `apiVersion: config.openshift.io/v1\nkind: DNS\nmetadata:\n  creationTimestamp: null\n  name: cluster\nspec:\n  baseDomain: ${w.clusterDomain}\n  platform:\n    aws: null\n    type: ""\nstatus: {}\n`,
    'cluster-infrastructure-02-config.yml': `apiVersion: config.openshift.io/v1\nkind: Infrastructure\nmetadata:\n  creationTimestamp: null\n  name: cluster\nspec:\n  cloudConfig:\n    name: ""\n  platformSpec:\n    type: ${sp.platform === 'aws' ? 'AWS' : sp.platform === 'vsphere' ? 'VSphere' : sp.platform === 'baremetal' ? 'BareMetal' : 'None'}\nstatus:\n  apiServerInternalURI: https://${w.apiIntName}:6443\n  apiServerURL: https://${w.apiName}:6443\n  controlPlaneTopology: ${w.masters.length === 1 ? 'SingleReplica' : 'HighlyAvailable'}\n  cpuPartitioning: None\n  etcdDiscoveryDomain: ""\n  infrastructureName: ${w.infraId}\n  infrastructureTopology: ${w.workers.length === 0 && w.masters.length === 1 ? 'SingleReplica' : 'HighlyAvailable'}\n  platform: ${sp.platform === 'aws' ? 'AWS' : sp.platform === 'vsphere' ? 'VSphere' : sp.platform === 'baremetal' ? 'BareMetal' : 'None'}\n`,
    'cluster-ingress-02-config.yml': `apiVersion: config.openshift.io/v1\nkind: Ingress\nmetadata:\n  creationTimestamp: null\n  name: cluster\nspec:\n  domain: apps.${w.clusterDomain}\n  loadBalancer:\n    platform:\n      type: ""\nstatus:\n  defaultPlacement: ${w.workers.length ? 'Workers' : 'ControlPlane'}\n`,
    'cluster-network-02-config.yml': `apiVersion: config.openshift.io/v1\nkind: Network\nmetadata:\n  creationTimestamp: null\n  name: cluster\nspec:\n  clusterNetwork:\n  - cidr: 10.128.0.0/14\n    hostPrefix: 23\n  externalIP:\n    policy: {}\n  networkType: ${w.release.minor >= 12 ? 'OVNKubernetes' : 'OpenShiftSDN'}\n  serviceNetwork:\n  - 172.30.0.0/16\nstatus: {}\n`,
    'cluster-proxy-01-config.yaml': `apiVersion: config.openshift.io/v1\nkind: Proxy\nmetadata:\n  creationTimestamp: null\n  name: cluster\nspec:\n${sp.proxy ? `  httpProxy: ${sp.proxy}\n  httpsProxy: ${sp.proxy}\n  noProxy: .${w.clusterDomain},${sp.machineCidr}\n` : ''}  trustedCA:\n    name: ""\nstatus:\n${sp.proxy ? `  httpProxy: ${sp.proxy}\n  httpsProxy: ${sp.proxy}\n  noProxy: .cluster.local,.svc,.${w.clusterDomain},10.128.0.0/14,127.0.0.1,172.30.0.0/16,${sp.machineCidr},api-int.${w.clusterDomain},localhost\n` : '  {}\n'}`,
    'cluster-scheduler-02-config.yml': `apiVersion: config.openshift.io/v1\nkind: Scheduler\nmetadata:\n  creationTimestamp: null\n  name: cluster\nspec:\n  mastersSchedulable: ${w.workers.length === 0}\n  policy:\n    name: ""\nstatus: {}\n`,
    'cvo-overrides.yaml': `apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\n  namespace: openshift-cluster-version\nspec:\n  channel: stable-4.${w.release.minor}\n  clusterID: ${w.clusterId}\n  overrides:\n  - group: ""\n    kind: ConfigMap\n    name: cluster-config-v1\n    namespace: kube-system\n    unmanaged: true\n  - group: config.openshift.io\n    kind: DNS\n    name: cluster\n    namespace: ""\n    unmanaged: true\n  - group: config.openshift.io\n    kind: Infrastructure\n    name: cluster\n    namespace: ""\n    unmanaged: true\n`,
    'kube-system-configmap-root-ca.yaml': '',
    'openshift-install-manifests.yaml': configMap('openshift-install-manifests', 'openshift-config', { invoker: 'user\n', version: `v${w.release.version}\n` }),
  };
  if (sp.mirror) {
    manifests[w.release.minor >= 14 ? 'image-digest-mirror-set.yaml' : 'image-content-source-policy-0.yaml'] =
      w.release.minor >= 14
        ? `apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  creationTimestamp: null\n  name: image-digest-mirror\nspec:\n  imageDigestMirrors:\n  - mirrors:\n    - ${sp.mirror}/ocp4/openshift4\n    source: quay.io/openshift-release-dev/ocp-release\n  - mirrors:\n    - ${sp.mirror}/ocp4/openshift4\n    source: quay.io/openshift-release-dev/ocp-v4.0-art-dev\nstatus: {}\n`
        : `apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  creationTimestamp: null\n  name: image-policy-0\nspec:\n  repositoryDigestMirrors:\n  - mirrors:\n    - ${sp.mirror}/ocp4/openshift4\n    source: quay.io/openshift-release-dev/ocp-release\n`;
  }
  const certs = bootstrapCertificates(w, ignitionGeneratedAt(s));
  manifests['kube-system-configmap-root-ca.yaml'] = configMap('root-ca', 'kube-system', { 'ca.crt': certs.get('root-ca.crt') as string });
  for (const [f, c] of Object.entries(manifests)) t.add(`${base}/manifests/${f}`, c);
  t.add(`${base}/openshift/99_openshift-machineconfig_99-master-ssh.yaml`, `apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  creationTimestamp: null\n  labels:\n    machineconfiguration.openshift.io/role: master\n  name: 99-master-ssh\nspec:\n  baseOSExtensionsContainerImage: ""\n  config:\n    ignition:\n      version: 3.2.0\n    passwd:\n      users:\n      - name: core\n        sshAuthorizedKeys:\n        - |\n${installConfig(s).split('\n').filter((l) => l.includes('ssh-ed25519')).map((l) => `          ${l.trim()}`).join('\n')}\n  extensions: null\n  fips: false\n  kernelArguments: null\n  kernelType: ""\n  osImageURL: ""\n`);
  t.add(`${base}/openshift/99_openshift-machineconfig_99-worker-ssh.yaml`, `apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  creationTimestamp: null\n  labels:\n    machineconfiguration.openshift.io/role: worker\n  name: 99-worker-ssh\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n`);
  t.add(`${base}/openshift/openshift-install-manifests.yaml`, manifests['openshift-install-manifests.yaml']);
  if (sp.platform === 'aws' || sp.platform === 'vsphere') {
    w.masters.forEach((_, i) => t.add(`${base}/openshift/99_openshift-cluster-api_master-machines-${i}.yaml`, `apiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata:\n  creationTimestamp: null\n  labels:\n    machine.openshift.io/cluster-api-cluster: ${w.infraId}\n    machine.openshift.io/cluster-api-machine-role: master\n    machine.openshift.io/cluster-api-machine-type: master\n  name: ${w.infraId}-master-${i}\n  namespace: openshift-machine-api\nspec:\n  lifecycleHooks: {}\n  metadata: {}\n  providerSpec:\n    value:\n      apiVersion: machine.openshift.io/v1beta1\n      credentialsSecret:\n        name: ${sp.platform === 'aws' ? 'aws-cloud-credentials' : 'vsphere-cloud-credentials'}\n      userDataSecret:\n        name: master-user-data\nstatus: {}\n`));
  }
  for (const [f, pem] of certs) t.add(`${base}/tls/${f}`, pem);
  t.add(`${base}/original_cvo_overrides.patch`, `{"spec":{"overrides":null}}\n`);

  // Render stages that completed left their directories and .done markers.
  const done = new Set(tl.render.filter((r) => r.end !== undefined && r.end <= tl.gather).map((r) => r.stage));
  const mark = (stage: string): void => void t.add(`${base}/${stage}.done`, '');
  if (done.has('openshift-manifests')) mark('openshift-manifests');
  if (done.has('cvo-bootstrap')) {
    t.add(`${base}/cvo-bootstrap/bootstrap/bootstrap-pod.yaml`, cvoBootstrapPod(w));
    t.add(`${base}/cvo-bootstrap/manifests/0000_00_cluster-version-operator_00_namespace.yaml`, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openshift-cluster-version\n  annotations:\n    include.release.openshift.io/self-managed-high-availability: "true"\n    openshift.io/node-selector: ""\n    workload.openshift.io/allowed: "management"\n  labels:\n    name: openshift-cluster-version\n    openshift.io/run-level: ""\n    openshift.io/cluster-monitoring: "true"\n    pod-security.kubernetes.io/enforce: privileged\n');
    t.add(`${base}/bootstrap-manifests/bootstrap-pod.yaml`, cvoBootstrapPod(w));
    mark('cvo-bootstrap');
  }
  if (done.has('etcd-bootstrap')) {
    const path = w.release.minor >= 10 ? 'etcd-bootstrap/etc-kubernetes/manifests/etcd-member-pod.yaml' : 'etcd-bootstrap/bootstrap-manifests/etcd-member-pod.yaml';
    t.add(`${base}/${path}`, etcdMemberPod(w));
    t.add(`${base}/etcd-bootstrap/manifests/00_openshift-etcd-ns.yaml`, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openshift-etcd\n  labels:\n    openshift.io/run-level: "0"\n');
    t.add(`${base}/etcd-bootstrap/manifests/00_etcd-endpoints-cm.yaml`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: etcd-endpoints\n  namespace: openshift-etcd\n  annotations:\n    alpha.installer.openshift.io/etcd-bootstrap: ${w.bootstrap.ip}\n`);
    t.add(`${base}/etcd-bootstrap/tls/etcd-ca-bundle.crt`, certs.get('etcd-ca-bundle.crt') as string);
    mark('etcd-bootstrap');
  }
  if (done.has('config-bootstrap')) {
    t.add(`${base}/config-bootstrap/manifests/0000_03_config-operator_01_proxy.crd.yaml`, 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: proxies.config.openshift.io\nspec:\n  group: config.openshift.io\n  names:\n    kind: Proxy\n    plural: proxies\n  scope: Cluster\n');
    mark('config-bootstrap');
  }
  if (done.has('kube-apiserver-bootstrap')) {
    t.add(`${base}/kube-apiserver-bootstrap/bootstrap-manifests/kube-apiserver-pod.yaml`, kubeApiserverPod(w));
    t.add(`${base}/bootstrap-manifests/kube-apiserver-pod.yaml`, kubeApiserverPod(w));
    t.add(`${base}/kube-apiserver-bootstrap/manifests/00_openshift-kube-apiserver-ns.yaml`, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openshift-kube-apiserver\n  labels:\n    openshift.io/run-level: "0"\n');
    mark('kube-apiserver-bootstrap');
  }
  if (done.has('kube-controller-manager-bootstrap')) {
    t.add(`${base}/kube-controller-manager-bootstrap/bootstrap-manifests/kube-controller-manager-pod.yaml`, kcmPod(w));
    t.add(`${base}/bootstrap-manifests/kube-controller-manager-pod.yaml`, kcmPod(w));
    mark('kube-controller-manager-bootstrap');
  }
  if (done.has('kube-scheduler-bootstrap')) {
    t.add(`${base}/kube-scheduler-bootstrap/bootstrap-manifests/kube-scheduler-pod.yaml`, schedulerPod(w));
    t.add(`${base}/bootstrap-manifests/kube-scheduler-pod.yaml`, schedulerPod(w));
    mark('kube-scheduler-bootstrap');
  }
  if (done.has('ingress-operator-bootstrap')) {
    t.add(`${base}/ingress-operator-manifests/cluster-ingress-00-namespace.yaml`, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openshift-ingress-operator\n');
    mark('ingress-operator-bootstrap');
  }
  if (done.has('mco-bootstrap')) {
    t.add(`${base}/mco-bootstrap/bootstrap/machineconfigoperator-bootstrap-pod.yaml`, mcoBootstrapPod(w));
    t.add(`${base}/mco-bootstrap/bootstrap/manifests/master.machineconfigpool.yaml`, 'apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: master\n  labels:\n    "operator.machineconfiguration.openshift.io/required-for-upgrade": ""\n    "machineconfiguration.openshift.io/mco-built-in": ""\n    "pools.operator.machineconfiguration.openshift.io/master": ""\nspec:\n  machineConfigSelector:\n    matchLabels:\n      "machineconfiguration.openshift.io/role": "master"\n  nodeSelector:\n    matchLabels:\n      node-role.kubernetes.io/master: ""\n');
    mark('mco-bootstrap');
  }
  if (done.has('cco-bootstrap')) {
    t.add(`${base}/cco-bootstrap/manifests/cco-namespace.yaml`, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: openshift-cloud-credential-operator\n');
    mark('cco-bootstrap');
  }
  if (tl.requiredPodsReady !== undefined && tl.requiredPodsReady <= tl.gather) mark('cb-bootstrap');
  if (tl.bootkubeComplete !== undefined && tl.bootkubeComplete <= tl.gather) {
    mark('cvo-overrides');
    t.add(`${base}/.bootkube.done`, '');
  }
  return scrub(t);
}

/** What installer-gather.sh deletes from the copy: *secret* (files and folders), *kubeconfig*, *.key, .kube. */
function scrub(t: Tree): Tree {
  const gone = (path: string): boolean => {
    const segs = path.split('/');
    const base = segs[segs.length - 1];
    return segs.some((x) => x.includes('secret') || x === '.kube') || base.includes('kubeconfig') || base.endsWith('.key');
  };
  for (const p of [...t.files.keys()]) if (gone(p)) t.files.delete(p);
  for (const d of [...t.dirs]) if (d.split('/').some((x) => x.includes('secret') || x === '.kube')) t.dirs.delete(d);
  return t;
}
