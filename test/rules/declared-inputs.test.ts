// TypeScript rules declare the sources they read; the engine skips a rule whose inputs are all
// missing and names them with the same labels YAML rules get (describeSource), never a rule's
// own words.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { runRules } from '../../src/rules/engine.js';
import { BUILTIN_RULES } from '../../src/rules/registry.js';
import { describeSource, inputPresent, missingInputs, resourcePath, type RuleInput } from '../../src/rules/sources.js';
import { buildTimeline } from '../../src/timeline/build-timeline.js';
import { classifyPath } from '../../src/specs/layout.js';
import { ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

async function bundleOf(files: Record<string, string>) {
  return readBundle(writeTree(tempDir(), ROOT, files));
}

describe('declared inputs', () => {
  it('every TypeScript rule declares them; in a bundle without any, each is skipped naming exactly its declaration', async () => {
    const bundle = await bundleOf({ 'bootstrap/network/hostname.txt': 'bootstrap.ocp4.example.com\n' });
    const { results } = runRules(BUILTIN_RULES, bundle, buildTimeline(bundle));
    for (const rule of BUILTIN_RULES) {
      const result = results.find((r) => r.ruleId === rule.meta.id);
      const declared = [...rule.inputs.anyOf, ...(rule.inputs.allOf ?? [])].map(describeSource);
      if (rule.inputs.anyOf.length === 0) expect(result?.status, rule.meta.id).not.toBe('skipped');
      else expect(result, rule.meta.id).toMatchObject({ status: 'skipped', missing: declared });
    }
    // last-error reads whatever there is and is never skipped.
    expect(BUILTIN_RULES.filter((r) => r.inputs.anyOf.length === 0).map((r) => r.meta.id)).toEqual(['last-error']);
  });

  it('labels read as a reader of the bundle names its files', () => {
    const labels = (inputs: RuleInput[]): string[] => inputs.map(describeSource);
    expect(labels([{ service: 'bootkube', host: 'bootstrap' }, { resource: 'csrs' }, { journal: '*', host: 'master' }, { log: 'installer' }])).toEqual([
      'bootstrap service record bootkube',
      'resources csr',
      'master journals',
      'installer log',
    ]);
    expect(labels([{ inspect: '*' }, { etcd: 'member-list' }, { etcd: 'endpoint-health', host: 'master' }, { rendered: 'certificates' }, { container: 'etcd*', host: 'master' }])).toEqual([
      'crictl or podman inspect output',
      'etcdctl member list',
      'master etcdctl endpoint health',
      'rendered-assets certificates',
      'master container etcd*',
    ]);
  });

  it('one present input is enough; a required one is needed besides', async () => {
    const bundle = await bundleOf({ 'bootstrap/journals/release-image.log': 'Nov 22 10:13:50 b release-image-download.sh[1980]: Pulling quay.io/openshift-release-dev/ocp-release@sha256:1111...\n' });
    const bootstrapSide: RuleInput[] = [{ journal: '*', host: 'bootstrap' }, { log: 'installer' }];
    expect(missingInputs(bundle, { anyOf: bootstrapSide })).toBeUndefined();
    expect(missingInputs(bundle, { anyOf: bootstrapSide, allOf: [{ journal: '*', host: 'master' }] })).toEqual(['master journals']);
    const { results } = runRules(BUILTIN_RULES.filter((r) => r.meta.id === 'release-digest-mismatch'), bundle, buildTimeline(bundle));
    expect(results[0]).toMatchObject({ status: 'skipped', missing: ['master journals'] });
  });

  it('structured inputs are present when the reader parsed them', async () => {
    const bundle = await bundleOf({
      'resources/machines.json': '{"apiVersion":"v1","kind":"List","items":[]}\n',
      'control-plane/10.0.0.5/etcd-endpoint-health.txt': 'https://10.0.0.5:2379 is healthy: successfully committed proposal: took = 9.81ms\n',
    });
    expect(inputPresent(bundle, { resource: 'machines' })).toBe(true);
    expect(inputPresent(bundle, { resource: 'machineconfigpools' })).toBe(false);
    expect(inputPresent(bundle, { etcd: 'endpoint-health', host: 'master' })).toBe(true);
    expect(inputPresent(bundle, { etcd: 'endpoint-health', host: 'bootstrap' })).toBe(false);
    expect(inputPresent(bundle, { etcd: 'member-list' })).toBe(false);
  });

  it('resource files are where the layout reads them', () => {
    for (const name of ['events', 'clusteroperators', 'nodes', 'pods', 'csrs', 'machineconfigpools', 'machines', 'clusterversion'] as const) {
      expect(classifyPath(join(ROOT, resourcePath(name))).spec, name).toMatchObject({ kind: 'resource-json' });
    }
  });
});
