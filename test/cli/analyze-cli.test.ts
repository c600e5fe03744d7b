import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let bundle: string;
let dir: string;
beforeAll(async () => {
  dir = tempDir();
  writeTree(dir, ROOT, bundleFiles());
  bundle = await packTar(dir, ROOT, join(dir, 'b.tar.gz'), true);
});

describe('bootlens analyze (CLI)', () => {
  it('diagnoses the failed stage, exits 1, and writes JSON that validates against schema v1', () => {
    const out = join(dir, 'report.json');
    const r = run(['analyze', bundle, '--format', 'json', '--output', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    const schema = JSON.parse(readFileSync(join(process.cwd(), 'schema/report-v1.schema.json'), 'utf8'));
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-etcd', ciFailureMode: 'cluster bootstrap' });
    expect(report.stages.find((s: { id: string }) => s.id === 'bootstrap-etcd').status).toBe('failed');
    expect(report.findings.some((f: { ruleId: string }) => f.ruleId === 'bootkube-stage-failed')).toBe(true);
  });

  it('prints the verdict first in text, then stages and findings', () => {
    const r = run(['analyze', bundle]);
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/^✖ FAILED at bootstrap-etcd/);
    expect(r.stdout.indexOf('Stages')).toBeLessThan(r.stdout.indexOf('Findings'));
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('exits 0 with a healthy verdict when nothing failed', () => {
    const files = bundleFiles();
    const healthy: Record<string, string> = {
      'bootstrap/services/release-image.json': files['bootstrap/services/release-image.json'],
      'bootstrap/services/bootkube.json': '[\n{"timestamp":"2026-11-22T10:14:58Z","phase":"service start"},\n{"timestamp":"2026-11-22T10:15:04Z","phase":"stage start","stage":"wait-for-etcd"},\n{"timestamp":"2026-11-22T10:16:04Z","phase":"stage end","stage":"wait-for-etcd","result":"success"},\n{"timestamp":"2026-11-22T10:50:00Z","phase":"service end","result":"success"}\n]\n',
      'bootstrap/journals/bootkube.log': 'Nov 22 10:50:00 b bootkube.sh[2507]: bootkube.service complete\n',
    };
    const r = run(['analyze', writeTree(tempDir(), ROOT, healthy), '--format', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.verdict).toMatchObject({ status: 'healthy', stage: null, category: null });
    expect(report.stages.find((s: { id: string }) => s.id === 'bootstrap-complete').status).toBe('ok');
  });

  it('silences a finding through a suppression file, keeping the reason', () => {
    const ignore = join(dir, 'ignore.yaml');
    writeFileSync(ignore, '- rule: csr-pending-nodes-missing\n  reason: UPI lab, CSRs approved by hand\n');
    const r = run(['analyze', bundle, '--format', 'json', '--ignore', ignore]);
    const report = JSON.parse(r.stdout);
    expect(report.findings.some((f: { ruleId: string }) => f.ruleId === 'csr-pending-nodes-missing')).toBe(false);
    expect(report.suppressed).toEqual([expect.objectContaining({ reason: 'UPI lab, CSRs approved by hand' })]);
  });

  it('gives one clear line and exit 2 for bad input, bad flags and bad rules', () => {
    const notBundle = join(dir, 'notes.txt');
    writeFileSync(notBundle, 'hello\n');
    for (const args of [['analyze', notBundle], ['analyze', join(dir, 'missing.tar.gz')], ['analyze', bundle, '--min-severity', 'loud'], ['analyze', bundle, '--rules', join(dir, 'nope')]]) {
      const r = run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n').length, r.stderr).toBeLessThanOrEqual(2);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const bad = writeTree(tempDir(), 'rules', { 'x/bad-rule.yaml': 'id: bad-rule\nconfidence: high\n' });
    const r = run(['analyze', bundle, '--rules', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad-rule\.yaml:1: top level: missing required field 'sources'\n$/);
  });

  it('matches known issues by default (lexical), and not with --similarity off', () => {
    const on = JSON.parse(run(['analyze', bundle, '--format', 'json']).stdout);
    expect(on.similarity.mode).toBe('lexical');
    const off = JSON.parse(run(['analyze', bundle, '--format', 'json', '--similarity', 'off']).stdout);
    expect(off.similarity).toEqual({ mode: 'off', candidates: 0 });
    expect(off.similar).toEqual([]);
  });

  it('refuses embeddings without a usable local model, in one line, before reading', () => {
    for (const args of [
      ['--similarity', 'embeddings'],
      ['--similarity', 'embeddings', '--model', join(dir, 'no-such-model')],
      ['--similarity', 'vectors'],
      ['--model', dir],
    ]) {
      const r = run(['analyze', bundle, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(r.stderr.includes('run with --help') ? 2 : 1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('explains a rule and lists the rules', () => {
    const e = run(['explain', 'etcd-quorum']);
    expect(e.code).toBe(0);
    expect(e.stdout).toContain('etcd-quorum: etcd has lost quorum');
    expect(e.stdout).toContain('Fix:');
    expect(run(['explain', 'no-such-rule']).code).toBe(2);
    const l = run(['rules', 'list', '--format', 'json']);
    const list = JSON.parse(l.stdout);
    expect(list.length).toBeGreaterThanOrEqual(9);
  });
});

describe('bootlens inspect (CLI)', () => {
  it('prints hosts and journals, or the model as JSON, and exits 0', () => {
    const t = run(['inspect', bundle, '--wide']);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('master 10.0.0.7 (master-2.ocp4.example.com)');
    expect(t.stdout).toMatch(/bootkube\s+│ 10\s+│ 2026-11-22 10:14:58Z/);
    const j = run(['inspect', bundle, '--format', 'json']);
    expect(JSON.parse(j.stdout).masters).toHaveLength(3);
  });
});

describe('limit flags', () => {
  it('applies a limit from the command line as a read problem, and refuses a bad value', () => {
    const r = run(['analyze', bundle, '--max-bytes', '5K', '--format', 'json']);
    const report = JSON.parse(r.stdout);
    expect(report.problems).toContainEqual(expect.objectContaining({ kind: 'limit', message: 'bundle larger than 5120 bytes uncompressed: reading stopped here' }));
    const bad = run(['inspect', bundle, '--max-line-length', 'wide']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-line-length expects a number');
  });
});

describe('bootlens kb (CLI)', () => {
  it('checks the knowledge base against a healthy sample: no entry fires on a good install', () => {
    const dir = join(process.cwd(), 'samples', 'healthy-vsphere-416');
    const healthy = join(dir, readdirSync(dir).find((f) => f.endsWith('.tar.gz')) as string);
    const r = run(['kb', 'check', '--healthy', healthy]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\d+ knowledge-base entries checked/);
    expect(r.stdout).toContain('No entry matches a healthy bundle.');
  });
});
