import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAndAnalyze } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { createMiner } from '../../src/similarity/drain.js';
import { loadKnowledgeBase } from '../../src/similarity/knowledge-base.js';
import { findSimilar } from '../../src/similarity/match.js';
import { packageRoot } from '../../src/util/package-root.js';

const SAMPLES = join(packageRoot(), 'samples');

/** Sample scenario → the known issue similarity must find in its logs. */
const EXPECTED: [string, string][] = [
  ['release-pull-secret-rejected', 'release-pull-secret-unauthorized'],
  ['release-mirror-x509', 'release-mirror-untrusted-ca'],
  ['damaged-truncated-proxy', 'release-pull-proxy-refused'],
  ['okd-crio-opt-cni', 'crio-opt-cni-dangling-symlink'],
  ['bootstrap-disk-full', 'bootstrap-disk-full'],
  ['mirror-missing-etcd-operator', 'render-operator-image-pull-failed'],
  ['legacy-etcd-slow-disk', 'etcd-slow-disk-fdatasync'],
  ['bootstrap-clock-behind', 'host-clock-behind-not-yet-valid'],
  ['api-int-dns-missing', 'masters-ignition-api-int-dns'],
  ['mcs-port-22623-blocked', 'masters-ignition-mcs-unreachable'],
  ['wait-for-ceo-timeout', 'etcd-peer-port-blocked'],
  ['cvo-overrides-api-lb', 'cvo-overrides-api-unreachable'],
];

function bundleOf(scenario: string): string {
  const dir = join(SAMPLES, scenario);
  const name = readdirSync(dir).find((f) => /^log-bundle-.*\.tar\.gz$/.test(f));
  if (!name) throw new Error(`no bundle in ${dir}`);
  return join(dir, name);
}

describe('similarity on the sample bundles', () => {
  const kb = loadKnowledgeBase();
  const { rules } = loadRules();

  it.each(EXPECTED)('%s: finds %s with the rule covering it removed', async (scenario, id) => {
    const entry = kb.find((e) => e.id === id);
    expect(entry, id).toBeDefined();
    const without = rules.filter((r) => r.meta.id !== entry?.rule);
    const miner = createMiner();
    const { result } = await readAndAnalyze(bundleOf(scenario), { rules: without, version: 'test', observeLines: miner.observer });
    if (entry?.rule) expect(result.rules.fired).not.toContain(entry.rule);
    const similar = await findSimilar(miner.candidates(), kb, { mode: 'lexical' });
    expect(similar[0]?.id, JSON.stringify(similar.map((s) => [s.id, s.score]))).toBe(id);
    expect(similar[0].matchedLines.length).toBeGreaterThan(0);
  });

  it('finds no known issue in the healthy sample', async () => {
    const miner = createMiner();
    await readAndAnalyze(bundleOf('healthy-vsphere-416'), { rules, version: 'test', observeLines: miner.observer });
    expect(await findSimilar(miner.candidates(), kb, { mode: 'lexical' })).toEqual([]);
  });
});
