// User rules held to the shipped rules' standard: no back-references, only regexes the checker
// proves linear, globs that name units and are matched in linear time, and placeholders that fill
// only captures (never an object's prototype). A user's rules folder has its own catalogue.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/catalogue/load-catalogue.js';
import { RuleError } from '../../src/rules/yaml-rule.js';
import { hasBackReference } from '../../src/text/regex-source.js';
import { compileGlob, globProblem } from '../../src/util/glob.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';
import { userCatalogue, userEntry, userRule } from './crafted-bundles.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

/** A rules folder of user rules (id → its rule's sources line, or the default bootkube journal) and a catalogue of their entries. */
function rulesDir(rules: Record<string, string | undefined>, entries: string): string {
  const dir = join(tempDir('bootlens-user-rules-'), 'rules');
  mkdirSync(join(dir, 'catalogue'), { recursive: true });
  for (const [id, journal] of Object.entries(rules)) {
    const text = userRule(id);
    writeFileSync(join(dir, `${id}.yaml`), journal ? text.replace('journal: bootkube', `journal: ${JSON.stringify(journal)}`) : text);
  }
  writeFileSync(join(dir, 'catalogue', 'user.yaml'), userCatalogue(entries));
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

  it('are refused when the catalogue a rule names is loaded: analyze never runs one', () => {
    const dir = rulesDir({ 'user-backref': undefined }, userEntry('user-backref', String.raw`(?:(\w)\1*)+$`, 'a repeated word'));
    expect(() => loadCatalogue(join(dir, 'catalogue'))).toThrow(RuleError);
    expect(() => loadCatalogue(join(dir, 'catalogue'))).toThrow(/user\.yaml:\d+: entry 'user-backref': regex .* refers back to a group/);
    const bundle = writeTree(tempDir(), ROOT, bundleFiles());
    const r = run(['analyze', bundle, '--rules', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/refers back to a group/);
  });
});

describe('rules lint on user rules', () => {
  it('refuses a back-reference (the catalogue does not load), a regex the checker does not prove linear, and bad globs, each a problem with its file', () => {
    const backref = rulesDir({ 'user-backref': undefined }, userEntry('user-backref', String.raw`etcdctl (\w)\1 failed`, 'etcdctl failed'));
    const refused = run(['rules', 'lint', '--rules', backref]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/user\.yaml:\d+: entry 'user-backref': regex .* refers back to a group/);

    const dir = rulesDir(
      { 'user-good': undefined, 'user-polynomial': undefined, 'user-glob': 'boot*-*-*-*-*-*-*-*-*', 'user-glob-chars': 'bootkube/../../etc' },
      [
        userEntry('user-good', 'etcdctl (?<what>failed)', 'etcdctl {what}', undefined, 'etcdctl failed'),
        // No nested quantifier (the load-time guard passes it), yet exponential: the checker finds it.
        userEntry('user-polynomial', 'etcdctl (?:a|b|ab)*c$', 'etcdctl failed', undefined, 'etcdctl abc'),
        userEntry('user-glob', 'etcdctl failed', 'etcdctl failed', undefined, 'etcdctl failed'),
        userEntry('user-glob-chars', 'etcdctl failed', 'etcdctl failed', undefined, 'etcdctl failed'),
      ].join(''),
    );
    const r = run(['rules', 'lint', '--rules', dir]);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines.some((l) => /user\.yaml: catalogue entry user-polynomial: regex .* backtracks super-linearly/.test(l)), r.stdout).toBe(true);
    expect(lines.find((l) => l.includes('user-glob.yaml'))).toMatch(/glob 'boot\*-\*-\*-\*-\*-\*-\*-\*-\*' has 9 wildcards/);
    expect(lines.find((l) => l.includes('user-glob-chars'))).toMatch(/may hold only letters/);
    expect(r.stdout).not.toMatch(/^note:/m);
    expect(lines.filter((l) => l.includes('user-good'))).toEqual([]);
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
  it('fill only captures: {constructor} in a fix step stays text, and in a finding text is refused', () => {
    const bundle = writeTree(tempDir(), ROOT, bundleFiles());
    const dir = rulesDir({ 'user-fix-proto': undefined }, userEntry('user-fix-proto', 'etcdctl (?<what>failed)', 'etcdctl {what}', 'Look at {constructor} and {toString} for {what}.', 'etcdctl failed'));
    const r = run(['analyze', bundle, '--rules', dir, '-f', 'json']);
    expect([0, 1], r.stderr).toContain(r.status);
    const finding = (JSON.parse(r.stdout) as { findings: { ruleId: string; fix: string[] }[] }).findings.find((f) => f.ruleId === 'user-fix-proto');
    expect(finding?.fix).toEqual(['Look at {constructor} and {toString} for failed.']);
    expect(r.stdout).not.toContain('native code');
    const refused = rulesDir({ 'user-says-proto': undefined }, userEntry('user-says-proto', 'etcdctl (?<what>failed)', 'etcdctl {constructor}', undefined, 'etcdctl failed'));
    const lint = run(['analyze', bundle, '--rules', refused]);
    expect(lint.status).toBe(2);
    expect(lint.stderr).toMatch(/constructor/);
    // A capture may be called constructor: then it is filled like any other.
    const named = rulesDir({ 'user-named-proto': undefined }, userEntry('user-named-proto', 'etcdctl (?<constructor>failed)', 'etcdctl {constructor} ({count} times)', undefined, 'etcdctl failed'));
    const n = run(['analyze', bundle, '--rules', named, '-f', 'json']);
    const f = (JSON.parse(n.stdout) as { findings: { ruleId: string; message: string }[] }).findings.find((x) => x.ruleId === 'user-named-proto');
    expect(f?.message).toMatch(/^etcdctl failed \(\d+ times\)$/);
  });
});
