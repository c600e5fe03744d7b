// `kb add` on a case whose cause bootlens did not know: a bootstrap whose bootkube stops on an
// upstream resolver nobody wrote a rule for, with the installer giving up after it (a symptom).
// The entry takes the failed unit's last errors and says so, for `--category dns` (which nothing
// bootlens recognises points to) and for `--category unknown`, never the installer's symptom.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addEntry } from '../../src/knowledge/add-entry.js';
import { ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const H = 'bootstrap.lab.example.com';
const CAUSE = `Error: failed to render the cluster DNS operator manifest: resolver "corp-dns-7" answered with an unsigned zone for lab.example.com`;

function unknownCauseBundle(): string {
  return writeTree(tempDir(), ROOT, {
    'bootstrap/services/bootkube.json':
      '[\n{"timestamp":"2026-11-22T10:14:58Z","phase":"service start"},\n{"timestamp":"2026-11-22T10:21:10Z","phase":"service end","result":"failure","errorMessage":"exit status 1"}\n]\n',
    'bootstrap/journals/bootkube.log': [
      `Nov 22 10:15:04 ${H} bootkube.sh[2507]: Rendering cluster DNS operator manifests...`,
      `Nov 22 10:21:09 ${H} bootkube.sh[2507]: ${CAUSE}`,
      `Nov 22 10:21:10 ${H} systemd[1]: bootkube.service: Main process exited, code=exited, status=1/FAILURE`,
      `Nov 22 10:21:10 ${H} systemd[1]: bootkube.service: Failed with result 'exit-code'.`,
      '',
    ].join('\n'),
    '.openshift_install.log': [
      'time="2026-11-22T10:10:00Z" level=info msg="Waiting up to 20m0s (until 10:30AM) for the Kubernetes API at https://api.lab.example.com:6443..."',
      'time="2026-11-22T10:30:00Z" level=error msg="Attempted to gather debug logs after installation failure: failed to create SSH client"',
      'time="2026-11-22T10:30:00Z" level=fatal msg="Bootstrap failed to complete: waiting for Kubernetes API: context deadline exceeded"',
      '',
    ].join('\n'),
  });
}

const BASE = {
  title: 'The corporate resolver serves an unsigned zone',
  stage: 'bootstrap-control-plane',
  fix: ['Point the nodes at a resolver that serves the cluster zone signed, or turn off DNSSEC validation.'],
  references: ['https://github.com/openshift/installer/issues/5646'],
};

describe('kb add learns a cause bootlens did not know', () => {
  it('with --category dns, takes the failed unit’s last errors and says so', async () => {
    const out = tempDir();
    const r = await addEntry({ ...BASE, id: 'corp-resolver-unsigned-zone', category: 'dns', bundle: unknownCauseBundle(), out });
    expect(r.sources.every((s) => s === 'failed-unit')).toBe(true);
    expect(r.basis).toMatch(/^the failed unit's last errors \(bootkube/);
    expect(r.entry.lines[0]).toContain('answered with an unsigned zone');
    expect(r.entry.lines.join('\n')).not.toContain('Bootstrap failed to complete');
    expect(r.file).toBe(join(out, 'kb-corp-resolver-unsigned-zone.yaml'));
  });

  it('with --category unknown, takes the same lines, not the installer’s symptom', async () => {
    const r = await addEntry({ ...BASE, id: 'bootkube-unknown-stop', category: 'unknown', bundle: unknownCauseBundle(), out: tempDir() });
    expect(r.sources[0]).toBe('failed-unit');
    expect(r.entry.lines[0]).toContain('answered with an unsigned zone');
    expect(r.entry.lines.join('\n')).not.toMatch(/Bootstrap failed to complete|context deadline exceeded/);
  });
});
