// Containers the kernel killed for memory, from `crictl inspect` / `podman inspect`: a host
// too small for the control plane it runs (the bootstrap host in particular).
import type { StageId } from '../../taxonomy.js';
import type { Evidence } from '../../result/types.js';
import { bundleHosts, hostName } from '../../model/walk.js';
import { defineRule } from '../define-rule.js';

function stageFor(role: 'bootstrap' | 'master', name: string): StageId {
  if (role === 'master') return 'production-control-plane';
  if (/etcd/.test(name)) return 'bootstrap-etcd';
  return 'bootstrap-control-plane';
}

export const containerOomKilled = defineRule({
  meta: {
    id: 'container-oom-killed',
    title: 'Control-plane containers were killed for lack of memory',
    stage: 'bootstrap-control-plane',
    category: 'resource-exhaustion',
    severity: 'critical',
    confidence: 'high',
    description:
      'The container runtime recorded OOMKilled for containers on the host: the kernel killed them because the host ran out of memory. On the bootstrap host the temporary API server and etcd then restart in a loop and the API never stays up. The host is smaller than the documented minimum, or something else uses its memory.',
    fix: [
      'Give the bootstrap host (and masters) at least the documented memory: 16 GB for bootstrap and control plane on most platforms.',
      'On the host: `free -m`, `journalctl -k | grep -i "out of memory"`, `sudo crictl stats`.',
      'Check nothing else runs on the host (no extra pods or services from custom ignition).',
    ],
    references: [
      'https://docs.openshift.com/container-platform/4.14/installing/installing_bare_metal/installing-bare-metal.html#installation-minimum-resource-requirements_installing-bare-metal',
      'https://github.com/cri-o/cri-o/blob/main/internal/oci/oci.go',
    ],
  },
  inputs: [{ inspect: '*' }],
  check(ctx) {
    const hosts = bundleHosts(ctx.bundle);
    const inspected = hosts.flatMap((h) => h.containers.filter((c) => c.inspectSource).map((c) => ({ h, c })));
    const killed = inspected.filter(({ c }) => c.oomKilled || c.reason === 'OOMKilled');
    if (killed.length === 0) return [];
    const first = killed[0];
    const evidence: Evidence[] = killed.slice(0, 4).map(({ h, c }) => ({
      file: c.inspectSource?.file ?? '',
      text: `${c.name ?? c.id}: ${c.state ?? 'exited'}, reason OOMKilled, exit code ${c.exitCode ?? '?'}${c.restartCount !== undefined ? `, ${c.restartCount} restarts` : ''}`,
      host: hostName(h),
      ...(c.finishedAt !== undefined ? { time: c.finishedAt } : {}),
    }));
    return [
      ctx.finding({
        message: `${killed.length} container(s) killed for memory: ${[...new Set(killed.map(({ c }) => c.name ?? c.id))].join(', ')} on ${[...new Set(killed.map(({ h }) => hostName(h)))].join(', ')}`,
        evidence,
        stage: stageFor(first.h.role, first.c.name ?? ''),
      }),
    ];
  },
});
