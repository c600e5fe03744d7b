import { describe, expect, it } from 'vitest';
import { diffBundles } from '../../src/diff/diff-bundles.js';
import { renderDiffText } from '../../src/report/diff-text.js';
import { BUILTIN_RULES } from '../../src/rules/registry.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const H = 'bootstrap.ocp4.example.com';

describe('diffBundles', () => {
  it('shows stages that differ, log templates new in the bad bundle, and operator conditions that changed', async () => {
    const goodFiles = bundleFiles();
    goodFiles['bootstrap/services/bootkube.json'] =
      '[\n{"timestamp":"2026-11-22T10:14:58Z","phase":"service start"},\n{"timestamp":"2026-11-22T10:15:04Z","phase":"stage start","stage":"wait-for-etcd"},\n{"timestamp":"2026-11-22T10:16:04Z","phase":"stage end","stage":"wait-for-etcd","result":"success"},\n{"timestamp":"2026-11-22T10:50:00Z","phase":"service end","result":"success"}\n]\n';
    goodFiles['bootstrap/journals/bootkube.log'] = [
      `Nov 22 10:15:04 ${H} bootkube.sh[2507]: Waiting for etcd cluster...`,
      `Nov 22 10:16:04 ${H} bootkube.sh[2507]: Starting cluster-bootstrap...`,
      `Nov 22 10:50:00 ${H} bootkube.sh[2507]: bootkube.service complete`,
    ].join('\n');
    delete goodFiles['unit-status/bootkube.service.log'];
    delete goodFiles['unit-status/bootkube.service.txt'];
    const ops = JSON.parse(goodFiles['resources/clusteroperators.json']);
    ops.items[0].status.conditions = [
      { type: 'Degraded', status: 'False', reason: 'AsExpected' },
      { type: 'Available', status: 'True', reason: 'AsExpected' },
    ];
    goodFiles['resources/clusteroperators.json'] = JSON.stringify(ops);
    const good = writeTree(tempDir(), ROOT, goodFiles);
    const bad = writeTree(tempDir(), ROOT, bundleFiles());
    const d = await diffBundles(good, bad, BUILTIN_RULES, 'test');
    expect(d.good.verdict.stage).not.toBe('bootstrap-etcd');
    expect(d.bad.verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-etcd' });
    expect(d.stages).toContainEqual({ id: 'bootstrap-etcd', good: 'ok', bad: 'failed' });
    expect(d.operators).toEqual([
      { operator: 'etcd', condition: 'Available', good: 'True', bad: 'False', message: 'no quorum' },
      { operator: 'etcd', condition: 'Degraded', good: 'False', bad: 'True', message: 'EtcdMembersDegraded: 2 of 3 members are available' },
    ]);
    // Present in the bad bundle only: no change of value, kept apart.
    expect(d.conditionsInOne).toEqual([{ operator: 'etcd', condition: 'Progressing', bad: 'True', message: 'NodeInstallerProgressing' }]);
    const templates = d.newTemplates.map((t) => t.template);
    expect(templates).toContain('etcdctl failed. Retrying in <NUM> seconds...');
    expect(templates).not.toContain('Waiting for etcd cluster...');
    // Error-like templates come first.
    expect(d.newTemplates[0].template).toMatch(/fail|error|refused|Failed/i);
    expect(d.findings.onlyBad).toContain('bootkube-stage-failed');

    // The text leads with the outcome, counts the conditions present in one bundle only, and at
    // any width breaks lines between words only.
    const text = renderDiffText(d, { width: 100 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('Outcome: the verdicts differ');
    expect(lines.find((l) => l.startsWith('  bad '))).toMatch(/^ {2}bad {2}log-bundle-\d+: FAILED at bootstrap-etcd \(etcd-health, confidence [\d.]+, rule/);
    expect(text.indexOf('Stages that differ')).toBeLessThan(text.indexOf('Findings only in bad'));
    expect(text.indexOf('Operator conditions that changed value (2):')).toBeLessThan(text.indexOf('Log templates only in bad'));
    expect(text.replace(/\n +/g, ' ')).toContain('(1 conditions are present in one bundle only, not changes: 0 only in good, 1 only in bad; --format json lists them)');
    expect(text).not.toMatch(/→ -/);
    const words = new Set(text.split(/\s+/));
    for (const width of [40, 60, 100]) {
      const narrow = renderDiffText(d, { width });
      for (const l of narrow.split('\n')) expect(l.length, l).toBeLessThanOrEqual(width);
      // Every word of the narrow text is a whole word of the wide one, or one shortened with … (never split).
      for (const w of narrow.split(/\s+/).filter(Boolean)) expect(words.has(w) || w.includes('…'), w).toBe(true);
    }
  });
});
