// The installer's output in every form people and CI hold it (the log file, the console on a
// terminal, CI output without a terminal with or without the collector's stamps, Ansible
// stdout_lines, a wait-for transcript), found by content wherever it is (alone, beside a bundle
// with --install-log, inside a bundle under any name, beside a bundle in a case folder, with an
// empty bundle). The lines are the real ones of the corpus cases (their threads are in the cases).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBundle, type AnalysisResult } from '../../src/analysis/analyze.js';
import { looksLikeInstallerOutput } from '../../src/parsers/installer-log.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { loadCorpus } from '../corpus/real/cases.js';
import { packTar, tempDir, writeTree } from '../support/fixture-bundle.js';

const cases = loadCorpus().cases;
function installerLines(id: string): string {
  const c = cases.find((x) => x.id === id);
  if (!c?.installer) throw new Error(`no installer output in case ${id}`);
  return c.installer.lines;
}

/** A collector's RFC 3339 stamp before every line, as CI job logs show the installer's output. */
function stamped(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((l, i) => `2024-03-05T10:${String(10 + i).padStart(2, '0')}:00.123456Z ${l}`)
    .join('\n');
}

const FORMS = {
  // time="..." level=... msg="...": the .openshift_install.log, cut off while still waiting.
  'log file': { text: () => installerLines('hetzner-ocp4-178-api-cert-expired'), verdict: { status: 'failed', stage: 'bootstrap-control-plane', category: 'certificate-expired' } },
  // DEBUG/INFO/FATAL: the console on a terminal.
  'console on a terminal': { text: () => installerLines('installer-4436-api-dns-misbehaving'), verdict: { status: 'failed', stage: 'bootstrap-control-plane', category: 'dns' } },
  // level=... msg=... without time: CI output with no terminal.
  'CI output without a terminal': { text: () => installerLines('dev-scripts-631-master-resolv-dns'), verdict: { status: 'failed', stage: 'bootstrap-control-plane' } },
  'CI output behind the collector stamps': { text: () => stamped(installerLines('installer-4436-api-dns-misbehaving')), verdict: { status: 'failed', stage: 'bootstrap-control-plane', category: 'dns' } },
  'Ansible stdout_lines': { text: () => installerLines('healthy-z-ansible-180-bootstrap-complete-stdout-lines'), verdict: { status: 'healthy' } },
  'a wait-for bootstrap-complete transcript': { text: () => installerLines('healthy-helpernode-quickstart-bootstrap-complete'), verdict: { status: 'healthy' } },
  'a successful run in CI': { text: () => installerLines('healthy-installer-832-ci-install-complete'), verdict: { status: 'healthy' } },
  'operator conditions on the console': { text: () => installerLines('kcli-228-single-master-wellknown'), verdict: { status: 'failed', stage: 'cluster-operators', category: 'install-config' } },
} as const;

type FormName = keyof typeof FORMS;

let rules: ReturnType<typeof loadRules>['rules'];
let dir: string;
let healthyBundle: string;
let emptyBundle: string;

beforeAll(async () => {
  rules = loadRules().rules;
  dir = tempDir('bootlens-installer-output-');
  // A bundle whose bootstrap completed (a real bootkube journal ending in "bootkube.service complete").
  const bootkube = cases.find((c) => c.id === 'healthy-eformat-rhv-upi-bootkube-complete')?.files.find((f) => f.path === 'bootstrap/journals/bootkube.log')?.lines ?? '';
  const src = tempDir();
  writeTree(src, 'log-bundle-20200601120000', { 'bootstrap/journals/bootkube.log': bootkube });
  healthyBundle = await packTar(src, 'log-bundle-20200601120000', join(dir, 'healthy.tar.gz'), true);
  emptyBundle = join(dir, 'empty.tar.gz');
  writeFileSync(emptyBundle, gzipSync(Buffer.alloc(10240)));
});

async function analyze(input: string, installLog?: string): Promise<AnalysisResult> {
  return analyzeBundle(input, { rules, version: 'test', similarity: { mode: 'lexical' }, ...(installLog ? { installLog } : {}) });
}

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
  return file;
}

describe('installer output in every form', () => {
  it.each(Object.keys(FORMS) as FormName[])('%s is recognised by its content', (form) => {
    expect(looksLikeInstallerOutput(FORMS[form].text())).toBe(true);
  });

  it('random text is not installer output', () => {
    expect(looksLikeInstallerOutput('just some notes\nabout the install\n')).toBe(false);
    expect(looksLikeInstallerOutput('INFO: starting backup job\n')).toBe(false);
  });

  it.each(Object.keys(FORMS) as FormName[])('%s, alone, under a neutral name, gives the verdict its lines show', async (form) => {
    const file = write(`alone-${form.replace(/\W+/g, '-')}.txt`, FORMS[form].text());
    const r = await analyze(file);
    expect(r.verdict).toMatchObject(FORMS[form].verdict);
  });

  it.each(Object.keys(FORMS) as FormName[])('%s with an empty bundle: the bundle is a problem, not an error', async (form) => {
    const file = write(`empty-${form.replace(/\W+/g, '-')}.txt`, FORMS[form].text());
    const r = await analyze(emptyBundle, file);
    expect(r.verdict).toMatchObject(FORMS[form].verdict);
    expect(r.problems).toContainEqual(expect.objectContaining({ kind: 'empty' }));
  });
});

describe('installer output wherever it is', () => {
  const fatal = (): string => installerLines('kcli-228-single-master-wellknown');

  it('beside a healthy bundle (--install-log): the installer has the last word', async () => {
    expect((await analyze(healthyBundle)).verdict.status).toBe('healthy');
    const r = await analyze(healthyBundle, write('beside.log', fatal()));
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'cluster-operators' });
    expect(r.stages.find((s) => s.id === 'bootstrap-complete')?.status).toBe('ok');
  });

  it('inside a bundle under any name', async () => {
    const src = tempDir();
    const bootkube = cases.find((c) => c.id === 'healthy-eformat-rhv-upi-bootkube-complete')?.files[0]?.lines ?? '';
    writeTree(src, 'log-bundle-20200601120000', { 'bootstrap/journals/bootkube.log': bootkube, 'notes/output-of-the-installer.txt': fatal() });
    const bundle = await packTar(src, 'log-bundle-20200601120000', join(dir, 'inside.tar.gz'), true);
    const r = await analyze(bundle);
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'cluster-operators', category: 'install-config' });
  });

  it('in a case folder beside the bundle (a support upload, a CI artifact folder)', async () => {
    const folder = join(dir, 'case-12345');
    mkdirSync(folder, { recursive: true });
    copyFileSync(healthyBundle, join(folder, 'log-bundle-20200601120000.tar.gz'));
    writeFileSync(join(folder, 'openshift_install.txt'), `${fatal()}\n`);
    const r = await analyze(folder);
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'cluster-operators' });
  });

  it('the CLI accepts each form alone (exit 1, a report on stdout, nothing on stderr)', () => {
    const cli = join(process.cwd(), 'dist/src/cli/main.js');
    const file = write('cli-console.txt', installerLines('installer-4436-api-dns-misbehaving'));
    const r = spawnSync(process.execPath, [cli, 'analyze', file, '--format', 'json'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-control-plane', category: 'dns' });
  });
});
