// The rule tester is strict: expected message, captures and evidence; repeated examples;
// resource and service examples through the real parsers; negatives that must run.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testRuleExamples } from '../../src/rules/rule-tester.js';
import { compileYamlRule, loadRuleFile, RuleError } from '../../src/rules/yaml-rule.js';
import { tempDir, writeTree } from '../support/fixture-bundle.js';

const RULE = `id: co-invalid-config
title: The network operator rejects its configuration
stage: production-control-plane
category: install-config
severity: critical
confidence: high
description: The network operator says the cluster configuration is invalid.
fix:
  - Fix networking in install-config.yaml.
references:
  - https://github.com/openshift/cluster-network-operator/blob/master/pkg/network/cluster_config.go
sources:
  - resource: clusteroperators
  - log: installer
match:
  any:
    - regex: '(?<reason>InvalidClusterConfig): The cluster configuration is invalid \\((?<detail>[^)]+)\\)'
message: 'The network operator rejects the configuration ({reason}): {detail}'
`;

const OPERATOR = (reason: string, message: string): string => `
      json:
        apiVersion: v1
        kind: List
        items:
          - metadata: { name: network }
            status:
              conditions:
                - { type: Degraded, status: 'True', reason: ${reason}, message: '${message}' }`;

function ruleFile(text: string): string {
  const dir = writeTree(tempDir('bootlens-rules-'), 'rules', { 'x/co-invalid-config.yaml': text });
  return join(dir, 'x/co-invalid-config.yaml');
}

describe('YAML examples', () => {
  it('resource examples give the oc List as json, read by the real parser; the expectation is checked', async () => {
    const text = `${RULE}examples:
  positive:
    - source: resource${OPERATOR('InvalidClusterConfig', 'The cluster configuration is invalid (CIDRs 10.128.0.0/14 and 10.128.0.0/16 overlap).')}
      expect:
        message: 'The network operator rejects the configuration (InvalidClusterConfig): CIDRs 10.128.0.0/14 and 10.128.0.0/16 overlap'
        captures: { reason: InvalidClusterConfig }
        evidence: ['network Degraded=True InvalidClusterConfig: The cluster configuration is invalid']
  negative:
    - source: resource${OPERATOR('RolloutHung', 'DaemonSet is not making progress')}
`;
    const doc = loadRuleFile(ruleFile(text));
    expect(await testRuleExamples(compileYamlRule(doc, 'x'), doc)).toEqual([]);

    const wrong = structuredClone(doc);
    wrong.examples!.positive[0].expect = { message: 'something else', captures: { reason: 'RolloutHung', detail: 'x' }, evidence: ['not in any line'] };
    const failures = await testRuleExamples(compileYamlRule(wrong, 'x'), wrong);
    expect(failures.map((f) => f.reason)).toEqual([
      'message is "The network operator rejects the configuration (InvalidClusterConfig): CIDRs 10.128.0.0/14 and 10.128.0.0/16 overlap", expected "something else"',
      'capture reason is "InvalidClusterConfig", expected "RolloutHung"',
      'capture detail is "CIDRs 10.128.0.0/14 and 10.128.0.0/16 overlap", expected "x"',
      'no evidence line contains "not in any line"',
    ]);
  });

  it('lines for a resource or service example, or json for a log example, are errors at the line', () => {
    const lines = `${RULE}examples:
  positive:
    - source: resource
      lines: ['network Degraded=True InvalidClusterConfig: The cluster configuration is invalid (x)']
  negative:
    - source: installer
      lines: ['time="2026-11-22T11:18:00Z" level=info msg="Cluster operator network Available is True with AsExpected: "']
`;
    expect(() => loadRuleFile(ruleFile(lines))).toThrow(RuleError);
    expect(() => loadRuleFile(ruleFile(lines))).toThrow(/:\d+: \/examples\/positive\/0: resource and service examples give the List or the record array as json:, read by the real parser, not lines:$/);
    const json = lines
      .replace("    - source: resource\n      lines: ['network", "    - source: installer\n      lines: ['network")
      .replace("    - source: installer\n      lines: ['time", "    - source: installer\n      json: { a: 1 }\n      lines: ['time");
    expect(() => loadRuleFile(ruleFile(json))).toThrow(/:\d+: \/examples\/negative\/0: log examples give lines:, not json:$/);
    const negativeExpect = `${RULE}examples:
  positive:
    - source: installer
      lines: ['x']
  negative:
    - source: installer
      lines: ['y']
      expect: { message: 'z' }
`;
    expect(() => loadRuleFile(ruleFile(negativeExpect))).toThrow(/expect belongs to positive examples/);
  });

  it('repeated examples (same source and input, whatever the key order) are errors; an example for a source the rule lacks too', async () => {
    const text = `${RULE}examples:
  positive:
    - source: resource${OPERATOR('InvalidClusterConfig', 'The cluster configuration is invalid (a).')}
  negative:
    - source: resource${OPERATOR('RolloutHung', 'b')}
    - source: resource
      json: { kind: List, apiVersion: v1, items: [{ status: { conditions: [{ type: Degraded, status: 'True', reason: RolloutHung, message: 'b' }] }, metadata: { name: network } }] }
    - source: serial
      lines: ['[   12.406551] ignition[706]: GET result: OK']
`;
    const doc = loadRuleFile(ruleFile(text));
    const failures = await testRuleExamples(compileYamlRule(doc, 'x'), doc);
    expect(failures.map((f) => [f.kind, f.index, f.reason])).toEqual([
      ['negative', 1, 'repeats negative example 1'],
      ['negative', 2, 'the rule reads no serial source'],
    ]);
  });

  it('a negative example must run: one whose source the bundle lacks proves nothing', async () => {
    const text = `${RULE.replace('  - log: installer\n', '')}examples:
  positive:
    - source: resource${OPERATOR('InvalidClusterConfig', 'The cluster configuration is invalid (a).')}
  negative:
    - source: resource
      json: { apiVersion: v1, kind: List, items: [] }
`;
    const doc = loadRuleFile(ruleFile(text));
    // An empty List is a resource file with nothing in it: read, not missing.
    expect(await testRuleExamples(compileYamlRule(doc, 'x'), doc)).toEqual([]);
    const journal = { ...doc, sources: [{ journal: 'bootkube', host: 'bootstrap' as const }], examples: { positive: doc.examples!.positive, negative: [{ unit: 'kubelet', lines: ['Nov 22 10:00:00 b kubelet.sh[1]: hello'] }] } };
    const failures = await testRuleExamples(compileYamlRule(journal, 'x'), journal);
    expect(failures.find((f) => f.kind === 'negative')?.reason).toBe('skipped (missing: bootstrap journal bootkube)');
  });
});
