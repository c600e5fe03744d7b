// The finding a verdict names, when its rule fired more than once (the generic reading once per
// unit): the one holding the cause's own line, never the first of the rule nor a recovered one.
import { describe, expect, it } from 'vitest';
import { rootFindingOf } from '../../src/result/root-finding.js';
import type { Finding, Verdict } from '../../src/result/types.js';

const RELEASE = 'log-bundle-1/bootstrap/journals/release-image.log';
const KUBELET = 'log-bundle-1/control-plane/10.0.0.5/journals/kubelet.log';

function lastError(file: string, line: number, over: Partial<Finding> = {}): Finding {
  return {
    ruleId: 'last-error', title: 'The last error', stage: 'production-control-plane', category: 'network-plugin', severity: 'warning', confidence: 'low',
    message: 'm', evidence: [{ file, line, text: 't' }], fix: [], references: [], hosts: [], captures: {}, ...over,
  };
}

const verdict = (line?: { file: string; line: number }): Pick<Verdict, 'rootCause' | 'category' | 'stage' | 'reasons'> => ({
  rootCause: 'last-error',
  category: 'network-plugin',
  stage: 'production-control-plane',
  reasons: line ? [{ kind: 'cause', finding: 'last-error', evidence: { ...line, text: 't' } }] : [],
});

describe('rootFindingOf', () => {
  it('names the finding that holds the cause line, though another of the rule comes first and fits as well', () => {
    const first = lastError(KUBELET, 3);
    const named = lastError(KUBELET, 7);
    expect(rootFindingOf(verdict({ file: KUBELET, line: 7 }), [first, named])).toBe(named);
  });

  it('never names a recovered finding, and without a cause line takes the one of the verdict\'s category and stage', () => {
    const healed = lastError(RELEASE, 4, { stage: 'release-image', category: 'registry-unreachable', recovered: { file: RELEASE, line: 6, text: 'Finished' } });
    const other = lastError(RELEASE, 2, { stage: 'release-image', category: 'registry-unreachable' });
    const fits = lastError(KUBELET, 7);
    expect(rootFindingOf(verdict({ file: RELEASE, line: 4 }), [healed, other, fits])).toBe(fits);
    expect(rootFindingOf(verdict(), [other, fits])).toBe(fits);
  });
});
