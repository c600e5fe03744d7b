// The cause, not the noise (issue 26): complete bundles in the real installer-gather.sh layout,
// several hosts, with the noise every real install prints (see test/support/noisy-bundle.ts), each
// holding one failure. The verdict names the failure's cause; healed errors and everyday chatter
// never outrank it; a failed install is never called healthy. Console captures given alone or
// beside the bundle (point 9) are covered by test/ingest/loose-text.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeBundle, type AnalysisResult } from '../../src/analysis/analyze.js';
import { SEVERITY_ORDER } from '../../src/result/order.js';
import { rootFinding } from '../../src/result/root-finding.js';
import type { Finding } from '../../src/result/types.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { packTar, tempDir, writeTree } from '../support/fixture-bundle.js';
import * as N from '../support/noisy-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const H = N.BOOTSTRAP;

let rules: ReturnType<typeof loadRules>['rules'];
beforeAll(() => {
  rules = loadRules().rules;
});

/**
 * The bundle packed as the installer writes it (tar.gz); with an installer log, both in a case
 * folder as a CI job's artifacts hold them. Returns what to give bootlens.
 */
async function lay(files: Record<string, string>, installerLog?: string): Promise<string> {
  const src = tempDir();
  writeTree(src, N.NOISY_ROOT, files);
  const folder = join(tempDir('bootlens-case-'), 'artifacts');
  mkdirSync(folder);
  const bundle = await packTar(src, N.NOISY_ROOT, join(folder, `${N.NOISY_ROOT}.tar.gz`), true);
  if (installerLog === undefined) return bundle;
  writeFileSync(join(folder, '.openshift_install.log'), installerLog);
  return folder;
}

async function analyze(files: Record<string, string>, installerLog?: string): Promise<AnalysisResult> {
  return analyzeBundle(await lay(files, installerLog), { rules, version: 'test', similarity: { mode: 'lexical' } });
}

/** Text of every evidence line of a finding. */
const cited = (f: Finding | undefined): string => (f?.evidence ?? []).map((e) => e.text).join('\n');

/** A finding is noise when it healed or every line it cites is one every install prints. */
const isNoise = (f: Finding): boolean => f.recovered !== undefined || (f.evidence.length > 0 && f.evidence.every((e) => e.benign === true));

/** No noise finding is the cause, none is ranked at or above it, and the summary does not quote it. */
function expectNoiseBelow(r: AnalysisResult): void {
  const root = rootFinding(r);
  expect(root, 'a root cause').toBeDefined();
  expect(isNoise(root as Finding)).toBe(false);
  for (const f of r.findings.filter(isNoise)) {
    expect(SEVERITY_ORDER[f.severity], `${f.ruleId} ranks below ${root?.ruleId}`).toBeGreaterThan(SEVERITY_ORDER[(root as Finding).severity]);
  }
  for (const chatter of ['should wipe containers', 'No CNI configuration file', 'Still waiting for the Kubernetes API', 'etcdctl failed']) expect(r.verdict.summary).not.toContain(chatter);
}

const failedUnits = (unit: string): string =>
  N.journal(['  UNIT              LOAD   ACTIVE SUB    DESCRIPTION', `* ${unit}.service  loaded failed failed Bootstrap a Kubernetes cluster`, '', '1 loaded units listed.']);

const bootkubeFailed = (time: string): string[] => [
  N.entry(time, H, 'systemd[1]', 'bootkube.service: Main process exited, code=exited, status=1/FAILURE'),
  N.entry(time, H, 'systemd[1]', "bootkube.service: Failed with result 'exit-code'."),
];

describe('noise is never the cause', () => {
  it('beside the chatter, a render failure only the generic reading names is the cause, from the unit that failed', async () => {
    const files = N.noisyBundleFiles();
    const until = N.bootkubeUntilClusterBootstrap();
    const error = 'F1122 10:15:22.101010       1 render.go:86] error rendering bootstrap manifests: error parsing template: template: 01-master-kubelet.yaml:12: function "indent" not defined';
    files['bootstrap/journals/bootkube.log'] = N.journal([
      ...until.slice(0, until.findIndex((l) => l.includes('Starting etcd'))),
      N.entry('10:15:22', H, 'bootkube.sh[3120]', error),
      ...bootkubeFailed('10:15:23').map((l) => l.replace('status=1/FAILURE', 'status=255/EXCEPTION')),
    ]);
    files['bootstrap/services/bootkube.json'] = N.serviceRecord([['cvo-bootstrap', '10:15:01', '10:15:03', 'success'], ['mco-bootstrap', '10:15:19', '10:15:23', 'failure']], ['10:14:58', '10:15:23', 'failure'], {
      line: '314 main /usr/local/bin/bootkube.sh',
      message: error,
    });
    files['failed-units.txt'] = failedUnits('bootkube');
    // Rendering failed: the masters never got their ignition and the API never answered.
    for (const k of Object.keys(files)) if (k.startsWith('control-plane/') || k.startsWith('resources/')) delete files[k];
    const r = await analyze(files);
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'render' });
    // The release pull that timed out once, then succeeded, resembles a known pull failure; it
    // names no cause of a render failure (its stage is complete, its line healed).
    expect(r.verdict.category).toBe('unknown');
    expect(r.verdict.knownIssue).toBeUndefined();
    expect(r.stages.find((s) => s.id === 'node-runtime')?.status).toBe('ok');
    expect(cited(rootFinding(r))).toContain('function "indent" not defined');
    expectNoiseBelow(r);
    // The bootstrap's CRI-O and kubelet ran on: nothing they said is a finding above info.
    for (const f of r.findings) {
      if (f.evidence.some((e) => /bootstrap\/journals\/(crio|kubelet)\.log$/.test(e.file))) expect(f.severity, f.ruleId).toBe('info');
    }
  });
});

describe("a mirror's refusal ending in `no such host`", () => {
  it('is registry-auth: the mirror said unauthorized, the source after it was never meant to resolve', async () => {
    const files = N.noisyBundleFiles();
    const err = `Error: initializing source docker://${N.RELEASE}: (Mirrors also failed: [${N.MIRROR}@sha256:9a4b4c0a1d3c4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7: reading manifest sha256:9a4b4c0a1d3c4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7 in ${N.MIRROR}: unauthorized: authentication required]): ${N.RELEASE}: pinging container registry quay.io: Get "https://quay.io/v2/": dial tcp: lookup quay.io on 10.0.0.1:53: no such host`;
    files['bootstrap/journals/release-image.log'] = N.journal([
      N.entry('10:13:50', H, 'systemd[1]', 'Starting Download the OpenShift Release Image...'),
      N.entry('10:13:50', H, 'release-image-download.sh[1980]', `Pulling ${N.RELEASE}...`),
      ...N.times('10:14:00', 10, 120).flatMap((t, i) => [N.entry(t, H, `release-image-download.sh[${2000 + i}]`, err), N.entry(t, H, 'release-image-download.sh[1980]', `Pull failed. Retrying ${N.RELEASE}...`)]),
    ]);
    files['bootstrap/services/release-image.json'] = N.serviceRecord([['pull-release-image', '10:13:50', undefined, undefined]], ['10:13:50', undefined, undefined]);
    // bootkube waits for the release image; the masters never got past ignition; no API.
    files['bootstrap/journals/bootkube.log'] = '-- No entries --\n';
    for (const k of Object.keys(files)) if (k.startsWith('control-plane/') || k.startsWith('resources/') || k === 'bootstrap/services/bootkube.json') delete files[k];
    const r = await analyze(files);
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'release-image', category: 'registry-auth', rootCause: 'release-pull-unauthorized' });
    expect(cited(rootFinding(r))).toContain(N.MIRROR);
    expect(r.findings.filter((f) => f.category === 'dns').every((f) => SEVERITY_ORDER[f.severity] > SEVERITY_ORDER[rootFinding(r)?.severity ?? 'info'])).toBe(true);
    expectNoiseBelow(r);
  });
});

describe('an old release without service records beside a fatal installer log', () => {
  /** 4.6 and before: no bootstrap/services/; cluster-bootstrap tears down after giving up. */
  function oldRelease(opts: { podError: boolean; unitFailed: boolean }): Record<string, string> {
    const files = N.noisyBundleFiles();
    for (const k of Object.keys(files)) if (k.startsWith('bootstrap/services/')) delete files[k];
    files['bootstrap/journals/bootkube.log'] = N.journal([
      ...N.bootkubeUntilClusterBootstrap(),
      ...N.podStatus('10:25:00', () => 'DoesNotExist'),
      ...N.podStatus('10:35:00', (p) => (p.endsWith('kube-apiserver') ? 'Pending' : 'Ready')),
      ...(opts.podError ? [N.entry('10:37:03', H, 'bootkube.sh[2741]', 'Error: error while checking pod status: timed out waiting for the condition')] : []),
      N.entry('10:37:03', H, 'bootkube.sh[2741]', 'Tearing down temporary bootstrap control plane...'),
      ...(opts.unitFailed ? bootkubeFailed('10:37:04') : []),
    ]);
    if (opts.unitFailed) files['failed-units.txt'] = failedUnits('bootkube');
    // The operators exist but none has reported anything yet.
    files['resources/clusteroperators.json'] = N.clusterOperatorsJson(N.OPERATORS.map((name) => ({ name })));
    return files;
  }

  it.each([
    ['the pods timed out, then the tear-down, the unit failed', { podError: true, unitFailed: true }],
    ['no pod-status error kept, the unit failed after the tear-down', { podError: false, unitFailed: true }],
    ['the journal ends at the tear-down', { podError: false, unitFailed: false }],
  ])('%s: failed, never healthy', async (_name, opts) => {
    const r = await analyze(oldRelease(opts), N.installerLogBootstrapFailed());
    expect(r.verdict.status).toBe('failed');
    expect(r.verdict.stage).not.toBeNull();
    // The masters' kubelets lacked a pod network until NodeReady, 40 s later: healed, no cause.
    expect(cited(rootFinding(r))).not.toContain('No CNI configuration file');
    expect(r.verdict.category).not.toBe('network-plugin');
    expect(r.stages.find((s) => s.id === 'production-control-plane')?.status).not.toBe('ok');
  });

  it('the CLI exits 1 on it', async () => {
    const input = await lay(oldRelease({ podError: false, unitFailed: false }), N.installerLogBootstrapFailed());
    const run = spawnSync(process.execPath, [CLI, 'analyze', input, '--format', 'json'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect((JSON.parse(run.stdout) as AnalysisResult).verdict.status).toBe('failed');
  });
});

describe('a healthy noisy install', () => {
  it('is healthy, exit 0, with no critical or error finding, and its healed errors marked recovered', async () => {
    const input = await lay(N.noisyBundleFiles(), N.installerLogComplete());
    const r = await analyzeBundle(input, { rules, version: 'test', similarity: { mode: 'lexical' } });
    expect(r.verdict).toMatchObject({ status: 'healthy', stage: null, rootCause: null });
    expect(r.findings.filter((f) => f.severity === 'critical' || f.severity === 'error').map((f) => f.ruleId)).toEqual([]);
    // The pull retried once and the API wait: found, and healed by the lines after them.
    const pull = r.findings.find((f) => f.stage === 'release-image');
    expect(pull?.recovered?.text).toMatch(/Finished Download the OpenShift Release Image|release-image service ended: success/);
    for (const f of r.findings) expect(isNoise(f), f.ruleId).toBe(true);
    // A healed finding never states the opposite of its own evidence: it says how often it failed
    // and what ended it, not "up to the end of the journal", "never" or "still".
    const healed = r.findings.filter((f) => f.recovered !== undefined);
    expect(healed.length).toBeGreaterThan(0);
    for (const f of healed) {
      expect(f.message, f.ruleId).toMatch(/^Recovered: \d+ failed attempts?, then /);
      expect(f.message, f.ruleId).not.toMatch(/up to the end|until the end|\bnever\b|\bstill\b/);
    }
    const run = spawnSync(process.execPath, [CLI, 'analyze', input], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('"N rules checked and passed" counts only rules that did not fire, and says how many fired', async () => {
    const r = await analyze(N.noisyBundleFiles());
    const { passed, fired, skipped, errors, total } = r.rules;
    expect(fired.length).toBeGreaterThan(0);
    expect(passed.filter((id) => fired.includes(id))).toEqual([]);
    expect(passed.length + fired.length + skipped.length + errors.length).toBe(total);
    expect(r.verdict.summary).toContain(`${passed.length} rules checked and passed; ${fired.length} fired on errors that recovered or that every install prints`);
  });
});

describe("a cause on a master inside the bootstrap host's wait", () => {
  it("the masters' etcd failing to reach the bootstrap member on 2380 while cluster-bootstrap waits is the cause", async () => {
    const files = N.noisyBundleFiles();
    // cluster-bootstrap prints the pods' status as soon as it starts waiting, before the masters joined.
    files['bootstrap/journals/bootkube.log'] = N.journal([
      ...N.bootkubeUntilClusterBootstrap(),
      ...N.podStatus('10:17:30', () => 'DoesNotExist'),
      ...N.podStatus('10:35:00', (p) => (p.endsWith('kube-apiserver') ? 'Pending' : 'Ready')),
      N.entry('10:37:03', H, 'bootkube.sh[2741]', 'Error: error while checking pod status: timed out waiting for the condition'),
      N.entry('10:37:03', H, 'bootkube.sh[2741]', 'Tearing down temporary bootstrap control plane...'),
      ...bootkubeFailed('10:37:04'),
    ]);
    files['bootstrap/services/bootkube.json'] = N.serviceRecord([['wait-for-etcd', '10:15:30', '10:15:41', 'success'], ['cb-bootstrap', '10:15:42', '10:37:04', 'failure']], ['10:14:58', '10:37:04', 'failure'], {
      line: '583 main /usr/local/bin/bootkube.sh',
      message: 'Error: error while checking pod status: timed out waiting for the condition',
    });
    files['failed-units.txt'] = failedUnits('bootkube');
    files['resources/clusteroperators.json'] = N.clusterOperatorsJson(N.OPERATORS.map((name) => ({ name })));
    N.MASTER_IPS.forEach((ip, i) => {
      const log = Object.keys(files).find((k) => k.startsWith(`control-plane/${ip}/containers/etcd-`) && k.endsWith('.log')) as string;
      // The masters joined at 10:21; their probes start then, inside the wait, and go on to its time-out.
      files[log] = N.journal([
        N.masterEtcdHealthy(i).split('\n')[0],
        ...N.times('10:21:13', 60, 16).map(
          (t) => `{"level":"warn","ts":"2026-11-22T${t}.288010Z","caller":"rafthttp/probing_status.go:68","msg":"prober detected unhealthy status","round-tripper-name":"ROUND_TRIPPER_RAFT_MESSAGE","remote-peer-id":"8e9e05c52164694d","rtt":"0s","error":"dial tcp ${N.BOOTSTRAP_IP}:2380: i/o timeout"}`,
        ),
      ]);
    });
    const r = await analyze(files);
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'production-control-plane', category: 'network-connectivity', rootCause: 'etcd-peer-unreachable' });
    const cause = rootFinding(r) as Finding;
    const wait = r.stages.find((s) => s.id === 'production-control-plane');
    // Inside the wait: its first line after the wait's first line, before the wait gave up.
    const symptom = r.findings.find((f) => f.ruleId === 'cb-required-pods-timeout') as Finding;
    expect(cause.firstTime).toBeGreaterThan(symptom.firstTime ?? Infinity);
    expect(cause.firstTime).toBeGreaterThan(wait?.start ?? Infinity);
    expect(cause.firstTime).toBeLessThan(wait?.end ?? 0);
    expect(cause.hosts).toEqual(expect.arrayContaining(N.MASTER_IPS));
    expect(cited(cause)).toContain(`${N.BOOTSTRAP_IP}:2380`);
    expectNoiseBelow(r);
  });
});

describe('a long Degraded message with escaped quotes', () => {
  const route = 'oauth-openshift.apps.ocp4.example.com';
  // Three controllers' messages, quotes inside: the fact (the name that does not resolve) comes last.
  const degraded = [
    'OAuthServerConfigObservationDegraded: failed to apply IDP htpasswd config: configmaps "v4-0-config-user-idp-0-file-data" not found',
    'OAuthServerDeploymentDegraded: Unable to get "v4-0-config-system-router-certs" secret from the openshift-authentication namespace: secrets "v4-0-config-system-router-certs" not found',
    `OAuthServerRouteEndpointAccessibleControllerDegraded: Get "https://${route}/healthz": dial tcp: lookup ${route} on 172.30.0.10:53: no such host`,
  ].join('\n');
  const reason = 'OAuthServerConfigObservation_Error::OAuthServerDeployment_UnableToGetSecret::OAuthServerRouteEndpointAccessibleController_SyncError';
  const unavailable = `OAuthServerRouteEndpointAccessibleControllerAvailable: Get "https://${route}/healthz": dial tcp: lookup ${route} on 172.30.0.10:53: no such host`;
  const inst = N.installerLine;
  // The installer writes the condition in logfmt: every quote of the message escaped.
  const installerLog =
    N.installerLogComplete() +
    N.journal([
      inst('10:45:20', 'info', 'Destroying the bootstrap resources...'),
      inst('10:46:00', 'info', 'Waiting up to 40m0s (until 11:26AM UTC) for the cluster at https://api.ocp4.example.com:6443 to initialize...'),
      inst('11:26:00', 'error', `Cluster operator authentication Degraded is True with ${reason}: ${degraded}`),
      inst('11:26:00', 'error', `Cluster operator authentication Available is False with OAuthServerRouteEndpointAccessibleController_EndpointUnavailable: ${unavailable}`),
      inst('11:26:00', 'fatal', 'failed to initialize the cluster: Cluster operator authentication is not available'),
    ]);

  it.each([
    ['in clusteroperators.json and the installer log', true],
    ['in the installer log only', false],
  ])('%s: the operators failed because *.apps does not resolve', async (_name, withResource) => {
    const files = N.noisyBundleFiles();
    if (withResource) {
      files['resources/clusteroperators.json'] = N.clusterOperatorsJson(
        N.OPERATORS.map((name) =>
          name === 'authentication'
            ? { name, conditions: [{ type: 'Degraded', status: 'True', reason, message: degraded }, { type: 'Available', status: 'False', reason: 'OAuthServerRouteEndpointAccessibleController_EndpointUnavailable', message: unavailable }, { type: 'Progressing', status: 'False', reason: 'AsExpected' }] }
            : N.AVAILABLE(name),
        ),
      );
    } else {
      delete files['resources/clusteroperators.json'];
    }
    const r = await analyze(files, installerLog);
    expect(r.verdict).toMatchObject({ status: 'failed', stage: 'cluster-operators', category: 'dns' });
    expectNoiseBelow(r);
  });
});
