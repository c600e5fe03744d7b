// Journals and service records of the bootstrap host's units other than bootkube:
// release-image (with its retry loop), crio-configure, crio, kubelet, approve-csr, ironic,
// master-bmh-update, and the progress service's record.
import { klog, crioLine } from './log-formats.js';
import { crioNoise, kubeletNoise } from './noise.js';
import { bootstrapPods } from './pods.js';
import { podmanRunEvents, releaseLabels } from './podman-events.js';
import { happened, record, type Story } from './story.js';
import { goTime, SECOND, type Micros } from './time.js';

export function writeReleaseImage(s: Story): void {
  const { w, tl, sd } = s;
  const j = s.boot.journal('release-image');
  const p = s.boot.prng.fork('release-image');
  const pid = s.boot.pid('release-image-download.sh', 1500, 2200);
  const rec = w.profile.serviceRecords ? record(s, 'release-image') : undefined;
  const image = w.release.releaseImage;
  sd.starting(j, tl.releaseStart, 'release-image');
  rec?.start(tl.releaseStart + 200_000);
  j.add(tl.releaseStart + 90_000, 'release-image-download.sh', `Pulling ${image}...`, pid);
  const refresh = tl.releaseStart + p.int(300_000, 2_000_000);
  j.add(refresh, 'podman', `${goTime(refresh, p.int(0, 999))} m=+${(p.int(90_000, 1_300_000) / 1e6).toFixed(6)}${p.int(100, 999)} system refresh`, pid + p.int(6, 14));
  if (happened(s, tl.releasePulled)) {
    rec?.stageStart(tl.releaseStart + 300_000, 'pull-release-image');
    const podmanPid = pid + p.int(6, 14);
    const imageId = p.hex(64);
    if (w.release.minor >= 14) {
      // podman pull without --quiet reports its progress.
      const L = (t: Micros, m: string): void => void j.add(t, 'release-image-download.sh', m, pid);
      L(tl.releaseStart + 400_000, `Trying to pull ${image}...`);
      L(tl.releaseStart + 2_100_000, 'Getting image source signatures');
      let t = tl.releaseStart + 2_300_000;
      for (let i = 0; i < p.int(5, 7); i++) {
        L(t, `Copying blob sha256:${p.hex(64)}`);
        t += p.int(20_000, 400_000);
      }
      L(tl.releasePulled - 900_000, `Copying config sha256:${imageId}`);
      L(tl.releasePulled - 400_000, 'Writing manifest to image destination');
    }
    j.add(tl.releasePulled - 30_000, 'release-image-download.sh', imageId, pid);
    j.add(tl.releasePulled - 20_000, 'podman', `${goTime(tl.releasePulled - 20_000, p.int(0, 999))} m=+${((tl.releasePulled - tl.releaseStart) / 1e6).toFixed(6)}${p.int(100, 999)} image pull ${imageId} ${image}`, podmanPid);
    rec?.stageEnd(tl.releasePulled, 'success');
    if (w.profile.imageMetadataStage) {
      rec?.stageStart(tl.releasePulled + 100_000, 'image-metadata-arches-match');
      rec?.stageEnd(tl.releasePulled + 600_000, 'success');
    }
    sd.finished(j, tl.releasePulled + 800_000, 'release-image');
    rec?.end(tl.releasePulled + 700_000, 'success');
    return;
  }
  // The pull never succeeds: the script loops until the gather stops it.
  const [minS, maxS] = s.hooks.releasePullSeconds ?? [2, 20];
  let t = tl.releaseStart + 300_000;
  for (let attempt = 1; t < tl.gather; attempt++) {
    rec?.stageStart(t, 'pull-release-image');
    const end = t + p.int(minS * 1000, maxS * 1000) * 1000;
    const lines = s.hooks.releasePullError?.(s, end, attempt) ?? [`Error: initializing source docker://${image}: pinging container registry quay.io: Get "https://quay.io/v2/": dial tcp: lookup quay.io: no such host`];
    lines.forEach((l, i) => j.add(end + i * 1000, 'release-image-download.sh', l, pid));
    const msg = j.lastMessages(3, end + lines.length * 1000);
    rec?.stageEnd(end + 5000, 'failure', { line: `${w.release.minor >= 16 ? 31 : 27} main /usr/local/bin/release-image-download.sh`, message: msg.join('\n') });
    j.add(end + 6000, 'release-image-download.sh', `Pull failed. Retrying ${image}...`, pid);
    t = end + 10_000;
  }
}

export function writeCrioConfigure(s: Story): void {
  const { w, tl, sd } = s;
  const j = s.boot.journal('crio-configure');
  if (!happened(s, tl.releasePulled)) return;
  const p = s.boot.prng.fork('crio-configure');
  const t = tl.releasePulled + p.int(900_000, 1_500_000);
  sd.starting(j, t, 'crio-configure');
  const pid = s.boot.pid('crio-configure.sh', 2000, 2300);
  const labels = releaseLabels(w.release.version, p.hex(64));
  const end = podmanRunEvents(j, p, pid + 3, t + 300_000, { image: w.release.releaseImage, labels, id: p.hex(64) }, p.int(400_000, 1_400_000));
  if (w.profile.serviceRecords) {
    const rec = record(s, 'crio-configure');
    rec.start(t + 100_000);
    rec.end(end + 100_000, 'success');
  }
  sd.finished(j, end + 200_000, 'crio-configure');
}

export function writeCrio(s: Story): void {
  const { w, tl, sd } = s;
  const j = s.boot.journal('crio');
  if (!happened(s, tl.releasePulled)) return;
  const p = s.boot.prng.fork('crio');
  const pid = s.boot.pid('crio', 2300, 2500);
  const iso = w.profile.crioIsoTime;
  const start = tl.releasePulled + p.int(2_200_000, 3_000_000);
  const L = (t: Micros, level: string, msg: string, fields: [string, string][] = []): void => {
    j.add(t, 'crio', crioLine(t, iso, p.int(0, 999), level, msg, fields), pid);
  };
  sd.starting(j, start, 'crio');
  const startup = [
    `Starting CRI-O, version: ${w.release.crioVersion.split('-')[0]}, git: ${p.hex(40)}(clean)`,
    'Node configuration value for hugetlb cgroup is true',
    'Node configuration value for pid cgroup is true',
    'Node configuration value for memoryswap cgroup is true',
    'Node configuration value for cgroup v2 is true',
    'Node configuration value for systemd CollectMode is true',
    'Node configuration value for systemd AllowedCPUs is true',
    'Using default capabilities: CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FSETID, CAP_FOWNER, CAP_SETGID, CAP_SETUID, CAP_SETPCAP, CAP_NET_BIND_SERVICE, CAP_KILL',
    'Using conmon executable: /usr/bin/conmon',
    'Conmon does support the --sync option',
    'Conmon does support the --log-global-size-max option',
    'Using seccomp default profile when unspecified: true',
    'No seccomp profile specified, using the internal default',
    'No blockio config file specified, blockio not configured',
    'RDT not available in the host system',
    'Serving metrics on :9537 via HTTP',
  ];
  let st = start + 100_000;
  for (const m of startup) {
    L(st, 'info', m);
    st += p.int(300, 9000);
  }
  const crioUp = tl.crioUp;
  if (crioUp === undefined) return; // the failure writes why CRI-O did not start
  sd.started(j, crioUp, 'crio');
  const pods = bootstrapPods(w, tl);
  const images = [w.release.images.pod, ...pods.map((x) => x.image)];
  // Image pulls and sandboxes for each static pod as it starts.
  for (const pod of pods) {
    const t = pod.since - p.int(2, 8) * SECOND;
    L(t, 'info', `Running pod sandbox: ${pod.namespace}/${pod.name}/POD`, [['id', p.uuid()], ['name', '/runtime.v1.RuntimeService/RunPodSandbox']]);
    L(t + 900_000, 'info', `Ran pod sandbox ${p.hex(64)} with infra container: ${pod.namespace}/${pod.name}/POD`, [['id', p.uuid()], ['name', '/runtime.v1.RuntimeService/RunPodSandbox']]);
    L(t + 1_000_000, 'info', `Pulling image: ${pod.image}`, [['id', p.uuid()], ['name', '/runtime.v1.ImageService/PullImage']]);
    L(t + 1_010_000, 'info', `Trying to access "${pod.image}"`);
    L(Math.min(t + 4_000_000, pod.since - 900_000), 'info', `Pulled image: ${pod.image}`, [['id', p.uuid()], ['name', '/runtime.v1.ImageService/PullImage']]);
    for (const c of pod.containers) {
      const cid = p.hex(64);
      L(pod.since - 300_000, 'info', `Creating container: ${pod.namespace}/${pod.name}/${c}`, [['id', p.uuid()], ['name', '/runtime.v1.RuntimeService/CreateContainer']]);
      L(pod.since - 100_000, 'info', `Created container ${cid}: ${pod.namespace}/${pod.name}/${c}`, [['id', p.uuid()], ['name', '/runtime.v1.RuntimeService/CreateContainer']]);
      L(pod.since, 'info', `Started container`, [['PID', String(p.int(3000, 60000))], ['containerID', cid], ['description', `${pod.namespace}/${pod.name}/${c}`], ['id', p.uuid()], ['name', '/runtime.v1.RuntimeService/StartContainer'], ['sandboxID', p.hex(64)]]);
    }
  }
  j.addNoise(crioNoise({ seed: `${w.spec.seed}/crio/bootstrap`, pid, from: crioUp + 30 * SECOND, to: tl.gather, density: s.density, iso, images, pods: () => pods }));
}

export function writeKubelet(s: Story): void {
  const { w, tl, sd } = s;
  const j = s.boot.journal('kubelet');
  if (!happened(s, tl.kubeletUp)) return;
  const p = s.boot.prng.fork('kubelet');
  const ident = w.profile.bootstrapKubeletIdent;
  const pid = s.boot.pid('kubelet.sh', 2400, 2700);
  const kpid = ident === 'kubelet.sh' ? pid + p.int(3, 15) : pid;
  s.boot.host.pids['kubelet'] = kpid;
  const K = (t0: Micros, sev: 'I' | 'W' | 'E', caller: string, msg: string): void => {
    const t = t0 + p.int(0, 9_000);
    j.add(t, ident, klog(t, sev, kpid, caller, msg), pid);
  };
  const t = tl.kubeletUp;
  sd.starting(j, t - 600_000, 'kubelet');
  j.add(t - 200_000, ident, 'Flag --container-runtime-endpoint has been deprecated, This parameter should be set via the config file specified by the Kubelet\'s --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.', pid);
  j.add(t - 190_000, ident, 'Flag --minimum-container-ttl-duration has been deprecated, Use --eviction-hard or --eviction-soft instead. Will be removed in a future version.', pid);
  K(t - 100_000, 'I', 'server.go:203', '"--pod-infra-container-image will not be pruned by the image garbage collector in kubelet and should also be set in the remote runtime"');
  K(t - 90_000, 'I', 'server.go:467', `"Kubelet version" kubeletVersion="${w.release.kubeVersion}+${w.release.kubeGitTag}"`);
  K(t - 89_000, 'I', 'server.go:469', '"Golang settings" GOGC="" GOMAXPROCS="" GOTRACEBACK=""');
  K(t - 80_000, 'I', 'server.go:630', '"Standalone mode, no API client"');
  K(t - 60_000, 'I', 'container_manager_linux.go:280', '"Container manager verified user specified cgroup-root exists" cgroupRoot=[]');
  if (s.tl.crioUp === undefined) return; // kubelet cannot reach CRI-O: the failure writes the loop
  K(t - 40_000, 'I', 'kuberuntime_manager.go:257', `"Container runtime initialized" containerRuntime="cri-o" version="${w.release.crioVersion.split('-')[0]}" apiVersion="v1"`);
  K(t - 20_000, 'I', 'kubelet.go:2287', '"Starting kubelet main sync loop"');
  sd.started(j, t, 'kubelet');
  const pods = bootstrapPods(w, tl);
  for (const pod of pods) {
    K(pod.since - 8 * SECOND, 'I', 'kubelet.go:2430', `"SyncLoop ADD" source="file" pods=["${pod.namespace}/${pod.name}"]`);
    K(pod.since - 7 * SECOND, 'I', 'kuberuntime_manager.go:994', `"No sandbox for pod can be found. Need to start a new one" pod="${pod.namespace}/${pod.name}"`);
    K(pod.since + 500_000, 'I', 'kubelet.go:2461', `"SyncLoop (PLEG): event for pod" pod="${pod.namespace}/${pod.name}" event={"ID":"${pod.uid}","Type":"ContainerStarted","Data":"${p.hex(64)}"}`);
  }
  if (tl.cbStart !== undefined && happened(s, tl.bootkubeComplete)) {
    // cluster-bootstrap removes the bootstrap control plane's manifests when it tears down.
    const td = tl.requiredPodsReady as Micros;
    for (const pod of pods.filter((x) => ['kube-apiserver', 'kcm', 'scheduler', 'cvo', 'cco'].includes(x.kind))) {
      K(td + 2 * SECOND, 'I', 'kubelet.go:2446', `"SyncLoop REMOVE" source="file" pods=["${pod.namespace}/${pod.name}"]`);
      K(td + 3 * SECOND, 'I', 'kuberuntime_container.go:742', `"Killing container with a grace period" pod="${pod.namespace}/${pod.name}" podUID="${pod.uid}" containerName="${pod.containers[0]}" containerID="cri-o://${p.hex(64)}" gracePeriod=${p.pick([15, 30, 65, 135])}`);
    }
  }
  j.addNoise(
    kubeletNoise({
      seed: `${w.spec.seed}/kubelet/bootstrap`,
      ident,
      identPid: pid,
      klogPid: kpid,
      from: t + 10 * SECOND,
      to: tl.gather,
      density: s.density,
      pods: () => pods,
      cgroupV2: w.release.minor >= 14,
      nameservers: w.spec.platform === 'none' && w.release.minor % 2 === 0 ? [w.dnsServer, '10.10.10.10', '10.10.10.11', '8.8.8.8'] : undefined,
    }),
  );
}

export function writeApproveCsr(s: Story): void {
  const { w, tl, sd } = s;
  const j = s.boot.journal('approve-csr');
  if (!happened(s, tl.bootkubeStart)) return;
  const p = s.boot.prng.fork('approve-csr');
  const pid = s.boot.pid('approve-csr.sh', 2500, 2900);
  const start = tl.bootkubeStart + p.int(100_000, 400_000);
  sd.started(j, start, 'approve-csr');
  j.add(start + 50_000, 'approve-csr.sh', 'Approving all CSR requests until bootstrapping is complete...', pid);
  const end = happened(s, tl.bootkubeComplete) ? tl.bootkubeComplete : tl.gather;
  const apiUp = tl.apiUp ?? Number.POSITIVE_INFINITY;
  const step = 20 * SECOND + 300_000;
  const maxRefused = Math.max(3, Math.round(6 * s.density));
  let refused = 0;
  let sinceLast = 0;
  for (let t = start + 100_000; t < Math.min(end, apiUp); t += step) {
    // Every loop fails while the API is down; at low noise only some are kept.
    sinceLast++;
    const keep = refused < maxRefused || sinceLast * s.density >= 10;
    if (!keep) continue;
    sinceLast = 0;
    refused++;
    const opid = p.int(3000, 60000);
    if (w.release.minor >= 12) {
      for (let i = 0; i < 5; i++) j.add(t + i * 2000, 'approve-csr.sh', klog(t + i * 2000, 'E', opid, 'memcache.go:265', 'couldn\'t get current server API group list: Get "https://localhost:6443/api?timeout=32s": dial tcp [::1]:6443: connect: connection refused'), pid);
    }
    j.add(t + 12_000, 'approve-csr.sh', 'The connection to the server localhost:6443 was refused - did you specify the right host or port?', pid);
  }
  const approve = (t: Micros | undefined): void => {
    if (!happened(s, t) || t > end) return;
    j.add(t, 'approve-csr.sh', `certificatesigningrequest.certificates.k8s.io/csr-${p.alnum(5)} approved`, pid);
  };
  for (let i = 0; i < w.masters.length; i++) {
    const reg = tl.masterRegistered[i];
    if (reg === undefined) continue;
    approve(reg - p.int(5, 15) * SECOND);
    approve(reg + p.int(20, 40) * SECOND);
  }
  if (happened(s, tl.bootkubeComplete)) sd.succeeded(j, tl.bootkubeComplete + p.int(2, 19) * SECOND, 'approve-csr', `${p.int(1, 9)}.${p.int(100, 999)}s`);
}

/** ironic and master-bmh-update exist on bare metal only; elsewhere they have no entries. */
export function writeBaremetalUnits(s: Story): void {
  const { w, tl, sd } = s;
  s.boot.journal('ironic');
  s.boot.journal('master-bmh-update');
  if (w.spec.platform !== 'baremetal' || !happened(s, tl.crioUp)) return;
  const j = s.boot.journal('ironic');
  const p = s.boot.prng.fork('ironic');
  const t = tl.crioUp + p.int(2, 6) * SECOND;
  sd.starting(j, t, 'ironic');
  const pid = s.boot.pid('startironic.sh', 2600, 3000);
  j.add(t + 400_000, 'startironic.sh', `Waiting for ${w.masters.length} masters to become available`, pid);
  sd.started(j, t + 2 * SECOND, 'ironic');
}

/** progress.service's record: waits for .bootkube.done, then reports bootstrap complete. */
export function writeProgressRecord(s: Story): void {
  const { w, tl } = s;
  if (!w.profile.serviceRecords || !happened(s, tl.bootkubeStart)) return;
  const rec = record(s, 'progress');
  const t = tl.bootkubeStart + 300_000;
  rec.start(t);
  rec.stageStart(t + 100_000, 'wait-for-bootstrap-complete');
  if (!happened(s, tl.bootkubeComplete)) return;
  rec.stageEnd(tl.bootkubeComplete + 2 * SECOND, 'success');
  if (!happened(s, tl.progressDone)) return;
  rec.stageStart(tl.progressDone - 3 * SECOND, 'report-bootstrap-complete');
  rec.stageEnd(tl.progressDone, 'success');
  rec.end(tl.progressDone + 100_000, 'success');
}
