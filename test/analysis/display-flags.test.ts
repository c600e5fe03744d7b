// Display flags display: --min-severity chooses which findings a report shows, never the
// verdict's stage, category or the exit code; a suppression is a judgement and says so.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { loadRules } from '../../src/rules/load-rules.js';

const SAMPLES = join(process.cwd(), 'samples');
const bundles = readdirSync(SAMPLES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(join(SAMPLES, d.name)).filter((f) => /^log-bundle-.*\.tar\.gz$/.test(f)).map((f) => [d.name, join(SAMPLES, d.name, f)] as const));

describe('display flags', () => {
  const rules = loadRules().rules;

  it('finds the samples', () => expect(bundles.length).toBeGreaterThanOrEqual(16));

  it.each(bundles)('%s: --min-severity critical shows less and decides the same', async (_name, bundle) => {
    const all = await analyzeBundle(bundle, { rules, version: 'test' });
    const critical = await analyzeBundle(bundle, { rules, version: 'test', minSeverity: 'critical' });
    expect(critical.verdict).toEqual(all.verdict);
    expect(critical.findings.length).toBeLessThanOrEqual(all.findings.length);
    for (const f of critical.findings) expect(f.severity === 'critical' || f.ruleId === all.verdict.rootCause, f.ruleId).toBe(true);
  });

  it('a suppression of the root cause changes the verdict and the summary says so', async () => {
    const bundle = bundles.find(([name]) => name === 'release-pull-secret-rejected')?.[1] as string;
    const all = await analyzeBundle(bundle, { rules, version: 'test' });
    const root = all.verdict.rootCause as string;
    const suppressed = await analyzeBundle(bundle, { rules, version: 'test', suppressions: [{ rule: root, reason: 'known in this lab' }] });
    expect(suppressed.verdict.rootCause).not.toBe(root);
    expect(suppressed.verdict.summary).toMatch(/suppressed \(--ignore\)\.$/);
    expect(suppressed.suppressed.map((s) => s.finding.ruleId)).toContain(root);
  });
});
