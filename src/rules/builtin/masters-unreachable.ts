// The gather script could not reach the masters over SSH: their part of the bundle is
// missing, and masters that never answer SSH often never booted from their ignition.
import type { Evidence } from '../../result/types.js';
import { isSshError } from '../../parsers/gather-log.js';
import { defineRule } from '../define-rule.js';

export const mastersUnreachable = defineRule({
  meta: {
    id: 'masters-unreachable',
    title: 'The masters could not be reached to gather their logs',
    stage: 'masters-provision',
    category: 'unknown',
    severity: 'warning',
    confidence: 'low',
    description:
      "installer-gather.sh SSHes from the bootstrap host to each master. When that fails the bundle has no control-plane/ part. Masters that never answer often never booted or never applied their ignition (check their serial consoles), or port 22 is filtered between the bootstrap host and the masters.",
    fix: [
      'Look at the masters\' consoles (serial logs in the bundle, or the platform console) for ignition errors.',
      'From the bootstrap host: `ssh core@<master-ip>` and `curl -k https://api-int.<cluster>.<domain>:22623/healthz` from the master network.',
      'Re-run the gather with explicit addresses: `openshift-install gather bootstrap --bootstrap <ip> --master <ip> ...`.',
    ],
    references: ['https://github.com/openshift/installer/blob/master/data/data/bootstrap/files/usr/local/bin/installer-gather.sh'],
  },
  inputs: [{ log: 'gather' }],
  check(ctx) {
    const gather = ctx.bundle.gatherLog;
    if (!gather || !ctx.bundle.meta.layout.mastersMissing) return [];
    // The lines about the SSH hop are the point; errors of the resource gather (api-int) are not.
    const ssh = gather.errors.filter((l) => isSshError(l.text));
    const evidence: Evidence[] = (ssh.length > 0 ? ssh : gather.errors).slice(0, 3).map((l) => ({ file: gather.source.file, line: l.line, text: l.text }));
    if (gather.noMasters) evidence.unshift({ file: gather.source.file, text: 'No masters found!' });
    if (evidence.length === 0) return [];
    return [
      ctx.finding({
        message: gather.noMasters ? 'The gather found no masters to collect from (the API listed none)' : `SSH to ${gather.mastersAttempted.join(', ') || 'the masters'} failed; no master logs were gathered`,
        evidence,
      }),
    ];
  },
});
