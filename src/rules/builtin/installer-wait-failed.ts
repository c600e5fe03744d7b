// The installer's own log says which wait gave up: the Kubernetes API, bootstrap-complete or
// the cluster. For bundles that hold only the installer's log this is the stage evidence.
import type { StageId } from '../../taxonomy.js';
import { classifyError, defineRule } from '../define-rule.js';

export const installerWaitFailed = defineRule({
  meta: {
    id: 'installer-wait-failed',
    title: 'The installer gave up waiting',
    stage: 'bootstrap-complete',
    category: 'unknown',
    severity: 'error',
    confidence: 'low',
    description:
      "`openshift-install` waits for the Kubernetes API (20 min), then for bootstrap-complete (30-45 min), then for the cluster (40 min+). The wait that failed places the failure; the installer's log rarely says why, so other findings should decide the cause.",
    fix: [
      'Gather the bootstrap logs if not done: `openshift-install gather bootstrap --dir <install-dir>` (add `--bootstrap <ip> --master <ip>` for user-provisioned infrastructure).',
      'Run `openshift-install wait-for bootstrap-complete --log-level=debug` to resume waiting with more detail.',
    ],
    references: ['https://github.com/openshift/installer/blob/master/cmd/openshift-install/create.go', 'https://github.com/openshift/installer/blob/master/docs/user/troubleshootingbootstrap.md'],
  },
  check(ctx) {
    const log = ctx.bundle.installerLog;
    if (!log) return { missing: ['installer log'] };
    const f = [...log.failures].reverse().find((l) => /Kubernetes API|bootstrap|cluster to initialize|waiting for|timed out|deadline exceeded/i.test(l.text));
    if (!f || log.installComplete) return [];
    const stage: StageId = /Kubernetes API/i.test(f.text)
      ? 'bootstrap-control-plane'
      : /bootstrap/i.test(f.text)
        ? 'bootstrap-complete'
        : 'cluster-operators';
    const category = classifyError(f.text);
    return [
      ctx.finding({
        message: f.text,
        evidence: [{ file: log.source.file, line: f.line, text: f.raw ?? f.text, ...(f.time !== undefined ? { time: f.time } : {}) }],
        stage,
        // A deadline says only that time ran out; keep such a wait's category unknown.
        category: category === 'etcd-health' || category === 'network-connectivity' ? category : 'unknown',
      }),
    ];
  },
});
