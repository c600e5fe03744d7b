// The masters' own part: kubelet and CRI-O journals of their last boot (registration, CSRs,
// CNI not ready until the pod network runs), the other gathered units (empty on most
// platforms), containers, and the serial consoles the installer fetches on some platforms.
import { PlainLog } from './host-logs.js';
import { crioLine, klog } from './log-formats.js';
import { crioNoise, kubeletNoise } from './noise.js';
import { masterPods } from './pods.js';
import type { Story } from './story.js';
import { MINUTE, SECOND, type Micros } from './time.js';

/** Units installer-masters-gather.sh collects, by release. */
export function masterUnits(s: Story): string[] {
  if (s.w.profile.masterJournalsNew) return ['crio', 'kubelet', 'machine-config-daemon-host', 'machine-config-daemon-firstboot', 'openshift-azure-routes', 'openshift-gcp-routes', 'pivot', 'sssd'];
  return ['kubelet', 'crio', 'machine-config-daemon-host', 'pivot', 'openshift-azure-routes', 'openshift-gcp-routes'];
}

export function writeMaster(s: Story, i: number): void {
  const { w, tl, sd } = s;
  const m = w.masters[i];
  const h = s.masters[i];
  for (const u of masterUnits(s)) h.journal(u);
  const booted = tl.masterBooted[i];
  if (booted === undefined) return;
  const p = h.prng.fork('journals');
  const reg = tl.masterRegistered[i];
  const ready = tl.masterReady[i];
  const pods = masterPods(w, tl, m);
  const off = m.clockOffset;

  // CRI-O
  const cj = h.journal('crio');
  const cpid = h.pid('crio', 1100, 1400);
  const iso = w.profile.crioIsoTime;
  const C = (t0: Micros, msg: string, fields: [string, string][] = []): void => {
    const t = t0 + p.int(0, 90_000);
    cj.add(t, 'crio', crioLine(t + off, iso, p.int(0, 999), 'info', msg, fields), cpid);
  };
  const crioUp = booted + p.int(8, 15) * SECOND;
  sd.starting(cj, crioUp - 2 * SECOND, 'crio');
  C(crioUp - 1_500_000, `Starting CRI-O, version: ${w.release.crioVersion.split('-')[0]}, git: ${p.hex(40)}(clean)`);
  C(crioUp - 1_400_000, 'Node configuration value for cgroup v2 is true');
  C(crioUp - 1_300_000, 'Using conmon executable: /usr/bin/conmon');
  C(crioUp - 1_200_000, 'Serving metrics on :9537 via HTTP');
  sd.started(cj, crioUp, 'crio');
  for (const pod of pods) {
    C(pod.since - 2 * SECOND, `Running pod sandbox: ${pod.namespace}/${pod.name}/POD`, [['id', p.uuid()], ['name', '/runtime.v1.RuntimeService/RunPodSandbox']]);
    if (!pod.hostNetwork) C(pod.since - 1_500_000, `Got pod network &{Name:${pod.name} Namespace:${pod.namespace} ID:${p.hex(64)} UID:${pod.uid} NetNS:/var/run/netns/${p.uuid()} Networks:[{Name:multus-cni-network Ifname:eth0}] RuntimeConfig:map[multus-cni-network:{IP: MAC: PortMappings:[] Bandwidth:<nil> IpRanges:[]}] Aliases:map[]}`);
    C(pod.since, 'Started container', [['PID', p.uuid()], ['containerID', p.hex(64)], ['description', `${pod.namespace}/${pod.name}/${pod.containers[0]}`], ['id', p.uuid()], ['name', '/runtime.v1.RuntimeService/StartContainer'], ['sandboxID', p.hex(64)]]);
  }
  cj.addNoise(crioNoise({ seed: `${w.spec.seed}/crio/master-${i}`, pid: cpid, from: crioUp + 20 * SECOND, to: tl.gather, density: s.density * 0.8, iso, offset: off, images: [w.release.images.pod, ...pods.map((x) => x.image), w.release.images['machine-config-operator']], pods: () => pods }));

  // kubelet
  const kj = h.journal('kubelet');
  const ident = w.profile.kubeletIdent;
  const kpid = h.pid('kubelet', 1400, 1900);
  h.host.pids['kubelet'] = kpid;
  const K = (t0: Micros, sev: 'I' | 'W' | 'E', caller: string, msg: string): void => {
    const t = t0 + p.int(0, 400_000);
    kj.add(t, ident, klog(t + off, sev, kpid, caller, msg), kpid);
  };
  const kUp = crioUp + p.int(3, 8) * SECOND;
  sd.starting(kj, kUp - 1_000_000, 'kubelet');
  kj.add(kUp - 500_000, ident, 'Flag --container-runtime-endpoint has been deprecated, This parameter should be set via the config file specified by the Kubelet\'s --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.', kpid);
  K(kUp - 400_000, 'I', 'server.go:467', `"Kubelet version" kubeletVersion="${w.release.kubeVersion}+${w.release.kubeGitTag}"`);
  K(kUp - 300_000, 'I', 'kuberuntime_manager.go:257', `"Container runtime initialized" containerRuntime="cri-o" version="${w.release.crioVersion.split('-')[0]}" apiVersion="v1"`);
  sd.started(kj, kUp, 'kubelet');
  K(kUp + 2 * SECOND, 'I', 'kubelet_node_status.go:72', `"Attempting to register node" node="${m.nodeName}"`);
  const regEnd = reg ?? tl.gather;
  for (let t = kUp + 3 * SECOND; t < regEnd; t += Math.round((p.int(7, 45) * SECOND) / Math.min(1, Math.max(0.3, s.density)))) {
    K(t, 'E', 'kubelet_node_status.go:96', `"Unable to register node with API server" err="Post \\"https://${w.apiIntName}:6443/api/v1/nodes\\": ${(s.hooks.masterApiError?.(s, t + off) ?? `dial tcp ${w.apiVip}:6443: connect: connection refused`).replace(/"/g, '\\"')}" node="${m.nodeName}"`);
    K(t + 50_000, 'I', 'kubelet_node_status.go:72', `"Attempting to register node" node="${m.nodeName}"`);
  }
  if (reg !== undefined) {
    K(reg - 20 * SECOND, 'I', 'csr.go:261', `certificate signing request csr-${p.alnum(5)} is approved, waiting to be issued`);
    K(reg - 19 * SECOND, 'I', 'csr.go:257', `certificate signing request csr-${p.alnum(5)} is issued`);
    K(reg, 'I', 'kubelet_node_status.go:75', `"Successfully registered node" node="${m.nodeName}"`);
    K(reg + 30 * SECOND, 'I', 'csr.go:261', `certificate signing request csr-${p.alnum(5)} is approved, waiting to be issued`);
    K(reg + 31 * SECOND, 'I', 'csr.go:257', `certificate signing request csr-${p.alnum(5)} is issued`);
    for (const pod of pods) K(pod.since - 3 * SECOND, 'I', 'kubelet.go:2430', `"SyncLoop ADD" source="${pod.name.endsWith(m.nodeName) ? 'file' : 'api'}" pods=["${pod.namespace}/${pod.name}"]`);
    if (ready !== undefined) K(ready, 'I', 'kubelet_node_status.go:493', `"Fast updating node status as it just became ready"`);
    if (ready === undefined || ready > reg + 2 * MINUTE) {
      for (const pod of pods.filter((x) => !x.hostNetwork)) {
        for (let t = pod.since; t < Math.min(ready ?? tl.gather, pod.since + 40 * MINUTE); t += Math.round((p.int(60, 240) * SECOND) / Math.min(1, Math.max(0.3, s.density)))) {
          K(t, 'E', 'pod_workers.go:1300', `"Error syncing pod, skipping" err="network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?" pod="${pod.namespace}/${pod.name}" podUID="${pod.uid}"`);
        }
      }
    }
  }
  kj.addNoise(
    kubeletNoise({
      seed: `${w.spec.seed}/kubelet/master-${i}`,
      ident,
      identPid: kpid,
      klogPid: kpid,
      from: kUp + 10 * SECOND,
      to: tl.gather,
      density: s.density * 0.8,
      pods: () => pods,
      cniReadyAt: ready,
      node: m.nodeName,
      apiInt: w.apiIntName,
      apiIp: w.apiVip,
      apiReachableAt: reg,
      cgroupV2: w.release.minor >= 14,
      offset: off,
      apiError: s.hooks.masterApiError?.(s, tl.gather),
    }),
  );
}

/** Serial console of a host: kernel, Ignition fetching its config, the login banner. */
export function serialConsole(s: Story, role: 'bootstrap' | 'master', i: number, bootAt: Micros, ignitionOk: Micros | undefined): PlainLog {
  const { w } = s;
  const host = role === 'bootstrap' ? w.bootstrap : w.masters[i];
  const p = w.prng.fork(`serial/${role}-${i}`);
  const log = new PlainLog();
  const up = (t: Micros): string => `[${((t - bootAt) / 1e6).toFixed(6).padStart(12)}]`;
  const K = (dt0: number, text: string): void => {
    const dt = dt0 + p.int(0, 90_000);
    log.add(bootAt + dt, `${up(bootAt + dt)} ${text}`);
  };
  const ignPid = p.int(780, 900);
  K(0, `Linux version 5.14.0-${w.release.minor >= 16 ? 427 : 284}.${p.int(10, 60)}.1.el9_${w.release.minor >= 16 ? 4 : 2}.x86_64 (mockbuild@x86-vm-${p.int(1, 9)}.build.eng.bos.redhat.com) (gcc (GCC) 11.4.1 20230605 (Red Hat 11.4.1-2), GNU ld version 2.35.2-${p.int(37, 43)}.el9) #1 SMP PREEMPT_DYNAMIC`);
  K(1000, `Command line: BOOT_IMAGE=(hd0,gpt3)/ostree/rhcos-${p.hex(64)}/vmlinuz-5.14.0 ignition.firstboot ostree=/ostree/boot.1/rhcos/${p.hex(64)}/0 ignition.platform.id=${w.spec.platform === 'aws' ? 'aws' : w.spec.platform === 'vsphere' ? 'vmware' : 'metal'} console=tty0 console=ttyS0,115200n8`);
  K(2_100_000, `systemd[1]: Detected virtualization ${w.spec.platform === 'aws' ? 'amazon' : 'vmware'}.`);
  K(3_200_000, 'systemd[1]: Starting Ignition (fetch)...');
  const role2 = role === 'bootstrap' ? 'bootstrap' : 'master';
  const url = role === 'bootstrap' ? undefined : `https://${w.apiIntName}:22623/config/${role2}`;
  let t = 3_800_000;
  if (url) {
    let attempt = 1;
    const okAt = ignitionOk === undefined ? undefined : ignitionOk - bootAt;
    while (okAt === undefined ? bootAt + t < s.tl.gather : t < okAt) {
      K(t, `ignition[${ignPid}]: GET ${url}: attempt #${attempt}`);
      const err = (s.hooks.ignitionError?.(s, i, bootAt + t, attempt) ?? [`ignition[${ignPid}]: GET error: Get "${url}": EOF`]).map((l) => l.replace(/^ignition\[\d+\]/, `ignition[${ignPid}]`));
      err.forEach((e, k) => K(t + 4000 + k * 1000, e));
      t += Math.min(5_000_000 * 2 ** Math.min(attempt, 6), 300_000_000) / (attempt > 6 ? 1 : 4);
      attempt++;
    }
    if (okAt === undefined) return log;
    K(okAt, `ignition[${ignPid}]: GET ${url}: attempt #${attempt}`);
    K(okAt + 30_000, `ignition[${ignPid}]: GET result: OK`);
    t = okAt + 200_000;
  }
  K(t + 500_000, 'systemd[1]: Finished Ignition (fetch).');
  K(t + 9_000_000, 'systemd[1]: Finished Ignition (files).');
  K(t + 20_000_000, 'systemd[1]: Reached target Initrd Default Target.');
  log.add(bootAt + t + 60_000_000, '');
  log.add(bootAt + t + 60_000_001, `Red Hat Enterprise Linux CoreOS ${w.release.osVersion} (Plow)`);
  log.add(bootAt + t + 60_000_002, `Kernel 5.14.0 on an x86_64 (ttyS0)`);
  log.add(bootAt + t + 60_000_003, '');
  log.add(bootAt + t + 60_000_004, `SSH host key: SHA256:${p.bytes(32).toString('base64').replace(/=+$/, '')} (ED25519)`);
  log.add(bootAt + t + 60_000_005, `${host.iface}: ${host.ip} ${p.pick(['fe80::', 'fe80::5054:ff:'])}${p.hex(4)}:${p.hex(4)}:${p.hex(4)}`);
  log.add(bootAt + t + 60_000_006, `${host.hostname.split('.')[0]} login: `);
  return log;
}
