import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAndAnalyze } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { createMiner } from '../../src/similarity/drain.js';
import { loadKnowledgeBase } from '../../src/similarity/knowledge-base.js';
import { findSimilar } from '../../src/similarity/match.js';
import { packageRoot } from '../../src/util/package-root.js';
import { LAST_ERROR_ID } from '../../src/rules/builtin/last-error.js';

const SAMPLES = join(packageRoot(), 'samples');

/** Sample scenario → the known issue similarity must find in its logs. */
const EXPECTED: [string, string][] = [
  ['release-pull-secret-rejected', 'release-pull-unauthorized'],
  ['release-mirror-x509', 'release-pull-untrusted-registry-cert'],
  ['damaged-truncated-proxy', 'release-pull-proxy-error'],
  ['okd-crio-opt-cni', 'crio-fatal-startup'],
  ['bootstrap-disk-full', 'bootstrap-disk-full'],
  ['mirror-missing-etcd-operator', 'render-operator-image-pull-failed'],
  ['legacy-etcd-slow-disk', 'bootstrap-etcd-slow-disk'],
  ['bootstrap-clock-behind', 'host-clock-behind-certificates'],
  ['api-int-dns-missing', 'masters-ignition-api-int-dns'],
  ['mcs-port-22623-blocked', 'masters-ignition-mcs-unreachable'],
  ['wait-for-ceo-timeout', 'etcd-peer-unreachable'],
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

  it.each(EXPECTED)('%s: analyze finds %s with the rule covering it removed', async (scenario, id) => {
    const entry = kb.find((e) => e.id === id);
    expect(entry, id).toBeDefined();
    const without = rules.filter((r) => r.meta.id !== entry?.rule);
    const { result } = await readAndAnalyze(bundleOf(scenario), { rules: without, version: 'test', similarity: { mode: 'lexical', kb } });
    if (entry?.rule) expect(result.rules.fired).not.toContain(entry.rule);
    expect(result.similarity.mode).toBe('lexical');
    expect(result.similarity.candidates).toBeGreaterThan(0);
    expect(result.similar[0]?.id, JSON.stringify(result.similar.map((s) => [s.id, s.score]))).toBe(id);
    expect(result.similar[0].matchedLines.length).toBeGreaterThan(0);
    // The verdict takes the known issue's category when no other rule decided the cause.
    if (result.verdict.rootCause === null) {
      expect(result.verdict.knownIssue).toBe(id);
      expect(result.verdict.category).toBe(entry?.category);
      expect(result.verdict.confidence).toBeLessThanOrEqual(0.55);
      expect(result.verdict.summary).toContain(`known issue ${id}`);
    }
  });

  it.each([
    ['bootstrap-disk-full', 'bootstrap-disk-full'],
    ['okd-crio-opt-cni', 'crio-fatal-startup'],
  ])('%s: with no rules at all, the verdict names %s from similarity, with less confidence', async (scenario, id) => {
    const { result } = await readAndAnalyze(bundleOf(scenario), { rules: [], version: 'test', similarity: { mode: 'lexical', kb } });
    expect(result.verdict.status).toBe('failed');
    expect(result.verdict.rootCause).toBeNull();
    expect(result.verdict.knownIssue).toBe(id);
    expect(result.verdict.category).toBe(kb.find((e) => e.id === id)?.category);
    expect(result.verdict.confidence).toBeLessThanOrEqual(0.55);
    expect(result.verdict.summary).toContain(`known issue ${id}`);
  });

  it('gives a cause a kind when the rule that fired could not (masters unreachable: DNS or a blocked port)', async () => {
    // Neither the rules the known issues name nor the generic last-error reading: similarity alone.
    const { result } = await readAndAnalyze(bundleOf('api-int-dns-missing'), {
      rules: rules.filter((r) => !kb.some((e) => e.rule === r.meta.id) && r.meta.id !== LAST_ERROR_ID),
      version: 'test',
      similarity: { mode: 'lexical', kb },
    });
    expect(result.verdict.rootCause).toBe('masters-unreachable');
    expect(result.verdict.knownIssue).toBe('masters-ignition-api-int-dns');
    expect(result.verdict.category).toBe('dns');
  });

  it('mining only the error-like lines finds what mining every line finds', async () => {
    for (const [scenario] of EXPECTED.slice(0, 4)) {
      const every = createMiner();
      await readAndAnalyze(bundleOf(scenario), { rules, version: 'test', observeLines: every.observer });
      const all = await findSimilar(every.candidates(), kb, { mode: 'lexical' });
      const { result } = await readAndAnalyze(bundleOf(scenario), { rules, version: 'test', similarity: { mode: 'lexical', kb } });
      expect(result.similar[0]?.id, scenario).toBe(all[0]?.id);
    }
  });

  it('finds no known issue in the healthy sample, and the verdict stays healthy', async () => {
    const { result } = await readAndAnalyze(bundleOf('healthy-vsphere-416'), { rules, version: 'test', similarity: { mode: 'lexical', kb } });
    expect(result.similar).toEqual([]);
    expect(result.verdict.status).toBe('healthy');
    expect(result.verdict.knownIssue).toBeUndefined();
  });

  it('leaves the result without similar issues when off', async () => {
    const { result } = await readAndAnalyze(bundleOf('legacy-etcd-slow-disk'), { rules, version: 'test', similarity: { mode: 'off' } });
    expect(result.similar).toEqual([]);
    expect(result.similarity).toEqual({ mode: 'off', candidates: 0 });
  });
});
