// Failures once the bootstrap control plane answers: masters that cannot fetch ignition (DNS,
// a blocked port), masters that cannot run pods (images, OVN), etcd that cannot scale, the
// CVO overrides that cannot be restored, workers' CSRs left pending, an operator degraded.
import { etcdJson, klog } from '../log-formats.js';
import { masterPods } from '../pods.js';
import type { Story } from '../story.js';
import { MINUTE, SECOND, type Micros } from '../time.js';
import type { Failure } from './failure.js';

function kubeletLine(s: Story, i: number, t: Micros, sev: 'I' | 'W' | 'E', caller: string, msg: string): void {
  const h = s.masters[i];
  const pid = h.host.pids['kubelet'] ?? 1600;
  h.journal('kubelet').add(t, s.w.profile.kubeletIdent, klog(t + h.host.clockOffset, sev, pid, caller, msg), pid);
}

function masterEvidence(s: Story, i: number, rel: string, contains: string): void {
  s.evidence.push({ host: { master: i }, rel, contains });
}

export const apiIntDns: Failure = {
  block: 'master-ignition',
  hooks: {
    mastersUnreachable: true,
    ignitionError: (s, i) => [`ignition[${824 + i}]: GET error: Get "https://${s.w.apiIntName}:22623/config/master": dial tcp: lookup ${s.w.apiIntName} on ${s.w.dnsServer}:53: no such host`],
  },
  apply(s) {
    s.evidence.push({ host: { serial: `${s.w.infraId}-master-0` }, rel: '', contains: `dial tcp: lookup ${s.w.apiIntName} on ${s.w.dnsServer}:53: no such host` });
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/services/bootkube.json', contains: '"stage": "resolve-api-int-url"' });
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: `Unable to resolve API_INT_URL ${s.w.apiIntName}` });
  },
};

export const mcsPortBlocked: Failure = {
  block: 'master-ignition',
  hooks: {
    mastersUnreachable: true,
    ignitionError: (s, i) => [`ignition[${826 + i}]: GET error: Get "https://${s.w.apiIntName}:22623/config/master": dial tcp ${s.w.apiVip}:22623: i/o timeout`],
  },
  apply(s) {
    s.evidence.push({ host: { serial: `${s.w.infraId}-master-1` }, rel: '', contains: `dial tcp ${s.w.apiVip}:22623: i/o timeout` });
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: 'Pod Status:openshift-kube-apiserver/kube-apiserver\tDoesNotExist' });
  },
};

export const mastersImagePullTimeout: Failure = {
  block: 'master-ready',
  apply(s) {
    const { w, tl } = s;
    const registry = w.spec.mirror as string;
    const regIp = '10.30.0.15';
    const err = `pinging container registry ${registry}: Get \\\\\\"https://${registry}/v2/\\\\\\": dial tcp ${regIp}:5000: i/o timeout`;
    w.masters.forEach((m, i) => {
      const reg = tl.masterRegistered[i];
      if (reg === undefined) return;
      const p = s.masters[i].prng.fork('pull');
      const pods = masterPods(w, tl, m);
      for (const pod of pods) {
        const c = pod.containers[pod.containers.length - 1];
        for (let t = pod.since + 30 * SECOND; t < tl.gather; t += Math.round((p.int(120, 320) * SECOND) / Math.min(1, Math.max(0.3, s.density)))) {
          const phase = (t - pod.since) / MINUTE < 3 ? 'ErrImagePull' : 'ImagePullBackOff';
          kubeletLine(s, i, t, 'E', 'pod_workers.go:1300', phase === 'ErrImagePull'
            ? `"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"${c}\\" with ErrImagePull: \\"rpc error: code = DeadlineExceeded desc = ${err}\\"" pod="${pod.namespace}/${pod.name}" podUID="${pod.uid}"`
            : `"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"${c}\\" with ImagePullBackOff: \\"Back-off pulling image \\\\\\"${w.release.images[pod.kind === 'ovnkube-node' ? 'ovn-kubernetes' : 'multus-cni']}\\\\\\"\\"" pod="${pod.namespace}/${pod.name}" podUID="${pod.uid}"`);
        }
        s.cluster.podStatus.set(`${pod.namespace}/${pod.name}`, { phase: 'Pending', ready: false, waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${pod.image}"` } });
        s.cluster.events.push({ t: pod.since + 40 * SECOND, ns: pod.namespace, kind: 'Pod', name: pod.name, reason: 'Failed', message: `Failed to pull image "${pod.image}": rpc error: code = DeadlineExceeded desc = pinging container registry ${registry}: Get "https://${registry}/v2/": dial tcp ${regIp}:5000: i/o timeout`, type: 'Warning', count: Math.max(1, Math.round((tl.gather - pod.since) / (5 * MINUTE))) });
      }
    });
    masterEvidence(s, 0, 'journals/kubelet.log', `dial tcp ${regIp}:5000: i/o timeout`);
    s.evidence.push({ host: 'bootstrap', rel: 'resources/events.json', contains: 'Failed to pull image' });
  },
};

export const ovnNoGateway: Failure = {
  block: 'master-ready',
  apply(s) {
    const { w, tl } = s;
    w.masters.forEach((m, i) => {
      const ovn = s.masters[i].containers.find((c) => c.name === 'ovnkube-controller');
      const pods = masterPods(w, tl, m);
      const node = pods.find((x) => x.kind === 'ovnkube-node');
      if (!node) return;
      const p = s.masters[i].prng.fork('ovn');
      let restarts = 0;
      let last = node.since;
      for (let t = node.since + 20 * SECOND; t < tl.gather; t += Math.min(5 * MINUTE, 10 * SECOND * 2 ** Math.min(restarts, 5)) + p.int(20, 40) * SECOND) {
        restarts++;
        last = t;
        if (restarts <= 3 || restarts % 3 === 0) {
          kubeletLine(s, i, t + 500_000, 'E', 'pod_workers.go:1300', `"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"ovnkube-controller\\" with CrashLoopBackOff: \\"back-off ${restarts < 5 ? `${10 * 2 ** (restarts - 1)}s` : '5m0s'} restarting failed container=ovnkube-controller pod=${node.name}_openshift-ovn-kubernetes(${node.uid})\\"" pod="openshift-ovn-kubernetes/${node.name}" podUID="${node.uid}"`);
        }
      }
      if (ovn) {
        const t = last;
        ovn.state = 'exited';
        ovn.exitCode = 1;
        ovn.attempt = restarts;
        ovn.startedAt = t - 12 * SECOND;
        ovn.finishedAt = t;
        ovn.log.add(t - 11 * SECOND, klog(t - 11 * SECOND, 'I', 1, 'ovnkube.go:599', `Running command: ovnkube --init-ovnkube-controller ${m.nodeName} --init-node ${m.nodeName} --config-file=/run/ovnkube-config/ovnkube.conf --ovn-empty-lb-events --loglevel 4 --inactivity-probe=180000 --gateway-mode shared --gateway-interface br-ex --metrics-bind-address 127.0.0.1:29103`));
        ovn.log.add(t - 9 * SECOND, klog(t - 9 * SECOND, 'I', 1, 'gateway_shared_intf.go:1843', `Creating new gateway for node ${m.nodeName}`));
        ovn.log.add(t - 1 * SECOND, klog(t - 1 * SECOND, 'F', 1, 'ovnkube.go:137', 'failed to run ovnkube: [failed to start network controller: failed to start default network controller: failed to init default node network controller: failed to get default gateway interface, failed to start node network controller: failed to start default node network controller: failed to get default gateway interface]'));
        if (i === 0) masterEvidence(s, i, `containers/ovnkube-controller-${ovn.id}.log`, 'failed to get default gateway interface');
      }
      s.cluster.podStatus.set(`openshift-ovn-kubernetes/${node.name}`, { phase: 'Running', ready: false, waiting: { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=ovnkube-controller pod=${node.name}_openshift-ovn-kubernetes(${node.uid})` }, lastTerminated: { reason: 'Error', exitCode: 1, at: last }, restarts });
      if (i === 0) s.cluster.operators.set('network', { available: false, progressing: true, degraded: true, reason: 'RolloutHung', message: `DaemonSet "/openshift-ovn-kubernetes/ovnkube-node" rollout is not making progress - pod ${node.name} is in CrashLoopBackOff State`, since: node.since + 10 * MINUTE });
    });
    masterEvidence(s, 0, 'journals/kubelet.log', 'NetworkPluginNotReady');
    s.evidence.push({ host: 'bootstrap', rel: 'resources/clusteroperators.json', contains: 'ovnkube-node\\" rollout is not making progress' });
  },
};

export const etcdPeerPortBlocked: Failure = {
  block: 'ceo',
  hooks: {
    ceoWait: (s, from, to) => {
      const out: { t: Micros; line: string }[] = [];
      for (let t = from; t < to; t += Math.round((9 * SECOND) / Math.min(1, Math.max(0.15, s.density)))) out.push({ t, line: klog(t, 'I', 1, 'waitforceo.go:67', 'waiting on condition EtcdRunningInCluster in etcd CR /cluster to be True.') });
      return out;
    },
  },
  apply(s) {
    const { w, tl } = s;
    w.masters.forEach((_, i) => {
      const etcd = s.masters[i].containers.find((c) => c.name === 'etcd');
      if (!etcd) return;
      const p = s.masters[i].prng.fork('peer');
      const others = w.masters.filter((_, k) => k !== i);
      for (let t = etcd.startedAt + 30 * SECOND; t < tl.gather; t += Math.round((p.int(5, 30) * SECOND) / Math.min(1, Math.max(0.2, s.density)))) {
        const o = p.pick(others);
        etcd.log.add(t, etcdJson(t, 'warn', 'rafthttp/probing_status.go:68', 'prober detected unhealthy status', { 'round-tripper-name': p.pick(['ROUND_TRIPPER_SNAPSHOT', 'ROUND_TRIPPER_RAFT_MESSAGE']), 'remote-peer-id': w.prng.fork(`etcd-member/${o.index}`).hex(16), rtt: '0s', error: `dial tcp ${o.ip}:2380: i/o timeout` }));
      }
      if (i === 0) masterEvidence(s, 0, `containers/etcd-${etcd.id}.log`, `dial tcp ${w.masters[1].ip}:2380: i/o timeout`);
    });
    s.cluster.operators.set('etcd', { available: true, progressing: true, degraded: true, reason: 'EtcdMembers_UnhealthyMembers', message: `EtcdMembersDegraded: 2 of 4 members are available, ${w.masters[1].nodeName} is unhealthy, ${w.masters[2].nodeName} is unhealthy`, since: (tl.ceoStart as Micros) + 4 * MINUTE });
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: 'waiting on condition EtcdRunningInCluster' });
  },
};

export const cvoOverridesLb: Failure = {
  block: 'cvo-overrides',
  hooks: {
    cvoOverridesError: (s, t) => {
      const p = s.boot.prng.fork(`oc/${t}`);
      const pid = p.int(20000, 90000);
      const lines = [0, 1, 2].map((k) => klog(t + k * 100_000, 'E', pid, 'memcache.go:265', `couldn't get current server API group list: Get "https://${s.w.apiIntName}:6443/api?timeout=32s": dial tcp ${s.w.apiVip}:6443: connect: connection refused`));
      return [...lines, `The connection to the server ${s.w.apiIntName}:6443 was refused - did you specify the right host or port?`];
    },
  },
  apply(s) {
    const { w, tl } = s;
    const teardown = (tl.requiredPodsReady as Micros) + 40 * SECOND;
    w.masters.forEach((m, i) => {
      const p = s.masters[i].prng.fork('lost-api');
      for (let t = teardown + p.int(5, 20) * SECOND; t < tl.gather; t += Math.round((p.int(10, 40) * SECOND) / Math.min(1, Math.max(0.25, s.density)))) {
        kubeletLine(s, i, t, 'E', 'kubelet_node_status.go:540', `"Error updating node status, will retry" err="error getting node \\"${m.nodeName}\\": Get \\"https://${w.apiIntName}:6443/api/v1/nodes/${m.nodeName}?resourceVersion=0&timeout=10s\\": dial tcp ${w.apiVip}:6443: connect: connection refused"`);
      }
    });
    s.cluster.apiAtGather = false;
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: 'Trying again to restore CVO overrides' });
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/services/bootkube.json', contains: '"stage": "cvo-overrides"' });
    masterEvidence(s, 0, 'journals/kubelet.log', `dial tcp ${w.apiVip}:6443: connect: connection refused`);
  },
};

export const workerCsrPending: Failure = {
  block: 'workers-ready',
  adjust(tl) {
    // Workers booted after bootkube finished: nobody approves their client CSRs.
    tl.workerRegistered = tl.workerRegistered.map(() => undefined);
    tl.workerReady = tl.workerReady.map(() => undefined);
  },
  apply(s) {
    const { w, tl } = s;
    const from = (tl.progressDone ?? tl.bootkubeComplete ?? tl.gather) + 7 * MINUTE;
    w.workers.forEach((h, i) => {
      for (let t = from + i * 41 * SECOND; t < tl.gather; t += 15 * MINUTE + (i + 1) * 7 * SECOND) s.cluster.pendingCsrs.push({ node: h.nodeName, signer: 'kubelet-client', created: t });
    });
    const since = from + 2 * MINUTE;
    s.cluster.operators.set('ingress', { available: false, progressing: true, degraded: true, reason: 'IngressDegraded', message: 'The "default" ingress controller reports Degraded=True: DegradedConditions: One or more other status conditions indicate a degraded state: PodsScheduled=False (PodsNotScheduled: Some pods are not scheduled: Pod "router-default-6b7d4f8c9d-x2kqz" cannot be scheduled: 0/3 nodes are available: 3 node(s) had untolerated taint {node-role.kubernetes.io/master: }. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling. Make sure you have sufficient worker nodes.)', since });
    s.cluster.operators.set('console', { available: false, progressing: true, degraded: false, reason: 'RouteHealth_FailedGet', message: `RouteHealthAvailable: failed to GET route (https://console-openshift-console.apps.${w.clusterDomain}): Get "https://console-openshift-console.apps.${w.clusterDomain}": EOF`, since });
    s.cluster.operators.set('authentication', { available: false, progressing: true, degraded: true, reason: 'OAuthServerRouteEndpointAccessibleController_EndpointUnavailable', message: `OAuthServerRouteEndpointAccessibleControllerDegraded: Get "https://oauth-openshift.apps.${w.clusterDomain}/healthz": EOF`, since });
    s.cluster.operators.set('monitoring', { available: false, progressing: true, degraded: true, reason: 'UpdatingPrometheusOperatorFailed', message: 'waiting for Prometheus Operator Admission Webhook Deployment to become ready: context deadline exceeded', since });
    s.evidence.push({ host: 'bootstrap', rel: 'resources/csr.json', contains: 'system:serviceaccount:openshift-machine-config-operator:node-bootstrapper' });
    s.evidence.push({ host: 'bootstrap', rel: 'resources/nodes.list', contains: w.masters[0].nodeName });
  },
};

export const snoConsoleDegraded: Failure = {
  block: 'operators',
  singleNode: true,
  apply(s) {
    const { w, tl } = s;
    const since = (tl.progressDone ?? tl.gather) + 6 * MINUTE;
    s.cluster.operators.set('console', { available: false, progressing: false, degraded: true, reason: 'RouteHealth_StatusError', message: `RouteHealthDegraded: route not yet available, https://console-openshift-console.apps.${w.clusterDomain} returns '503 Service Unavailable'`, since });
    s.evidence.push({ host: 'root', rel: 'resources/clusteroperators.json', contains: 'RouteHealthDegraded' });
  },
};

export const healthy: Failure = {
  apply(s) {
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: 'bootkube.service complete' });
  },
};
