// A complete log bundle of a real install, as installer-gather.sh lays it out (bootstrap host,
// three masters, cluster resources, rendered assets, the installer's log beside it), with the
// background noise every real install prints: the release pull retried once then succeeding,
// etcdctl refused before etcd starts then healthy, "Still waiting for the Kubernetes API" before
// "API is up", CRI-O's first-boot `should wipe containers` warning, and the bootstrap kubelet's
// `No CNI configuration file` to the end. Tests start from the healthy install and replace the
// pieces their failure changes. Line formats: bootkube.sh.template, release-image-download.sh,
// cluster-bootstrap, etcdctl, klog, CRI-O's logfmt, etcd's JSON, journalctl --output=short.

export const NOISY_GATHER_ID = '20261122113000';
export const NOISY_ROOT = `log-bundle-${NOISY_GATHER_ID}`;
export const BOOTSTRAP = 'bootstrap.ocp4.example.com';
export const BOOTSTRAP_IP = '10.0.0.4';
export const MASTER_IPS = ['10.0.0.5', '10.0.0.6', '10.0.0.7'];
export const masterName = (i: number): string => `master-${i}.ocp4.example.com`;

const DIGEST = 'sha256:9a4b4c0a1d3c4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7';
export const RELEASE = `quay.io/openshift-release-dev/ocp-release@${DIGEST}`;
export const MIRROR = 'mirror.corp.example:8443/ocp4/openshift4';

/** Journal text as `journalctl --output=short` writes it: one entry a line, newline-ended. */
export const journal = (lines: string[]): string => `${lines.join('\n')}\n`;

/** `Nov 22 <time> <host> <ident>: <message>`. */
export const entry = (time: string, host: string, ident: string, message: string): string => `Nov 22 ${time} ${host} ${ident}: ${message}`;
const bk = (time: string, message: string, pid = 2507): string => entry(time, BOOTSTRAP, `bootkube.sh[${pid}]`, message);

/** Times hh:mm:ss from `start` every `stepSeconds`, `count` of them. */
export function times(start: string, stepSeconds: number, count: number): string[] {
  const [h, m, s] = start.split(':').map(Number);
  const base = h * 3600 + m * 60 + s;
  return Array.from({ length: count }, (_, i) => {
    const t = base + i * stepSeconds;
    return [Math.floor(t / 3600), Math.floor(t / 60) % 60, t % 60].map((n) => String(n).padStart(2, '0')).join(':');
  });
}

// ------------------------------------------------------------------ release image

/** release-image-download.sh: the first pull times out, the retry goes through. */
export function releaseImageRetried(): string {
  const H = BOOTSTRAP;
  return journal([
    entry('10:13:50', H, 'systemd[1]', 'Starting Download the OpenShift Release Image...'),
    entry('10:13:50', H, 'release-image-download.sh[1980]', `Pulling ${RELEASE}...`),
    entry('10:14:20', H, 'release-image-download.sh[1991]', `Error: initializing source docker://${RELEASE}: pinging container registry quay.io: Get "https://quay.io/v2/": dial tcp 34.225.41.113:443: i/o timeout`),
    entry('10:14:20', H, 'release-image-download.sh[1980]', `Pull failed. Retrying ${RELEASE}...`),
    entry('10:14:40', H, 'release-image-download.sh[2004]', '0d2ae0d0b8b1c2f5c0bbbd4b7e8e6f9a5b1c8d9e0f1a2b3c4d5e6f7a8b9c0d1e'),
    entry('10:14:40', H, 'systemd[1]', 'Finished Download the OpenShift Release Image.'),
  ]);
}

/** The service record of one run of `service`, its stages in order: [name, start, end, result]. */
export function serviceRecord(stages: [string, string, string | undefined, 'success' | 'failure' | undefined][], service: [string, string | undefined, 'success' | 'failure' | undefined], error?: { line: string; message: string }): string {
  const at = (t: string): string => `2026-11-22T${t}Z`;
  const out: Record<string, string>[] = [{ timestamp: at(service[0]), phase: 'service start' }];
  for (const [stage, start, end, result] of stages) {
    out.push({ timestamp: at(start), phase: 'stage start', stage });
    if (end && result) out.push({ timestamp: at(end), phase: 'stage end', stage, result, ...(result === 'failure' && error ? { errorLine: error.line, errorMessage: error.message } : {}) });
  }
  if (service[1] && service[2]) out.push({ timestamp: at(service[1]), phase: 'service end', result: service[2], ...(service[2] === 'failure' && error ? { errorLine: error.line, errorMessage: error.message } : {}) });
  // bootstrap-service-record.sh appends one object a line inside the array.
  return `[\n${out.map((o) => JSON.stringify(o)).join(',\n')}\n]\n`;
}

// ------------------------------------------------------------------ bootkube

/** Render stages, each with the message bootkube.sh prints before it. */
const RENDER: [string, string][] = [
  ['cvo-bootstrap', 'Rendering Cluster Version Operator Manifests...'],
  ['etcd-bootstrap', 'Rendering CEO Manifests...'],
  ['config-bootstrap', 'Rendering cluster config manifests...'],
  ['kube-apiserver-bootstrap', 'Rendering Kubernetes API server core manifests...'],
  ['kube-controller-manager-bootstrap', 'Rendering Kubernetes Controller Manager core manifests...'],
  ['kube-scheduler-bootstrap', 'Rendering Kubernetes Scheduler core manifests...'],
  ['mco-bootstrap', 'Rendering MCO manifests...'],
];

/** bootkube.sh from its start to cluster-bootstrap's start: renders, then etcd refused once, then healthy. */
export function bootkubeUntilClusterBootstrap(): string[] {
  const etcdRefused =
    '{"level":"warn","ts":"2026-11-22T10:15:35.817Z","logger":"etcd-client","caller":"v3@v3.5.9/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"etcd-endpoints://0xc0003a6000/localhost:2379","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: last connection error: connection error: desc = \\"transport: Error while dialing: dial tcp [::1]:2379: connect: connection refused\\""}';
  return [
    entry('10:14:58', BOOTSTRAP, 'systemd[1]', 'Started Bootstrap a Kubernetes cluster.'),
    ...RENDER.map(([, message], i) => bk(`10:15:${String(2 + i * 3).padStart(2, '0')}`, message)),
    bk('10:15:28', 'Starting etcd...'),
    bk('10:15:30', 'Waiting for etcd cluster...'),
    bk('10:15:35', etcdRefused, 2690),
    bk('10:15:35', 'https://localhost:2379 is unhealthy: failed to commit proposal: context deadline exceeded', 2690),
    bk('10:15:35', 'Error: unhealthy cluster', 2690),
    bk('10:15:35', 'etcdctl failed. Retrying in 5 seconds...'),
    bk('10:15:41', 'https://localhost:2379 is healthy: successfully committed proposal: took = 13.395951ms', 2712),
    bk('10:15:42', 'Starting cluster-bootstrap...'),
    bk('10:15:50', 'Starting temporary bootstrap control plane...', 2741),
    bk('10:15:50', 'Waiting up to 20m0s for the Kubernetes API', 2741),
    bk('10:15:51', 'Still waiting for the Kubernetes API: Get "https://localhost:6443/readyz": dial tcp [::1]:6443: connect: connection refused', 2741),
    bk('10:17:02', 'API is up', 2741),
    bk('10:17:03', 'Created "0000_00_cluster-version-operator_00_namespace.yaml" namespaces.v1./openshift-cluster-version -n ', 2741),
    bk('10:17:05', 'Created "99_openshift-cluster-api_master-machines-0.yaml" machines.v1beta1.machine.openshift.io/ocp4-x7k2p-master-0 -n openshift-machine-api', 2741),
  ];
}

const REQUIRED_PODS = ['openshift-kube-apiserver/kube-apiserver', 'openshift-kube-scheduler/openshift-kube-scheduler', 'openshift-kube-controller-manager/kube-controller-manager', 'openshift-cluster-version/cluster-version-operator'];

/** cluster-bootstrap's pod status table at `time`, every pod in `state`. */
export const podStatus = (time: string, state: (pod: string) => string): string[] => REQUIRED_PODS.map((p) => bk(time, `\tPod Status:${p}\t${state(p)}`, 2741));

/** The healthy bootkube journal: through the required pods, the CVO overrides, wait-for-ceo, complete. */
export function bootkubeComplete(): string {
  return journal([
    ...bootkubeUntilClusterBootstrap(),
    ...podStatus('10:25:00', () => 'DoesNotExist'),
    ...podStatus('10:33:00', (p) => (p.endsWith('kube-apiserver') ? 'Pending' : 'Ready')),
    ...podStatus('10:38:30', () => 'Ready'),
    bk('10:38:30', 'All self-hosted control plane components successfully started', 2741),
    bk('10:38:30', 'Sending bootstrap-success event.Waiting for remaining assets to be created.', 2741),
    bk('10:39:10', 'Tearing down temporary bootstrap control plane...', 2741),
    bk('10:39:11', 'Sending bootstrap-finished event.', 2741),
    bk('10:39:12', 'Restoring CVO overrides'),
    bk('10:39:20', 'Waiting for CEO to finish...'),
    bk('10:39:21', 'I1122 10:39:21.412608       1 waitforceo.go:67] waiting on condition EtcdRunningInCluster in etcd CR /cluster to be True.', 3310),
    bk('10:44:52', 'I1122 10:44:52.523105       1 waitforceo.go:64] Cluster etcd operator bootstrapped successfully', 3310),
    bk('10:44:52', 'I1122 10:44:52.523222       1 waitforceo.go:58] cluster-etcd-operator bootstrap etcd', 3310),
    bk('10:44:53', 'bootkube.service complete'),
    entry('10:44:53', BOOTSTRAP, 'systemd[1]', 'bootkube.service: Deactivated successfully.'),
    entry('10:44:53', BOOTSTRAP, 'systemd[1]', 'bootkube.service: Consumed 1min 3.552s CPU time.'),
  ]);
}

const RENDER_RECORDS = RENDER.map(([stage], i): [string, string, string, 'success'] => [stage, `10:15:${String(1 + i * 3).padStart(2, '0')}`, `10:15:${String(3 + i * 3).padStart(2, '0')}`, 'success']);

/** bootkube's records of the healthy run. */
export function bootkubeRecordsComplete(): string {
  return serviceRecord(
    [...RENDER_RECORDS, ['wait-for-etcd', '10:15:30', '10:15:41', 'success'], ['cb-bootstrap', '10:15:42', '10:39:11', 'success'], ['cvo-overrides', '10:39:12', '10:39:13', 'success'], ['wait-for-ceo', '10:39:20', '10:44:52', 'success']],
    ['10:14:58', '10:44:53', 'success'],
  );
}

// ------------------------------------------------------------------ node runtime noise

/** CRI-O's first boot: no version file yet, so it says it checked whether to wipe containers. */
export function crioFirstBoot(host: string, pid: number): string[] {
  return [
    entry('10:13:38', host, 'systemd[1]', 'Starting Container Runtime Interface for OCI (CRI-O)...'),
    entry('10:13:38', host, `crio[${pid}]`, 'time="2026-11-22 10:13:38.604582019Z" level=info msg="Starting CRI-O, version: 1.30.4, git: 6c2f6d6c0d7c7c1a(clean)"'),
    entry('10:13:38', host, `crio[${pid}]`, 'time="2026-11-22 10:13:38.611214377Z" level=warning msg="Error encountered when checking whether cri-o should wipe containers: open /var/run/crio/version: no such file or directory"'),
    entry('10:13:39', host, 'systemd[1]', 'Started Container Runtime Interface for OCI (CRI-O).'),
  ];
}

const CNI = (time: string, pid: number): string =>
  `E1122 ${time}.221190    ${pid} kubelet.go:2855] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?"`;

/** The bootstrap kubelet: static pods run on the host network, so it says "No CNI configuration file" to the end. */
export function bootstrapKubelet(until = '11:29:00'): string {
  const H = BOOTSTRAP;
  const [h, m] = until.split(':').map(Number);
  const minutes = (h - 10) * 60 + m - 14;
  return journal([
    entry('10:13:40', H, 'systemd[1]', 'Starting Kubernetes Kubelet...'),
    entry('10:13:41', H, 'kubelet.sh[2519]', 'I1122 10:13:41.123456    2519 server.go:466] "Kubelet version" kubeletVersion="v1.30.4"'),
    entry('10:13:42', H, 'systemd[1]', 'Started Kubernetes Kubelet.'),
    ...times('10:14:00', 60, minutes).map((t) => entry(t, H, 'kubelet.sh[2519]', CNI(t, 2519))),
  ]);
}

/** A master's kubelet: a few CNI complaints while the network comes up, then its node Ready. */
export function masterKubelet(i: number): string {
  const host = masterName(i);
  return journal([
    entry('10:19:40', host, 'systemd[1]', 'Starting Kubernetes Kubelet...'),
    entry('10:19:41', host, 'kubenswrapper[2210]', 'I1122 10:19:41.123456    2210 server.go:466] "Kubelet version" kubeletVersion="v1.30.4"'),
    entry('10:19:42', host, 'systemd[1]', 'Started Kubernetes Kubelet.'),
    ...times('10:20:00', 30, 4).map((t) => entry(t, host, 'kubenswrapper[2210]', CNI(t, 2210))),
    entry('10:22:10', host, 'kubenswrapper[2210]', `I1122 10:22:10.000001    2210 kubelet_node_status.go:724] "Recording event message for node" node="${host}" event="NodeReady"`),
    // The journal runs on until the gather: the kubelet's everyday lines.
    ...times('10:25:00', 300, 13).map((t) => entry(t, host, 'kubenswrapper[2210]', `I1122 ${t}.118790    2210 kubelet_getters.go:187] "Pod status updated" pod="openshift-etcd/etcd-${host}" status="Running"`)),
  ]);
}

// ------------------------------------------------------------------ containers

const id = (seed: string): string => seed.repeat(64).slice(0, 64);

/** `crictl inspect` of a container that is running. */
export function crictlInspect(name: string, pod: string, namespace: string, seed: string): string {
  return JSON.stringify(
    {
      status: {
        id: id(seed),
        metadata: { attempt: 0, name },
        state: 'CONTAINER_RUNNING',
        createdAt: '2026-11-22T10:21:04.500000000Z',
        startedAt: '2026-11-22T10:21:05.000000000Z',
        finishedAt: '0001-01-01T00:00:00Z',
        exitCode: 0,
        image: { image: `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${seed.repeat(64).slice(0, 64)}` },
        imageRef: `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${seed.repeat(64).slice(0, 64)}`,
        labels: { 'io.kubernetes.container.name': name, 'io.kubernetes.pod.name': pod, 'io.kubernetes.pod.namespace': namespace },
        annotations: { 'io.kubernetes.container.restartCount': '0' },
      },
    },
    null,
    2,
  );
}

/** A master's etcd, joined and healthy: JSON lines as etcd writes them. */
export function masterEtcdHealthy(i: number): string {
  return journal([
    `{"level":"info","ts":"2026-11-22T10:21:05.100Z","caller":"embed/etcd.go:124","msg":"configuring peer listeners","listen-peer-urls":["https://${MASTER_IPS[i]}:2380"]}`,
    `{"level":"info","ts":"2026-11-22T10:21:06.200Z","caller":"etcdserver/server.go:2064","msg":"published local member to cluster through raft","local-member-attributes":"{Name:${masterName(i)} ClientURLs:[https://${MASTER_IPS[i]}:2379]}"}`,
    `{"level":"info","ts":"2026-11-22T10:21:06.300Z","caller":"embed/serve.go:250","msg":"serving client traffic securely","traffic":"grpc+http","address":"${MASTER_IPS[i]}:2379"}`,
  ]);
}

// ------------------------------------------------------------------ cluster resources

const list = (items: unknown[]): string => JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items }, null, 4);

export function nodesJson(ready: boolean[] = [true, true, true]): string {
  return list(
    ready.map((r, i) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: masterName(i), creationTimestamp: '2026-11-22T10:20:30Z', labels: { 'node-role.kubernetes.io/master': '', 'node-role.kubernetes.io/control-plane': '' } },
      status: {
        addresses: [{ type: 'InternalIP', address: MASTER_IPS[i] }],
        conditions: [{ type: 'Ready', status: r ? 'True' : 'False', reason: r ? 'KubeletReady' : 'KubeletNotReady', message: r ? 'kubelet is posting ready status' : 'container runtime network not ready', lastTransitionTime: '2026-11-22T10:22:10Z' }],
        nodeInfo: { kubeletVersion: 'v1.30.4' },
      },
    })),
  );
}

export function csrJson(): string {
  return list(
    MASTER_IPS.map((_, i) => ({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: `csr-m${i}x2k`, creationTimestamp: '2026-11-22T10:20:20Z' },
      spec: { signerName: 'kubernetes.io/kube-apiserver-client-kubelet', username: 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper', request: 'LS0t' },
      status: { conditions: [{ type: 'Approved', status: 'True', reason: 'NodeCSRApprove', message: 'This CSR was approved by the Node CSR Approver', lastUpdateTime: '2026-11-22T10:20:25Z' }], certificate: 'LS0t' },
    })),
  );
}

export interface OperatorState {
  name: string;
  /** Absent: the operator reports no conditions yet. */
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
}

export const AVAILABLE = (name: string): OperatorState => ({
  name,
  conditions: [
    { type: 'Available', status: 'True', reason: 'AsExpected', message: 'All is well' },
    { type: 'Progressing', status: 'False', reason: 'AsExpected' },
    { type: 'Degraded', status: 'False', reason: 'AsExpected' },
  ],
});

export const OPERATORS = ['authentication', 'console', 'dns', 'etcd', 'ingress', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'machine-config', 'network', 'openshift-apiserver'];

export function clusterOperatorsJson(ops: OperatorState[] = OPERATORS.map(AVAILABLE)): string {
  return list(
    ops.map((o) => ({
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterOperator',
      metadata: { name: o.name },
      spec: {},
      status: o.conditions ? { conditions: o.conditions.map((c) => ({ ...c, lastTransitionTime: '2026-11-22T10:50:00Z' })), versions: [{ name: 'operator', version: '4.16.3' }] } : {},
    })),
  );
}

// ------------------------------------------------------------------ rendered assets

/** The install config as the installer renders it: ConfigMap kube-system/cluster-config-v1, key install-config. */
export function clusterConfigYaml(replicas: number | undefined): string {
  const ic = [
    'additionalTrustBundlePolicy: Proxyonly',
    'apiVersion: v1',
    'baseDomain: example.com',
    'compute:',
    '- architecture: amd64',
    '  hyperthreading: Enabled',
    '  name: worker',
    '  platform: {}',
    '  replicas: 0',
    'controlPlane:',
    '  architecture: amd64',
    '  hyperthreading: Enabled',
    '  name: master',
    '  platform: {}',
    ...(replicas === undefined ? [] : [`  replicas: ${replicas}`]),
    'metadata:',
    '  creationTimestamp: null',
    '  name: ocp4',
    'networking:',
    '  clusterNetwork:',
    '  - cidr: 10.128.0.0/14',
    '    hostPrefix: 23',
    '  machineNetwork:',
    '  - cidr: 10.0.0.0/24',
    '  networkType: OVNKubernetes',
    '  serviceNetwork:',
    '  - 172.30.0.0/16',
    'platform:',
    '  none: {}',
    'publish: External',
    'pullSecret: ""',
    'sshKey: |',
    '  ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnly core@bastion',
  ];
  return ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: cluster-config-v1', '  namespace: kube-system', 'data:', '  install-config: |', ...ic.map((l) => `    ${l}`), ''].join('\n');
}

// ------------------------------------------------------------------ installer log

/** One line of .openshift_install.log: logfmt, the message quoted with its quotes escaped. */
export const installerLine = (time: string, level: string, msg: string): string => `time="2026-11-22T${time}Z" level=${level} msg=${JSON.stringify(msg)}`;
const inst = installerLine;

/** The installer from its start to its wait for bootstrapping, the API wait healed. */
function untilBootstrapWait(): string[] {
  return [
      inst('10:10:00', 'info', 'Consuming Install Config from target directory'),
      inst('10:10:05', 'info', 'Creating infrastructure resources...'),
      inst('10:15:40', 'info', 'Waiting up to 20m0s (until 10:35AM UTC) for the Kubernetes API at https://api.ocp4.example.com:6443...'),
      inst('10:15:45', 'debug', 'Still waiting for the Kubernetes API: Get "https://api.ocp4.example.com:6443/version": dial tcp 10.0.0.10:6443: connect: connection refused'),
      inst('10:17:05', 'info', 'API v1.30.4 up'),
      inst('10:17:05', 'info', 'Waiting up to 30m0s (until 10:47AM UTC) for bootstrapping to complete...'),
  ];
}

/** The installer's log of a run that got through bootstrapping. */
export function installerLogComplete(): string {
  return journal([
    ...untilBootstrapWait(),
    inst('10:45:10', 'debug', 'Bootstrap status: complete'),
    inst('10:45:10', 'info', 'It is now safe to remove the bootstrap resources'),
  ]);
}

/** The installer's log of a run whose bootstrapping timed out, ending in the gather it ran. */
export function installerLogBootstrapFailed(): string {
  return journal([
    ...untilBootstrapWait(),
    inst('10:47:05', 'error', 'Bootstrap failed to complete: timed out waiting for the condition'),
    inst('10:47:05', 'error', 'Failed to wait for bootstrapping to complete. This error usually happens when there is a problem with control plane hosts that prevents the control plane operators from creating the control plane.'),
    inst('10:47:06', 'info', 'Pulling debug logs from the bootstrap machine'),
    inst('11:30:00', 'info', `Bootstrap gather logs captured here "/home/core/install/log-bundle-${NOISY_GATHER_ID}.tar.gz"`),
    inst('11:30:00', 'fatal', 'Bootstrap failed to complete'),
  ]);
}

// ------------------------------------------------------------------ the bundle

/** The files of a complete, healthy, noisy bundle: path under the bundle's root → content. */
export function noisyBundleFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'gather.log': journal([
      'Gathering bootstrap systemd summary ...',
      'Gathering bootstrap failed systemd unit status ...',
      'Gathering bootstrap journals ...',
      'Gathering bootstrap containers ...',
      'Gathering rendered assets...',
      'Gathering cluster resources ...',
      'Waiting for logs ...',
      'Gather remote logs',
      ...MASTER_IPS.map((m) => `Collecting info from ${m}`),
      `Log bundle written to /var/home/core/log-bundle-${NOISY_GATHER_ID}.tar.gz`,
    ]),
    'failed-units.txt': journal(['  UNIT LOAD ACTIVE SUB DESCRIPTION', '0 loaded units listed.']),
    'bootstrap/journals/release-image.log': releaseImageRetried(),
    'bootstrap/journals/crio.log': journal(crioFirstBoot(BOOTSTRAP, 1834)),
    'bootstrap/journals/kubelet.log': bootstrapKubelet(),
    'bootstrap/journals/bootkube.log': bootkubeComplete(),
    'bootstrap/journals/ironic.log': '-- No entries --\n',
    'bootstrap/journals/approve-csr.log': journal([entry('10:14:59', BOOTSTRAP, 'systemd[1]', 'Started Approve CSRs during bootstrap phase.')]),
    'bootstrap/services/release-image.json': serviceRecord([['pull-release-image', '10:13:50', '10:14:40', 'success']], ['10:13:50', '10:14:40', 'success']),
    'bootstrap/services/bootkube.json': bootkubeRecordsComplete(),
    'bootstrap/network/hostname.txt': `${BOOTSTRAP}\n`,
    'bootstrap/network/resolv.conf': '# Generated by NetworkManager\nsearch ocp4.example.com\nnameserver 10.0.0.1\n',
    'bootstrap/network/ip-route.txt': `default via 10.0.0.1 dev ens3 proto dhcp src ${BOOTSTRAP_IP} metric 100\n10.0.0.0/24 dev ens3 proto kernel scope link src ${BOOTSTRAP_IP} metric 100\n`,
    'rendered-assets/openshift/manifests/cluster-config.yaml': clusterConfigYaml(3),
    'rendered-assets/openshift/manifests/cluster-dns-02-config.yml': 'apiVersion: config.openshift.io/v1\nkind: DNS\nmetadata:\n  name: cluster\nspec:\n  baseDomain: ocp4.example.com\n',
    'resources/nodes.json': nodesJson(),
    'resources/csr.json': csrJson(),
    'resources/clusteroperators.json': clusterOperatorsJson(),
    'resources/masters.list': MASTER_IPS.map((_, i) => masterName(i)).join('\n') + '\n',
    'resources/configmaps.json': '{"apiVersion":"v1","items":[],"kind":"List"}\n',
  };
  MASTER_IPS.forEach((ip, i) => {
    const base = `control-plane/${ip}`;
    files[`${base}/journals/kubelet.log`] = masterKubelet(i);
    files[`${base}/journals/crio.log`] = journal(crioFirstBoot(masterName(i), 1490 + i));
    files[`${base}/failed-units.txt`] = journal(['  UNIT LOAD ACTIVE SUB DESCRIPTION', '0 loaded units listed.']);
    files[`${base}/network/hostname.txt`] = `${masterName(i)}\n`;
    files[`${base}/containers/etcd-${id(String(i + 1))}.log`] = masterEtcdHealthy(i);
    files[`${base}/containers/etcd-${id(String(i + 1))}.inspect`] = crictlInspect('etcd', `etcd-${masterName(i)}`, 'openshift-etcd', String(i + 1));
  });
  return files;
}
