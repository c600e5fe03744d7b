import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/rules/types.js';
import { STAGES, type CategoryId, type StageId } from '../../src/taxonomy.js';
import type { StageStatus, Timeline } from '../../src/timeline/types.js';
import { ciFailureMode, decideVerdict, rankFindings } from '../../src/verdict/verdict.js';
import { wordVerdict } from '../../src/verdict/words.js';

function finding(ruleId: string, stage: StageId, category: CategoryId, severity: Finding['severity'], confidence: Finding['confidence']): Finding {
  return {
    ruleId,
    title: ruleId,
    stage,
    category,
    severity,
    confidence,
    message: `${ruleId} message`,
    evidence: [{ file: 'log-bundle-1/bootstrap/journals/bootkube.log', line: 7, text: 'x' }],
    fix: ['do this'],
    references: ['https://example.invalid/ref'],
    hosts: ['bootstrap'],
    captures: {},
  };
}

function timeline(status: Partial<Record<StageId, StageStatus>>): Timeline {
  return { stages: STAGES.map((id) => ({ id, status: status[id] ?? 'unknown', hosts: [], evidence: [] })) };
}

describe('verdict', () => {
  it('names the earliest stage that did not complete and prefers the earlier cause: DNS explains the API timeout', () => {
    const dns = finding('api-int-no-such-host', 'masters-provision', 'dns', 'error', 'high');
    const apiTimeout = finding('bootstrap-api-timeout', 'production-control-plane', 'network-connectivity', 'error', 'medium');
    const pods = finding('required-pods-not-ready', 'production-control-plane', 'unknown', 'critical', 'medium');
    const v = decideVerdict({ timeline: timeline({ 'bootstrap-etcd': 'ok', 'production-control-plane': 'failed' }), findings: [pods, apiTimeout, dns], results: [] });
    // The masters never resolved api-int: they are the earliest stage that did not complete.
    expect(v).toMatchObject({ status: 'failed', stage: 'masters-provision', category: 'dns', rootCause: 'api-int-no-such-host', ciFailureMode: 'infrastructure' });
    const summary = wordVerdict(v, { stages: [], findings: [pods, apiTimeout, dns], similar: [], results: [], others: 0, suppressed: 0 });
    expect(summary).toContain('masters-provision');
    expect(summary).toContain('log-bundle-1/bootstrap/journals/bootkube.log:7');
    expect(v.reasons).toContainEqual(expect.objectContaining({ kind: 'cause', finding: 'api-int-no-such-host' }));
  });

  it('does not blame a later stage for an earlier failure', () => {
    const later = finding('operator-degraded', 'cluster-operators', 'operator-degraded', 'critical', 'high');
    const early = finding('pull-unauthorized', 'release-image', 'registry-auth', 'warning', 'low');
    const ranked = rankFindings([later, early], 'release-image');
    expect(ranked[0].ruleId).toBe('pull-unauthorized');
  });

  it('falls back to the earliest serious finding when the timeline has no failure, with category unknown when no rule names a cause', () => {
    const v = decideVerdict({ timeline: timeline({}), findings: [finding('etcd-slow-disk', 'bootstrap-etcd', 'etcd-health', 'error', 'medium')], results: [] });
    expect(v.stage).toBe('bootstrap-etcd');
    expect(v.category).toBe('etcd-health');
    const none = decideVerdict({ timeline: timeline({ render: 'ok', 'bootstrap-etcd': 'failed' }), findings: [], results: [] });
    expect(none).toMatchObject({ status: 'failed', stage: 'bootstrap-etcd', category: 'unknown', rootCause: null });
    expect(none.confidence).toBeLessThan(0.5);
  });

  it('says healthy with what was checked, or inconclusive when nothing could be seen', () => {
    const results = [
      { ruleId: 'a', status: 'passed' as const, findings: 0, durationMs: 1 },
      { ruleId: 'b', status: 'skipped' as const, missing: ['installer log'], findings: 0, durationMs: 0 },
    ];
    const healthy = decideVerdict({ timeline: timeline({ 'release-image': 'ok', 'bootstrap-complete': 'ok' }), findings: [], results });
    expect(healthy).toMatchObject({ status: 'healthy', stage: null, category: null, ciFailureMode: null });
    expect(wordVerdict(healthy, { stages: [], findings: [], similar: [], results, others: 0, suppressed: 0 })).toContain('1 rules checked and passed; 1 skipped for missing input');
    expect(decideVerdict({ timeline: timeline({}), findings: [], results }).status).toBe('inconclusive');
  });

  it('maps verdicts onto CI failure modes', () => {
    expect(ciFailureMode('release-image', 'registry-auth')).toBe('configuration');
    expect(ciFailureMode('masters-provision', 'install-config')).toBe('configuration');
    expect(ciFailureMode('bootstrap-etcd', 'resource-exhaustion')).toBe('infrastructure');
    expect(ciFailureMode('bootstrap-etcd', 'etcd-health')).toBe('cluster bootstrap');
    expect(ciFailureMode('workers', 'csr-pending')).toBe('cluster creation');
    expect(ciFailureMode('cluster-operators', 'operator-degraded')).toBe('cluster operator stability');
  });
});

describe('causes explain their effects', () => {
  it('a name that does not resolve is the cause behind an unhealthy etcd the rules were surer of', () => {
    const unhealthy = finding('bootstrap-etcd-unhealthy', 'bootstrap-etcd', 'etcd-health', 'critical', 'high');
    const dns = finding('last-error', 'bootstrap-etcd', 'dns', 'error', 'low');
    const v = decideVerdict({ timeline: timeline({ 'bootstrap-etcd': 'in-progress' }), findings: [unhealthy, dns], results: [] });
    expect(v).toMatchObject({ stage: 'bootstrap-etcd', category: 'dns', rootCause: 'last-error' });
  });

  it('a bare lead explains nothing, and a cause in a stage seen complete is not the cause', () => {
    const degraded = finding('cluster-operator-conditions', 'cluster-operators', 'operator-degraded', 'error', 'medium');
    const lead = finding('last-error', 'etcd-scaling', 'etcd-health', 'warning', 'low');
    const past = finding('masters-dns', 'masters-provision', 'dns', 'error', 'high');
    const v = decideVerdict({
      timeline: timeline({ 'masters-provision': 'ok', 'production-control-plane': 'ok', 'cluster-operators': 'in-progress' }),
      findings: [degraded, lead, past],
      results: [],
    });
    expect(v).toMatchObject({ stage: 'cluster-operators', category: 'operator-degraded', rootCause: 'cluster-operator-conditions' });
  });

  it('a slow disk a rule is sure of explains the unhealthy etcd', () => {
    const unhealthy = finding('etcd-members-unhealthy', 'etcd-scaling', 'etcd-health', 'error', 'high');
    const degraded = finding('cluster-operator-conditions', 'etcd-scaling', 'operator-degraded', 'critical', 'high');
    const disk = finding('etcd-disk-full', 'etcd-scaling', 'resource-exhaustion', 'warning', 'medium');
    const v = decideVerdict({ timeline: timeline({ 'etcd-scaling': 'in-progress' }), findings: [degraded, unhealthy, disk], results: [] });
    expect(v.category).toBe('resource-exhaustion');
  });
});
