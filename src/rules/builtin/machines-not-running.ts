// Machines the machine API could not bring up: a compute (or control-plane) Machine stuck in
// Provisioning or Failed never becomes a node, and the operators that run on it wait forever.
import type { Evidence } from '../../result/types.js';
import { defineRule } from '../define-rule.js';
import { categoryNamed } from '../read-message.js';

/** Phases a Machine passes on its way to a node; Running is where it should end. */
const STUCK = new Set(['Provisioning', 'Provisioned', 'Failed']);

export const machinesNotRunning = defineRule({
  meta: {
    id: 'machines-not-running',
    title: 'Machines the machine API could not bring up',
    stage: 'workers',
    category: 'cloud-provider',
    severity: 'error',
    confidence: 'medium',
    description:
      "The machine API creates each Machine on the platform (AWS, Azure, GCP, vSphere, libvirt, ...) and moves it through Provisioning and Provisioned to Running once its node joins. Machines left in Provisioning or Failed were not created or never booted: the platform refused (quota, capacity, credentials, a resource that does not resolve), or the host cannot fetch its ignition. Compute machines that never run leave ingress, the registry and monitoring without nodes, so the cluster does not initialize.",
    fix: [
      'Read the machines and their errors: `oc get machines -n openshift-machine-api -o wide` and `oc describe machine -n openshift-machine-api <name>` (status.errorMessage).',
      "Read the machine controller's log: `oc logs -n openshift-machine-api deploy/machine-api-controllers -c machine-controller`.",
      'Fix what the platform says (quota, instance type, credentials, resource pool), then delete the failed Machine so its MachineSet creates a new one.',
    ],
    references: [
      'https://github.com/openshift/machine-api-operator/blob/master/docs/user/machine-instance-lifecycle.md',
      'https://github.com/ibm-s390-cloud/ocp-kvm-ipi-automation',
    ],
  },
  inputs: [{ resource: 'machines' }],
  check(ctx) {
    const machines = ctx.bundle.cluster?.machines ?? [];
    const stuck = machines.filter((m) => m.phase && STUCK.has(m.phase));
    const findings = [];
    for (const role of [...new Set(stuck.map((m) => m.role ?? 'worker'))].sort()) {
      const these = stuck.filter((m) => (m.role ?? 'worker') === role);
      const said = these.map((m) => m.errorMessage ?? m.errorReason ?? '').find((t) => categoryNamed(ctx, t) !== 'unknown');
      const evidence: Evidence[] = these.slice(0, 5).map((m) => ({
        file: m.source.file,
        text: `${m.name} ${m.phase}${m.errorReason ? ` ${m.errorReason}` : ''}${m.errorMessage ? `: ${m.errorMessage}` : ''}`,
      }));
      findings.push(
        ctx.finding({
          title: `${these.length} ${role} machine(s) not running`,
          message: `${these.length} of ${machines.filter((m) => (m.role ?? 'worker') === role).length} ${role} machines are ${[...new Set(these.map((m) => m.phase))].join('/')}${said ? `: ${said}` : ''}`,
          evidence,
          stage: role === 'master' ? 'masters-provision' : 'workers',
          ...(said ? { category: categoryNamed(ctx, said) } : {}),
          captures: { role },
        }),
      );
    }
    return findings;
  },
});
