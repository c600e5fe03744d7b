// Fills each host's container list from its pods (CRI-O) and from bootkube's podman runs:
// ids, states, commands, mounts and logs, as crictl and podman report them at gather time.
import { RENDER_CONTAINER } from './bootkube.js';
import { containerLog } from './container-logs.js';
import type { CriContainer, HostLogs, PodmanContainer } from './host-logs.js';
import { PlainLog } from './host-logs.js';
import { bootstrapPods, masterPods, type PodSpec } from './pods.js';
import type { Story } from './story.js';
import { SECOND } from './time.js';

const COMMANDS: Record<string, string[]> = {
  etcd: ['/bin/sh', '-c', '#!/bin/sh\nset -euo pipefail\n\nexec etcd \\\n  --initial-advertise-peer-urls=https://${NODE_IP}:2380 \\\n  --cert-file=/etc/ssl/etcd/etcd-all-certs/etcd-serving-bootstrap.crt'],
  etcdctl: ['/bin/bash', '-c', 'trap TERM INT; sleep infinity & wait'],
  'machine-config-server': ['/usr/bin/machine-config-server', 'bootstrap', '--bootstrap-kubeconfig=/etc/mcs/kubeconfig'],
  'machine-config-controller': ['/usr/bin/machine-config-controller', 'bootstrap', '--manifest-dir=/etc/mcc/bootstrap', '--dest-dir=/etc/mcs/bootstrap', '--pull-secret=/etc/mcc/bootstrap/machineconfigcontroller-pull-secret'],
  'kube-apiserver': ['/bin/bash', '-ec', 'hyperkube kube-apiserver --openshift-config=/etc/kubernetes/config/config.yaml --v=2 --advertise-address=${HOST_IP}\n'],
  'cluster-version-operator': ['/usr/bin/cluster-version-operator', 'start', '--release-image=', '--enable-auto-update=false', '--v=2'],
};

/** Init containers: they ran to completion before the pod's containers started. */
const INIT = new Set(['setup', 'etcd-ensure-env-vars', 'etcd-resources-copy', 'render-config', 'render-config-keepalived']);

const CONTROL_PLANE_LOG: Record<string, string> = { 'kube-apiserver': 'kube-apiserver.log', kcm: 'kube-controller-manager.log', scheduler: 'kube-scheduler.log' };

function criFromPod(s: Story, h: HostLogs, pod: PodSpec, where: 'bootstrap' | number, keep: number): CriContainer[] {
  const p = h.prng.fork(`containers/${pod.name}`);
  const sandboxId = p.hex(64);
  const out: CriContainer[] = [];
  const main = pod.containers.filter((n) => !INIT.has(n));
  const chosen = [...pod.containers.filter((n) => INIT.has(n)), ...main.slice(0, keep)];
  for (const name of chosen) {
    const init = INIT.has(name);
    const createdAt = pod.since - p.int(100_000, 900_000) - (init ? 8 * SECOND : 0);
    const stopped = init || (pod.until !== undefined && pod.until <= s.tl.gather);
    const c: CriContainer = {
      id: p.hex(64),
      name,
      podName: pod.name,
      namespace: pod.namespace,
      podUid: pod.uid,
      sandboxId,
      image: pod.image,
      attempt: 0,
      state: stopped ? 'exited' : 'running',
      createdAt,
      startedAt: createdAt + p.int(20_000, 80_000),
      finishedAt: init ? createdAt + p.int(1, 5) * SECOND : stopped ? pod.until : undefined,
      exitCode: 0,
      reason: stopped ? 'Completed' : undefined,
      pid: p.int(3000, 60000),
      command: COMMANDS[name] ?? [`/usr/bin/${name}`],
      mounts: [{ containerPath: '/etc/kubernetes', hostPath: '/etc/kubernetes', readonly: true }],
      env: name === 'kube-apiserver' ? [`HOST_IP=${where === 'bootstrap' ? s.w.bootstrap.ip : s.w.masters[where].ip}`] : undefined,
      log: containerLog(s, pod, name, where, createdAt, init ? createdAt : stopped ? (pod.until as number) : s.tl.gather),
    };
    out.push(c);
  }
  return out;
}

/** The bootstrap host's CRI-O containers and podman containers. */
export function writeBootstrapContainers(s: Story): void {
  const { w, tl } = s;
  const h = s.boot;
  for (const pod of bootstrapPods(w, tl)) {
    // The bootstrap control plane is torn down when cluster-bootstrap finishes.
    const controlPlane = ['kube-apiserver', 'kcm', 'scheduler', 'cvo', 'cco'].includes(pod.kind);
    if (controlPlane && tl.requiredPodsReady !== undefined && tl.requiredPodsReady < tl.gather) pod.until = tl.requiredPodsReady + 60 * SECOND;
    const containers = criFromPod(s, h, pod, 'bootstrap', 2);
    // Their logs stay in /var/log/bootstrap-control-plane; torn-down containers are gone.
    const file = CONTROL_PLANE_LOG[pod.kind];
    if (file) h.extra.set(`containers/bootstrap-control-plane/${file}`, containers[0].log);
    if (pod.until !== undefined) continue;
    for (const c of containers) h.container(c);
  }
  // podman: render containers stay when bootkube runs them without --rm (older releases).
  if (!w.profile.renderRm) {
    const p = h.prng.fork('podman');
    for (const r of tl.render) {
      const rc = RENDER_CONTAINER[r.stage];
      if (!rc || r.end === undefined) continue;
      const image = rc.image === 'release' ? w.release.releaseImage : w.release.images[rc.image];
      const c: PodmanContainer = {
        id: p.hex(64),
        name: rc.name,
        image,
        imageId: p.hex(64),
        path: rc.image === 'release' ? '/usr/bin/cluster-version-operator' : `/usr/bin/${rc.image}`,
        args: rc.image === 'release' ? ['render', '--output-dir=/assets/cvo-bootstrap', `--release-image=${w.release.releaseImage}`] : ['render', `--asset-output-dir=/assets/${r.stage}`],
        state: 'exited',
        createdAt: r.start + 300_000,
        startedAt: r.start + 500_000,
        finishedAt: r.end - 100_000,
        exitCode: 0,
        pid: p.int(3000, 9000),
        mounts: [{ source: '/var/opt/openshift', destination: '/assets', rw: true }],
        env: w.spec.proxy ? [`HTTP_PROXY=${w.spec.proxy}`, `HTTPS_PROXY=${w.spec.proxy}`, `NO_PROXY=.cluster.local,.svc,127.0.0.1,${w.spec.machineCidr},api-int.${w.clusterDomain},localhost`] : [],
        log: new PlainLog(),
      };
      h.podman.push(c);
    }
  }
}

/** A master's CRI-O containers. */
export function writeMasterContainers(s: Story, i: number): void {
  const h = s.masters[i];
  for (const pod of masterPods(s.w, s.tl, s.w.masters[i])) {
    for (const c of criFromPod(s, h, pod, i, pod.kind === 'ovnkube-node' ? 3 : 2)) h.container(c);
  }
}
