import { describe, expect, it } from 'vitest';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { buildTimeline, TIMELINE_FILTERS } from '../../src/timeline/build-timeline.js';
import type { StageStatus } from '../../src/timeline/types.js';
import { ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

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
