// Cluster operators that are Degraded or not Available, from resources/clusteroperators.json
// or, when the API never answered the gather, from the conditions the installer log printed.
import type { CategoryId, StageId } from '../../taxonomy.js';
import type { Evidence } from '../../result/types.js';
import { defineRule } from '../define-rule.js';
import { namesCause } from '../read-message.js';
import type { Finding } from '../types.js';
import { nameTable } from '../../util/name-table.js';
import { byCodeUnits } from '../../util/byte-order.js';

/** Operators whose trouble names a more precise category than `operator-degraded`. */
const OPERATOR_CATEGORY = nameTable<CategoryId>({
  network: 'network-plugin',
  etcd: 'etcd-health',
  'machine-config': 'machine-config',
  'cloud-credential': 'cloud-provider',
  'machine-api': 'cloud-provider',
  'cloud-controller-manager': 'cloud-provider',
  dns: 'dns',
});

interface Trouble {
  operator: string;
  condition: string;
  status: string;
  reason?: string;
  message: string;
  evidence: Evidence;
}

/**
 * A condition cited as one line: the operator, the condition, its reason and message, every word
 * of it what the finding is about, so a reporter that cuts the line keeps it all (a long message
 * its head and its tail, where the daemon names the file).
 */
function cited(file: string, text: string, at: Pick<Evidence, 'line' | 'time'>): Evidence {
  return { file, ...(at.line !== undefined ? { line: at.line } : {}), text, ...(at.time !== undefined ? { time: at.time } : {}), match: { start: 0, end: text.length } };
}

export const clusterOperatorConditions = defineRule({
  meta: {
    id: 'cluster-operator-conditions',
    title: 'A cluster operator is Degraded or not Available',
    stage: 'cluster-operators',
    category: 'operator-degraded',
    severity: 'error',
    confidence: 'medium',
    description:
      "Each cluster operator reports Available, Progressing and Degraded conditions. An operator that is Degraded=True or Available=False at the end of the install blocks completion. The operator's own message usually names the failing component; for network, etcd, machine-config and cloud operators the category says where to look.",
    fix: [
      'List the operators and their conditions: `oc get clusteroperators` and `oc describe clusteroperator <name>`.',
      'Look at the operator namespace: `oc get pods -n openshift-<name>` and the logs of its operator pod.',
      'Gather more: `oc adm must-gather` once the API answers.',
    ],
    references: ['https://github.com/openshift/installer/blob/master/cmd/openshift-install/create.go', 'https://docs.openshift.com/container-platform/4.14/support/troubleshooting/troubleshooting-installations.html'],
  },
  inputs: [{ resource: 'clusteroperators' }, { log: 'installer' }],
  check(ctx) {
    const ops = ctx.bundle.cluster?.clusterOperators;
    const log = ctx.bundle.installerLog;
    // Before bootstrap completes most operators are not Available yet: a symptom of the
    // earlier failure, not a finding. Degraded counts at any time.
    const bootstrapDone = ctx.timeline.stages.find((s) => s.id === 'bootstrap-complete')?.status === 'ok';
    const troubled = (type: string, status: string): boolean => (type === 'Degraded' && status === 'True') || (bootstrapDone && type === 'Available' && status !== 'True');
    const troubles: Trouble[] = [];
    if (ops) {
      for (const op of ops) {
        for (const c of op.conditions) {
          if (troubled(c.type, c.status)) {
            troubles.push({ operator: op.name, condition: c.type, status: c.status, ...(c.reason ? { reason: c.reason } : {}), message: c.message ?? '', evidence: cited(op.source.file, `${op.name} ${c.type}=${c.status} ${c.reason ?? ''}: ${c.message ?? ''}`, { ...(c.lastTransitionTime ? { time: c.lastTransitionTime } : {}) }) });
          }
        }
      }
    } else if (log) {
      // The installer prints conditions repeatedly: the last report per operator and condition wins.
      const last = new Map<string, (typeof log.operatorConditions)[number]>();
      for (const c of log.operatorConditions) last.set(`${c.operator}/${c.condition}`, c);
      for (const c of last.values()) {
        if (troubled(c.condition, c.status)) {
          troubles.push({ operator: c.operator, condition: c.condition, status: c.status, ...(c.reason ? { reason: c.reason } : {}), message: c.message, evidence: cited(log.source.file, `Cluster operator ${c.operator} ${c.condition} is ${c.status}${c.reason ? ` with ${c.reason}` : ''}: ${c.message}`, { line: c.line, ...(c.time !== undefined ? { time: c.time } : {}) }) });
        }
      }
    }
    const byOperator = new Map<string, Trouble[]>();
    for (const t of troubles) byOperator.set(t.operator, [...(byOperator.get(t.operator) ?? []), t]);
    const findings: Finding[] = [];
    for (const [operator, list] of [...byOperator.entries()].sort(([a], [b]) => byCodeUnits(a, b))) {
      // The operator's own words name the cause when they can (a name that does not resolve,
      // an invalid value, a proxy refusing); a bare refused connection is a symptom.
      const said = list.map((t) => ctx.read(`${t.reason ?? ''}: ${t.message}`)).find(namesCause);
      const category = said?.category ?? OPERATOR_CATEGORY[operator] ?? 'operator-degraded';
      const stage: StageId = operator === 'etcd' && !bootstrapDone ? 'etcd-scaling' : 'cluster-operators';
      const head = list[0];
      findings.push(
        ctx.finding({
          title: `Cluster operator ${operator} is ${list.map((t) => `${t.condition}=${t.status}`).join(', ')}`,
          message: `${operator}: ${head.reason ? `${head.reason}: ` : ''}${head.message}`.trim(),
          evidence: list.slice(0, 3).map((t) => t.evidence),
          category,
          stage,
          captures: { operator },
        }),
      );
    }
    return findings;
  },
});
