import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../src/analysis/analyze.js';
import { renderJunit, renderJunitReport } from '../../src/report/junit.js';
import { STAGES } from '../../src/taxonomy.js';
import { failedResult, healthyResult } from './results.js';
import { findAll, parseXml } from './xml-check.js';

let failed: AnalysisResult;
let healthy: AnalysisResult;
beforeAll(async () => {
  failed = await failedResult();
  healthy = await healthyResult();
});

describe('renderJunit', () => {
  it('writes valid XML with one test case per stage and a failure only for the failed stage', () => {
    const xml = renderJunit(failed);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')).toBe(true);
    const root = parseXml(xml);
    expect(root.name).toBe('testsuites');
    const cases = findAll(root, 'testcase');
    expect(cases).toHaveLength(STAGES.length);
    expect(cases.map((c) => c.attrs.name.split(' ')[1].replace(/:$/, ''))).toEqual([...STAGES]);
    const failing = cases.filter((c) => c.children.some((x) => x.name === 'failure'));
    expect(failing.map((c) => c.attrs.name)).toEqual(['04 bootstrap-etcd: Bootstrap etcd member running']);
    const failure = findAll(failing[0], 'failure')[0];
    expect(failure.attrs.message).toMatch(/^FAILED at bootstrap-etcd \(etcd-health/);
    expect(failure.attrs.type).toBe('etcd-health');
    expect(failure.text).toContain('etcdctl failed. Retrying in 5 seconds...');
    expect(failure.text).toMatch(/bootstrap\/journals\/bootkube\.log:\d+/);
  });

  it('counts tests, failures and skipped stages on the suite, and keeps the verdict as properties', () => {
    const root = parseXml(renderJunit(failed));
    const suite = findAll(root, 'testsuite')[0];
    const notOk = failed.stages.filter((s) => s.status !== 'ok').length;
    expect(suite.attrs).toMatchObject({ tests: String(STAGES.length), failures: '1', errors: '0', skipped: String(notOk - 1) });
    expect(findAll(suite, 'skipped').length).toBe(notOk - 1);
    const props = Object.fromEntries(findAll(suite, 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props).toMatchObject({ 'verdict.status': 'failed', 'verdict.stage': 'bootstrap-etcd', 'verdict.ciFailureMode': 'cluster bootstrap' });
    expect(root.attrs).toMatchObject({ tests: String(STAGES.length), failures: '1' });
  });

  it('has no failure for a healthy bundle', () => {
    const root = parseXml(renderJunit(healthy));
    expect(findAll(root, 'testcase')).toHaveLength(STAGES.length);
    expect(findAll(root, 'failure')).toHaveLength(0);
    expect(findAll(root, 'testsuite')[0].attrs.failures).toBe('0');
  });

  it('writes one <testsuites> with a <testsuite> per bundle', () => {
    const root = parseXml(renderJunitReport([failed, healthy]));
    expect(findAll(root, 'testsuite').map((s) => s.attrs.name)).toEqual(['bootlens: log-bundle-failed.tar.gz', 'bootlens: log-bundle-healthy']);
    expect(findAll(root, 'testcase')).toHaveLength(2 * STAGES.length);
    expect(root.attrs).toMatchObject({ tests: String(2 * STAGES.length), failures: '1' });
  });

  it('is deterministic', () => {
    expect(renderJunit(failed)).toBe(renderJunit(JSON.parse(JSON.stringify(failed)) as AnalysisResult));
  });
});
