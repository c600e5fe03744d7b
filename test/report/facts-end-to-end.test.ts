// Messages keep their fact, end to end: a bundle in the real formats (journals as journalctl
// writes them, clusteroperators.json as `oc get -o json` writes it, the installer's logfmt log)
// through the real CLI, and every format says the whole fact — the operator's whole Degraded
// message with its escaped quotes, the file a content mismatch is about, a refusal with its count.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';
import { clusterOperatorsJson, entry, installerLine, journal, times } from '../support/noisy-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const H = 'bootstrap.ocp4.example.com';
const IMAGE = 'harbor.corp.example:8443/ocp4/openshift4@sha256:4f3ff6a4c7c1c6d8b5a4c27b5a7ae9d4b16ab4b30f5a1a5a1b0c3d2a0e29a3b7';
const REFUSAL = 'unauthorized: unauthorized to access repository: ocp4/openshift4, action: pull: unauthorized to access repository: ocp4/openshift4, action: pull';
const ATTEMPTS = 328;

// The machine-config operator's Degraded message as the API returns it: the daemon's error is
// quoted with %q inside it, so the file name sits between escaped quotes.
const FILE = '/etc/containers/registries.conf';
const CONFIG = 'rendered-master-8bd6f27c8029fb358c8835dabc9b4b54';
const MCO_MESSAGE = `Unable to apply 4.16.3: error during syncRequiredMachineConfigPools: [context deadline exceeded, error MachineConfigPool master is not ready, retrying. Status: (pool degraded: true total: 3, ready 0, updated: 0, unavailable: 1)]. Node master-0.ocp4.example.com is reporting: "unexpected on-disk state validating against ${CONFIG}: content mismatch for file \\"${FILE}\\""`;
// The authentication operator's message quotes the URL it could not reach.
const AUTH_DETAIL = 'OAuthServerRouteEndpointAccessibleControllerDegraded: Get "https://oauth-openshift.apps.ocp4.example.com/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)';

function releaseImageJournal(): string {
  const pull = (time: string, message: string): string => entry(time, H, 'release-image-download.sh[1980]', message);
  return journal([
    entry('10:13:40', H, 'systemd[1]', 'Starting Download the OpenShift Release Image...'),
    pull('10:13:40', `Pulling ${IMAGE}...`),
    ...times('10:13:50', 11, ATTEMPTS).flatMap((t) => [
      pull(t, `Error: initializing source docker://${IMAGE}: reading manifest sha256:4f3ff6a4c7c1c6d8b5a4c27b5a7ae9d4b16ab4b30f5a1a5a1b0c3d2a0e29a3b7 in harbor.corp.example:8443/ocp4/openshift4: ${REFUSAL}`),
      pull(t, `Pull failed. Retrying ${IMAGE}...`),
    ]),
  ]);
}

const clusterOperators = (): string =>
  clusterOperatorsJson([
    {
      name: 'machine-config',
      conditions: [
        { type: 'Degraded', status: 'True', reason: 'RequiredPoolsFailed', message: MCO_MESSAGE },
        { type: 'Progressing', status: 'True', message: 'Working towards 4.16.3' },
      ],
    },
  ]);

// logrus writes msg as a Go-quoted string: every quote and backslash of the message escaped.
const installerLog = (): string =>
  journal([
    installerLine('10:40:01', 'info', 'Waiting up to 40m0s (until 11:20AM UTC) for the cluster at https://api.ocp4.example.com:6443 to initialize...'),
    installerLine('11:18:00', 'error', `Cluster operator authentication Degraded is True with OAuthServerRouteEndpointAccessibleController_SyncError: ${AUTH_DETAIL}`),
    installerLine('11:18:00', 'error', `Cluster operator machine-config Degraded is True with RequiredPoolsFailed: ${MCO_MESSAGE}`),
    installerLine('11:20:01', 'error', 'failed to initialize the cluster: Cluster operator machine-config is not available'),
  ]);

function run(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  expect(r.stderr).toBe('');
  return r.stdout;
}

interface Report {
  findings: { ruleId: string; message: string; captures?: Record<string, string>; evidence: { text: string; match?: { start: number; end: number }; facts?: { start: number; end: number }[] }[] }[];
}

let bundle: string;
beforeAll(async () => {
  const dir = tempDir();
  writeTree(dir, ROOT, {
    'bootstrap/journals/release-image.log': releaseImageJournal(),
    'resources/clusteroperators.json': clusterOperators(),
    '.openshift_install.log': installerLog(),
  });
  bundle = await packTar(dir, ROOT, join(dir, 'b.tar.gz'), true);
});

/** Text as a reader sees it across the rows it was wrapped into. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

describe('messages keep their fact in every format', () => {
  it('JSON: each finding names its whole fact, and its evidence marks it', () => {
    const report = JSON.parse(run(['analyze', bundle, '--format', 'json'])) as Report;
    const by = (id: string): Report['findings'][number] => {
      const f = report.findings.find((x) => x.ruleId === id);
      if (!f) throw new Error(`${id} did not fire: ${report.findings.map((x) => x.ruleId).join(', ')}`);
      return f;
    };
    const shown = (e: Report['findings'][number]['evidence'][number]): string[] => [e.match, ...(e.facts ?? [])].filter((s) => s !== undefined).map((s) => e.text.slice(s.start, s.end));

    // The whole Degraded message, escaped quotes and the file inside them included.
    const degraded = by('cluster-operator-conditions');
    expect(degraded.message).toBe(`machine-config: RequiredPoolsFailed: ${MCO_MESSAGE}`);
    expect(shown(degraded.evidence[0]).join(' ')).toContain(MCO_MESSAGE);

    const mismatch = by('mcd-on-disk-mismatch');
    expect(mismatch.captures).toMatchObject({ file: FILE, config: CONFIG });
    expect(mismatch.message).toContain(`content mismatch for file ${FILE}`);
    expect(shown(mismatch.evidence[0])).toEqual(expect.arrayContaining([FILE]));

    // The authentication operator's detail runs past the quotes around its URL, unescaped.
    expect(by('installer-co-degraded').captures).toMatchObject({ operator: 'authentication', detail: AUTH_DETAIL });

    // A refusal longer than a line of prose, whole, and its count after it.
    const refused = by('release-pull-unauthorized');
    expect(refused.message).toBe(`Pulling harbor.corp.example:8443/ocp4/openshift4 was refused: ${REFUSAL} (${ATTEMPTS} attempts)`);
    expect(shown(refused.evidence[0])).toEqual(expect.arrayContaining([REFUSAL]));
  });

  it('text: the messages and the cited lines keep the fact at 100 columns', () => {
    const out = run(['analyze', bundle, '--width', '100']);
    for (const row of out.split('\n')) expect(row.length, row).toBeLessThanOrEqual(100);
    const text = flat(out);
    expect(text).toContain(flat(`machine-config: RequiredPoolsFailed: ${MCO_MESSAGE}`));
    // The cited line of the Degraded condition, in rows, ends with the file and its quotes.
    expect(text).toContain(flat(`> machine-config Degraded=True RequiredPoolsFailed: ${MCO_MESSAGE}`));
    // The content mismatch's cited line keeps the file the rule names beside its match.
    expect(text).toContain(`> …unexpected on-disk state validating against ${CONFIG} …${FILE}…`);
    expect(text).toContain(flat(`${REFUSAL} (${ATTEMPTS} attempts)`));
    // No count glued to a value cut inside a word.
    expect(out).not.toMatch(/\w(?<!pull)\s\(\d+ attempts\)/);
    // The installer's cited line keeps its whole message: the file it names too.
    expect(text).toContain(flat(`mismatch for file \\\\\\"${FILE}\\\\\\"\\"`));
  });

  it('Markdown: the messages whole, the cited lines whole in their fences', () => {
    const md = run(['analyze', bundle, '--format', 'md']);
    // Markdown escapes the prose's brackets and backslashes; the fact reads the same.
    const prose = (s: string): string => s.replace(/([\\[\]])/g, '\\$1');
    expect(md).toContain(prose(`machine-config: RequiredPoolsFailed: ${MCO_MESSAGE}`));
    expect(md).toContain(`> machine-config Degraded=True RequiredPoolsFailed: ${MCO_MESSAGE}\n`);
    expect(md).toContain(`content mismatch for file ${FILE}`);
    expect(md).toContain(`${REFUSAL} (${ATTEMPTS} attempts)`);
  });
});
