// A folder of bundles for the triage HTML tests: the same etcd failure twice (one bundle named
// like markup), a release-image failure whose evidence carries markup and a token, and an
// upload that is no bundle at all, named like markup too.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectBundles } from '../../src/triage/collect.js';
import { analyzeMany } from '../../src/triage/pool.js';
import type { TriageRecord } from '../../src/triage/record.js';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

/** File names and log text that must come out as text. */
export const HOSTILE_TRIAGE = {
  /** A readable bundle's file name. */
  bundleName: '<svg onload=alert(1)>.tar.gz',
  /** An unreadable upload's file name. */
  unreadableName: '<img src=x onerror=alert(1)>.tar.gz',
  /** Evidence text that tries to end the table cell and open a script. */
  evidence: '</td><script>alert(1)</script>',
  /** A token in the same evidence: redaction must have removed it before any report. */
  token: 'sha256~S3cr3tTriageT0ken0123456789abcdefXYZ',
} as const;

export interface TriageFixture {
  dir: string;
  records: TriageRecord[];
}

/** Writes the bundles and triages them on two worker threads (the real pool, built worker). */
export async function hostileTriage(): Promise<TriageFixture> {
  const dir = tempDir('bootlens-triage-html-');
  const src = tempDir();
  writeTree(join(src, 'a'), ROOT, bundleFiles());
  await packTar(join(src, 'a'), ROOT, join(dir, 'ci-run-1.tar.gz'), true);
  copyFileSync(join(dir, 'ci-run-1.tar.gz'), join(dir, HOSTILE_TRIAGE.bundleName));
  const message = `Error: reading manifest sha256:1 in quay.io/openshift-release-dev/ocp-release ${HOSTILE_TRIAGE.evidence} Authorization: Bearer ${HOSTILE_TRIAGE.token}: unauthorized: authentication required`;
  writeTree(dir, 'ci-run-3', {
    [`${ROOT}/bootstrap/services/release-image.json`]: `[\n{"timestamp":"2026-11-22T10:00:00Z","phase":"service start"},\n${JSON.stringify({ timestamp: '2026-11-22T10:05:00Z', phase: 'service end', result: 'failure', errorMessage: message })}\n]\n`,
  });
  writeFileSync(join(dir, HOSTILE_TRIAGE.unreadableName), 'this upload was cut off');
  // A bundle with too little in it for any verdict: inconclusive, so unclassified.
  writeTree(dir, 'ci-run-5', { [`${ROOT}/bootstrap/journals/release-image.log`]: 'Nov 22 10:00:00 bootstrap systemd[1]: Starting release-image.service...\n' });
  const records = await analyzeMany(await collectBundles([dir]), { jobs: 2, version: 'test' });
  return { dir, records };
}
