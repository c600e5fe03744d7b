// resources/: what `oc get ... -o json` and the plain-text queries of the gather script
// returned from the bootstrap (or production) API at gather time: nodes, CSRs, cluster
// operators and version, pods, events, endpoints and the rest, as Kubernetes List objects.
import { gzipSync } from 'node:zlib';
import type { HostInfo } from './model.js';
import { masterPods, type PodSpec } from './pods.js';
import type { Story } from './story.js';
import { isoSeconds, MINUTE, SECOND, type Micros } from './time.js';

const OPERATORS = ['authentication', 'baremetal', 'cloud-controller-manager', 'cloud-credential', 'cluster-autoscaler', 'config-operator', 'console', 'control-plane-machine-set', 'csi-snapshot-controller', 'dns', 'etcd', 'image-registry', 'ingress', 'insights', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-storage-version-migrator', 'machine-api', 'machine-approver', 'machine-config', 'marketplace', 'monitoring', 'network', 'node-tuning', 'openshift-apiserver', 'openshift-controller-manager', 'openshift-samples', 'operator-lifecycle-manager', 'operator-lifecycle-manager-catalog', 'operator-lifecycle-manager-packageserver', 'service-ca', 'storage'];

/** oc prints unstructured objects: every map's keys sorted. */
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])]));
  }
  return v;
}

function list(items: unknown[]): string {
  return `${JSON.stringify(sortKeys({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }), null, 4)}\n`;
}

interface Ctx {
  s: Story;
  at: Micros;
  rv: () => string;
  uid: () => string;
}

function meta(c: Ctx, name: string, created: Micros, namespace?: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...extra, creationTimestamp: isoSeconds(created), name, ...(namespace ? { namespace } : {}), resourceVersion: c.rv(), uid: c.uid() };
}

function cond(type: string, status: string, t: Micros, reason?: string, message?: string): Record<string, unknown> {
  return { lastTransitionTime: isoSeconds(t), ...(message ? { message } : {}), ...(reason ? { reason } : {}), status, type };
}

function nodeObject(c: Ctx, h: HostInfo, role: 'master' | 'worker', reg: Micros, ready: Micros | undefined): Record<string, unknown> {
  const { s } = c;
  const w = s.w;
  const override = s.cluster.nodeNotReady.get(h.nodeName);
  const isReady = ready !== undefined && ready <= c.at && !override;
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': h.nodeName,
    'kubernetes.io/os': 'linux',
    ...(role === 'master' ? { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/master': '' } : { 'node-role.kubernetes.io/worker': '' }),
    'node.openshift.io/os_id': 'rhcos',
  };
  const readyCond = isReady
    ? cond('Ready', 'True', ready as Micros, 'KubeletReady', 'kubelet is posting ready status')
    : cond('Ready', 'False', reg, override?.reason ?? 'KubeletNotReady', override?.message ?? 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?');
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: meta(c, h.nodeName, reg, undefined, { annotations: { 'machineconfiguration.openshift.io/controlPlaneTopology': 'HighlyAvailable', 'machineconfiguration.openshift.io/state': 'Done', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' }, labels }),
    spec: { ...(role === 'master' ? { taints: [{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/master' }, ...(isReady ? [] : [{ effect: 'NoSchedule', key: 'node.kubernetes.io/not-ready' }])] } : isReady ? {} : { taints: [{ effect: 'NoSchedule', key: 'node.kubernetes.io/not-ready' }] }) },
    status: {
      addresses: [{ address: h.ip, type: 'InternalIP' }, { address: h.nodeName, type: 'Hostname' }],
      allocatable: { cpu: '3500m', 'ephemeral-storage': '114396791822', memory: '15225592Ki', pods: '250' },
      capacity: { cpu: '4', 'ephemeral-storage': '125238252Ki', memory: '16376568Ki', pods: '250' },
      conditions: [
        cond('MemoryPressure', 'False', reg, 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', reg, 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', reg, 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        readyCond,
      ],
      nodeInfo: {
        architecture: 'amd64',
        bootID: h.bootId.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
        containerRuntimeVersion: `cri-o://${w.release.crioVersion}`,
        kernelVersion: w.release.minor >= 16 ? '5.14.0-427.22.1.el9_4.x86_64' : w.release.minor >= 13 ? '5.14.0-284.48.1.el9_2.x86_64' : '4.18.0-372.87.1.el8_6.x86_64',
        kubeProxyVersion: `${w.release.kubeVersion}+${w.release.kubeGitTag}`,
        kubeletVersion: `${w.release.kubeVersion}+${w.release.kubeGitTag}`,
        machineID: h.bootId.split('').reverse().join(''),
        operatingSystem: 'linux',
        osImage: `Red Hat Enterprise Linux CoreOS ${w.release.osVersion} (Plow)`,
        systemUUID: h.bootId.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5').toUpperCase(),
      },
    },
  };
}

function csrObject(c: Ctx, name: string, node: string, signer: 'kubelet-client' | 'kubelet-serving', created: Micros, approvedAt: Micros | undefined): Record<string, unknown> {
  const client = signer === 'kubelet-client';
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: meta(c, name, created, undefined, { generateName: 'csr-' }),
    spec: {
      groups: client ? ['system:serviceaccounts', 'system:serviceaccounts:openshift-machine-config-operator', 'system:authenticated'] : ['system:nodes', 'system:authenticated'],
      request: Buffer.from(`-----BEGIN CERTIFICATE REQUEST-----\n${c.s.w.prng.fork(`csr/${name}`).bytes(180).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`).toString('base64'),
      signerName: client ? 'kubernetes.io/kube-apiserver-client-kubelet' : 'kubernetes.io/kubelet-serving',
      uid: c.uid(),
      usages: client ? ['digital signature', 'client auth'] : ['digital signature', 'server auth'],
      username: client ? 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper' : `system:node:${node}`,
    },
    status: approvedAt === undefined
      ? {}
      : {
          certificate: c.s.w.prng.fork(`crt/${name}`).bytes(96).toString('base64'),
          conditions: [{ lastTransitionTime: isoSeconds(approvedAt), lastUpdateTime: isoSeconds(approvedAt), message: 'This CSR was approved by the Node CSR Approver (cluster-machine-approver)', reason: 'NodeCSRApprove', status: 'True', type: 'Approved' }],
        },
  };
}

function podObject(c: Ctx, pod: PodSpec, node: string, hostIp: string): Record<string, unknown> {
  const st = c.s.cluster.podStatus.get(`${pod.namespace}/${pod.name}`);
  const ready = st ? st.ready : true;
  const phase = st?.phase ?? 'Running';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(c, pod.name, pod.since - 5 * SECOND, pod.namespace, { labels: { app: pod.kind } }),
    spec: { containers: pod.containers.map((n) => ({ image: pod.image, name: n })), hostNetwork: pod.hostNetwork, nodeName: node, priorityClassName: 'system-node-critical', restartPolicy: 'Always' },
    status: {
      conditions: [cond('Initialized', 'True', pod.since), cond('Ready', ready ? 'True' : 'False', pod.since + 20 * SECOND, ready ? undefined : 'ContainersNotReady', ready ? undefined : `containers with unready status: [${pod.containers[0]}]`), cond('PodScheduled', 'True', pod.since - 5 * SECOND)],
      containerStatuses: pod.containers.slice(0, 3).map((n, i) => ({
        containerID: `cri-o://${c.s.w.prng.fork(`cid/${pod.name}/${n}`).hex(64)}`,
        image: pod.image,
        imageID: pod.image,
        ...(i === 0 && st?.lastTerminated ? { lastState: { terminated: { containerID: `cri-o://${c.s.w.prng.fork(`lcid/${pod.name}`).hex(64)}`, exitCode: st.lastTerminated.exitCode, finishedAt: isoSeconds(st.lastTerminated.at), reason: st.lastTerminated.reason, startedAt: isoSeconds(st.lastTerminated.at - 3 * MINUTE) } } } : { lastState: {} }),
        name: n,
        ready: i === 0 ? ready : true,
        restartCount: i === 0 ? (st?.restarts ?? 0) : 0,
        started: i === 0 ? !st?.waiting : true,
        state: i === 0 && st?.waiting ? { waiting: { message: st.waiting.message, reason: st.waiting.reason } } : { running: { startedAt: isoSeconds(pod.since) } },
      })),
      hostIP: hostIp,
      phase,
      podIP: pod.hostNetwork ? hostIp : `10.128.${c.s.w.prng.fork(`pip/${pod.name}`).int(0, 9)}.${c.s.w.prng.fork(`pip2/${pod.name}`).int(2, 250)}`,
      qosClass: 'Burstable',
      startTime: isoSeconds(pod.since - 4 * SECOND),
    },
  };
}

const NEEDS_WORKLOAD_NODES = ['ingress', 'console', 'authentication', 'monitoring', 'image-registry'];

/** When an operator without a failure would report Available, from when nodes became ready. */
function operatorAvailableAt(c: Ctx, name: string, index: number): Micros | undefined {
  const { tl, w } = c.s;
  const ready = tl.masterReady.filter((x): x is Micros => x !== undefined).sort((a, b) => a - b);
  if (ready.length === 0) return undefined;
  if (!NEEDS_WORKLOAD_NODES.includes(name)) return ready[0] + (2 + index) * 40 * SECOND;
  const workers = tl.workerReady.filter((x): x is Micros => x !== undefined).sort((a, b) => a - b);
  const base = w.workers.length > 0 ? workers[0] : ready[ready.length - 1];
  return base === undefined ? undefined : base + (4 + NEEDS_WORKLOAD_NODES.indexOf(name) * 2) * MINUTE;
}

function operatorObject(c: Ctx, name: string, created: Micros, index: number): Record<string, unknown> {
  const { s } = c;
  const o = s.cluster.operators.get(name);
  const availableAt = operatorAvailableAt(c, name, index);
  const available = o ? o.available : availableAt !== undefined && availableAt <= c.at;
  const settled = availableAt !== undefined && availableAt + 6 * MINUTE <= c.at;
  const since = o?.since ?? (available ? (availableAt as Micros) : created + 2 * MINUTE);
  const progressing = o ? o.progressing : !settled;
  const degraded = o ? o.degraded : false;
  const conditions = [
    cond('Degraded', degraded ? 'True' : 'False', since, degraded ? o?.reason : 'AsExpected', degraded ? o?.message : undefined),
    cond('Progressing', progressing ? 'True' : 'False', since, progressing ? (o?.reason ?? 'Deploying') : 'AsExpected', progressing ? (o && !o.degraded ? o.message : undefined) : undefined),
    cond('Available', available ? 'True' : 'False', since, available ? 'AsExpected' : (o?.reason ?? 'Deploying'), available ? undefined : (o?.message ?? undefined)),
    cond('Upgradeable', 'True', since, 'AsExpected'),
  ];
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: meta(c, name, created, undefined, { annotations: { 'include.release.openshift.io/self-managed-high-availability': 'true' } }),
    spec: {},
    status: { conditions, extension: null, versions: available ? [{ name: 'operator', version: s.w.release.version }] : [] },
  };
}

/** Writes the resources/ files the API answered with into `files`. */
export function writeResources(s: Story, files: Map<string, string | Buffer>, asOf?: Micros): void {
  const { w, tl } = s;
  const at = (asOf ?? tl.gather) - 40 * SECOND;
  const p = w.prng.fork('resources');
  let rv = p.int(20000, 90000);
  const c: Ctx = { s, at, rv: () => String((rv += p.int(1, 400))), uid: () => p.uuid() };
  const nodes: Record<string, unknown>[] = [];
  const csrs: Record<string, unknown>[] = [];
  const names: string[] = [];
  const masterNames: string[] = [];
  w.masters.forEach((m, i) => {
    const reg = tl.masterRegistered[i];
    if (reg === undefined || reg > at) return;
    nodes.push(nodeObject(c, m, 'master', reg, tl.masterReady[i]));
    names.push(m.nodeName);
    masterNames.push(m.nodeName);
    csrs.push(csrObject(c, `csr-${p.alnum(5)}`, m.nodeName, 'kubelet-client', reg - 25 * SECOND, reg - 20 * SECOND));
    csrs.push(csrObject(c, `csr-${p.alnum(5)}`, m.nodeName, 'kubelet-serving', reg + 25 * SECOND, reg + 30 * SECOND));
  });
  w.workers.forEach((h, i) => {
    const reg = tl.workerRegistered[i];
    if (reg === undefined || reg > at) return;
    nodes.push(nodeObject(c, h, 'worker', reg, tl.workerReady[i]));
    names.push(h.nodeName);
    csrs.push(csrObject(c, `csr-${p.alnum(5)}`, h.nodeName, 'kubelet-client', reg - 25 * SECOND, reg - 20 * SECOND));
    csrs.push(csrObject(c, `csr-${p.alnum(5)}`, h.nodeName, 'kubelet-serving', reg + 25 * SECOND, reg + 30 * SECOND));
  });
  for (const pc of s.cluster.pendingCsrs) csrs.push(csrObject(c, `csr-${p.alnum(5)}`, pc.node, pc.signer, pc.created, undefined));
  const apiStart = tl.apiUp ?? at;
  const operators = OPERATORS.filter((o) => w.spec.platform === 'baremetal' || o !== 'baremetal').map((o, i) => operatorObject(c, o, apiStart + (30 + i * 7) * SECOND, i));
  const pods: Record<string, unknown>[] = [];
  const containers: string[] = [];
  const apiPods: string[] = [];
  w.masters.forEach((m, i) => {
    if (tl.masterRegistered[i] === undefined || (tl.masterRegistered[i] as Micros) > at) return;
    for (const pod of masterPods(w, tl, m)) {
      pods.push(podObject(c, pod, m.nodeName, m.ip));
      for (const cn of pod.containers) containers.push(`-n ${pod.namespace} ${pod.name} -c ${cn}`);
      if (pod.kind === 'kube-apiserver') apiPods.push(`-n ${pod.namespace} ${pod.name}`);
    }
  });
  const cvDone = tl.operatorsDone !== undefined && tl.operatorsDone <= at;
  const cvMsg = cvDone ? `Cluster version is ${w.release.version}` : `Working towards ${w.release.version}: ${p.int(480, 790)} of ${p.int(850, 900)} done (${p.int(55, 89)}% complete)`;
  const clusterVersion = {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: meta(c, 'version', apiStart + 20 * SECOND),
    spec: { channel: `stable-4.${w.release.minor}`, clusterID: w.clusterId },
    status: {
      availableUpdates: null,
      conditions: [
        cond('RetrievedUpdates', 'False', apiStart + 40 * SECOND, 'NoChannel', 'The update channel has not been configured.'),
        cond('Available', cvDone ? 'True' : 'False', cvDone ? (tl.operatorsDone as Micros) : apiStart + 40 * SECOND, undefined, cvDone ? `Done applying ${w.release.version}` : undefined),
        cond('Failing', 'False', apiStart + 40 * SECOND),
        cond('Progressing', cvDone ? 'False' : 'True', apiStart + 40 * SECOND, undefined, cvMsg),
      ],
      desired: { image: w.release.releaseImage, version: w.release.version },
      history: [{ completionTime: cvDone ? isoSeconds(tl.operatorsDone as Micros) : null, image: w.release.releaseImage, startedTime: isoSeconds(apiStart + 20 * SECOND), state: cvDone ? 'Completed' : 'Partial', verified: false, version: w.release.version }],
      observedGeneration: 1,
      versionHash: p.alnum(11),
    },
  };
  const endpointsAddrs = s.cluster.apiEndpoints ?? (tl.bootkubeComplete !== undefined && tl.bootkubeComplete <= at ? w.masters.filter((_, i) => tl.masterReady[i] !== undefined).map((m) => m.ip) : [w.bootstrap.ip]);
  const events = s.cluster.events.map((e) => ({
    apiVersion: 'v1',
    count: e.count ?? 1,
    firstTimestamp: isoSeconds(e.t),
    involvedObject: { kind: e.kind, name: e.name, namespace: e.ns },
    kind: 'Event',
    lastTimestamp: isoSeconds(e.t + (e.count ?? 1) * 30 * SECOND),
    message: e.message,
    metadata: meta(c, `${e.name}.${p.hex(16)}`, e.t, e.ns),
    reason: e.reason,
    source: { component: e.kind === 'Pod' ? 'kubelet' : 'cluster-bootstrap' },
    type: e.type,
  }));
  const nsList = ['default', 'kube-system', 'openshift-config', 'openshift-config-managed', 'openshift-cluster-version', 'openshift-etcd', 'openshift-kube-apiserver', 'openshift-kube-controller-manager', 'openshift-kube-scheduler', 'openshift-machine-config-operator', 'openshift-network-operator', 'openshift-ovn-kubernetes', 'openshift-multus', 'openshift-ingress-operator', 'openshift-authentication', 'openshift-console'];
  files.set('resources/nodes.list', names.map((n) => `${n}\n`).join(''));
  files.set('resources/masters.list', masterNames.map((n) => `${n}\n`).join(''));
  files.set('resources/containers', containers.map((l) => `${l}\n`).join(''));
  files.set('resources/api-pods', apiPods.map((l) => `${l}\n`).join(''));
  files.set('resources/apiservices.json', list(['v1.', 'v1.apps', 'v1.config.openshift.io', 'v1.oauth.openshift.io', 'v1.route.openshift.io'].map((n) => ({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: meta(c, n, apiStart + 5 * SECOND), spec: { group: n.slice(3), groupPriorityMinimum: 17800, version: 'v1', versionPriority: 15 }, status: { conditions: [cond('Available', n.includes('oauth') || n.includes('route') ? 'False' : 'True', apiStart + 9 * SECOND, n.includes('oauth') || n.includes('route') ? 'ServiceNotFound' : 'Local', n.includes('oauth') || n.includes('route') ? `service/api in "openshift-${n.includes('oauth') ? 'oauth-' : ''}apiserver" is not present` : 'Local APIServices are always available')] } }))));
  files.set('resources/clusteroperators.json', list(operators));
  files.set('resources/clusterversion.json', list([clusterVersion]));
  files.set('resources/configmaps.json', list([
    { apiVersion: 'v1', data: { [`${w.bootstrap.ip.replace(/\./g, '-')}`]: w.bootstrap.ip }, kind: 'ConfigMap', metadata: meta(c, 'etcd-endpoints', apiStart + 8 * SECOND, 'openshift-etcd', { annotations: { 'alpha.installer.openshift.io/etcd-bootstrap': w.bootstrap.ip } }) },
    { apiVersion: 'v1', data: { status: tl.progressDone !== undefined && tl.progressDone <= at ? 'complete' : 'progressing' }, kind: 'ConfigMap', metadata: meta(c, 'bootstrap', tl.progressDone ?? apiStart, 'kube-system') },
  ].filter((_, i) => i === 0 || (tl.progressDone !== undefined && tl.progressDone <= at))));
  files.set('resources/csr.json', list(csrs));
  files.set('resources/endpoints.json', list([{ apiVersion: 'v1', kind: 'Endpoints', metadata: meta(c, 'kubernetes', apiStart + 3 * SECOND, 'default', { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } }), subsets: [{ addresses: endpointsAddrs.map((ip) => ({ ip })), ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }] }]));
  files.set('resources/events.json', list(events));
  files.set('resources/kubeapiserver.json', list([{ apiVersion: 'operator.openshift.io/v1', kind: 'KubeAPIServer', metadata: meta(c, 'cluster', apiStart + 50 * SECOND), spec: { logLevel: 'Normal', managementState: 'Managed' }, status: { latestAvailableRevision: p.int(3, 8), nodeStatuses: w.masters.filter((_, i) => tl.masterRegistered[i] !== undefined && (tl.masterRegistered[i] as Micros) <= at).map((m) => ({ currentRevision: p.int(0, 5), nodeName: m.nodeName })) } }]));
  files.set('resources/kubecontrollermanager.json', list([{ apiVersion: 'operator.openshift.io/v1', kind: 'KubeControllerManager', metadata: meta(c, 'cluster', apiStart + 50 * SECOND), spec: { logLevel: 'Normal', managementState: 'Managed' }, status: { latestAvailableRevision: p.int(3, 8) } }]));
  files.set('resources/machineconfigpools.json', list(['master', 'worker'].map((pool) => ({ apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfigPool', metadata: meta(c, pool, apiStart + 30 * SECOND), spec: { machineConfigSelector: { matchLabels: { 'machineconfiguration.openshift.io/role': pool } }, nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${pool}`]: '' } }, paused: false }, status: { machineCount: pool === 'master' ? masterNames.length : names.length - masterNames.length, readyMachineCount: pool === 'master' ? masterNames.length : 0, unavailableMachineCount: 0, degradedMachineCount: 0, updatedMachineCount: pool === 'master' ? masterNames.length : 0 } }))));
  files.set('resources/machineconfigs.json', list(['00-master', '00-worker', '01-master-container-runtime', '01-master-kubelet', '01-worker-container-runtime', '01-worker-kubelet', '99-master-generated-registries', '99-master-ssh', '99-worker-generated-registries', '99-worker-ssh', `rendered-master-${w.prng.fork('rendered').hex(32)}`, `rendered-worker-${w.prng.fork('rendered-w').hex(32)}`].map((n) => ({ apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'MachineConfig', metadata: meta(c, n, apiStart + 35 * SECOND, undefined, { labels: { 'machineconfiguration.openshift.io/role': n.includes('worker') ? 'worker' : 'master' } }), spec: { config: { ignition: { version: '3.4.0' } }, osImageURL: '' } }))));
  files.set('resources/namespaces.json', list(nsList.map((n) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: meta(c, n, apiStart + 4 * SECOND, undefined, { labels: { 'kubernetes.io/metadata.name': n } }), spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } }))));
  files.set('resources/nodes.json', list(nodes));
  files.set('resources/openshiftapiserver.json', list([{ apiVersion: 'operator.openshift.io/v1', kind: 'OpenShiftAPIServer', metadata: meta(c, 'cluster', apiStart + 50 * SECOND), spec: { logLevel: 'Normal', managementState: 'Managed' }, status: {} }]));
  files.set('resources/pods.json', list(pods));
  files.set('resources/rolebindings.json', list([{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: meta(c, 'system:openshift:leader-locking-openshift-cluster-version', apiStart + 20 * SECOND, 'openshift-cluster-version'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'system:openshift:leader-locking-openshift-cluster-version' }, subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'openshift-cluster-version' }] }]));
  files.set('resources/roles.json', list([{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta(c, 'system:openshift:leader-locking-openshift-cluster-version', apiStart + 20 * SECOND, 'openshift-cluster-version'), rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] }] }]));
  files.set('resources/services.json', list([{ apiVersion: 'v1', kind: 'Service', metadata: meta(c, 'kubernetes', apiStart + 3 * SECOND, 'default'), spec: { clusterIP: '172.30.0.1', clusterIPs: ['172.30.0.1'], internalTrafficPolicy: 'Cluster', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }], sessionAffinity: 'None', type: 'ClusterIP' }, status: { loadBalancer: {} } }]));
  const secretRows: [string, string, string, number][] = [
    ['kube-system', 'kubeadmin', 'Opaque', 1],
    ['kube-system', 'kube-cloud-cfg', 'Opaque', 1],
    ['openshift-config', 'etcd-client', 'kubernetes.io/tls', 2],
    ['openshift-config', 'etcd-metric-client', 'kubernetes.io/tls', 2],
    ['openshift-config', 'etcd-metric-signer', 'kubernetes.io/tls', 2],
    ['openshift-config', 'etcd-signer', 'kubernetes.io/tls', 2],
    ['openshift-config', 'initial-service-account-private-key', 'Opaque', 1],
    ['openshift-config', 'pull-secret', 'kubernetes.io/dockerconfigjson', 1],
    ['openshift-kube-apiserver-operator', 'aggregator-client-signer', 'kubernetes.io/tls', 2],
    ['openshift-kube-apiserver-operator', 'kube-apiserver-to-kubelet-signer', 'kubernetes.io/tls', 2],
    ['openshift-kube-apiserver-operator', 'kube-control-plane-signer', 'kubernetes.io/tls', 2],
    ['openshift-kube-apiserver-operator', 'loadbalancer-serving-signer', 'kubernetes.io/tls', 2],
    ['openshift-kube-apiserver-operator', 'localhost-serving-signer', 'kubernetes.io/tls', 2],
    ['openshift-kube-apiserver-operator', 'service-network-serving-signer', 'kubernetes.io/tls', 2],
    ['openshift-machine-config-operator', 'machine-config-server-tls', 'kubernetes.io/tls', 2],
  ];
  const age = `${Math.max(1, Math.round((at - apiStart) / MINUTE))}m`;
  files.set('resources/secrets-names.txt', `NAMESPACE                                  NAME                                              TYPE                                  DATA   AGE\n${secretRows.map(([ns, n, t, d]) => `${ns.padEnd(43)}${n.padEnd(50)}${t.padEnd(38)}${String(d).padEnd(7)}${age}`).join('\n')}\n`);
  files.set('resources/secrets-names-with-annotations.txt', `NAMESPACE                                  NAME                                              TYPE                                  ANNOTATIONS\n${secretRows.map(([ns, n, t]) => `${ns.padEnd(43)}${n.padEnd(50)}${t.padEnd(38)}<none>`).join('\n')}\n`);
  files.set('resources/openapi.json.gz', gzipSync(Buffer.from(JSON.stringify({ swagger: '2.0', info: { title: 'Kubernetes', version: `${w.release.kubeVersion}+${w.release.kubeGitTag}` }, paths: { '/api/': { get: { operationId: 'getCoreAPIVersions', produces: ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] } }, '/api/v1/': { get: { operationId: 'getCoreV1APIResources' } } } }))));
}

/** The files the gather script leaves when `oc` could not reach the API. */
export function emptyResources(files: Map<string, string | Buffer>): void {
  const names = ['nodes.list', 'masters.list', 'containers', 'api-pods', 'apiservices.json', 'clusteroperators.json', 'clusterversion.json', 'configmaps.json', 'csr.json', 'endpoints.json', 'events.json', 'kubeapiserver.json', 'kubecontrollermanager.json', 'machineconfigpools.json', 'machineconfigs.json', 'namespaces.json', 'nodes.json', 'openshiftapiserver.json', 'pods.json', 'rolebindings.json', 'roles.json', 'secrets-names.txt', 'secrets-names-with-annotations.txt', 'services.json'];
  for (const n of names) files.set(`resources/${n}`, '');
  files.set('resources/openapi.json.gz', gzipSync(Buffer.alloc(0)));
}
