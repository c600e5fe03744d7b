// The bootstrap host could not get the release image, as its service records say: what the
// installer's own analysis checks first (pkg/gather/service/analyze.go), with the cause read
// from the recorded error lines.
import type { Evidence } from '../../result/types.js';
import { RELEASE_IMAGE_SERVICES } from '../../specs/source-stage.js';
import { categoryNamed } from '../read-message.js';
import { defineRule } from '../define-rule.js';

export const releaseImageServiceFailed = defineRule({
  meta: {
    id: 'release-image-service-failed',
    title: 'The bootstrap host could not pull the release image',
    stage: 'release-image',
    category: 'unknown',
    severity: 'critical',
    confidence: 'high',
    description:
      'The release-image service (or node-image-pull / release-image-pivot on newer releases) recorded a failed run. Nothing else on the bootstrap host can start without the release payload. The category follows the recorded error lines: pull secret, missing mirror image, registry certificate, DNS or connectivity.',
    fix: [
      'Read the recorded error below, then reproduce the pull on the bootstrap host: `sudo podman pull --authfile /root/.docker/config.json <release image>`.',
      'Check the pull secret in install-config.yaml covers the registry (and the mirror, for disconnected installs): `jq .auths pull-secret.json | jq keys`.',
      'For a mirror, check imageContentSources / ImageDigestMirrorSet point at a mirror that holds the release digest: `oc adm release info <mirror>/<repo>@<digest>`.',
      'Check DNS, proxy and firewall from the bootstrap host to the registry: `curl -v https://<registry>/v2/`.',
    ],
    references: [
      'https://github.com/openshift/installer/blob/master/pkg/gather/service/analyze.go',
      'https://github.com/openshift/installer/blob/master/data/data/bootstrap/files/usr/local/bin/release-image-download.sh.template',
    ],
  },
  inputs: RELEASE_IMAGE_SERVICES.map((service) => ({ service, host: 'bootstrap' })),
  check(ctx) {
    const host = ctx.bundle.bootstrap;
    const records = RELEASE_IMAGE_SERVICES.map((s) => host?.serviceRecords[s]).filter((r) => r !== undefined);
    const findings = [];
    for (const record of records) {
      const run = record.runs[record.runs.length - 1];
      const failedStage = run?.stages.find((s) => s.result === 'failure');
      if (!run || (run.result !== 'failure' && !failedStage)) continue;
      const message = run.errorMessage ?? failedStage?.errorMessage ?? '';
      const lines = message.split('\n').filter((l) => l.trim()).slice(-3);
      const ref = failedStage?.source ?? run.endSource ?? run.source;
      const evidence: Evidence[] = (lines.length > 0 ? lines : [`${record.service} service ended: failure`]).map((text) => {
        const e: Evidence = { file: ref.file, text, host: 'bootstrap' };
        if (ref.line !== undefined) e.line = ref.line;
        if (run.end !== undefined) e.time = run.end;
        return e;
      });
      const category = categoryNamed(ctx, message);
      findings.push(
        ctx.finding({
          message: `The ${record.service} service failed${lines.length ? `: ${lines[lines.length - 1]}` : ''}`,
          evidence,
          category,
          confidence: category === 'unknown' ? 'medium' : 'high',
          captures: { service: record.service },
        }),
      );
    }
    return findings;
  },
});
