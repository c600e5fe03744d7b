// Failures on the bootstrap host before its control plane answers: CRI-O refusing to start,
// a mirror missing an image, the disk filling up, etcd on a slow disk, a clock behind the
// installer's, the serving certificates expired, kube-apiserver killed for memory.
import { crioLine, etcdJson, klog } from '../log-formats.js';
import { goSpan, HOUR, isoSeconds, MINUTE, SECOND, type Micros } from '../time.js';
import { Prng } from '../prng.js';
import { ignitionGeneratedAt } from '../rendered.js';
import { digestOf, mirrorRef, tlsPrefix, type Failure } from './failure.js';

const CRIO_FATAL = 'validating network config: invalid plugin_dirs entry: mkdir /opt/cni: file exists';

export const crioOptCni: Failure = {
  block: 'crio',
  hooks: { mastersUnreachable: true },
  apply(s) {
    const { w, tl, sd } = s;
    const cj = s.boot.journal('crio');
    const kj = s.boot.journal('kubelet');
    const p = s.boot.prng.fork('crio-loop');
    const iso = w.profile.crioIsoTime;
    const start = (tl.releasePulled as Micros) + 2_500_000;
    // The first boot (before the OS pivot) ran CRI-O fine; it was stopped for the reboot.
    const b1 = w.t0 - p.int(9, 14) * MINUTE;
    cj.add(b1, 'systemd', 'Starting crio.service - Container Runtime Interface for OCI (CRI-O)...', 1, 1);
    cj.add(b1 + 900_000, 'crio', crioLine(b1 + 900_000, iso, p.int(0, 999), 'info', `Starting CRI-O, version: ${w.release.crioVersion.split('-')[0]}, git: ${p.hex(40)}(clean)`), 1203, 1);
    cj.add(b1 + 1_400_000, 'systemd', 'Started crio.service - Container Runtime Interface for OCI (CRI-O).', 1, 1);
    cj.add(w.t0 - p.int(40, 90) * SECOND, 'systemd', 'Stopping crio.service - Container Runtime Interface for OCI (CRI-O)...', 1, 1);
    cj.add(w.t0 - p.int(20, 39) * SECOND, 'systemd', 'crio.service: Deactivated successfully.', 1, 1);
    const kpid = s.boot.host.pids['kubelet'] ?? 2600;
    let counter = 0;
    let cycle = 0;
    const stride = Math.max(1, Math.round(4 / Math.max(0.05, s.density)));
    for (let t = start; t < tl.gather; t += p.int(10_200, 11_800) * 1000) {
      counter++;
      cycle++;
      const pid = s.boot.pid('crio') + (counter - 1) * 7;
      const keep = cycle <= 3 || cycle % stride === 0 || t + 12 * SECOND >= tl.gather;
      if (!keep) continue;
      if (counter > 1) {
        cj.add(t - 200_000, 'systemd', `crio.service: Scheduled restart job immediately on client request, restart counter is at ${counter - 1}.`, 1);
        sd.starting(cj, t - 150_000, 'crio');
        cj.add(t - 100_000, '(crio)', 'crio.service: Referenced but unset environment variable evaluates to an empty string: CRIO_CONFIG_OPTIONS, CRIO_METRICS_OPTIONS, CRIO_NETWORK_OPTIONS, CRIO_RUNTIME_OPTIONS', pid);
        cj.add(t, 'crio', crioLine(t, iso, p.int(0, 999), 'info', 'Updating config from single file: /etc/crio/crio.conf'), pid);
        cj.add(t + 40, 'crio', crioLine(t + 40, iso, p.int(0, 999), 'info', 'Updating config from drop-in file: /etc/crio/crio.conf.d/00-default'), pid);
        cj.add(t + 60, 'crio', crioLine(t + 60, iso, p.int(0, 999), 'info', 'Updating config from drop-in file: /etc/crio/crio.conf.d/50-bootstrap-override.conf'), pid);
      }
      cj.add(t + 300_000, 'crio', crioLine(t + 300_000, iso, p.int(0, 999), 'fatal', CRIO_FATAL), pid);
      cj.add(t + 310_000, 'systemd', 'crio.service: Main process exited, code=exited, status=1/FAILURE', 1);
      cj.add(t + 310_000, 'systemd', "crio.service: Failed with result 'exit-code'.", 1);
      cj.add(t + 311_000, 'systemd', 'Failed to start crio.service - Container Runtime Interface for OCI (CRI-O).', 1);
      // kubelet wants CRI-O; it starts, cannot reach the socket, exits, and is restarted.
      const kt = t + 400_000;
      if (counter > 1) sd.starting(kj, kt, 'kubelet');
      kj.add(kt + 300_000, 'kubelet.sh', klog(kt + 300_000, 'E', kpid + counter * 7, 'run.go:74', '"command failed" err="failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint \\"unix:///var/run/crio/crio.sock\\": rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing: dial unix /var/run/crio/crio.sock: connect: no such file or directory\\""'), kpid + counter * 7);
      sd.failed(kj, kt + 320_000, 'kubelet', 1, { restart: true, counter });
    }
    s.boot.fail('crio', 'Container Runtime Interface for OCI (CRI-O)');
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/crio.log', contains: 'invalid plugin_dirs entry: mkdir /opt/cni: file exists' });
    s.evidence.push({ host: 'bootstrap', rel: 'unit-status/crio.service.txt', contains: 'Result: exit-code' });
  },
};

export const mirrorManifestUnknown: Failure = {
  block: 'render:etcd-bootstrap',
  hooks: {
    mastersUnreachable: true,
    renderError: (s) => {
      const img = s.w.release.images['cluster-etcd-operator'];
      return {
        lines: [`Error: initializing source docker://${img}: (Mirrors also failed: [${mirrorRef(s, img)}: reading manifest ${digestOf(img)} in ${s.w.spec.mirror}/ocp4/openshift4: manifest unknown]): ${img}: pinging container registry quay.io: Get "https://quay.io/v2/": dial tcp: lookup quay.io on ${s.w.dnsServer}:53: no such host`],
        status: 125,
      };
    },
  },
  apply(s) {
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: 'manifest unknown' });
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/services/bootkube.json', contains: '"stage": "etcd-bootstrap"' });
  },
};

export const bootstrapDiskFull: Failure = {
  block: 'render:mco-bootstrap',
  hooks: {
    mastersUnreachable: true,
    renderError: (s, _stage, t) => {
      const p = s.boot.prng.fork(`enospc/${t}`);
      const dir = `/var/tmp/container_images_storage${p.int(1000000000, 4200000000)}`;
      return { lines: [`Error: writing blob: storing blob to file "${dir}/${p.int(1, 9)}": write ${dir}/${p.int(1, 9)}: no space left on device`], status: 125 };
    },
  },
  apply(s) {
    const { w, tl } = s;
    const kj = s.boot.journal('kubelet');
    const kpid = s.boot.host.pids['kubelet'] ?? 2600;
    const ident = w.profile.bootstrapKubeletIdent;
    const p = s.boot.prng.fork('eviction');
    const from = (tl.render.find((r) => r.stage === 'mco-bootstrap')?.start ?? tl.gather) - 4 * MINUTE;
    for (let t = from; t < tl.gather; t += Math.round((p.int(60, 180) * SECOND) / Math.min(1, Math.max(0.3, s.density)))) {
      kj.add(t, ident, klog(t, 'W', kpid, 'eviction_manager.go:366', '"Eviction manager: attempting to reclaim" resourceName="ephemeral-storage"'), s.boot.pid('kubelet.sh'));
      kj.add(t + 2000, ident, klog(t + 2000, 'I', kpid, 'container_gc.go:88', '"Attempting to delete unused containers"'), s.boot.pid('kubelet.sh'));
      kj.add(t + 90_000, ident, klog(t + 90_000, 'I', kpid, 'image_gc_manager.go:391', `"Disk usage on image filesystem is over the high threshold, trying to free bytes down to the low threshold" usage=${p.int(96, 99)} highThreshold=85 amountToFree=${p.int(2, 5)}${p.int(100000000, 999999999)} lowThreshold=80`), s.boot.pid('kubelet.sh'));
      kj.add(t + 95_000, ident, klog(t + 95_000, 'E', kpid, 'eviction_manager.go:341', '"Eviction manager: eviction thresholds have been met, but no pods are active to evict"'), s.boot.pid('kubelet.sh'));
    }
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: 'no space left on device' });
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/services/bootkube.json', contains: '"stage": "mco-bootstrap"' });
    if (w.spec.proxy) {
      for (const c of s.boot.podman) s.secrets.push({ host: 'bootstrap', rel: `bootstrap/pods/${c.id.slice(0, 12)}.inspect`, value: new URL(w.spec.proxy).password, kind: 'proxy password in container environment' });
      s.secrets.push({ host: 'bootstrap', rel: 'rendered-assets/openshift/manifests/cluster-proxy-01-config.yaml', value: new URL(w.spec.proxy).password, kind: 'proxy password in the cluster proxy config' });
      s.secrets.push({ host: 'bootstrap', rel: 'rendered-assets/openshift/manifests/cluster-config.yaml', value: new URL(w.spec.proxy).password, kind: 'proxy password in install-config' });
    }
  },
};

export const bootstrapEtcdSlowDisk: Failure = {
  block: 'etcd-healthy',
  hooks: {
    etcdHealthError: (s, t) => {
      const p = s.boot.prng.fork(`etcdctl/${t}`);
      return [
        `{"level":"warn","ts":"${isoSeconds(t).replace('Z', '')}.${String(p.int(0, 999)).padStart(3, '0')}Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-${p.uuid()}/localhost:2379","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}`,
        'https://localhost:2379 is unhealthy: failed to commit proposal: context deadline exceeded',
        'Error: unhealthy cluster',
      ];
    },
  },
  apply(s) {
    const { tl } = s;
    const etcd = s.boot.containers.find((c) => c.name === 'etcd' || c.name === 'etcd-member');
    if (etcd) {
      const p = s.boot.prng.fork('slow-etcd');
      // The WAL syncs take seconds on this disk.
      etcd.log.addNoise(() => slowDisk(p.seed, (tl.etcdPodUp as Micros) + 30 * SECOND, tl.gather, s.density));
      s.evidence.push({ host: 'bootstrap', rel: `bootstrap/containers/${etcd.name}-${etcd.id}.log`, contains: 'slow fdatasync' });
    }
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: 'is unhealthy: failed to commit proposal: context deadline exceeded' });
  },
};

function* slowDisk(seed: string, from: Micros, to: Micros, density: number): Iterable<{ t: Micros; text: string }> {
  const p = new Prng(seed);
  let t = from;
  let i = 0;
  while (t < to) {
    const took = SECOND + p.int(20_000, 3_400_000);
    yield { t, text: etcdJson(t, 'warn', 'wal/wal.go:802', 'slow fdatasync', { took: goSpan(took, p.int(0, 999)), 'expected-duration': '1s' }) };
    yield { t: t + 400_000, text: etcdJson(t + 400_000, 'warn', 'etcdserver/util.go:163', 'apply request took too long', { took: goSpan(took + p.int(50_000, 400_000), p.int(0, 999)), 'expected-duration': '100ms', prefix: '', request: `header:<ID:${(7587000000000000000n + BigInt(i * 131 + p.int(0, 99))).toString()} > put:<key:"/kubernetes.io/health" value_size:${16 + (i % 5)} >`, response: '' }) };
    if (i % 4 === 0) yield { t: t + 900_000, text: etcdJson(t + 900_000, 'warn', 'etcdserver/raft.go:415', 'leader failed to send out heartbeat on time; took too long, leader is overloaded likely from slow disk', { to: 'local', 'heartbeat-interval': '100ms', 'expected-duration': '200ms', 'exceeded-duration': goSpan(took - 200_000, p.int(0, 999)) }) };
    t += Math.round((5 + ((i * 37) % 11)) * SECOND / Math.min(1, Math.max(0.2, density)));
    i++;
  }
}

/** The bootstrap host's clock is behind: the installer's certificates are "not yet valid" there. */
export const bootstrapClockBehind: Failure = {
  block: 'etcd-healthy',
  prepare(w) {
    // Masters and the installer keep true time; the bootstrap host (whose clock frames the
    // story) is behind.
    const skew = (38 + w.prng.fork('skew').int(0, 9)) * HOUR;
    for (const m of w.masters) m.clockOffset = skew;
    w.installerClockOffset = skew;
  },
  hooks: {
    etcdHealthError: (s, t) => {
      const p = s.boot.prng.fork(`etcdctl/${t}`);
      return [
        `{"level":"warn","ts":"${isoSeconds(t).replace('Z', '')}.${String(p.int(0, 999)).padStart(3, '0')}Z","logger":"client","caller":"v3@v${s.w.release.etcdVersion}/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"etcd-endpoints://0xc000${p.hex(6)}/localhost:2379","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: last connection error: connection error: desc = \\"transport: authentication handshake failed: ${tlsPrefix(s)}x509: certificate has expired or is not yet valid: current time ${isoSeconds(t)} is before ${isoSeconds(ignitionGeneratedAt(s))}\\""}`,
        'https://localhost:2379 is unhealthy: failed to commit proposal: context deadline exceeded',
        'Error: unhealthy cluster',
      ];
    },
    masterApiError: (s) => `dial tcp ${s.w.apiVip}:6443: connect: connection refused`,
  },
  apply(s) {
    const { tl } = s;
    const etcd = s.boot.containers.find((c) => c.name === 'etcd');
    const notBefore = ignitionGeneratedAt(s);
    if (etcd) {
      const p = s.boot.prng.fork('rejected');
      for (let t = (tl.waitEtcdStart as Micros) + 2 * SECOND; t < tl.gather; t += Math.round((p.int(14, 22) * SECOND) / Math.min(1, Math.max(0.3, s.density)))) {
        etcd.log.add(t, etcdJson(t, 'warn', 'embed/config_logging.go:287', 'rejected connection', { 'remote-addr': `[::1]:${p.int(33000, 60999)}`, 'server-name': 'localhost', 'ip-addresses': [], 'dns-names': [], error: `tls: failed to verify client certificate: x509: certificate has expired or is not yet valid: current time ${isoSeconds(t)} is before ${isoSeconds(notBefore)}` }));
      }
      s.evidence.push({ host: 'bootstrap', rel: `bootstrap/containers/etcd-${etcd.id}.log`, contains: 'certificate has expired or is not yet valid' });
    }
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: 'is before' });
  },
};

/** The ignition configs (and their 24-hour certificates) were older than a day. */
export const localhostCertExpired: Failure = {
  block: 'api-up',
  hooks: {
    apiWait: (s, from, to) => {
      const notAfter = ignitionGeneratedAt(s) + 24 * HOUR;
      const out: { t: Micros; line: string }[] = [];
      let n = 0;
      const step = Math.round((2 * SECOND + 700_000) / Math.min(1, Math.max(0.15, s.density)));
      for (let t = from + 8 * SECOND; t < to; t += step) {
        n += Math.max(1, Math.round(step / (2 * SECOND + 700_000)));
        out.push({ t, line: `[#${n}] failed to fetch discovery: Get "https://localhost:6443/api?timeout=32s": ${tlsPrefix(s)}x509: certificate has expired or is not yet valid: current time ${isoSeconds(t)} is after ${isoSeconds(notAfter)}` });
      }
      return out;
    },
    masterApiError: (s, t) => `${tlsPrefix(s)}x509: certificate has expired or is not yet valid: current time ${isoSeconds(t)} is after ${isoSeconds(ignitionGeneratedAt(s) + 24 * HOUR)}`,
  },
  apply(s) {
    const api = s.boot.containers.find((c) => c.name === 'kube-apiserver');
    const notAfter = ignitionGeneratedAt(s) + 24 * HOUR;
    if (api) {
      const p = s.boot.prng.fork('authn');
      for (let t = api.startedAt + 20 * SECOND; t < s.tl.gather; t += Math.round((p.int(20, 50) * SECOND) / Math.min(1, Math.max(0.3, s.density)))) {
        api.log.add(t, klog(t, 'E', 1, 'authentication.go:73', `"Unable to authenticate the request" err="[x509: certificate has expired or is not yet valid: current time ${isoSeconds(t)} is after ${isoSeconds(notAfter)}, verifying certificate SN=${p.int(1e15, 9e15)}, SKID=, AKID=${p.hex(40).toUpperCase().replace(/(..)(?!$)/g, '$1:')} failed: x509: certificate has expired or is not yet valid: current time ${isoSeconds(t)} is after ${isoSeconds(notAfter)}]"`));
      }
    }
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: 'x509: certificate has expired or is not yet valid' });
    s.evidence.push({ host: 'bootstrap', rel: 'rendered-assets/openshift/tls/kube-apiserver-localhost-server.crt', contains: '-----BEGIN CERTIFICATE-----' });
  },
};

/** The bootstrap VM is too small: kube-apiserver is OOM-killed before it ever serves. */
export const apiserverOom: Failure = {
  block: 'api-up',
  hooks: {
    apiWait: () => [],
    masterApiError: (s) => `dial tcp ${s.w.apiVip}:6443: connect: connection refused`,
  },
  apply(s) {
    const { w, tl } = s;
    const api = s.boot.containers.find((c) => c.name === 'kube-apiserver');
    const kj = s.boot.journal('kubelet');
    const kpid = s.boot.host.pids['kubelet'] ?? 2600;
    const ident = w.profile.bootstrapKubeletIdent;
    const p = s.boot.prng.fork('oom');
    let restarts = 0;
    let last = tl.cbStart as Micros;
    const podName = api?.podName ?? `bootstrap-kube-apiserver-${w.bootstrap.hostname}`;
    for (let t = (tl.cbStart as Micros) + 50 * SECOND; t < tl.gather; ) {
      restarts++;
      last = t;
      const kpidLine = s.boot.pid('kubelet.sh');
      if (restarts <= 3 || restarts % Math.max(1, Math.round(3 / Math.max(0.1, s.density))) === 0) {
        kj.add(t + 1_000_000, ident, klog(t + 1_000_000, 'I', kpid, 'kubelet.go:2461', `"SyncLoop (PLEG): event for pod" pod="openshift-kube-apiserver/${podName}" event={"ID":"${api?.podUid ?? p.hex(32)}","Type":"ContainerDied","Data":"${p.hex(64)}"}`), kpidLine);
        kj.add(t + 1_200_000, ident, klog(t + 1_200_000, 'E', kpid, 'pod_workers.go:1300', `"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"kube-apiserver\\" with CrashLoopBackOff: \\"back-off ${restarts < 5 ? `${10 * 2 ** (restarts - 1)}s` : '5m0s'} restarting failed container=kube-apiserver pod=${podName}_openshift-kube-apiserver(${api?.podUid ?? ''})\\"" pod="openshift-kube-apiserver/${podName}" podUID="${api?.podUid ?? ''}"`), kpidLine);
      }
      t += Math.min(5 * MINUTE, 10 * SECOND * 2 ** Math.min(restarts, 5)) + p.int(40, 70) * SECOND;
    }
    if (api) {
      api.state = 'exited';
      api.exitCode = 137;
      api.reason = 'OOMKilled';
      api.attempt = restarts;
      api.finishedAt = last;
      api.startedAt = last - p.int(40, 70) * SECOND;
      api.log.add(last - 3 * SECOND, klog(last - 3 * SECOND, 'I', 1, 'storage_factory.go:285', 'storing apiservices.apiregistration.k8s.io in apiregistration.k8s.io/v1, reading as apiregistration.k8s.io/__internal from storagebackend.Config{Type:"etcd3", Prefix:"kubernetes.io", Transport:storagebackend.TransportConfig{ServerList:[]string{"https://localhost:2379"}}}'));
      s.evidence.push({ host: 'bootstrap', rel: `bootstrap/containers/kube-apiserver-${api.id}.inspect`, contains: '"reason": "OOMKilled"' });
    }
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/kubelet.log', contains: 'CrashLoopBackOff' });
    s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/bootkube.log', contains: 'Error: timed out waiting for the condition' });
  },
};
