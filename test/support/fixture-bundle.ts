// A small but real-format log bundle (bootstrap host + three masters) written as files, and
// packed the ways users hand bundles over: folder, tar, tar.gz, zip, nested archives.
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import * as tar from 'tar';
import yazl from 'yazl';

export const GATHER_ID = '20261122111800';
export const ROOT = `log-bundle-${GATHER_ID}`;
export const MASTERS = ['10.0.0.5', '10.0.0.6', '10.0.0.7'];

const HOST = 'bootstrap.ocp4.example.com';

function journal(lines: string[]): string {
  return lines.join('\n') + '\n';
}

export function bootkubeJournal(): string {
  return journal([
    `Nov 22 10:14:58 ${HOST} systemd[1]: Started Bootstrap a Kubernetes cluster.`,
    `Nov 22 10:15:02 ${HOST} bootkube.sh[2507]: Rendering cluster config manifests...`,
    `Nov 22 10:15:04 ${HOST} bootkube.sh[2507]: Starting etcd...`,
    `Nov 22 10:15:04 ${HOST} bootkube.sh[2507]: Waiting for etcd cluster...`,
    `Nov 22 10:16:01 ${HOST} bootkube.sh[2507]: {"level":"warn","ts":"2026-11-22T10:16:01.120Z","msg":"retrying of unary invoker failed",`,
    `                                                 "error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}`,
    `Nov 22 10:16:01 ${HOST} bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...`,
    `Nov 22 11:16:01 ${HOST} bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...`,
    `Nov 22 11:16:02 ${HOST} systemd[1]: bootkube.service: Main process exited, code=exited, status=1/FAILURE`,
    `Nov 22 11:16:02 ${HOST} systemd[1]: bootkube.service: Failed with result 'exit-code'.`,
  ]);
}

function kubeletJournal(host: string, ip: string): string {
  return journal([
    `-- Boot 8b7c4d2e5f6a47b1a9c3d2e1f0a9b8c7 --`,
    `Nov 22 10:13:40 ${host} systemd[1]: Starting Kubernetes Kubelet...`,
    `Nov 22 10:13:41 ${host} kubelet.sh[2519]: Flag --container-runtime-endpoint has been deprecated, This parameter should be set via the config file specified by the Kubelet's --config flag.`,
    `Nov 22 10:13:41 ${host} kubelet.sh[2519]: I1122 10:13:41.123456    2519 server.go:466] "Kubelet version" kubeletVersion="v1.30.4"`,
    `Nov 22 10:13:42 ${host} systemd[1]: Started Kubernetes Kubelet.`,
    `Nov 22 10:15:04 ${host} kubelet.sh[2519]: I1122 10:15:04.987596    2519 kubelet.go:2076] "SyncLoop ADD" source="file" pods=["openshift-etcd/etcd-bootstrap-member-${host}"]`,
    `Nov 22 10:15:20 ${host} kubelet.sh[2519]: E1122 10:15:20.001122    2519 kubelet_node_status.go:96] "Unable to register node with API server" err="Post \\"https://api-int.ocp4.example.com:6443/api/v1/nodes\\": dial tcp ${ip}:6443: connect: connection refused"`,
    `Nov 22 11:17:45 ${host} kubelet.sh[2519]: I1122 11:17:45.000001    2519 kubelet.go:2400] "SyncLoop (PLEG): event for pod"`,
  ]);
}

export function serviceRecords(): Record<string, string> {
  return {
    'release-image': [
      '[',
      '{"timestamp":"2026-11-22T10:13:50Z","phase":"service start"},',
      '{"timestamp":"2026-11-22T10:14:40Z","phase":"service end","result":"success"}',
      ']',
    ].join('\n') + '\n',
    bootkube: [
      '[',
      '{"timestamp":"2026-11-22T10:14:58Z","phase":"service start"},',
      '{"timestamp":"2026-11-22T10:15:01Z","phase":"stage start","stage":"kube-apiserver-bootstrap"},',
      '{"timestamp":"2026-11-22T10:15:03Z","phase":"stage end","stage":"kube-apiserver-bootstrap","result":"success"},',
      '{"timestamp":"2026-11-22T10:15:04Z","phase":"stage start","stage":"wait-for-etcd"},',
      '{"timestamp":"2026-11-22T11:16:01Z","phase":"stage end","stage":"wait-for-etcd","result":"failure","errorLine":"370 main /usr/local/bin/bootkube.sh","errorMessage":"etcdctl failed. Retrying in 5 seconds..."},',
      '{"timestamp":"2026-11-22T11:16:02Z","phase":"service end","result":"failure"}',
      ']',
    ].join('\n') + '\n',
  };
}

const CRICTL_ID = 'a3f0c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778';

function crictlInspect(name: string, state: string, exitCode: number, restarts: number): string {
  return JSON.stringify(
    {
      status: {
        id: CRICTL_ID,
        metadata: { attempt: restarts, name },
        state,
        createdAt: '2026-11-22T10:15:04.500000000Z',
        startedAt: '2026-11-22T10:15:05.000000000Z',
        finishedAt: '2026-11-22T10:16:00.000000000Z',
        exitCode,
        image: { image: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:1111111111111111111111111111111111111111111111111111111111111111' },
        imageRef: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:1111111111111111111111111111111111111111111111111111111111111111',
        reason: 'Error',
        labels: { 'io.kubernetes.pod.name': `etcd-bootstrap-member-${HOST}`, 'io.kubernetes.pod.namespace': 'openshift-etcd' },
        annotations: { 'io.kubernetes.container.restartCount': String(restarts) },
      },
      info: { runtimeSpec: { process: { env: ['ETCDCTL_API=3'] } } },
    },
    null,
    2,
  );
}

const CSRS = {
  apiVersion: 'v1',
  kind: 'List',
  metadata: { resourceVersion: '' },
  items: [
    {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'csr-8vx2k', creationTimestamp: '2026-11-22T10:40:00Z' },
      spec: { signerName: 'kubernetes.io/kube-apiserver-client-kubelet', username: 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper', request: 'LS0t' },
      status: {},
    },
  ],
};

const NODES = {
  apiVersion: 'v1',
  kind: 'List',
  metadata: { resourceVersion: '' },
  items: MASTERS.slice(0, 2).map((ip, i) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: `master-${i}.ocp4.example.com`,
      creationTimestamp: '2026-11-22T10:30:00Z',
      labels: { 'node-role.kubernetes.io/master': '', 'node-role.kubernetes.io/control-plane': '' },
    },
    status: {
      addresses: [{ type: 'InternalIP', address: ip }],
      conditions: [{ type: 'Ready', status: i === 0 ? 'True' : 'False', reason: i === 0 ? 'KubeletReady' : 'KubeletNotReady', message: 'container runtime network not ready', lastTransitionTime: '2026-11-22T10:31:00Z' }],
      nodeInfo: { kubeletVersion: 'v1.30.4' },
    },
  })),
};

const OPERATORS = {
  apiVersion: 'v1',
  kind: 'List',
  metadata: { resourceVersion: '' },
  items: [
    {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterOperator',
      metadata: { name: 'etcd' },
      status: {
        conditions: [
          { type: 'Degraded', status: 'True', reason: 'EtcdMembers_UnhealthyMembers', message: 'EtcdMembersDegraded: 2 of 3 members are available', lastTransitionTime: '2026-11-22T10:50:00Z' },
          { type: 'Progressing', status: 'True', reason: 'NodeInstaller', message: 'NodeInstallerProgressing', lastTransitionTime: '2026-11-22T10:45:00Z' },
          { type: 'Available', status: 'False', reason: 'EtcdMembers_NoQuorum', message: 'no quorum', lastTransitionTime: '2026-11-22T10:45:00Z' },
        ],
        versions: [{ name: 'operator', version: '4.16.3' }],
      },
    },
  ],
};

const STATIC_POD = `apiVersion: v1
kind: Pod
metadata:
  name: etcd-bootstrap-member
  namespace: openshift-etcd
spec:
  hostNetwork: true
  containers:
  - name: etcd
    image: quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:2222222222222222222222222222222222222222222222222222222222222222
    command:
    - /bin/sh
    - -c
    args:
    - exec etcd --initial-advertise-peer-urls=https://10.0.0.4:2380
    volumeMounts:
    - name: data-dir
      mountPath: /var/lib/etcd
  volumes:
  - name: data-dir
    hostPath:
      path: /var/lib/etcd
  - name: certs
    hostPath:
      path: /etc/kubernetes/static-pod-resources/etcd-member
`;

const MEMBER_LIST_TABLE = `+------------------+---------+----------------------------+-------------------------+-------------------------+------------+
|        ID        | STATUS  |            NAME            |       PEER ADDRS        |      CLIENT ADDRS       | IS LEARNER |
+------------------+---------+----------------------------+-------------------------+-------------------------+------------+
| 8e9e05c52164694d | started | etcd-bootstrap             | https://10.0.0.4:2380   | https://10.0.0.4:2379   |      false |
| 91bc3c398fb3c146 | started | master-0.ocp4.example.com  | https://10.0.0.5:2380   | https://10.0.0.5:2379   |      false |
+------------------+---------+----------------------------+-------------------------+-------------------------+------------+
`;

/** The bundle's files, path (under ROOT) → content. */
export function bundleFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'gather.log': journal([
      'Gathering bootstrap systemd summary ...',
      'Gathering bootstrap failed systemd unit status ...',
      'Gathering bootstrap journals ...',
      'Gathering cluster resources ...',
      'Waiting for logs ...',
      'Gather remote logs',
      ...MASTERS.map((m) => `Collecting info from ${m}`),
      `Log bundle written to /var/home/core/log-bundle-${GATHER_ID}.tar.gz`,
    ]),
    'failed-units.txt': journal([
      '  UNIT              LOAD   ACTIVE SUB    DESCRIPTION',
      '* bootkube.service  loaded failed failed Bootstrap a Kubernetes cluster',
      '',
      'LOAD   = Reflects whether the unit definition was properly loaded.',
      'ACTIVE = The high-level unit activation state, i.e. generalization of SUB.',
      'SUB    = The low-level unit activation state, values depend on unit type.',
      '1 loaded units listed.',
    ]),
    'unit-status/bootkube.service.txt': journal([
      '× bootkube.service - Bootstrap a Kubernetes cluster',
      '     Loaded: loaded (/etc/systemd/system/bootkube.service; static)',
      '     Active: failed (Result: exit-code) since Sun 2026-11-22 11:16:02 UTC; 2min ago',
      '    Process: 2507 ExecStart=/usr/local/bin/bootkube.sh (code=exited, status=1/FAILURE)',
      '   Main PID: 2507 (code=exited, status=1/FAILURE)',
      '        CPU: 1min 3.552s',
      '',
      `Nov 22 11:16:01 ${HOST} bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...`,
      `Nov 22 11:16:02 ${HOST} systemd[1]: bootkube.service: Failed with result 'exit-code'.`,
    ]),
    'unit-status/bootkube.service.log': bootkubeJournal(),
    'bootstrap/journals/bootkube.log': bootkubeJournal(),
    'bootstrap/journals/kubelet.log': kubeletJournal(HOST, '10.0.0.4'),
    'bootstrap/journals/release-image.log': journal([
      `Nov 22 10:13:50 ${HOST} systemd[1]: Starting Download the OpenShift Release Image...`,
      `Nov 22 10:13:50 ${HOST} release-image-download.sh[1980]: Pulling quay.io/openshift-release-dev/ocp-release@sha256:3333333333333333333333333333333333333333333333333333333333333333...`,
      `Nov 22 10:14:40 ${HOST} release-image-download.sh[1980]: 0d2ae0d0b8b1c2f5c0bbbd4b7e8e6f9a5b1c8d9e0f1a2b3c4d5e6f7a8b9c0d1e`,
      `Nov 22 10:14:40 ${HOST} systemd[1]: Finished Download the OpenShift Release Image.`,
    ]),
    'bootstrap/journals/ironic.log': '-- No entries --\n',
    'bootstrap/services/release-image.json': serviceRecords()['release-image'],
    'bootstrap/services/bootkube.json': serviceRecords().bootkube,
    'bootstrap/network/hostname.txt': `${HOST}\n`,
    'bootstrap/network/ip-addr.txt': journal([
      '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000',
      '    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00',
      '    inet 127.0.0.1/8 scope host lo',
      '       valid_lft forever preferred_lft forever',
      '2: ens3: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP group default qlen 1000',
      '    link/ether 52:54:00:aa:bb:04 brd ff:ff:ff:ff:ff:ff',
      '    inet 10.0.0.4/24 brd 10.0.0.255 scope global dynamic noprefixroute ens3',
      '       valid_lft 3200sec preferred_lft 3200sec',
    ]),
    'bootstrap/network/ip-route.txt': 'default via 10.0.0.1 dev ens3 proto dhcp src 10.0.0.4 metric 100\n10.0.0.0/24 dev ens3 proto kernel scope link src 10.0.0.4 metric 100\n',
    'bootstrap/network/resolv.conf': '# Generated by NetworkManager\nsearch ocp4.example.com\nnameserver 10.0.0.1\n',
    [`bootstrap/containers/etcd-${CRICTL_ID}.log`]: journal([
      '{"level":"info","ts":"2026-11-22T10:15:05.100Z","caller":"embed/etcd.go:124","msg":"configuring peer listeners"}',
      '{"level":"warn","ts":"2026-11-22T10:15:40.100Z","caller":"wal/wal.go:805","msg":"slow fdatasync","took":"1.2s","expected-duration":"1s"}',
      '{"level":"info","ts":"2026-11-22T10:16:00.000Z","caller":"etcdmain/etcd.go:44","msg":"received signal; shutting down"}',
    ]),
    [`bootstrap/containers/etcd-${CRICTL_ID}.inspect`]: crictlInspect('etcd', 'CONTAINER_EXITED', 1, 3),
    'bootstrap/etcd/etcd-member-list.txt': MEMBER_LIST_TABLE,
    'rendered-assets/openshift/etcd-bootstrap/bootstrap-manifests/etcd-member-pod.yaml': STATIC_POD,
    'rendered-assets/openshift/manifests/cluster-dns-02-config.yml': 'apiVersion: config.openshift.io/v1\nkind: DNS\nmetadata:\n  name: cluster\nspec:\n  baseDomain: ocp4.example.com\n',
    'rendered-assets/openshift/auth/README.txt': 'kubeconfig removed by installer-gather.sh\n',
    'resources/nodes.json': JSON.stringify(NODES, null, 4),
    'resources/csr.json': JSON.stringify(CSRS, null, 4),
    'resources/clusteroperators.json': JSON.stringify(OPERATORS, null, 4),
    'resources/clusterversion.json': '',
    'resources/masters.list': MASTERS.map((_, i) => `master-${i}.ocp4.example.com`).join('\n') + '\n',
    'resources/configmaps.json': '{"apiVersion":"v1","items":[],"kind":"List"}\n',
  };
  MASTERS.forEach((ip, i) => {
    const host = `master-${i}.ocp4.example.com`;
    const base = `control-plane/${ip}`;
    files[`${base}/journals/kubelet.log`] = kubeletJournal(host, ip);
    files[`${base}/journals/crio.log`] = journal([
      `Nov 22 10:20:01 ${host} crio[1490]: time="2026-11-22 10:20:01.000000000Z" level=info msg="Starting CRI-O, version: 1.30.4"`,
      `Nov 22 10:20:30 ${host} crio[1490]: time="2026-11-22 10:20:30.000000000Z" level=info msg="Pulled image: quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:4444"`,
    ]);
    files[`${base}/journals/pivot.log`] = '-- No entries --\n';
    files[`${base}/failed-units.txt`] = '  UNIT LOAD ACTIVE SUB DESCRIPTION\n0 loaded units listed.\n';
    files[`${base}/network/hostname.txt`] = `${host}\n`;
  });
  return files;
}

const created: string[] = [];

/** A fresh temp folder, removed when the test file ends (see test/support/setup.ts). */
export function tempDir(prefix = 'bootlens-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Removes every temp folder made so far. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes files under `root/<name>/`; returns the bundle folder. */
export function writeTree(root: string, name: string, files: Record<string, string | Buffer>): string {
  const dir = join(root, name);
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  return dir;
}

function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const full = join(dir, n);
      return statSync(full).isDirectory() ? listFiles(full, base) : [relative(base, full)];
    });
}

/** Packs `cwd/<name>` as a tar (gzip optional) with node-tar. */
export async function packTar(cwd: string, name: string, out: string, gzip: boolean): Promise<string> {
  await tar.c({ cwd, file: out, gzip, portable: true }, [name]);
  return out;
}

/** Packs `cwd/<name>` as a zip with yazl. */
export function packZip(cwd: string, name: string, out: string, extra: Record<string, Buffer> = {}): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const rel of listFiles(join(cwd, name))) zip.addFile(join(cwd, name, rel), `${name}/${rel}`);
  for (const [path, buf] of Object.entries(extra)) zip.addBuffer(buf, path);
  zip.end();
  return new Promise((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(out)).on('close', () => resolve(out)).on('error', reject);
  });
}
