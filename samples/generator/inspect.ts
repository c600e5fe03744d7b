// `crictl inspect` and `podman inspect` JSON for the containers a host ran, in the shapes
// those commands print (crictl: status/info objects; podman: an array of one object).
import type { CriContainer, PodmanContainer } from './host-logs.js';
import { isoNanos, type Micros } from './time.js';

const ZERO = '1970-01-01T00:00:00Z';

function ts(t: Micros | undefined, tail: number): string {
  return t === undefined ? ZERO : isoNanos(t, tail);
}

/** `crictl inspect <id>` (two-space indented, as crictl prints). */
export function crictlInspect(c: CriContainer): string {
  const doc = {
    status: {
      id: c.id,
      metadata: { attempt: c.attempt, name: c.name },
      state: c.state === 'running' ? 'CONTAINER_RUNNING' : 'CONTAINER_EXITED',
      createdAt: ts(c.createdAt, c.pid % 997),
      startedAt: ts(c.startedAt, (c.pid * 7) % 997),
      finishedAt: c.state === 'running' ? ZERO : ts(c.finishedAt, (c.pid * 13) % 997),
      exitCode: c.exitCode,
      image: { annotations: {}, image: c.image, runtimeHandler: '', userSpecifiedImage: '' },
      imageRef: c.image,
      reason: c.reason ?? (c.state === 'exited' ? (c.exitCode === 0 ? 'Completed' : 'Error') : ''),
      message: c.message ?? '',
      labels: {
        'io.kubernetes.container.name': c.name,
        'io.kubernetes.pod.name': c.podName,
        'io.kubernetes.pod.namespace': c.namespace,
        'io.kubernetes.pod.uid': c.podUid,
      },
      annotations: {
        'io.kubernetes.container.hash': (c.pid * 2654435761 >>> 0).toString(16).slice(0, 8).padStart(8, '0'),
        'io.kubernetes.container.restartCount': String(c.attempt),
        'io.kubernetes.container.terminationMessagePath': '/dev/termination-log',
        'io.kubernetes.container.terminationMessagePolicy': 'FallbackToLogsOnError',
        'io.kubernetes.pod.terminationGracePeriod': String(c.terminationGracePeriod ?? 30),
      },
      mounts: c.mounts.map((m) => ({ containerPath: m.containerPath, gidMappings: [], hostPath: m.hostPath, propagation: 'PROPAGATION_PRIVATE', readonly: m.readonly ?? false, recursiveReadOnly: false, selinuxRelabel: false, uidMappings: [] })),
      logPath: `/var/log/pods/${c.namespace}_${c.podName}_${c.podUid}/${c.name}/${c.attempt}.log`,
      resources: { linux: { cpuPeriod: '100000', cpuQuota: '0', cpuShares: '102', cpusetCpus: '', cpusetMems: '', hugepageLimits: [], memoryLimitInBytes: '0', memorySwapLimitInBytes: '0', oomScoreAdj: '-997', unified: {} } },
    },
    info: {
      sandboxID: c.sandboxId,
      pid: c.state === 'running' ? c.pid : 0,
      runtimeSpec: {
        ociVersion: '1.0.2-dev',
        process: {
          user: { uid: 0, gid: 0 },
          args: c.command,
          env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'TERM=xterm', `HOSTNAME=${c.podName.slice(c.podName.indexOf('-') + 1)}`, ...(c.env ?? [])],
          cwd: '/',
          oomScoreAdj: -997,
        },
        root: { path: `/var/lib/containers/storage/overlay/${c.id.slice(0, 20)}${c.sandboxId.slice(0, 44)}/merged` },
        hostname: c.podName,
        annotations: { 'io.kubernetes.cri-o.ContainerID': c.id, 'io.kubernetes.cri-o.ContainerType': 'container', 'io.kubernetes.cri-o.Name': `k8s_${c.name}_${c.podName}_${c.namespace}_${c.podUid}_${c.attempt}`, 'io.kubernetes.cri-o.SandboxID': c.sandboxId },
        linux: { cgroupsPath: `kubepods-burstable-pod${c.podUid.replace(/-/g, '_')}.slice:crio:${c.id}` },
      },
    },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** `podman inspect <id>` (five-space indented array, as podman prints). */
export function podmanInspect(c: PodmanContainer): string {
  const running = c.state === 'running';
  const doc = [
    {
      Id: c.id,
      Created: isoNanos(c.createdAt, c.pid % 997),
      Path: c.path,
      Args: c.args,
      State: {
        OciVersion: '1.1.0+dev',
        Status: running ? 'running' : 'exited',
        Running: running,
        Paused: false,
        Restarting: false,
        OOMKilled: false,
        Dead: false,
        Pid: running ? c.pid : 0,
        ConmonPid: running ? c.pid - 3 : 0,
        ExitCode: c.exitCode,
        Error: '',
        StartedAt: isoNanos(c.startedAt, (c.pid * 7) % 997),
        FinishedAt: running ? '0001-01-01T00:00:00Z' : isoNanos(c.finishedAt ?? c.startedAt, (c.pid * 13) % 997),
        CheckpointedAt: '0001-01-01T00:00:00Z',
        RestoredAt: '0001-01-01T00:00:00Z',
      },
      Image: c.imageId,
      ImageDigest: c.image.includes('@') ? c.image.slice(c.image.indexOf('@') + 1) : '',
      ImageName: c.image,
      Rootfs: '',
      Pod: '',
      ResolvConfPath: `/run/containers/storage/overlay-containers/${c.id}/userdata/resolv.conf`,
      HostnamePath: `/run/containers/storage/overlay-containers/${c.id}/userdata/hostname`,
      HostsPath: `/run/containers/storage/overlay-containers/${c.id}/userdata/hosts`,
      StaticDir: `/var/lib/containers/storage/overlay-containers/${c.id}/userdata`,
      OCIRuntime: 'crun',
      ConmonPidFile: `/run/containers/storage/overlay-containers/${c.id}/userdata/conmon.pid`,
      Name: c.name,
      RestartCount: 0,
      Driver: 'overlay',
      MountLabel: 'system_u:object_r:container_file_t:s0:c116,c801',
      ProcessLabel: 'system_u:system_r:container_t:s0:c116,c801',
      Mounts: c.mounts.map((m) => ({ Type: 'bind', Source: m.source, Destination: m.destination, Driver: '', Mode: '', Options: ['rbind'], RW: m.rw, Propagation: 'rprivate' })),
      Config: {
        Hostname: c.id.slice(0, 12),
        Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'container=oci', ...c.env],
        Cmd: c.args,
        Image: c.image,
        Entrypoint: [c.path],
        OnBuild: null,
        StopSignal: 15,
      },
      HostConfig: { NetworkMode: 'host', AutoRemove: false, Privileged: false, LogConfig: { Type: 'k8s-file', Path: `/var/lib/containers/storage/overlay-containers/${c.id}/userdata/ctr.log` } },
    },
  ];
  return `${JSON.stringify(doc, null, 5)}\n`;
}
