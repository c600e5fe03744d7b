// What a triage signature is keyed on: the root cause's own point, masked by the one templater.
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/result/types.js';
import { templateOf } from '../../src/similarity/line-template.js';
import { keyTemplate } from '../../src/triage/record.js';

describe('generated Kubernetes names in templates', () => {
  it('masks CSR names and pod suffixes, with or without digits', () => {
    expect(templateOf('csr-u3es6 Pending system:serviceaccount:openshift-machine-config-operator:node-bootstrapper')).toBe(
      templateOf('csr-9uvw5 Pending system:serviceaccount:openshift-machine-config-operator:node-bootstrapper'),
    );
    expect(templateOf('csr-abide Pending')).toBe('csr-<ID> Pending');
    expect(templateOf('pod ovnkube-node-vncwq is in CrashLoopBackOff State')).toBe('pod ovnkube-node-<ID> is in CrashLoopBackOff State');
    expect(templateOf('pod=ovnkube-node-t53c8_openshift-ovn-kubernetes(50f3b67c-5d5f-475f-bfdc-7aa42ccc1bde)')).toBe('pod=ovnkube-node-<ID>_openshift-ovn-kubernetes(<UUID>)');
    expect(templateOf('pod="openshift-multus/multus-er6ir"')).toBe(templateOf('pod="openshift-multus/multus-x7kqz"'));
  });

  it('keeps words that are names, not random suffixes', () => {
    expect(templateOf('kube-rbac-proxy etcd-bootstrap node-ready cluster-proxy')).toBe('kube-rbac-proxy etcd-bootstrap node-ready cluster-proxy');
    expect(templateOf('mycsr-abide ovnkube-node-vncwq-extra')).toBe('mycsr-abide ovnkube-node-vncwq-extra');
  });
});

describe('the key line of a signature', () => {
  const ev = (text: string, extra: Partial<Evidence> = {}): Evidence => ({ file: 'f', text, ...extra });

  it('is the most error-like line, not context cited before it', () => {
    const evidence = [
      ev('2024-02-27 14:41:38.465554602 +0000 UTC m=+0.601586747 system refresh'),
      ev('Trying to pull quay.io/openshift-release-dev/ocp-release@sha256:a3865cf178c1d1ca83ac2791fea237b83f59d77a77a49bc029aed53be95c5a33...'),
      ev('Error: initializing source docker://quay.io/openshift-release-dev/ocp-release@sha256:a3865cf1: reading manifest: unauthorized: authentication required'),
    ];
    expect(keyTemplate(evidence)).toMatch(/^Error: initializing source .*unauthorized: authentication required$/);
  });

  it('is the line the finding marks as its point, when it marks one', () => {
    const evidence = [ev('Error: something else failed'), ev('etcd member is slow to apply', { match: { start: 0, end: 4 } })];
    expect(keyTemplate(evidence)).toBe('etcd member is slow to apply');
  });

  it('is the first line when none reads like an error', () => {
    expect(keyTemplate([ev('csr-u3es6 Pending a'), ev('csr-2269n Pending b')])).toBe('csr-<ID> Pending a');
    expect(keyTemplate([])).toBe('');
  });
});
