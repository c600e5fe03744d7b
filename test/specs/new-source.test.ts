// A file of the bundle bootlens did not read before, added as one registry row and one parser:
// `resources/apiservices.json`, which installer-gather.sh writes with
// `oc get apiservices -o json`. A rule declares it by the row's name, reads what its parser
// made of it, and is skipped, naming it, in a bundle that lacks it.
import { describe, expect, it } from 'vitest';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { defineRule } from '../../src/rules/define-rule.js';
import { runRules } from '../../src/rules/engine.js';
import { resourcePath } from '../../src/rules/sources.js';
import { classifyPath } from '../../src/specs/layout.js';
import { buildTimeline } from '../../src/timeline/build-timeline.js';
import { ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

/** `oc get apiservices -o json` while the OLM package server has no endpoints (trimmed to two items). */
const APISERVICES = JSON.stringify(
  {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: 'v1.apps', creationTimestamp: '2026-11-22T10:22:40Z' },
        spec: { group: 'apps', groupPriorityMinimum: 17800, version: 'v1', versionPriority: 15 },
        status: { conditions: [{ lastTransitionTime: '2026-11-22T10:22:40Z', message: 'Local APIServices are always available', reason: 'Local', status: 'True', type: 'Available' }] },
      },
      {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: 'v1.packages.operators.coreos.com', creationTimestamp: '2026-11-22T10:31:02Z' },
        spec: { group: 'packages.operators.coreos.com', service: { name: 'packageserver-service', namespace: 'openshift-operator-lifecycle-manager', port: 5443 }, version: 'v1' },
        status: {
          conditions: [
            {
              lastTransitionTime: '2026-11-22T10:31:02Z',
              message: 'endpoints for service/packageserver-service in "openshift-operator-lifecycle-manager" have no addresses with port name "5443"',
              reason: 'MissingEndpoints',
              status: 'False',
              type: 'Available',
            },
          ],
        },
      },
    ],
  },
  null,
  2,
);

/** A rule that reads the new source: aggregated APIs the API server cannot reach. */
const apiServicesUnavailable = defineRule({
  meta: {
    id: 'apiservices-unavailable',
    title: 'Aggregated APIs are unavailable',
    stage: 'cluster-operators',
    category: 'operator-degraded',
    severity: 'warning',
    confidence: 'medium',
    description: 'An APIService is not Available: the API server cannot reach the service behind it.',
    fix: ['Read the service behind it: `oc get endpoints -n {namespace}`.'],
    references: ['https://kubernetes.io/docs/tasks/extend-kubernetes/configure-aggregation-layer/'],
  },
  inputs: [{ resource: 'apiservices' }],
  check(ctx) {
    return (ctx.bundle.cluster?.apiServices ?? []).flatMap((api) =>
      api.conditions
        .filter((c) => c.type === 'Available' && c.status === 'False')
        .map((c) =>
          ctx.finding({
            message: `${api.name} is unavailable: ${c.reason ?? ''}`,
            evidence: [{ file: api.source.file, text: c.message ?? '' }],
            captures: { namespace: (api.service ?? '').split('/')[0] },
          }),
        ),
    );
  },
});

async function run(files: Record<string, string>) {
  const bundle = await readBundle(writeTree(tempDir(), ROOT, files));
  return { bundle, ...runRules([apiServicesUnavailable], bundle, buildTimeline(bundle)) };
}

describe('a new file of the bundle: resources/apiservices.json', () => {
  it('is where the gather script writes it, and the layout reads it with its row', () => {
    expect(resourcePath('apiservices')).toBe('resources/apiservices.json');
    expect(classifyPath(`${ROOT}/resources/apiservices.json`)).toMatchObject({ spec: { kind: 'resource-json', name: 'apiservices' }, row: { id: 'resource.apiservices' } });
  });

  it('a rule that declares it reads what its parser made of it', async () => {
    const { bundle, findings, results } = await run({ 'resources/apiservices.json': APISERVICES });
    expect(bundle.cluster?.apiServices?.map((a) => [a.name, a.service])).toEqual([
      ['v1.apps', undefined],
      ['v1.packages.operators.coreos.com', 'openshift-operator-lifecycle-manager/packageserver-service'],
    ]);
    expect(bundle.cluster?.files).toEqual([expect.objectContaining({ name: 'apiservices', status: 'ok', items: 2 })]);
    expect(results[0]).toMatchObject({ status: 'fired', findings: 1 });
    expect(findings[0].message).toBe('v1.packages.operators.coreos.com is unavailable: MissingEndpoints');
    expect(findings[0].fix).toEqual(['Read the service behind it: `oc get endpoints -n openshift-operator-lifecycle-manager`.']);
  });

  it('a rule that declares it is skipped, naming it, in a bundle without it', async () => {
    const { results } = await run({ 'resources/nodes.json': '{"apiVersion":"v1","kind":"List","items":[]}\n' });
    expect(results[0]).toMatchObject({ status: 'skipped', missing: ['resources apiservices'] });
  });

  it("an API that never answered leaves the file's state, not a list", async () => {
    const { bundle, results } = await run({ 'resources/apiservices.json': 'The connection to the server api-int.ocp4.example.com:6443 was refused\n' });
    expect(bundle.cluster?.files).toEqual([expect.objectContaining({ name: 'apiservices', status: 'error' })]);
    expect(results[0]).toMatchObject({ status: 'skipped', missing: ['resources apiservices'] });
  });
});
