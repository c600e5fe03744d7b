// etcd quorum from every host's member list and endpoint health: a cluster of n members needs
// floor(n/2)+1 healthy ones; hosts that disagree on the membership are reported too.
import type { EtcdEndpointHealth, EtcdMember } from '../../model/types.js';
import type { Evidence } from '../../result/types.js';
import { bundleHosts, hostName } from '../../model/walk.js';
import { defineRule } from '../define-rule.js';
import type { Finding } from '../types.js';

function hostOf(url: string): string {
  return url.replace(/^\w+:\/\//, '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
}

export const etcdQuorum = defineRule({
  meta: {
    id: 'etcd-quorum',
    title: 'etcd has lost quorum or its members disagree',
    stage: 'etcd-scaling',
    category: 'etcd-health',
    severity: 'critical',
    confidence: 'high',
    description:
      'Reads every host\'s `etcdctl member list` and `endpoint health` output. With n members etcd needs floor(n/2)+1 healthy ones to accept writes; below that the API server stalls and bootstrap cannot finish. Member lists that differ between hosts point at a member added or removed while another was down.',
    fix: [
      'On a master: `sudo crictl exec -it $(sudo crictl ps --name etcdctl -q) etcdctl endpoint health --cluster -w table` and `member list -w table`.',
      'For each unhealthy endpoint check its etcd container logs: `sudo crictl logs $(sudo crictl ps -a --name etcd -q | head -1)` (slow disk: look for `slow fdatasync`; network: peer 2380 reachable?).',
      'Check disk latency on the masters meets etcd\'s needs (fio fdatasync p99 < 10 ms).',
    ],
    references: ['https://etcd.io/docs/v3.5/faq/#what-is-failure-tolerance', 'https://docs.openshift.com/container-platform/4.14/scalability_and_performance/recommended-performance-scale-practices/recommended-etcd-practices.html'],
  },
  inputs: [{ etcd: 'member-list' }, { etcd: 'endpoint-health' }],
  check(ctx) {
    const hosts = bundleHosts(ctx.bundle).filter((h) => h.etcd);
    const findings: Finding[] = [];
    const members = new Map<string, EtcdMember>();
    const listsByHost: { host: string; ids: string; file: string }[] = [];
    const health = new Map<string, EtcdEndpointHealth>();
    for (const h of hosts) {
      for (const list of h.etcd?.memberLists ?? []) {
        for (const m of list.members) members.set(m.id, m);
        if (list.members.length > 0) listsByHost.push({ host: hostName(h), ids: list.members.map((m) => m.id).sort().join(','), file: list.source.file });
      }
      // The latest report of an endpoint wins.
      for (const e of h.etcd?.health ?? []) health.set(hostOf(e.endpoint), e);
    }
    const voting = [...members.values()].filter((m) => !m.isLearner);
    const n = voting.length || health.size;
    if (health.size > 0 && n > 0) {
      const healthy = [...health.values()].filter((e) => e.healthy).length;
      const quorum = Math.floor(n / 2) + 1;
      const unhealthy = [...health.values()].filter((e) => !e.healthy);
      if (healthy < quorum) {
        findings.push(
          ctx.finding({
            message: `Only ${healthy} of ${n} etcd members are healthy; quorum needs ${quorum}. Unhealthy: ${unhealthy.map((e) => `${e.endpoint}${e.error ? ` (${e.error})` : ''}`).join(', ')}`,
            evidence: unhealthy.slice(0, 4).map((e): Evidence => ({ file: e.source.file, ...(e.source.line ? { line: e.source.line } : {}), text: `${e.endpoint} is unhealthy${e.error ? `: ${e.error}` : ''}` })),
            stage: n > 1 ? 'etcd-scaling' : 'bootstrap-etcd',
          }),
        );
      } else if (unhealthy.length > 0) {
        findings.push(
          ctx.finding({
            title: 'An etcd member is unhealthy (quorum kept)',
            message: `${unhealthy.length} of ${n} etcd members unhealthy; quorum of ${quorum} still holds: ${unhealthy.map((e) => e.endpoint).join(', ')}`,
            evidence: unhealthy.slice(0, 4).map((e): Evidence => ({ file: e.source.file, text: `${e.endpoint} is unhealthy${e.error ? `: ${e.error}` : ''}` })),
            severity: 'warning',
            confidence: 'medium',
          }),
        );
      }
    }
    const distinct = new Set(listsByHost.map((l) => l.ids));
    if (distinct.size > 1) {
      findings.push(
        ctx.finding({
          title: 'Hosts disagree on the etcd membership',
          message: `${distinct.size} different etcd member lists across ${listsByHost.length} reports`,
          evidence: listsByHost.slice(0, 4).map((l) => ({ file: l.file, text: `${l.host}: members ${l.ids}`, host: l.host })),
          severity: 'warning',
          confidence: 'medium',
        }),
      );
    }
    return findings;
  },
});
