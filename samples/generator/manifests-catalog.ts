// Manifests cluster-bootstrap creates through the bootstrap API, as its "Created ..." lines
// name them: file, resource, namespace. The MachineConfig ones fail until their CRD exists.

export interface ManifestLine {
  file: string;
  resource: string;
  namespace: string;
  /** Needs a CRD the CVO creates later: the first attempts fail with "no matches for kind". */
  lateKind?: { kind: string; group: string };
}

const M = (file: string, resource: string, namespace = '', lateKind?: ManifestLine['lateKind']): ManifestLine => ({ file, resource, namespace, lateKind });
const MC = { kind: 'MachineConfig', group: 'machineconfiguration.openshift.io/v1' };
const MCP = { kind: 'MachineConfigPool', group: 'machineconfiguration.openshift.io/v1' };
const CC = { kind: 'ControllerConfig', group: 'machineconfiguration.openshift.io/v1' };

export const MANIFESTS: ManifestLine[] = [
  M('0000_00_cluster-version-operator_00_namespace.yaml', 'namespaces.v1./openshift-cluster-version'),
  M('0000_00_cluster-version-operator_01_clusteroperator.crd.yaml', 'customresourcedefinitions.v1.apiextensions.k8s.io/clusteroperators.config.openshift.io'),
  M('0000_00_cluster-version-operator_01_clusterversion.crd.yaml', 'customresourcedefinitions.v1.apiextensions.k8s.io/clusterversions.config.openshift.io'),
  M('0000_00_cluster-version-operator_02_roles.yaml', 'clusterrolebindings.v1.rbac.authorization.k8s.io/cluster-version-operator'),
  M('0000_00_cluster-version-operator_03_deployment.yaml', 'deployments.v1.apps/cluster-version-operator', 'openshift-cluster-version'),
  M('0000_00_cluster-version-operator_04_service.yaml', 'services.v1./cluster-version-operator', 'openshift-cluster-version'),
  M('00_etcd-endpoints-cm.yaml', 'configmaps.v1./etcd-endpoints', 'openshift-etcd'),
  M('00_namespace-security-allocation-controller-clusterrole.yaml', 'clusterroles.v1.rbac.authorization.k8s.io/system:openshift:controller:namespace-security-allocation-controller'),
  M('00_namespace-security-allocation-controller-clusterrolebinding.yaml', 'clusterrolebindings.v1.rbac.authorization.k8s.io/system:openshift:controller:namespace-security-allocation-controller'),
  M('00_openshift-etcd-ns.yaml', 'namespaces.v1./openshift-etcd'),
  M('00_openshift-kube-apiserver-ns.yaml', 'namespaces.v1./openshift-kube-apiserver'),
  M('00_openshift-kube-apiserver-operator-ns.yaml', 'namespaces.v1./openshift-kube-apiserver-operator'),
  M('00_openshift-kube-controller-manager-ns.yaml', 'namespaces.v1./openshift-kube-controller-manager'),
  M('00_openshift-kube-controller-manager-operator-ns.yaml', 'namespaces.v1./openshift-kube-controller-manager-operator'),
  M('00_openshift-kube-scheduler-ns.yaml', 'namespaces.v1./openshift-kube-scheduler'),
  M('04-openshift-machine-config-operator.yaml', 'namespaces.v1./openshift-machine-config-operator'),
  M('cluster-config.yaml', 'configmaps.v1./cluster-config-v1', 'kube-system'),
  M('cluster-dns-02-config.yml', 'dnses.v1.config.openshift.io/cluster'),
  M('cluster-infrastructure-02-config.yml', 'infrastructures.v1.config.openshift.io/cluster'),
  M('cluster-ingress-02-config.yml', 'ingresses.v1.config.openshift.io/cluster'),
  M('cluster-network-02-config.yml', 'networks.v1.config.openshift.io/cluster'),
  M('cluster-proxy-01-config.yaml', 'proxies.v1.config.openshift.io/cluster'),
  M('cluster-scheduler-02-config.yml', 'schedulers.v1.config.openshift.io/cluster'),
  M('configmap-admin-kubeconfig-client-ca.yaml', 'configmaps.v1./admin-kubeconfig-client-ca', 'openshift-config'),
  M('configmap-csr-controller-ca.yaml', 'configmaps.v1./csr-controller-ca', 'openshift-config-managed'),
  M('configmap-kubelet-bootstrap-kubeconfig-ca.yaml', 'configmaps.v1./kubelet-bootstrap-kubeconfig', 'openshift-config-managed'),
  M('configmap-sa-token-signing-certs.yaml', 'configmaps.v1./sa-token-signing-certs', 'openshift-config-managed'),
  M('csr-bootstrap-role-binding.yaml', 'clusterrolebindings.v1.rbac.authorization.k8s.io/system-bootstrap-node-bootstrapper'),
  M('cvo-overrides.yaml', 'clusterversions.v1.config.openshift.io/version', 'openshift-cluster-version'),
  M('etcd-ca-bundle-configmap.yaml', 'configmaps.v1./etcd-ca-bundle', 'openshift-config'),
  M('etcd-client-secret.yaml', 'secrets.v1./etcd-client', 'openshift-config'),
  M('etcd-metric-client-secret.yaml', 'secrets.v1./etcd-metric-client', 'openshift-config'),
  M('etcd-metric-serving-ca-configmap.yaml', 'configmaps.v1./etcd-metric-serving-ca', 'openshift-config'),
  M('etcd-metric-signer-secret.yaml', 'secrets.v1./etcd-metric-signer', 'openshift-config'),
  M('etcd-serving-ca-configmap.yaml', 'configmaps.v1./etcd-serving-ca', 'openshift-config'),
  M('etcd-signer-secret.yaml', 'secrets.v1./etcd-signer', 'openshift-config'),
  M('kube-apiserver-serving-ca-configmap.yaml', 'configmaps.v1./initial-kube-apiserver-server-ca', 'openshift-config'),
  M('kube-cloud-config.yaml', 'secrets.v1./kube-cloud-cfg', 'kube-system'),
  M('kube-system-configmap-root-ca.yaml', 'configmaps.v1./root-ca', 'kube-system'),
  M('machine-config-server-tls-secret.yaml', 'secrets.v1./machine-config-server-tls', 'openshift-machine-config-operator'),
  M('openshift-config-secret-pull-secret.yaml', 'secrets.v1./pull-secret', 'openshift-config'),
  M('openshift-install-manifests.yaml', 'configmaps.v1./openshift-install-manifests', 'openshift-config'),
  M('secret-aggregator-client-signer.yaml', 'secrets.v1./aggregator-client-signer', 'openshift-kube-apiserver-operator'),
  M('secret-bound-sa-token-signing-key.yaml', 'secrets.v1./next-bound-service-account-signing-key', 'openshift-kube-apiserver-operator'),
  M('secret-control-plane-client-signer.yaml', 'secrets.v1./kube-control-plane-signer', 'openshift-kube-apiserver-operator'),
  M('secret-csr-signer-signer.yaml', 'secrets.v1./csr-signer-signer', 'openshift-kube-controller-manager-operator'),
  M('secret-initial-kube-controller-manager-service-account-private-key.yaml', 'secrets.v1./initial-service-account-private-key', 'openshift-config'),
  M('secret-kube-apiserver-to-kubelet-signer.yaml', 'secrets.v1./kube-apiserver-to-kubelet-signer', 'openshift-kube-apiserver-operator'),
  M('secret-loadbalancer-serving-signer.yaml', 'secrets.v1./loadbalancer-serving-signer', 'openshift-kube-apiserver-operator'),
  M('secret-localhost-serving-signer.yaml', 'secrets.v1./localhost-serving-signer', 'openshift-kube-apiserver-operator'),
  M('secret-service-network-serving-signer.yaml', 'secrets.v1./service-network-serving-signer', 'openshift-kube-apiserver-operator'),
  M('user-ca-bundle-config.yaml', 'configmaps.v1./user-ca-bundle', 'openshift-config'),
  M('99_kubeadmin-password-secret.yaml', 'secrets.v1./kubeadmin', 'kube-system'),
  M('99_openshift-machineconfig_99-master-ssh.yaml', 'machineconfigs.v1.machineconfiguration.openshift.io/99-master-ssh', '', MC),
  M('99_openshift-machineconfig_99-worker-ssh.yaml', 'machineconfigs.v1.machineconfiguration.openshift.io/99-worker-ssh', '', MC),
  M('99_feature-gate.yaml', 'featuregates.v1.config.openshift.io/cluster'),
  M('cluster-ingress-00-custom-resource-definition.yaml', 'customresourcedefinitions.v1.apiextensions.k8s.io/ingresscontrollers.operator.openshift.io'),
  M('cluster-ingress-00-namespace.yaml', 'namespaces.v1./openshift-ingress-operator'),
  M('cco-cloudcredential_v1_credentialsrequest_crd.yaml', 'customresourcedefinitions.v1.apiextensions.k8s.io/credentialsrequests.cloudcredential.openshift.io'),
  M('cco-namespace.yaml', 'namespaces.v1./openshift-cloud-credential-operator'),
  M('machineconfigcontroller-controllerconfig.yaml', 'controllerconfigs.v1.machineconfiguration.openshift.io/machine-config-controller', '', CC),
  M('master.machineconfigpool.yaml', 'machineconfigpools.v1.machineconfiguration.openshift.io/master', '', MCP),
  M('worker.machineconfigpool.yaml', 'machineconfigpools.v1.machineconfiguration.openshift.io/worker', '', MCP),
];

/** Manifests the IPI installer adds for the machine API. */
export function machineApiManifests(masters: number, workers: number): ManifestLine[] {
  const out: ManifestLine[] = [
    M('99_openshift-cluster-api_master-user-data-secret.yaml', 'secrets.v1./master-user-data', 'openshift-machine-api'),
    M('99_openshift-cluster-api_worker-user-data-secret.yaml', 'secrets.v1./worker-user-data', 'openshift-machine-api'),
  ];
  for (let i = 0; i < masters; i++) out.push(M(`99_openshift-cluster-api_master-machines-${i}.yaml`, `machines.v1beta1.machine.openshift.io/master-${i}`, 'openshift-machine-api', { kind: 'Machine', group: 'machine.openshift.io/v1beta1' }));
  if (workers > 0) out.push(M('99_openshift-cluster-api_worker-machineset-0.yaml', 'machinesets.v1beta1.machine.openshift.io/worker-0', 'openshift-machine-api', { kind: 'MachineSet', group: 'machine.openshift.io/v1beta1' }));
  return out;
}

export function createdLine(m: ManifestLine): string {
  return `Created "${m.file}" ${m.resource} -n ${m.namespace}`;
}

export function skippedLine(m: ManifestLine): string {
  return `Skipped "${m.file}" ${m.resource} -n ${m.namespace} as it already exists`;
}

export function noMatchLine(m: ManifestLine): string {
  const k = m.lateKind as NonNullable<ManifestLine['lateKind']>;
  return `"${m.file}": unable to get REST mapping for "${m.file}": no matches for kind "${k.kind}" in version "${k.group}"`;
}
