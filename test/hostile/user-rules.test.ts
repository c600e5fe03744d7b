// User rules held to the shipped rules' standard: no back-references, only regexes the checker
// proves linear, globs that name units and are matched in linear time, and placeholders that fill
// only captures (never an object's prototype).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRuleFile, RuleError } from '../../src/rules/yaml-rule.js';
import { hasBackReference } from '../../src/rules/matcher.js';
import { compileGlob, globProblem } from '../../src/util/glob.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

interface RuleParts {
  id: string;
  regex?: string;
  journal?: string;
  message?: string;
  fix?: string;
}

/** A user rule on bootkube's journal, with one firing and one near-miss example. */
function ruleYaml(p: RuleParts): string {
  return `id: ${p.id}
title: A user rule under test
stage: render
category: unknown
severity: error
confidence: high
description: A rule written by a user, checked like a shipped one.
fix:
  - ${JSON.stringify(p.fix ?? 'Read the bootkube journal.')}
references:
  - https://example.com/rule
sources:
  - journal: ${JSON.stringify(p.journal ?? 'bootkube')}
match:
  any:
    - regex: ${JSON.stringify(p.regex ?? 'etcdctl (?<what>failed)')}
message: ${JSON.stringify(p.message ?? 'etcdctl {what} ({count} times)')}
examples:
  positive:
    - unit: bootkube
      lines:
        - 'Nov 22 10:16:01 bootstrap bootkube.sh[2507]: etcdctl failed. Retrying in 5 seconds...'
  negative:
    - unit: bootkube
      lines:
        - 'Nov 22 10:16:01 bootstrap bootkube.sh[2507]: etcdctl answered.'
`;
}

function rulesDir(...rules: RuleParts[]): string {
  const dir = join(tempDir('bootlens-user-rules-'), 'rules');
  mkdirSync(dir);
  for (const r of rules) writeFileSync(join(dir, `${r.id}.yaml`), ruleYaml(r));
  return dir;
}

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
}

describe('back-references', () => {
  it('are found outside classes, numbered or named', () => {
    expect(hasBackReference(String.raw`(?:(\w)\1*)+`)).toBe(true);
    expect(hasBackReference(String.raw`(?<q>['"]).*\k<q>`)).toBe(true);
    expect(hasBackReference(String.raw`[\1]x\\1`)).toBe(false);
    expect(hasBackReference(String.raw`\d+ \w+`)).toBe(false);
  });

  it('are refused when a rule is loaded: analyze never runs one', () => {
    const dir = rulesDir({ id: 'user-backref', regex: String.raw`(?:(\w)\1*)+$` });
    expect(() => loadRuleFile(join(dir, 'user-backref.yaml'))).toThrow(RuleError);
    expect(() => loadRuleFile(join(dir, 'user-backref.yaml'))).toThrow(/user-backref\.yaml:\d+: regex .* refers back to a group/);
    const bundle = writeTree(tempDir(), ROOT, bundleFiles());
    const r = run(['analyze', bundle, '--rules', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/refers back to a group/);
  });
});

describe('rules lint on user rules', () => {
  it('refuses a back-reference, a regex the checker does not prove linear, and a bad glob, each a problem with file and rule', () => {
    const dir = rulesDir(
      { id: 'user-good' },
      { id: 'user-backref', regex: String.raw`etcdctl (\w)\1 failed`, message: 'etcdctl failed ({count} times)' },
      // No nested quantifier (the load-time guard passes it), yet exponential: the checker finds it.
      { id: 'user-polynomial', regex: String.raw`etcdctl (?:a|b|ab)*c$`, message: 'etcdctl failed ({count} times)' },
      { id: 'user-glob', journal: 'boot*-*-*-*-*-*-*-*-*' },
      { id: 'user-glob-chars', journal: 'bootkube/../../etc' },
    );
    const r = run(['rules', 'lint', '--rules', dir]);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('4 problem(s)');
    expect(lines.find((l) => l.includes('user-backref'))).toMatch(/refers back to a group/);
    expect(lines.find((l) => l.includes('user-polynomial'))).toMatch(/rule user-polynomial: regex .* backtracks super-linearly/);
    expect(lines.find((l) => l.includes('user-glob.yaml'))).toMatch(/glob 'boot\*-\*-\*-\*-\*-\*-\*-\*-\*' has 9 wildcards/);
    expect(lines.find((l) => l.includes('user-glob-chars'))).toMatch(/may hold only letters/);
    expect(r.stdout).not.toMatch(/^note:/m);
    expect(r.stdout).not.toContain('user-good');
  });
});

describe('globs', () => {
  it('match as globs do', () => {
    expect(compileGlob('etcd*').test('etcd-member')).toBe(true);
    expect(compileGlob('etcd*').test('xetcd')).toBe(false);
    expect(compileGlob('kube-apiserver-?').test('kube-apiserver-3')).toBe(true);
    expect(compileGlob('*-render').test('cvo-render')).toBe(true);
    expect(compileGlob('a*b*c').test('aXbYbZc')).toBe(true);
    expect(compileGlob('a*b*c').test('aXbYbZ')).toBe(false);
    expect(compileGlob('*').test('')).toBe(true);
    expect(compileGlob('a.b').test('aXb')).toBe(false);
    expect(globProblem('kube-apiserver*')).toBeUndefined();
    expect(globProblem('a**b')).toMatch(/repeats/);
  });

  it('take time linear in the name: many `*-` against a long name that almost matches', () => {
    // As a regex (`^.*-.*-…x$`) this backtracks for longer than the test would wait.
    const glob = compileGlob(`${'*-'.repeat(8)}x`);
    expect(glob.test('a-'.repeat(20_000))).toBe(false);
    expect(glob.test(`${'a-'.repeat(20_000)}x`)).toBe(true);
  });
});

describe('placeholders', () => {
  it('fill only captures: {constructor} in a fix step stays text, and in a message is refused', async () => {
    const bundle = writeTree(tempDir(), ROOT, bundleFiles());
    const dir = rulesDir({ id: 'user-fix-proto', fix: 'Look at {constructor} and {toString} for {what}.' });
    const r = run(['analyze', bundle, '--rules', dir, '-f', 'json']);
    expect(r.status).toBe(1);
    const finding = (JSON.parse(r.stdout) as { findings: { ruleId: string; fix: string[]; message: string }[] }).findings.find((f) => f.ruleId === 'user-fix-proto');
    expect(finding?.fix).toEqual(['Look at {constructor} and {toString} for failed.']);
    expect(r.stdout).not.toContain('native code');
    const refused = rulesDir({ id: 'user-message-proto', message: 'etcdctl {constructor}' });
    expect(() => loadRuleFile(join(refused, 'user-message-proto.yaml'))).toThrow(/message placeholder \{constructor\} names no capture group/);
    // A capture may be called constructor: then it is filled like any other.
    const named = rulesDir({ id: 'user-named-proto', regex: 'etcdctl (?<constructor>failed)', message: 'etcdctl {constructor} ({count} times)' });
    const n = run(['analyze', bundle, '--rules', named, '-f', 'json']);
    const f = (JSON.parse(n.stdout) as { findings: { ruleId: string; message: string }[] }).findings.find((x) => x.ruleId === 'user-named-proto');
    expect(f?.message).toMatch(/^etcdctl failed \(\d+ times\)$/);
  });
});
