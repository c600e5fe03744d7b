// Every registered rule, YAML or TypeScript, has a case that fires and a near-miss case that does
// not, and passes all of its cases through the real reader with only itself enabled; the tester
// is strict (expected message, captures and evidence, repeated cases, resource and service
// examples through the real parsers, negatives that must run).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRules } from '../../src/rules/load-rules.js';
import { BUILTIN_RULES } from '../../src/rules/registry.js';
import { builtinCases, caseCounts, loadRuleCases, missingCases, testRule, testRuleCases, testRuleExamples, type RuleCase } from '../../src/rules/rule-tester.js';
import { compileYamlRule, loadRuleFile, RuleError } from '../../src/rules/yaml-rule.js';
import { tempDir, writeTree } from '../support/fixture-bundle.js';
import { catalogueFile, catalogueOf, rulesFolder } from '../support/rule-catalogue.js';

const { rules, docs } = loadRules();

describe('every registered rule', () => {
  it('has a case that fires and a near-miss case that does not', () => {
    const lacking: string[] = [];
    for (const rule of rules) {
      const doc = docs.get(rule.meta.id);
      const cases = doc ?? builtinCases(rule.meta.id);
      const problem = cases ? missingCases(caseCounts(cases)) : 'no cases file';
      if (problem) lacking.push(`${rule.meta.id}: ${problem}`);
    }
    expect(lacking).toEqual([]);
  });

  it('passes all of its cases through the real reader, alone', async () => {
    const failures: string[] = [];
    for (const rule of rules) {
      for (const f of await testRule(rule, docs.get(rule.meta.id))) failures.push(`${f.ruleId}: ${f.kind} ${f.index + 1}${f.name ? ` (${f.name})` : ''}: ${f.reason}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

const CATALOGUE = catalogueFile(`  - id: co-invalid-config
    title: The network operator rejects its configuration
    role: cause
    form: '(?<reason>InvalidClusterConfig): The cluster configuration is invalid \\((?<detail>[^)]+)\\)'
    origin: pkg/network/cluster_config.go
    stage: production-control-plane
    category: install-config
    severity: critical
    description: The network operator says the cluster configuration is invalid.
    fix:
      - Fix networking in install-config.yaml.
    references:
      - https://github.com/openshift/cluster-network-operator/blob/master/pkg/network/cluster_config.go
    says: 'The network operator rejects the configuration ({reason}): {detail}'
    examples:
      - line: 'network Degraded=True InvalidClusterConfig: The cluster configuration is invalid (CIDRs 10.128.0.0/14 and 10.128.0.0/16 overlap).'
`, 'cluster-network-operator', 'openshift/cluster-network-operator');
const catalogue = catalogueOf(CATALOGUE);

const RULE = `id: co-invalid-config
confidence: high
sources:
  - resource: clusteroperators
  - log: installer
match:
  any:
    - message: co-invalid-config
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
  const dir = rulesFolder({ 'x/co-invalid-config.yaml': text }, CATALOGUE);
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
    expect(await testRuleExamples(compileYamlRule(doc, 'x', catalogue), doc)).toEqual([]);

    const wrong = structuredClone(doc);
    wrong.examples!.positive[0].expect = { message: 'something else', captures: { reason: 'RolloutHung', detail: 'x' }, evidence: ['not in any line'] };
    const failures = await testRuleExamples(compileYamlRule(wrong, 'x', catalogue), wrong);
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
    expect(() => loadRuleFile(ruleFile(lines))).toThrow(/:\d+: examples\.positive\[0\]: a resource or service example gives the List or the record array as json:, read by the real parser, not lines:$/);
    const json = lines
      .replace("    - source: resource\n      lines: ['network", "    - source: installer\n      lines: ['network")
      .replace("    - source: installer\n      lines: ['time", "    - source: installer\n      json: { a: 1 }\n      lines: ['time");
    expect(() => loadRuleFile(ruleFile(json))).toThrow(/:\d+: examples\.negative\[0\]: a log example gives its lines as lines:, not json:$/);
    // A misspelled lines: is an unknown field, with the valid ones; never "give lines:, not json:".
    expect(() => loadRuleFile(ruleFile(json.replace("      json: { a: 1 }\n      lines: ['time", "      line: ['time")))).toThrow(
      /:\d+: examples\.negative\[0\]: unknown field 'line' \(valid fields: source, unit, container, host, resource, service, note, lines, json, expect\)$/,
    );
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
    const failures = await testRuleExamples(compileYamlRule(doc, 'x', catalogue), doc);
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
    expect(await testRuleExamples(compileYamlRule(doc, 'x', catalogue), doc)).toEqual([]);
    const journal = { ...doc, sources: [{ journal: 'bootkube', host: 'bootstrap' as const }], examples: { positive: doc.examples!.positive, negative: [{ unit: 'kubelet', lines: ['Nov 22 10:00:00 b kubelet.sh[1]: hello'] }] } };
    const failures = await testRuleExamples(compileYamlRule(journal, 'x', catalogue), journal);
    // Placed as a real bundle places it, the negative is in a log the rule never reads.
    expect(failures.find((f) => f.kind === 'negative')?.reason).toBe('placed where a real bundle keeps it (bootstrap/journals/kubelet.log), it is in no log the rule reads (bootstrap journal bootkube)');
  });
});

describe('TypeScript rule cases', () => {
  const quorum = BUILTIN_RULES.find((r) => r.meta.id === 'etcd-quorum')!;
  const healthy = 'https://10.0.0.5:2379 is healthy: successfully committed proposal: took = 9.81ms\n';

  it('a case that states the wrong outcome, repeats a bundle or lacks the rule’s input fails, with its name', async () => {
    const cases: RuleCase[] = [
      { name: 'healthy, said to fire', files: { 'control-plane/10.0.0.5/etcd-endpoint-health.txt': healthy }, expect: { fires: true } },
      { name: 'the same bundle again', files: { 'control-plane/10.0.0.5/etcd-endpoint-health.txt': healthy }, expect: { fires: false } },
      { name: 'no etcdctl output', files: { 'gather.log': 'Gather remote logs\n' }, expect: { fires: false } },
    ];
    const failures = await testRuleCases(quorum, cases);
    expect(failures.map((f) => [f.kind, f.name, f.reason])).toEqual([
      ['positive', 'healthy, said to fire', 'did not fire'],
      ['negative', 'the same bundle again', 'repeats the bundle of case 1 (healthy, said to fire)'],
      ['negative', 'no etcdctl output', 'skipped (missing: etcdctl member list, etcdctl endpoint health)'],
    ]);
  });

  it('a case that fires must say what it expects: stage, category, part of the message', async () => {
    const files = { 'control-plane/10.0.0.5/etcd-endpoint-health.txt': healthy.replace('is healthy: successfully committed proposal: took = 9.81ms', 'is unhealthy: failed to commit proposal: context deadline exceeded') };
    expect(await testRuleCases(quorum, [{ name: 'one of one unhealthy', files, expect: { fires: true, stage: 'bootstrap-etcd', category: 'etcd-health', message: 'Only 0 of 1' } }])).toEqual([]);
    const [f] = await testRuleCases(quorum, [{ name: 'wrong stage', files, expect: { fires: true, stage: 'etcd-scaling' } }]);
    expect(f.reason).toMatch(/^no finding has stage etcd-scaling; found: \[bootstrap-etcd\/etcd-health\] Only 0 of 1 etcd members are healthy/);
  });

  it('cases files are validated: paths stay inside the bundle, outcomes without a finding expect nothing of it', () => {
    const file = (text: string): string => {
      const dir = tempDir('bootlens-cases-');
      writeFileSync(join(dir, 'x.cases.yaml'), text);
      return join(dir, 'x.cases.yaml');
    };
    const ok = "- name: one\n  files: { gather.log: 'x' }\n  expect: { fires: true }\n- name: two\n  files: { gather.log: 'y' }\n  expect: { fires: false }\n";
    expect(loadRuleCases(file(ok))).toHaveLength(2);
    expect(() => loadRuleCases(file(ok.replace('gather.log', '../../etc/passwd')))).toThrow(/:2: \[0\]\.files: unknown field '\.\.\/\.\.\/etc\/passwd' \(valid fields: |:2: \[0\]\.files: /);
    expect(() => loadRuleCases(file(ok.replace('{ fires: false }', '{ fires: false, stage: render }')))).toThrow(/:6: a case that does not fire has no stage, category or message to expect/);
    expect(() => loadRuleCases(file(ok.replace('{ fires: true }', '{ fires: true, category: dnss }')))).toThrow(/\[0\]\.expect\.category: 'dnss' is not a taxonomy category \(valid: registry-auth, /);
  });
});

describe('bootlens rules test (CLI)', () => {
  const CLI = join(process.cwd(), 'dist/src/cli/main.js');
  const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

  it('tests one rule, YAML or TypeScript, by id, naming each of its cases', () => {
    for (const id of ['etcd-members-unhealthy', 'etcd-quorum']) {
      const r = run(['rules', 'test', id]);
      expect(r.status, id).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(`✔ ${id}`);
      const cases = lines.filter((l) => l.startsWith('  ✔ '));
      const doc = docs.get(id);
      const expected = doc ? doc.examples!.positive.length + doc.examples!.negative.length : builtinCases(id)!.length;
      expect(cases).toHaveLength(expected);
      for (const c of cases) expect(c).toMatch(/^ {2}✔ (positive|negative) \d+: \S/);
      expect(lines.slice(-2)).toEqual([`${expected} cases of 1 rules`, '1 rules passed their cases, 0 failed']);
    }
    // A TypeScript rule's cases by their own names.
    expect(run(['rules', 'test', 'etcd-quorum']).stdout).toContain(`: ${builtinCases('etcd-quorum')![0].name}\n`);
  });

  it('exits 2 with one line for a rule that does not exist', () => {
    const r = run(['rules', 'test', 'no-such-rule']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("bootlens: unknown rule 'no-such-rule' (see bootlens rules list)\n");
  });
});

describe('examples placed as a real bundle places them', () => {
  const APISERVER_CATALOGUE = catalogueFile(`  - id: apiserver-etcd-refused
    title: The bootstrap kube-apiserver cannot reach etcd
    role: cause
    form: 'createTransport failed to connect to [^\\n]{0,300}connection refused'
    origin: vendor/google.golang.org/grpc/clientconn.go
    stage: bootstrap-etcd
    category: etcd-health
    severity: error
    description: The API server's etcd client is refused.
    fix:
      - Check etcd.
    references:
      - https://github.com/openshift/installer/issues/3579
    says: 'etcd refused the API server'
    examples:
      - line: 'W0511 12:14:39.919331       1 clientconn.go:1120] grpc: addrConn.createTransport failed to connect to {https://localhost:2379 0  <nil>}. Err :connection error: desc = "transport: Error while dialing dial tcp [::1]:2379: connect: connection refused". Reconnecting...'
`, 'kube-apiserver', 'kubernetes/kubernetes');
  const CLI = join(process.cwd(), 'dist/src/cli/main.js');
  // A rule that reads the bootstrap kube-apiserver's log, with a positive example and a near miss.
  const rule = (example: string): string => `id: apiserver-etcd-refused
confidence: medium
sources:
  - container: kube-apiserver*
    host: bootstrap
match:
  any:
    - message: apiserver-etcd-refused
examples:
  positive:
    - note: refused
      source: container
${example}
      lines:
        - 'W0511 12:14:39.919331       1 clientconn.go:1120] grpc: addrConn.createTransport failed to connect to {https://localhost:2379 0  <nil>}. Err :connection error: desc = "transport: Error while dialing dial tcp [::1]:2379: connect: connection refused". Reconnecting...'
  negative:
    - note: a flag dump
      source: container
      container: kube-apiserver
      lines:
        - 'I0511 12:14:30.984182       1 flags.go:64] FLAG: --etcd-servers="[https://localhost:2379]"'
`;
  const test = (example: string) => {
    const dir = rulesFolder({ 'apiserver-etcd-refused.yaml': rule(example) }, APISERVER_CATALOGUE);
    return spawnSync(process.execPath, [CLI, 'rules', 'test', 'apiserver-etcd-refused', '--rules', dir], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  };

  it('passes the example under the container the rule reads', () => {
    const r = test('      container: kube-apiserver');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('  ✔ positive 1: refused\n  ✔ negative 1: a flag dump\n');
  });

  it('fails a container example placed under another container: the rule never reads it there', () => {
    const r = test('      container: etcd');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('  ✖ positive 1: refused\n');
    expect(r.stdout).toMatch(/placed where a real bundle keeps it \(bootstrap\/containers\/etcd-[0-9a-f]+\.log\), it is in no log the rule reads \(bootstrap container kube-apiserver\*\)/);
  });

  it('fails a unit: on a container example instead of ignoring it, and a host the rule does not read', () => {
    const unit = test('      unit: etcd');
    expect(unit.status).toBe(1);
    expect(unit.stdout).toContain("unit: names a journal's unit; a container example names its container with container:");
    const master = test('      container: kube-apiserver\n      host: master');
    expect(master.status).toBe(1);
    expect(master.stdout).toMatch(/placed where a real bundle keeps it \(control-plane\/[^)]+kube-apiserver[^)]*\), it is in no log the rule reads/);
  });
});
