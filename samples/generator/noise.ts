// Healthy chatter: the kubelet, CRI-O, etcd and operator lines a working host logs all the
// time (probes, PLEG events, image status checks, cadvisor watch misses, compactions, CNI not
// ready before the network is up). Re-runnable streams; density grows with --scale.
import type { JournalEntry, NoiseSource } from './journal.js';
import type { LogLine, LogNoise } from './host-logs.js';
import { crioLine, etcdJson, klog } from './log-formats.js';
import { Prng } from './prng.js';
import { goSpan, isoSeconds, SECOND, type Micros } from './time.js';

export interface PodRef {
  namespace: string;
  name: string;
  uid: string;
  containers: string[];
  /** Readiness endpoint `ip:port/path`, if probed. */
  probe?: string;
  since: Micros;
}

/** A stream of times from `from` to `to`, mean gap `meanS / density` seconds. */
function* ticks(p: Prng, from: Micros, to: Micros, meanS: number, density: number): Iterable<Micros> {
  const mean = (meanS * SECOND) / Math.max(density, 0.01);
  let t = from + Math.floor(p.float() * mean);
  while (t < to) {
    yield t;
    t += Math.max(1, Math.floor(mean * (0.2 + 1.6 * p.float())));
  }
}

export interface KubeletNoiseOptions {
  seed: string;
  ident: string;
  identPid: number;
  klogPid: number;
  from: Micros;
  to: Micros;
  density: number;
  pods: () => PodRef[];
  /** Before this time the pod network is not ready (CNI missing). */
  cniReadyAt?: Micros;
  /** Node name when the kubelet talks to an API (masters); undefined on the bootstrap host. */
  node?: string;
  apiInt?: string;
  apiIp?: string;
  /** When the API answered the node; before it, list/watch and status calls fail. */
  apiReachableAt?: Micros;
  nameservers?: string[];
  cgroupV2: boolean;
  /** The host's clock offset, for the times inside messages. */
  offset?: number;
  /** Error text of the kubelet's API calls while it cannot reach the API. */
  apiError?: string;
}

const WATCH_EVENTS = ['ContainerStarted', 'ContainerDied'];

/** kubelet's klog chatter. */
export function kubeletNoise(o: KubeletNoiseOptions): NoiseSource {
  return function* (): Iterable<JournalEntry> {
    const p = new Prng(o.seed);
    for (const t of ticks(p, o.from, o.to, 30, o.density)) {
      const pods = o.pods().filter((x) => x.since <= t);
      const pod = pods.length ? p.pick(pods) : undefined;
      const line = (sev: 'I' | 'W' | 'E', caller: string, msg: string): JournalEntry => ({ t, ident: o.ident, pid: o.identPid, msg: klog(t + (o.offset ?? 0), sev, o.klogPid, caller, msg) });
      const cniDown = o.cniReadyAt === undefined || t < o.cniReadyAt;
      const apiDown = o.node !== undefined && (o.apiReachableAt === undefined || t < o.apiReachableAt);
      const r = p.float();
      if (cniDown && r < 0.22) {
        yield line('E', 'kubelet.go:2874', '"Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?"');
      } else if (apiDown && r < 0.36) {
        const res = p.pick(['services', 'nodes', 'runtimeclasses', 'csidrivers']);
        const path = res === 'nodes' ? `nodes?fieldSelector=metadata.name%3D${o.node}&limit=500&resourceVersion=0` : res === 'services' ? 'services?fieldSelector=spec.clusterIP%21%3DNone&limit=500&resourceVersion=0' : `${res}?limit=500&resourceVersion=0`;
        const group = res === 'runtimeclasses' ? 'apis/node.k8s.io/v1' : res === 'csidrivers' ? 'apis/storage.k8s.io/v1' : 'api/v1';
        const kind = { services: 'Service', nodes: 'Node', runtimeclasses: 'RuntimeClass', csidrivers: 'CSIDriver' }[res];
        yield line('W', 'reflector.go:539', `k8s.io/client-go/informers/factory.go:159: failed to list *v1.${kind}: Get "https://${o.apiInt}:6443/${group}/${path}": ${o.apiError ?? `dial tcp ${o.apiIp}:6443: connect: connection refused`}`);
      } else if (apiDown && r < 0.42) {
        yield line('E', 'kubelet.go:2913', `"Error getting node" err="node \\"${o.node}\\" not found"`);
      } else if (pod && r < 0.55) {
        yield line('I', 'kubelet.go:2528', `"SyncLoop (probe)" probe="${p.pick(['readiness', 'liveness', 'startup'])}" status="${p.chance(0.9) ? 'ready' : 'unhealthy'}" pod="${pod.namespace}/${pod.name}"`);
      } else if (pod && r < 0.63) {
        const hex = p.hex(64);
        const scope = o.cgroupV2
          ? `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${pod.uid.replace(/-/g, '_')}.slice/crio-${hex}.scope`
          : `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${pod.uid.replace(/-/g, '_')}.slice/crio-conmon-${hex}.scope`;
        yield line('W', 'manager.go:1169', `Failed to process watch event {EventType:0 Name:${scope} WatchSource:0}: Error finding container ${hex}: Status 404 returned error can't find the container with id ${hex}`);
      } else if (pod && r < 0.7) {
        yield line('I', 'kubelet.go:2453', `"SyncLoop (PLEG): event for pod" pod="${pod.namespace}/${pod.name}" event={"ID":"${pod.uid}","Type":"${p.pick(WATCH_EVENTS)}","Data":"${p.hex(64)}"}`);
      } else if (pod && pod.probe && r < 0.76) {
        const [hostPort, path] = pod.probe.split('/', 2);
        yield line('I', 'prober.go:107', `"Probe failed" probeType="Readiness" pod="${pod.namespace}/${pod.name}" podUID="${pod.uid}" containerName="${pod.containers[0]}" probeResult="failure" output="Get \\"https://${hostPort}/${path ?? 'healthz'}\\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"`);
      } else if (o.nameservers && o.nameservers.length > 3 && r < 0.82) {
        yield line('E', 'dns.go:153', `"Nameserver limits exceeded" err="Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${o.nameservers.slice(0, 3).join(' ')}"`);
      } else if (pod && r < 0.88) {
        yield line('I', 'kubelet_getters.go:218', `"Pod status updated" pod="${pod.namespace}/${pod.name}" status="Running"`);
      } else if (o.node && !apiDown && pod && r < 0.94) {
        yield line('I', 'kubelet.go:2437', `"SyncLoop UPDATE" source="api" pods=["${pod.namespace}/${pod.name}"]`);
      } else if (pod) {
        yield line('I', 'kubelet_volumes.go:163', `"Cleaned up orphaned pod volumes dir" podUID="${p.uuid()}" path="/var/lib/kubelet/pods/${p.uuid()}/volumes"`);
      }
    }
  };
}

export interface CrioNoiseOptions {
  seed: string;
  pid: number;
  from: Micros;
  to: Micros;
  density: number;
  iso: boolean;
  images: string[];
  pods: () => PodRef[];
  offset?: number;
}

/** CRI-O's info-level chatter: image status checks dominate. */
export function crioNoise(o: CrioNoiseOptions): NoiseSource {
  return function* (): Iterable<JournalEntry> {
    const p = new Prng(o.seed);
    for (const t of ticks(p, o.from, o.to, 45, o.density)) {
      const img = p.pick(o.images);
      const id = p.uuid();
      const line = (level: string, msg: string, fields: [string, string][] = []): JournalEntry => ({ t, ident: 'crio', pid: o.pid, msg: crioLine(t + (o.offset ?? 0), o.iso, p.int(0, 999), level, msg, fields) });
      const r = p.float();
      if (r < 0.45) {
        yield line('info', `Checking image status: ${img}`, [['id', id], ['name', '/runtime.v1.ImageService/ImageStatus']]);
        yield {
          ...line('info', `Image status: &ImageStatusResponse{Image:&Image{Id:${p.hex(64)},RepoTags:[],RepoDigests:[${img}],Size_:${p.int(250, 950)}${p.int(100000, 999999)},Uid:nil,Username:,Spec:nil,Pinned:false,},Info:map[string]string{},}`, [['id', id], ['name', '/runtime.v1.ImageService/ImageStatus']]),
          t: t + p.int(200, 9000),
        };
      } else if (r < 0.7) {
        yield line('info', 'Checking image status: ' + p.pick(o.images), [['id', id], ['name', '/runtime.v1.ImageService/ImageStatus']]);
      } else if (r < 0.78) {
        const pods = o.pods().filter((x) => x.since <= t);
        if (!pods.length) continue;
        const pod = p.pick(pods);
        const c = p.pick(pod.containers);
        yield line('info', `Removed container ${p.hex(64)}: ${pod.namespace}/${pod.name}/${c}`, [['id', id], ['name', '/runtime.v1.RuntimeService/RemoveContainer']]);
      } else if (r < 0.84) {
        yield line('info', 'Checking image status: ' + img, [['id', id], ['name', '/runtime.v1.ImageService/ImageStatus']]);
      } else {
        yield line('info', 'Stopping container: ' + p.hex(64) + ' (timeout: 30s)', [['id', id], ['name', '/runtime.v1.RuntimeService/StopContainer']]);
      }
    }
  };
}

export interface EtcdNoiseOptions {
  seed: string;
  from: Micros;
  to: Micros;
  density: number;
  memberId: string;
  /** Slow disk: fsync and apply warnings much more often. */
  slowDisk?: boolean;
}

/** etcd's periodic JSON lines: compactions, occasional slow applies. */
export function etcdNoise(o: EtcdNoiseOptions): LogNoise {
  return function* (): Iterable<LogLine> {
    const p = new Prng(o.seed);
    let rev = p.int(400, 900);
    for (const t of ticks(p, o.from, o.to, o.slowDisk ? 6 : 120, o.density)) {
      rev += p.int(80, 900);
      const r = p.float();
      if (o.slowDisk && r < 0.45) {
        const took = goSpan(p.int(1_000_000, 4_000_000), p.int(0, 999));
        yield { t, text: etcdJson(t, 'warn', 'wal/wal.go:805', 'slow fdatasync', { took, 'expected-duration': '1s' }) };
      } else if (o.slowDisk && r < 0.8) {
        const took = goSpan(p.int(200_000, 2_400_000), p.int(0, 999));
        yield {
          t,
          text: etcdJson(t, 'warn', 'etcdserver/util.go:170', 'apply request took too long', {
            took,
            'expected-duration': '200ms',
            prefix: 'read-only range ',
            request: `key:"/kubernetes.io/${p.pick(['configmaps', 'leases', 'pods', 'secrets'])}/${p.pick(['openshift-etcd', 'kube-system', 'openshift-kube-apiserver'])}/" range_end:"/kubernetes.io/configmaps/openshift-etcd0" `,
            response: 'range_response_count:0 size:6',
          }),
        };
      } else if (r < 0.55) {
        yield { t, text: etcdJson(t, 'info', 'mvcc/index.go:214', 'compact tree index', { revision: rev }) };
        yield { t: t + p.int(3000, 60000), text: etcdJson(t, 'info', 'mvcc/kvstore_compaction.go:66', 'finished scheduled compaction', { 'compact-revision': rev, took: `${p.int(2, 40)}.${p.int(100000, 999999)}ms`, hash: p.u32(), 'current-db-size-bytes': p.int(20, 90) * 1048576, 'current-db-size': `${p.int(20, 90)} MB`, 'current-db-size-in-use-bytes': p.int(8, 20) * 1048576, 'current-db-size-in-use': `${p.int(8, 20)} MB` }) };
      } else if (r < 0.65) {
        yield { t, text: etcdJson(t, 'info', 'mvcc/hash.go:137', 'storing new hash', { hash: p.u32(), revision: rev, 'compact-revision': rev - p.int(200, 800) }) };
      } else if (r < 0.72) {
        const took = goSpan(p.int(100_000, 190_000), p.int(0, 999));
        yield { t, text: etcdJson(t, 'warn', 'etcdserver/util.go:170', 'apply request took too long', { took, 'expected-duration': '100ms', prefix: 'read-only range ', request: 'key:"/kubernetes.io/health" ', response: 'range_response_count:0 size:6' }) };
      } else {
        yield { t, text: etcdJson(t, 'info', 'traceutil/trace.go:171', 'trace[' + p.int(100000000, 999999999) + '] range', { detail: `{range_begin:/kubernetes.io/leases/kube-system/; range_end:; response_count:1; response_revision:${rev}; }`, duration: `${p.int(100, 300)}.${p.int(100000, 999999)}ms`, start: isoSeconds(t), end: isoSeconds(t), steps: ["trace[1] 'agreement among raft nodes before linearized reading'  (duration: 102.345ms)"], 'step_count': 1 }) };
      }
    }
  };
}

/** A generic klog chatter stream for an operator or server container (pid 1). */
export function klogNoise(seed: string, from: Micros, to: Micros, density: number, meanS: number, lines: readonly (readonly [string, string, 'I' | 'W' | 'E'])[]): LogNoise {
  return function* (): Iterable<LogLine> {
    const p = new Prng(seed);
    for (const t of ticks(p, from, to, meanS, density)) {
      const [caller, msg, sev] = p.pick(lines);
      yield { t, text: klog(t, sev, 1, caller, msg.replace(/\{hex\}/g, () => p.hex(8)).replace(/\{n\}/g, () => String(p.int(1, 999)))) };
    }
  };
}
