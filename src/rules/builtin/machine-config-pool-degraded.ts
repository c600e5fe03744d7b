// A MachineConfigPool that is Degraded (its nodes cannot apply or the controller cannot render
// their machine config) blocks the machine-config operator and the install with it.
import type { Evidence } from '../../result/types.js';
import { defineRule } from '../define-rule.js';
import { categoryNamed } from '../read-message.js';

/** The conditions of a pool that say it is stuck (machine-config-operator pkg/apis). */
const DEGRADED = new Set(['Degraded', 'NodeDegraded', 'RenderDegraded']);

export const machineConfigPoolDegraded = defineRule({
  meta: {
    id: 'machine-config-pool-degraded',
    title: 'A MachineConfigPool is degraded',
    stage: 'cluster-operators',
    category: 'machine-config',
    severity: 'error',
    confidence: 'medium',
    description:
      "Each MachineConfigPool (master, worker) renders one MachineConfig for its nodes and reports Degraded when a node cannot apply it (NodeDegraded: the on-disk state does not match, a file or unit cannot be written) or the controller cannot render it (RenderDegraded: a MachineConfig is invalid or missing). A pool with no rendered configuration or with degraded machines keeps the machine-config operator from becoming Available, so the install does not complete.",
    fix: [
      'Read the pool: `oc describe machineconfigpool <name>` (its Degraded message names the node or the failing MachineConfig).',
      'For NodeDegraded, read the machine-config-daemon on that node: `oc -n openshift-machine-config-operator logs <machine-config-daemon pod> -c machine-config-daemon`.',
      'For RenderDegraded, list the MachineConfigs the pool selects and remove or fix the invalid one: `oc get machineconfig`.',
    ],
    references: [
      'https://github.com/openshift/machine-config-operator/blob/master/docs/MachineConfigController.md',
      'https://github.com/okd-project/okd/issues/893',
    ],
  },
  inputs: [{ resource: 'machineconfigpools' }],
  check(ctx) {
    const findings = [];
    for (const pool of ctx.bundle.cluster?.machineConfigPools ?? []) {
      const bad = pool.conditions.filter((c) => DEGRADED.has(c.type) && c.status === 'True');
      if (bad.length === 0 && !(pool.degradedMachineCount && pool.degradedMachineCount > 0)) continue;
      const said = bad.map((c) => c.message ?? '').find((m) => categoryNamed(ctx, m) !== 'unknown');
      const evidence: Evidence[] = (bad.length > 0 ? bad : [{ type: 'Degraded', status: 'True', message: `${pool.degradedMachineCount} degraded machine(s)` }]).map((c) => ({
        file: pool.source.file,
        text: `${pool.name} ${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''}${c.message ? `: ${c.message}` : ''}`,
        ...(c.lastTransitionTime !== undefined ? { time: c.lastTransitionTime } : {}),
      }));
      const counts = pool.machineCount !== undefined ? ` (${pool.degradedMachineCount ?? 0} of ${pool.machineCount} machines degraded${pool.renderedConfig ? '' : ', no rendered configuration'})` : '';
      findings.push(
        ctx.finding({
          message: `MachineConfigPool ${pool.name} is degraded${counts}${bad[0]?.message ? `: ${bad[0].message}` : ''}`,
          evidence,
          // The pool's own words may name a cause outside the machine config (a missing image, a full disk).
          ...(said ? { category: categoryNamed(ctx, said) } : {}),
          captures: { pool: pool.name },
        }),
      );
    }
    return findings;
  },
});
