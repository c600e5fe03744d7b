import { describe, expect, it } from 'vitest';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { buildTimeline, TIMELINE_FILTERS } from '../../src/timeline/build-timeline.js';
import type { StageStatus } from '../../src/timeline/types.js';
import { ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';
import * as N from '../support/noisy-bundle.js';

const H = 'bootstrap.ocp4.example.com';

async function statuses(files: Record<string, string>): Promise<Record<string, StageStatus>> {
  const bundle = await readBundle(writeTree(tempDir(), ROOT, files), { filters: TIMELINE_FILTERS });
  return Object.fromEntries(buildTimeline(bundle).stages.map((s) => [s.id, s.status]));
}

describe('buildTimeline', () => {
  it('gives no duration, never a negative one, to a stage whose records end before they start', async () => {
    const bundle = await readBundle(
      writeTree(tempDir(), ROOT, {
        'bootstrap/services/bootkube.json': JSON.stringify([
          { timestamp: '2024-07-16T08:03:49Z', phase: 'service start' },
          { timestamp: '2024-07-16T08:27:03Z', stage: 'cvo-overrides', phase: 'stage start' },
          { timestamp: '2024-07-16T08:26:00Z', stage: 'cvo-overrides', phase: 'stage end', result: 'success' },
          { timestamp: '2024-07-16T08:36:00Z', phase: 'service end', result: 'success' },
        ]),
      }),
      { filters: TIMELINE_FILTERS },
    );
    const done = buildTimeline(bundle).stages.find((s) => s.id === 'bootstrap-complete');
    expect(done?.status).toBe('ok');
    expect(done?.start).toBeUndefined();
    expect(done?.end).toBe(Date.parse('2024-07-16T08:26:00Z'));
  });

  it('reads an older release without service records from bootkube journal markers', async () => {
    const noise = Array.from({ length: 500 }, (_, i) => `Nov 22 10:${String(20 + Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} ${H} bootkube.sh[2507]: Pod Status:openshift-kube-apiserver/kube-apiserver        Pending`);
    const s = await statuses({
      'bootstrap/journals/bootkube.log': [
        `Nov 22 10:14:58 ${H} systemd[1]: Started Bootstrap a Kubernetes cluster.`,
        `Nov 22 10:15:02 ${H} bootkube.sh[2507]: Rendering cluster config manifests...`,
        `Nov 22 10:15:04 ${H} bootkube.sh[2507]: Waiting for etcd cluster...`,
        `Nov 22 10:16:30 ${H} bootkube.sh[2507]: Starting cluster-bootstrap...`,
        `Nov 22 10:17:10 ${H} bootkube.sh[2507]: API is up`,
        ...noise,
        `Nov 22 11:17:10 ${H} bootkube.sh[2507]: Error: error while checking pod status: timed out waiting for the condition`,
        `Nov 22 11:17:11 ${H} systemd[1]: bootkube.service: Main process exited, code=exited, status=1/FAILURE`,
      ].join('\n'),
    });
    expect(s).toEqual({
      'release-image': 'ok',
      'node-runtime': 'ok',
      render: 'ok',
      'bootstrap-etcd': 'ok',
      'bootstrap-control-plane': 'ok',
      // cb-bootstrap waits for the masters: its failure says nothing of their provisioning.
      'masters-provision': 'unknown',
      'production-control-plane': 'failed',
      'etcd-scaling': 'not-reached',
      'bootstrap-complete': 'not-reached',
      workers: 'not-reached',
      'cluster-operators': 'not-reached',
    });
  });

  it('uses the last run of a restarted service', async () => {
    const s = await statuses({
      'bootstrap/services/release-image.json': [
        '[',
        '{"timestamp":"2026-11-22T10:00:00Z","phase":"service start"},',
        '{"timestamp":"2026-11-22T10:01:00Z","phase":"service end","result":"failure","errorMessage":"Error: unauthorized"},',
        '{"timestamp":"2026-11-22T10:02:00Z","phase":"service start"},',
        '{"timestamp":"2026-11-22T10:03:00Z","phase":"service end","result":"success"}',
        ']',
      ].join('\n'),
    });
    expect(s['release-image']).toBe('ok');
    expect(s.render).toBe('unknown');
  });

  it('leaves stages unknown without evidence, never ok', async () => {
    const s = await statuses({ 'gather.log': 'Gathering bootstrap systemd summary ...\n' });
    expect(Object.values(s).every((v) => v === 'unknown')).toBe(true);
  });

  it('takes wait-for-ceo for etcd-scaling and a successful end for bootstrap-complete', async () => {
    const rec = (stage: string, result: string): string =>
      `{"timestamp":"2026-11-22T10:10:00Z","phase":"stage start","stage":"${stage}"},\n{"timestamp":"2026-11-22T10:20:00Z","phase":"stage end","stage":"${stage}","result":"${result}"},`;
    const failing = await statuses({
      'bootstrap/services/bootkube.json': `[\n{"timestamp":"2026-11-22T10:00:00Z","phase":"service start"},\n${rec('cvo-bootstrap', 'success')}\n${rec('wait-for-etcd', 'success')}\n${rec('cb-bootstrap', 'success')}\n${rec('wait-for-ceo', 'failure')}\n{"timestamp":"2026-11-22T11:00:00Z","phase":"service end","result":"failure"}\n]\n`,
    });
    expect(failing['etcd-scaling']).toBe('failed');
    expect(failing['production-control-plane']).toBe('ok');
    expect(failing['bootstrap-complete']).toBe('not-reached');
  });
});

describe('a stage row claims only what its evidence shows', () => {
  async function rows(files: Record<string, string>) {
    const bundle = await readBundle(writeTree(tempDir(), N.NOISY_ROOT, files), { filters: TIMELINE_FILTERS });
    return Object.fromEntries(buildTimeline(bundle).stages.map((s) => [s.id, s]));
  }
  const evidence = (s: { evidence: { text: string }[] } | undefined): string => s?.evidence.map((e) => e.text).join('\n') ?? '';

  it('cluster operators that report no conditions are not Available', async () => {
    const files = N.noisyBundleFiles();
    files['resources/clusteroperators.json'] = N.clusterOperatorsJson(N.OPERATORS.map((name) => ({ name })));
    const none = (await rows(files))['cluster-operators'];
    expect(none.status).toBe('unknown');
    expect(evidence(none)).toBe(`${N.OPERATORS.length} cluster operators, none reports conditions`);
    files['resources/clusteroperators.json'] = N.clusterOperatorsJson(N.OPERATORS.map((name, i) => (i < 4 ? N.AVAILABLE(name) : { name })));
    const some = (await rows(files))['cluster-operators'];
    expect(some.status).toBe('in-progress');
    expect(evidence(some)).toBe(`4 of ${N.OPERATORS.length} cluster operators Available and not Degraded; ${N.OPERATORS.length - 4} report no conditions`);
    expect(evidence((await rows(N.noisyBundleFiles()))['cluster-operators'])).toBe(`all ${N.OPERATORS.length} cluster operators Available and not Degraded`);
  });

  it('the masters expected are the install config\'s controlPlane.replicas, and are not claimed without it', async () => {
    const files = N.noisyBundleFiles();
    files['resources/nodes.json'] = N.nodesJson([true]);
    const one = (await rows(files))['masters-provision'];
    expect(evidence(one)).toBe('1 master node(s) registered, 1 Ready, of 3 in the install config');
    expect(one.status).toBe('in-progress');
    // The rendered config without replicas, or none at all: no count is said to be expected.
    for (const config of [N.clusterConfigYaml(undefined), undefined]) {
      if (config === undefined) delete files['rendered-assets/openshift/manifests/cluster-config.yaml'];
      else files['rendered-assets/openshift/manifests/cluster-config.yaml'] = config;
      for (const k of Object.keys(files)) if (k.startsWith('control-plane/')) delete files[k];
      delete files['resources/masters.list'];
      const s = (await rows(files))['masters-provision'];
      expect(evidence(s)).toBe('1 master node(s) registered, 1 Ready; the install config, which says how many to expect, is not in the bundle');
      expect(evidence(s)).not.toMatch(/of \d+ (expected|in the install config)/);
    }
  });

  it('an earlier stage left unknown beside a later failure says why', async () => {
    const files = N.noisyBundleFiles();
    for (const k of Object.keys(files)) if (k.startsWith('bootstrap/services/') || k.startsWith('resources/') || k.startsWith('control-plane/')) delete files[k];
    files['bootstrap/journals/bootkube.log'] = N.journal([
      ...N.bootkubeUntilClusterBootstrap(),
      ...N.podStatus('10:25:00', () => 'DoesNotExist'),
      N.entry('10:37:03', N.BOOTSTRAP, 'bootkube.sh[2741]', 'Error: error while checking pod status: timed out waiting for the condition'),
    ]);
    const s = await rows(files);
    expect(s['production-control-plane'].status).toBe('failed');
    // Every stage before it is decided, implied, or says why it is not.
    for (const id of ['release-image', 'node-runtime', 'render', 'bootstrap-etcd', 'bootstrap-control-plane'] as const) expect(s[id].status, id).toBe('ok');
    expect(s['masters-provision'].status).toBe('unknown');
    expect(s['masters-provision'].decidedBy).toBe('no evidence of its own; production-control-plane failed does not imply it (the masters boot beside cluster-bootstrap, which only waits for them)');
    // Stages after the failure are not reached, and say nothing more.
    expect(s['etcd-scaling']).toMatchObject({ status: 'not-reached' });
    expect(s['etcd-scaling'].decidedBy).toBeUndefined();
  });
});
