// bootkube's service record names the stage that failed in its last run; the stage maps onto
// the taxonomy and the recorded error lines suggest the cause.
import type { Evidence } from '../../result/types.js';
import { bootkubeRecordStage } from '../../specs/source-stage.js';
import { bootstrapApiAnswered } from '../../timeline/types.js';
import { categoryNamed } from '../read-message.js';
import { defineRule } from '../define-rule.js';

export const bootkubeStageFailed = defineRule({
  meta: {
    id: 'bootkube-stage-failed',
    title: 'bootkube failed at a recorded stage',
    stage: 'render',
    category: 'unknown',
    severity: 'error',
    confidence: 'medium',
    description:
      "bootkube.service records each of its stages; its last run ended in failure at the stage named here. The finding's stage follows the recorded stage (render stages, wait-for-etcd, cb-bootstrap, wait-for-ceo) and its category follows the recorded error lines; other findings usually say more about why.",
    fix: [
      'Read the recorded error and the bootkube journal around it: `journalctl -b -u bootkube.service` on the bootstrap host.',
      'For a render stage, check the render container: `sudo podman ps -a` and `sudo podman logs <container>`.',
      'For wait-for-etcd, check the etcd static pod: `sudo crictl ps -a --name etcd` and `sudo crictl logs <id>`.',
      'For cb-bootstrap or wait-for-ceo, check the masters joined and their pods run: `oc --kubeconfig=/opt/openshift/auth/kubeconfig get nodes,pods -A`.',
    ],
    references: [
      'https://github.com/openshift/installer/blob/master/data/data/bootstrap/files/usr/local/bin/bootkube.sh.template',
      'https://github.com/openshift/installer/blob/master/pkg/gather/service/analyze.go',
    ],
  },
  inputs: [{ service: 'bootkube', host: 'bootstrap' }],
  check(ctx) {
    const runs = ctx.bundle.bootstrap?.serviceRecords['bootkube']?.runs ?? [];
    const run = runs[runs.length - 1];
    if (!run || run.result !== 'failure') return [];
    const failed = [...run.stages].reverse().find((s) => s.result === 'failure') ?? [...run.stages].reverse().find((s) => s.result === undefined);
    const stage = failed ? bootkubeRecordStage(failed.name, bootstrapApiAnswered(ctx.timeline)) : undefined;
    const message = failed?.errorMessage ?? run.errorMessage ?? '';
    const lines = message.split('\n').filter((l) => l.trim()).slice(-3);
    const ref = failed?.source ?? run.endSource ?? run.source;
    const evidence: Evidence[] = (lines.length > 0 ? lines : [`bootkube stage ${failed?.name ?? '?'} failed`]).map((text) => {
      const e: Evidence = { file: ref.file, text, host: 'bootstrap' };
      if (ref.line !== undefined) e.line = ref.line;
      const t = failed?.end ?? run.end;
      if (t !== undefined) e.time = t;
      return e;
    });
    const category = categoryNamed(ctx, message);
    return [
      ctx.finding({
        symptom: true,
        message: `bootkube's last run failed at stage ${failed?.name ?? '(none recorded)'}${lines.length ? `: ${lines[lines.length - 1]}` : ''}`,
        evidence,
        ...(stage ? { stage } : {}),
        category,
        confidence: category === 'unknown' ? 'low' : 'medium',
        captures: { stage: failed?.name ?? '' },
      }),
    ];
  },
});
