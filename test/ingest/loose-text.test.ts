// Console captures and whole journals given alone, or beside a bundle in a case folder, are read
// for what they are: a machine's serial console, the journal of the unit their identifiers name,
// laid out as the bundle's own file of that kind. The lines are real: posted in the corpus
// threads (test/corpus/real/cases) as the gather writes them, and the sample bundles' own files.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tar from 'tar';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBundle, type AnalysisResult } from '../../src/analysis/analyze.js';
import { runTriage } from '../../src/cli/triage-command.js';
import { classifyLooseText, type LooseText } from '../../src/ingest/loose-text.js';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { hostLabel } from '../../src/model/source-id.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { classifyPath } from '../../src/specs/layout.js';
import { collectCases } from '../../src/triage/collect.js';
import { loadCorpus, type RealCase } from '../corpus/real/cases.js';
import { gatherIdOf, journalText, layOut } from '../corpus/real/layout.js';
import { packTar, tempDir } from '../support/fixture-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const cases = loadCorpus().cases;

function realCase(id: string): RealCase {
  const c = cases.find((x) => x.id === id);
  if (!c) throw new Error(`no corpus case ${id}`);
  return c;
}

/** A case file's text as the gather writes it: a journal line posted without its header gets one. */
function captured(id: string, path: string): string {
  const c = realCase(id);
  const lines = c.files.find((f) => f.path === path)?.lines;
  if (lines === undefined) throw new Error(`no ${path} in case ${id}`);
  const spec = classifyPath(`log-bundle-${gatherIdOf(c)}/${path}`).spec;
  return spec?.kind === 'journal' && spec.host ? journalText(lines, spec.unit ?? '', hostLabel(spec.host), gatherIdOf(c)) : lines;
}

const sniff = (text: string | Buffer, name = 'capture.txt'): LooseText | undefined => classifyLooseText(Buffer.from(text), name);

/** A sample bundle unpacked: its root folder and where it lies. */
async function unpackSample(sample: string): Promise<{ dir: string; root: string; bundle: string }> {
  const folder = join(process.cwd(), 'samples', sample);
  const name = readdirSync(folder).find((n) => n.endsWith('.tar.gz'));
  if (!name) throw new Error(`no bundle in samples/${sample}`);
  const dir = tempDir('bootlens-sample-');
  await tar.x({ file: join(folder, name), cwd: dir });
  return { dir, root: name.replace(/\.tar\.gz$/, ''), bundle: join(folder, name) };
}

let rules: ReturnType<typeof loadRules>['rules'];
beforeAll(() => {
  rules = loadRules().rules;
});

async function analyze(input: string): Promise<AnalysisResult> {
  return analyzeBundle(input, { rules, version: 'test', similarity: { mode: 'lexical' } });
}

/** Stage and category, as a case is judged by. */
function judged(r: AnalysisResult): { status: string; stage: string | null; category: string | null } {
  return { status: r.verdict.status, stage: r.verdict.stage, category: r.verdict.category };
}

/** The files the root cause's evidence cites. */
function rootEvidenceFiles(r: AnalysisResult): string[] {
  return r.findings.find((f) => f.ruleId === r.verdict.rootCause)?.evidence.map((e) => e.file) ?? [];
}

describe('what a loose text is, by its content', () => {
  it('a serial console, by the lines only a console shows (kernel times, systemd status, Ignition)', () => {
    // The spinner of a job still running, a kernel time in the middle of the line.
    expect(sniff(captured('helpernode-228-static-ip-no-dns', 'serial/master0-serial.log'), 'console.log')).toEqual({ kind: 'serial', console: 'master' });
    expect(sniff(captured('okd-287-ovirt-masters-no-ignition', 'serial/master-1-serial.log'), 'master-1-serial.log')).toEqual({ kind: 'serial', console: 'master-1' });
    // Ignition's line without the kernel's time; a kernel time the console cut.
    expect(sniff(captured('okd-165-mcs-lb-to-api-backend', 'serial/master-serial.log'))?.kind).toBe('serial');
    expect(sniff(captured('okd-98-ignition-spec2-config', 'serial/bootstrap-serial.log'), 'bootstrap-console.log')).toEqual({ kind: 'serial', console: 'bootstrap' });
    // systemd paints its status on a terminal; the login banner of CoreOS.
    const painted = '[\u001b[0;32m  OK  \u001b[0m] Started \u001b[0;1;39mIgnition (fetch)\u001b[0m.\r\n[\u001b[0;1;31mFAILED\u001b[0m] Failed to start \u001b[0;1;39mIgnition (fetch)\u001b[0m.\r\n';
    expect(sniff(painted)?.kind).toBe('serial');
    expect(sniff('Red Hat Enterprise Linux CoreOS 416.94.202409191851-0\nSSH host key: SHA256:jcmPJrfPDiOKw6vJYv5FRar28WvXEr2ptP (ECDSA)\nIgnition: ran on 2024/09/26 07:29:35 UTC (this boot)\nIgnition: user-provided config was applied\nmaster-2 login: \n')).toEqual({ kind: 'serial', console: 'master-2' });
  });

  it("a console's words name its machine over a file name that says another role", () => {
    const master = captured('hetzner-ocp4-294-routed-firewalld-22623', 'serial/master-0-serial.log');
    expect(sniff(master, 'bootstrap-serial.log')).toEqual({ kind: 'serial', console: 'master' });
    expect(sniff(master, 'node3.txt')).toEqual({ kind: 'serial', console: 'master-node3' });
  });

  it('a journal, by its entries, as the journal of the unit its identifiers name', () => {
    expect(sniff(captured('okd-2041-scos-pivot-ext4-orphan-file', 'bootstrap/journals/bootkube.log'))).toEqual({ kind: 'journal', unit: 'bootkube', host: { role: 'bootstrap' } });
    expect(sniff(captured('installer-4663-ci-release-unauthorized', 'bootstrap/journals/release-image.log'))).toEqual({ kind: 'journal', unit: 'release-image', host: { role: 'bootstrap' } });
    // kubelet under its binary's names.
    expect(sniff(captured('installer-4267-gcp-ilb-hairpin-masters', 'control-plane/10.124.0.3/journals/kubelet.log'))).toMatchObject({ kind: 'journal', unit: 'kubelet' });
    // A unit both roles run: the host name says whose; a unit only masters run is a master's.
    expect(sniff(captured('installer-2978-fcos-crio-hooks-dir', 'control-plane/osinfra-cqr7z-master-2/journals/crio.log'))).toEqual({
      kind: 'journal',
      unit: 'crio',
      host: { role: 'master', address: 'osinfra-cqr7z-master-2' },
    });
    expect(sniff(captured('machine-config-operator-3378-firstboot-rpm-ostreed-proxy', 'control-plane/master-1/journals/machine-config-daemon-firstboot.log'))).toEqual({
      kind: 'journal',
      unit: 'machine-config-daemon-firstboot',
      host: { role: 'master', address: 'master-1' },
    });
    // A script's journal under the script's name.
    expect(sniff(captured('snc-453-bootstrap-run-tmpfs-full', 'bootstrap/journals/kubelet-pause-image.log'))).toMatchObject({ unit: 'kubelet-pause-image' });
  });

  it("a whole bootkube journal, whose first hundred lines are podman's container events", async () => {
    const { dir, root } = await unpackSample('bootstrap-disk-full');
    const whole = readFileSync(join(dir, root, 'bootstrap/journals/bootkube.log'));
    expect(whole.toString('utf8', 0, 16 * 1024)).not.toContain('bootkube.sh[');
    expect(classifyLooseText(whole.subarray(0, 256 * 1024), 'journal.txt')).toEqual({ kind: 'journal', unit: 'bootkube', host: { role: 'bootstrap' } });
  });

  it("the installer's output stays the installer's; notes and a bare error line are nothing bootlens reads", () => {
    expect(sniff(realCase('installer-4436-api-dns-misbehaving').installer?.lines ?? '')).toEqual({ kind: 'installer-output' });
    expect(sniff('just some notes\nabout the install\n')).toBeUndefined();
    expect(sniff(`${realCase('ironicbadger-ocp4-23-ntp-not-yet-valid').installer?.lines ?? ''}`)).toBeUndefined();
  });
});

// Corpus cases whose thread showed one capture: given alone, it must say what the case's bundle
// (the capture at its place, as the gather writes it) says.
const ALONE: [string, string, string][] = [
  ['okd-287-ovirt-masters-no-ignition', 'serial/master-1-serial.log', 'master-1-console.log'],
  ['helpernode-228-static-ip-no-dns', 'serial/master0-serial.log', 'console.txt'],
  ['okd-1490-openstack-api-int-nxdomain', 'bootstrap/journals/bootkube.log', 'journal.txt'],
  ['installer-4663-ci-release-unauthorized', 'bootstrap/journals/release-image.log', 'journalctl.out'],
];

describe('a console capture or a whole journal given alone', () => {
  it.each(ALONE)('%s: %s alone gives what the bundle with it inside gives', async (id, path, name) => {
    const c = realCase(id);
    expect(c.files.map((f) => f.path)).toEqual([path]);
    const inside = await analyze((await layOut(c, tempDir())).input);
    const file = join(tempDir(), name);
    writeFileSync(file, captured(id, path));
    const alone = await analyze(file);
    expect(judged(alone)).toEqual(judged(inside));
    expect(judged(alone)).toMatchObject({ status: 'failed', stage: c.expected.stage });
    expect(alone.bundle.layout.readByContent).toEqual([{ file: name, as: expect.stringContaining(`(${path.replace(/[^/]+-serial\.log$/, '')}`) as unknown }]);
  });

  it('a whole bootkube journal alone gives what the bundle it came from gives', async () => {
    const { dir, root, bundle } = await unpackSample('bootstrap-disk-full');
    const file = join(tempDir(), 'bootkube.log');
    copyFileSync(join(dir, root, 'bootstrap/journals/bootkube.log'), file);
    const alone = await analyze(file);
    expect(judged(alone)).toEqual(judged(await analyze(bundle)));
    expect(alone.bundle.layout.readByContent).toEqual([{ file: 'bootkube.log', as: 'the bootkube journal of the bootstrap host (bootstrap/journals/bootkube.log)' }]);
  });

  it('every report names the file read by its content and what it was read as, its name escaped', async () => {
    const name = '<img src=x onerror=alert(1)>|master-1.log';
    const file = join(tempDir(), name);
    writeFileSync(file, captured('okd-287-ovirt-masters-no-ignition', 'serial/master-1-serial.log'));
    const r = await analyze(file);
    expect(r.bundle.layout.readByContent).toEqual([{ file: name, as: expect.stringContaining('serial/') as unknown }]);
    const md = renderMarkdown(r);
    expect(md).toContain('## Read by content (1)');
    // Markdown escapes what would open a tag or end the table cell.
    expect(md).toContain('| \\<img src=x onerror=alert(1)\\>\\|master-1.log | the serial console of ');
    const html = renderHtml(r);
    expect(html).toContain('Read by content (1)');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img src=x');
  });

  it('a capture saved as UTF-16 (PowerShell) is read as its UTF-8 twin', async () => {
    const text = captured('okd-287-ovirt-masters-no-ignition', 'serial/master-1-serial.log');
    const file = join(tempDir(), 'master-1-console.log');
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const twin = join(tempDir(), 'master-1-console.log');
    writeFileSync(twin, text);
    expect(judged(await analyze(file))).toEqual(judged(await analyze(twin)));
  });

  it('the CLI reads a console capture alone (exit 1, the report names it) and refuses notes with one line', () => {
    const file = join(tempDir(), 'master-1-console.log');
    writeFileSync(file, captured('okd-287-ovirt-masters-no-ignition', 'serial/master-1-serial.log'));
    const r = spawnSync(process.execPath, [CLI, 'analyze', file], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('Read by content (1)');
    expect(r.stdout).toContain('master-1-console.log: the serial console of master-1 (serial/master-1-serial.log)');
    const notes = join(tempDir(), 'notes.txt');
    writeFileSync(notes, 'the masters never came up\nwe tried twice\n');
    const refused = spawnSync(process.execPath, [CLI, 'analyze', notes], { encoding: 'utf8' });
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('a serial console capture');
  });
});

/**
 * A case folder: the sample's bundle without the files matching `drop`, and the one of them
 * matching `pick` beside it as `name`; and the bundle with only that capture back inside.
 */
async function caseFolder(sample: string, drop: RegExp, pick: RegExp, name: string): Promise<{ folder: string; inside: string }> {
  const { dir, root, bundle } = await unpackSample(sample);
  const listed: string[] = [];
  await tar.t({ file: bundle, onReadEntry: (e) => void (e.type === 'File' && listed.push(e.path)) });
  const dropped = listed.filter((p) => drop.test(p));
  const picked = dropped.find((p) => pick.test(p));
  if (!picked) throw new Error(`no ${String(pick)} in samples/${sample}`);
  const capture = readFileSync(join(dir, picked));
  for (const p of dropped) rmSync(join(dir, p));
  const folder = join(tempDir('bootlens-case-'), 'case-04012345');
  mkdirSync(folder, { recursive: true });
  await packTar(dir, root, join(folder, `${root}.tar.gz`), true);
  writeFileSync(join(folder, name), capture);
  // The same bundle with only that capture back at its place.
  writeFileSync(join(dir, picked), capture);
  const inside = await packTar(dir, root, join(tempDir(), `${root}.tar.gz`), true);
  return { folder, inside };
}

describe('in a case folder beside a bundle', () => {
  it("a master's console capture is that master's serial console: the verdict it gives inside the bundle, from its lines", async () => {
    const { folder, inside } = await caseFolder('api-int-dns-missing', /\/serial\/.*-serial\.log$/, /master-0-serial\.log$/, 'master-0-console.log');
    const beside = await analyze(folder);
    expect(judged(beside)).toEqual(judged(await analyze(inside)));
    expect(judged(beside)).toMatchObject({ status: 'failed', stage: 'masters-provision', category: 'dns' });
    expect(rootEvidenceFiles(beside).some((f) => f.endsWith('master-0-console.log'))).toBe(true);
    expect(beside.bundle.layout.readByContent).toEqual([{ file: expect.stringMatching(/master-0-console\.log$/) as unknown, as: expect.stringMatching(/^the serial console of master-0 /) as unknown }]);
  });

  it("a whole bootkube journal is the bootstrap host's bootkube journal, dated by the bundle's gather id", async () => {
    const { folder, inside } = await caseFolder('bootstrap-disk-full', /bootstrap\/journals\/bootkube\.log$/, /bootkube\.log$/, 'bootkube.log');
    const beside = await analyze(folder);
    expect(judged(beside)).toEqual(judged(await analyze(inside)));
    expect(rootEvidenceFiles(beside).some((f) => f.endsWith('bootkube.log') && !f.includes('!/'))).toBe(true);
    // The journal was read before the bundle (by name order) with no year of its own: it has the bundle's.
    const model = await readBundle(folder);
    const journal = model.bootstrap?.journals.bootkube;
    expect(journal?.source.file).toMatch(/^case-04012345\/bootkube\.log$|bootkube\.log$/);
    expect(new Date(journal?.firstTime ?? 0).getUTCFullYear()).toBe(2023);
  });

  it('triage takes the folder as one case, ignores none of its captures, and agrees with analyze', async () => {
    const { folder } = await caseFolder('api-int-dns-missing', /\/serial\/.*-serial\.log$/, /master-0-serial\.log$/, 'master-0-console.log');
    writeFileSync(join(folder, 'NOTES.md'), 'customer says the masters never booted\n');
    const { cases: found } = await collectCases([join(folder, '..')]);
    expect(found).toEqual([{ name: 'case-04012345', path: folder, ignored: ['NOTES.md'] }]);
    const jsonl = join(tempDir(), 'r.jsonl');
    await runTriage([folder], { format: 'json', output: join(tempDir(), 's.json'), jsonl, similarity: 'lexical' });
    const record = JSON.parse(readFileSync(jsonl, 'utf8').trim()) as { verdict: { stage: string; category: string } };
    const analyzed = await analyze(folder);
    expect(record.verdict).toMatchObject({ stage: analyzed.verdict.stage, category: analyzed.verdict.category });
  });

  it('a folder holding only a console capture is a case of its own', async () => {
    const folder = join(tempDir(), 'ticket-77');
    mkdirSync(folder);
    writeFileSync(join(folder, 'master-1-console.log'), captured('okd-287-ovirt-masters-no-ignition', 'serial/master-1-serial.log'));
    const { cases: found } = await collectCases([folder]);
    expect(found).toEqual([{ name: 'ticket-77', path: folder }]);
    expect(judged(await analyze(folder))).toMatchObject({ status: 'failed', stage: 'masters-provision', category: 'network-connectivity' });
  });
});
