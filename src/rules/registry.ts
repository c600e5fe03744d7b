// The TypeScript rules, listed in one place (YAML rules are discovered from rules/), and where
// the cases each is tested on live: `<id>.cases.yaml` beside its module.
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { bootkubeStageFailed } from './builtin/bootkube-stage-failed.js';
import { certificateValidity } from './builtin/certificate-validity.js';
import { clusterOperatorConditions } from './builtin/cluster-operator-conditions.js';
import { containerOomKilled } from './builtin/container-oom-killed.js';
import { csrPendingNodesMissing } from './builtin/csr-pending-nodes-missing.js';
import { etcdQuorum } from './builtin/etcd-quorum.js';
import { installerWaitFailed } from './builtin/installer-wait-failed.js';
import { lastErrorRule } from './builtin/last-error.js';
import { machineConfigPoolDegraded } from './builtin/machine-config-pool-degraded.js';
import { machinesNotRunning } from './builtin/machines-not-running.js';
import { mastersUnreachable } from './builtin/masters-unreachable.js';
import { releaseDigestMismatch } from './builtin/release-digest-mismatch.js';
import { releaseImageServiceFailed } from './builtin/release-image-service-failed.js';
import type { DeclaredRule } from './engine.js';

export const BUILTIN_RULES: readonly DeclaredRule[] = [
  releaseImageServiceFailed,
  bootkubeStageFailed,
  certificateValidity,
  etcdQuorum,
  csrPendingNodesMissing,
  releaseDigestMismatch,
  clusterOperatorConditions,
  machineConfigPoolDegraded,
  machinesNotRunning,
  installerWaitFailed,
  mastersUnreachable,
  containerOomKilled,
  lastErrorRule,
];

/** The cases file of a TypeScript rule: `src/rules/builtin/<id>.cases.yaml`, shipped with the package. */
export function builtinCasesFile(ruleId: string): string {
  return join(packageRoot(), 'src', 'rules', 'builtin', `${ruleId}.cases.yaml`);
}
