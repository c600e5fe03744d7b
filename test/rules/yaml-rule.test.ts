import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { compileYamlRule, loadRuleFile, RuleError } from '../../src/rules/yaml-rule.js';
import { testRuleExamples } from '../../src/rules/rule-tester.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';
import { catalogueFile, catalogueOf, rulesFolder } from '../support/rule-catalogue.js';
import { CatalogueError } from '../../src/catalogue/load-catalogue.js';

const ENTRY = `  - id: etcd-wait-retrying
    title: bootkube keeps retrying etcd
    role: symptom
    form: 'etcdctl (?<what>failed)\\. Retrying'
    origin: data/data/bootstrap/files/usr/local/bin/bootkube.sh.template
    unless: 'level=debug'
    stage: bootstrap-etcd
    category: etcd-health
    severity: error
    description: bootkube waited for etcd until the end of its log.
    fix:
      - Check the etcd container on {host}.
    references:
      - https://github.com/openshift/installer/blob/master/data/data/bootstrap/files/usr/local/bin/bootkube.sh.template
    says: 'etcdctl {what} {count} times on {host}'
    examples:
      - line: 'Nov 22 11:16:01 b bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...'
`;
const CATALOGUE = catalogueFile(ENTRY);

const RULE = `id: etcd-wait-retrying
confidence: medium
sources:
  - journal: bootkube
    host: bootstrap
match:
  any:
    - message: etcd-wait-retrying
when:
  persisted: 10m
examples:
  positive:
    - lines:
        - 'Nov 22 10:15:04 b bootkube.sh[2507]: Waiting for etcd cluster...'
        - 'Nov 22 11:16:01 b bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...'
  negative:
    - note: healed long before the log ended
      lines:
        - 'Nov 22 10:15:04 b bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...'
        - 'Nov 22 11:15:04 b bootkube.sh[2507]: Starting cluster-bootstrap...'
    - lines:
        - 'Nov 22 10:15:04 b bootkube.sh[2507]: Waiting for etcd cluster...'
`;

function rulesDir(files: Record<string, string>, catalogue = CATALOGUE): string {
  return rulesFolder(files, catalogue);
}

describe('YAML rules', () => {
  it('loads, compiles to read-time filters with literals, and fires with evidence and captures', async () => {
    const dir = rulesDir({ 'bootstrap-etcd/etcd-wait-retrying.yaml': RULE });
    const { rules } = loadRules(dir);
    const rule = rules.find((r) => r.meta.id === 'etcd-wait-retrying');
    expect(rule?.filters.map((f) => [f.id, f.literals])).toEqual([['etcd-wait-retrying#m0.0', ['. Retrying']]]);
    const bundle = writeTree(tempDir(), ROOT, bundleFiles());
    const result = await analyzeBundle(bundle, { rules: [rule!], version: 'test' });
    const f = result.findings.find((x) => x.ruleId === 'etcd-wait-retrying');
    expect(f?.message).toBe('etcdctl failed 2 times on bootstrap');
    // The two retries say the same: one line cited, its latest, with how often it occurred.
    expect(f?.evidence.map((e) => [e.line, e.repeats])).toEqual([[8, 2]]);
    const at = f?.evidence[0].text.indexOf('etcdctl failed. Retrying') ?? -1;
    expect(f?.evidence[0].match).toEqual({ start: at, end: at + 'etcdctl failed. Retrying'.length });
    expect(f?.evidence[0].before).toHaveLength(2);
    expect(f?.fix).toEqual(['Check the etcd container on bootstrap.']);
    expect(f?.captures.what).toBe('failed');
  });

  it('drops an error that healed: its last occurrence is long before the log ends', async () => {
    const dir = rulesDir({ 'x/etcd-wait-retrying.yaml': RULE });
    const { rules } = loadRules(dir);
    const files = bundleFiles();
    files['bootstrap/journals/bootkube.log'] = [
      'Nov 22 10:15:04 b bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...',
      'Nov 22 10:16:04 b bootkube.sh[2507]: Starting cluster-bootstrap...',
      'Nov 22 11:16:04 b bootkube.sh[2507]: Pod Status:openshift-kube-apiserver/kube-apiserver Ready',
    ].join('\n');
    const result = await analyzeBundle(writeTree(tempDir(), ROOT, files), { rules, version: 'test' });
    expect(result.findings.filter((f) => f.ruleId === 'etcd-wait-retrying')).toEqual([]);
    expect(result.rules.passed).toContain('etcd-wait-retrying');
  });

  it('is skipped, naming what is missing, when its sources are not in the bundle', async () => {
    const { rules } = loadRules(rulesDir({ 'x/etcd-wait-retrying.yaml': RULE }));
    const result = await analyzeBundle(writeTree(tempDir(), ROOT, { 'gather.log': 'Gathering bootstrap journals ...\n' }), { rules, version: 'test' });
    expect(result.rules.skipped).toContainEqual({ ruleId: 'etcd-wait-retrying', missing: ['bootstrap journal bootkube'] });
  });

  it('passes its own examples through the real reader', async () => {
    const dir = rulesDir({ 'x/etcd-wait-retrying.yaml': RULE });
    const doc = loadRuleFile(join(dir, 'x/etcd-wait-retrying.yaml'));
    expect(await testRuleExamples(compileYamlRule(doc, 'x', catalogueOf(CATALOGUE)), doc)).toEqual([]);
    // A rule whose example contradicts it is caught.
    const broken = { ...doc, examples: { positive: doc.examples!.negative, negative: doc.examples!.positive } };
    const failures = await testRuleExamples(compileYamlRule(broken, 'x', catalogueOf(CATALOGUE)), broken);
    expect(failures.map((f) => [f.kind, f.reason])).toEqual([
      ['positive', 'did not fire'],
      ['positive', 'did not fire'],
      ['negative', 'fired: etcdctl failed 1 time on bootstrap'],
    ]);
  });

  it('rejects bad rule files with the file, the line and the reason', () => {
    const cases: [string, RegExp][] = [
      // The line of the field, the valid values and fields.
      [RULE.replace('confidence: medium', 'confidence: sure'), /:2: confidence: 'sure' is not one of high, medium, low$/],
      [RULE.replace('confidence: medium', 'confidence: medium\ntitle: bootkube retries'), /:3: top level: unknown field 'title' \(valid fields: id, reports, confidence, .*\)$/],
      [RULE.replace('    - message: etcd-wait-retrying', "    - regex: 'etcdctl failed'"), /match\.any\[0\]: unknown field 'regex' \(valid fields: message\)$/],
      // A misspelled source key is named as such, with the valid keys (not "must have required property 'journal'").
      [RULE.replace(/  - journal: /, '  - jurnal: '), /: sources\[0\]: unknown field 'jurnal' \(valid fields: journal, unit-status, container, log, service, stage, resource, host\)$/],
      ['id: [unclosed\nx: 1\n', /:\d+: YAML: /],
    ];
    for (const [text, expected] of cases) {
      const dir = tempDir('bootlens-bad-');
      const file = join(dir, 'etcd-wait-retrying.yaml');
      writeFileSync(file, text);
      expect(() => loadRuleFile(file), expected.source).toThrow(RuleError);
      expect(() => loadRuleFile(file), expected.source).toThrow(expected);
    }
    const dir = tempDir('bootlens-bad-');
    const misnamed = join(dir, 'other-name.yaml');
    writeFileSync(misnamed, RULE);
    expect(() => loadRuleFile(misnamed)).toThrow(/:1: id: 'etcd-wait-retrying' must equal the file name/);
  });

  it('rejects a rule whose messages the catalogue lacks or cannot report, and a catalogue entry that is wrong, with the file and the reason', () => {
    const compile = (rule: string, catalogue: string): void => {
      const dir = rulesDir({ 'x/etcd-wait-retrying.yaml': rule }, catalogue);
      loadRules(dir);
    };
    expect(() => compile(RULE.replace('- message: etcd-wait-retrying', '- message: no-such-message'), CATALOGUE)).toThrow(/names message 'no-such-message', which is no entry of the message catalogue/);
    expect(() => compile(RULE.replace('id: etcd-wait-retrying', 'id: etcd-wait-retrying\nreports: nothing-here'), CATALOGUE)).toThrow(/reports 'nothing-here', which is no entry/);
    expect(() => compile(RULE, CATALOGUE.replace('{count} times', '{image} times'))).toThrow(/names \{image\}, which no form of the rule's messages captures/);
    expect(() => compile(RULE, CATALOGUE.replace("    says: 'etcdctl {what} {count} times on {host}'\n", ''))).toThrow(/without a finding text \(says:\)/);
    const bad: [string, RegExp][] = [
      [CATALOGUE.replace('stage: bootstrap-etcd', 'stage: bootstrap'), /stage 'bootstrap' is not a taxonomy stage \(release-image, /],
      [CATALOGUE.replace('category: etcd-health', 'category: etcd'), /category 'etcd' is not a taxonomy category \(registry-auth, /],
      [CATALOGUE.replace('severity: error', 'severity: fatal'), /\/entries\/0\/severity: must be one of critical, error, warning, info/],
      [CATALOGUE.replace("form: 'etcdctl (?<what>failed)\\. Retrying'", "form: '(a+)+b'"), /can backtrack catastrophically/],
      [CATALOGUE.replace("form: 'etcdctl (?<what>failed)\\. Retrying'", "form: 'etcdctl ('"), /invalid regex/],
      [CATALOGUE.replace('origin: data/data', 'origin: see the script data/data'), /\/entries\/0\/origin/],
    ];
    for (const [text, expected] of bad) {
      expect(() => catalogueOf(text), expected.source).toThrow(CatalogueError);
      expect(() => catalogueOf(text), expected.source).toThrow(expected);
    }
  });
});

describe('persistence on serial consoles (seconds since boot)', () => {
  it('judges a console error by its kernel timestamp against the console’s last one', async () => {
    const catalogue = catalogueFile(`  - id: serial-refused
    title: Ignition fetch refused on the console
    role: cause
    form: '22623/config/master": dial tcp'
    origin: internal/resource/url.go
    stage: masters-provision
    category: ignition
    severity: error
    fix:
      - Check port 22623.
    says: 'Ignition fetch still failing'
    examples:
      - line: '[   12.406551] ignition[706]: GET error: Get "https://api-int.x:22623/config/master": dial tcp 10.0.0.10:22623: connect: connection refused'
`, 'Ignition', 'coreos/ignition');
    const rule = `id: serial-refused
confidence: medium
sources:
  - log: serial
match:
  any:
    - message: serial-refused
when:
  persisted: 10m
examples:
  positive:
    - source: serial
      lines:
        - '[   12.406551] ignition[706]: GET error: Get "https://api-int.x:22623/config/master": dial tcp 10.0.0.10:22623: connect: connection refused'
        - '[  890.120000] ignition[706]: GET error: Get "https://api-int.x:22623/config/master": dial tcp 10.0.0.10:22623: connect: connection refused'
        - '[  900.000000] ignition[706]: GET https://api-int.x:22623/config/master: attempt #180'
  negative:
    - source: serial
      lines:
        - '[   12.406551] ignition[706]: GET error: Get "https://api-int.x:22623/config/master": dial tcp 10.0.0.10:22623: connect: connection refused'
        - '[  221.802114] ignition[706]: GET result: OK'
        - '[ 1500.000000] systemd[1]: Reached target Multi-User System.'
`;
    const dir = rulesDir({ 'x/serial-refused.yaml': rule }, catalogue);
    const doc = loadRuleFile(join(dir, 'x/serial-refused.yaml'));
    expect(await testRuleExamples(compileYamlRule(doc, 'x', catalogueOf(catalogue)), doc)).toEqual([]);
  });
});

describe('count thresholds and excerpts', () => {
  const SLOW_CATALOGUE = catalogueFile(`  - id: etcd-slow-disk-test
    title: etcd reports a slow disk
    role: cause
    form: 'slow fdatasync'
    origin: server/storage/wal/wal.go
    stage: etcd-scaling
    category: etcd-health
    severity: warning
    fix:
      - Check the disk.
    says: 'etcd on {host}: {count} slow disk warnings'
    examples:
      - line: '{"level":"warn","ts":"2022-09-26T14:17:30.123Z","caller":"wal/wal.go:805","msg":"slow fdatasync","took":"1.3s","expected-duration":"1s"}'
`, 'etcd', 'etcd-io/etcd');
  const SLOW = `id: etcd-slow-disk-test
confidence: medium
sources:
  - container: etcd
    host: master
match:
  any:
    - message: etcd-slow-disk-test
when:
  minCount: 10
`;
  const line = (i: number): string => `{"level":"warn","ts":"2022-09-26T14:17:${String(10 + (i % 40)).padStart(2, '0')}.123Z","caller":"wal/wal.go:805","msg":"slow fdatasync","took":"1.3s","expected-duration":"1s"}`;
  const calm = (i: number): string => `{"level":"info","ts":"2022-09-26T14:17:${String(10 + (i % 40)).padStart(2, '0')}.123Z","caller":"etcdserver/server.go:1","msg":"applied"}`;
  const ID = 'a3f0c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778';

  async function fired(lines: string[]): Promise<boolean> {
    const dir = rulesDir({ 'etcd-scaling/etcd-slow-disk-test.yaml': SLOW }, SLOW_CATALOGUE);
    const bundle = writeTree(tempDir(), ROOT, { [`control-plane/10.0.0.5/containers/etcd-${ID}.log`]: `${lines.join('\n')}\n` });
    const r = await analyzeBundle(bundle, { rules: loadRules(dir).rules, version: 'test' });
    return r.findings.some((f) => f.ruleId === 'etcd-slow-disk-test');
  }

  it('in an excerpt (a few posted lines) one match is enough: the count cannot be judged there', async () => {
    expect(await fired([line(1), line(2)])).toBe(true);
  });

  it('in a whole log the count holds', async () => {
    const few = [...Array.from({ length: 100 }, (_, i) => calm(i)), line(1), line(2), line(3)];
    expect(await fired(few)).toBe(false);
    const many = [...Array.from({ length: 100 }, (_, i) => calm(i)), ...Array.from({ length: 12 }, (_, i) => line(i))];
    expect(await fired(many)).toBe(true);
  });
});
