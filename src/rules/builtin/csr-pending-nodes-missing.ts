// Certificate requests left Pending while the nodes that asked never joined: the kubelets can
// not register until someone (approve-csr on the bootstrap host, or the machine approver)
// approves them.
import type { Evidence } from '../../result/types.js';
import { defineRule } from '../define-rule.js';

export const csrPendingNodesMissing = defineRule({
  meta: {
    id: 'csr-pending-nodes-missing',
    title: 'Node certificate requests pending while nodes are missing',
    stage: 'masters-provision',
    category: 'csr-pending',
    severity: 'error',
    confidence: 'high',
    description:
      'Compares the CSRs in resources/csr.json with the nodes in resources/nodes.json and the expected masters (masters.list, control-plane folders). Pending kubelet CSRs alongside masters that never registered, or registered but not Ready, mean the requests were not approved: approve-csr on the bootstrap host or the cluster-machine-approver did not act.',
    fix: [
      'List and approve pending requests: `oc get csr | grep Pending` then `oc adm certificate approve <name>` (kubelet client CSRs first, then serving CSRs).',
      'On the bootstrap host check `journalctl -b -u approve-csr`.',
      'For user-provisioned workers, approving CSRs is manual: see the docs on approving the CSRs for your machines.',
    ],
    references: [
      'https://github.com/openshift/installer/blob/master/data/data/bootstrap/files/usr/local/bin/approve-csr.sh',
      'https://docs.openshift.com/container-platform/4.14/installing/installing_bare_metal/installing-bare-metal.html#installation-approve-csrs_installing-bare-metal',
    ],
  },
  // The nodes and the masters' names are consulted, but without CSRs there is nothing to judge.
  inputs: [{ resource: 'csrs' }],
  check(ctx) {
    const c = ctx.bundle.cluster;
    const pending = (c?.csrs ?? []).filter((r) => r.state === 'Pending');
    if (!c || pending.length === 0) return [];
    const nodes = c.nodes ?? [];
    const masters = nodes.filter((n) => n.roles.includes('master') || n.roles.includes('control-plane'));
    const expected = Math.max(c.masterNames?.length ?? 0, ctx.bundle.masters.length, 3);
    const notReady = nodes.filter((n) => n.ready !== 'True');
    const mastersMissing = masters.length < expected;
    if (!mastersMissing && notReady.length === 0) return [];
    const evidence: Evidence[] = pending.slice(0, 3).map((r) => ({ file: r.source.file, text: `${r.name} Pending, requested by ${r.requestor ?? '?'}${r.created ? ` at ${new Date(r.created).toISOString()}` : ''}`, ...(r.created ? { time: r.created } : {}) }));
    const nodesFile = c.files.find((f) => f.name === 'nodes')?.source.file;
    if (nodesFile) evidence.push({ file: nodesFile, text: `${masters.length} of ${expected} masters registered; not Ready: ${notReady.map((n) => n.name).join(', ') || 'none'}` });
    return [
      ctx.finding({
        message: `${pending.length} CSR(s) Pending while ${mastersMissing ? `only ${masters.length} of ${expected} masters registered` : `${notReady.length} node(s) are not Ready`}`,
        evidence,
        stage: mastersMissing ? 'masters-provision' : 'workers',
      }),
    ];
  },
});
