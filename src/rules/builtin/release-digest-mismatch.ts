// The release the bootstrap host pulled versus the release the masters were told to use: a
// different release digest on a master means stale or mixed ignition/boot artifacts.
import type { Bundle } from '../../model/types.js';
import type { Evidence } from '../../result/types.js';
import { defineRule, keepMatches } from '../define-rule.js';

const ID = 'release-digest-mismatch';
// A release payload by digest: `.../ocp-release@sha256:<64 hex>`, `origin-release`, nightlies.
// Anchored on the literal so the regex never scans ordinary lines (it runs on every kept line).
const RELEASE_REF = /-release(?:-nightly)?@sha256:([0-9a-f]{64})/;

interface Seen {
  digest: string;
  evidence: Evidence;
}

function refs(bundle: Bundle, role: 'bootstrap' | 'master'): Seen[] {
  const out: Seen[] = [];
  for (const { log, line, host } of keepMatches(bundle, ID, 'release', [role])) {
    const r = RELEASE_REF.exec(line.text);
    if (r) out.push({ digest: r[1], evidence: { file: log.source.file, line: line.line, text: line.raw ?? line.text, host, ...(line.time !== undefined ? { time: line.time } : {}) } });
  }
  return out;
}

export const releaseDigestMismatch = defineRule({
  meta: {
    id: ID,
    title: 'Masters use a different release than the bootstrap host',
    stage: 'masters-provision',
    category: 'machine-config',
    severity: 'error',
    confidence: 'medium',
    description:
      'Finds the release payload digest the bootstrap host pulled (release-image journal, installer log) and the release digests the masters reference in their journals. A master on another release booted from stale ignition or boot media, or a mirror rewrote the payload; its machine config will not match the cluster.',
    fix: [
      'Compare `oc adm release info <release image>` with the digest the master logs show.',
      'Regenerate ignition configs and boot media from the same openshift-install binary and release (`openshift-install version`).',
      'For disconnected installs, check the mirror holds the release digest the installer expects (`oc adm release info <mirror>@sha256:<digest>`).',
    ],
    references: ['https://github.com/openshift/installer/blob/master/data/data/bootstrap/files/usr/local/bin/release-image.sh.template'],
  },
  // The release the bootstrap host pulled (its journals, the installer log), and the masters' journals to compare.
  inputs: [{ journal: '*', host: 'bootstrap' }, { log: 'installer' }],
  requires: [{ journal: '*', host: 'master' }],
  keep: [{ name: 'release', literals: ['-release@sha256:', '-release-nightly@sha256:'], pattern: RELEASE_REF, sources: [{ journal: '*' }] }],
  check(ctx) {
    const boot = refs(ctx.bundle, 'bootstrap');
    const fromInstaller = ctx.bundle.installerLog?.releaseImage;
    const installerDigest = fromInstaller ? RELEASE_REF.exec(fromInstaller)?.[1] : undefined;
    const expected = installerDigest ?? boot[0]?.digest;
    if (!expected) return [];
    const masters = refs(ctx.bundle, 'master');
    const other = masters.filter((m) => m.digest !== expected);
    if (other.length === 0) return [];
    const bootEvidence: Evidence = boot[0]?.evidence ?? { file: ctx.bundle.installerLog?.source.file ?? 'installer log', text: `release image ${fromInstaller}` };
    return [
      ctx.finding({
        message: `The bootstrap host uses release sha256:${expected.slice(0, 12)}…, but ${[...new Set(other.map((o) => o.evidence.host))].join(', ')} reference sha256:${other[0].digest.slice(0, 12)}…`,
        evidence: [bootEvidence, ...other.slice(0, 3).map((o) => o.evidence)],
      }),
    ];
  },
});
