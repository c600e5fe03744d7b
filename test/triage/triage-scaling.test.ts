import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatTriageScaling, measureTriageScaling, prepareTriageBundles } from '../../bench/triage-scaling.js';
import { tempDir } from '../support/fixture-bundle.js';

describe('triage scaling bench', () => {
  it('formats seconds, rate, speedup over one worker, the target and the ceiling', () => {
    const text = formatTriageScaling(
      [
        { jobs: 1, seconds: 10, bundlesPerSecond: 4, cpuSeconds: 13 },
        { jobs: 2, seconds: 5.5, bundlesPerSecond: 7.27, cpuSeconds: 10.5 },
      ],
      2,
    );
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('Triage scaling: 40 bundles, 2 cores (wall time of the whole CLI run)');
    expect(lines[2].trim().split(/\s+/)).toEqual(['1', '10.00', '4.0', '1.00×', '13.00', '1.30']);
    expect(lines[3].trim().split(/\s+/)).toEqual(['2', '5.50', '7.3', '1.82×', '10.50', '1.91']);
    expect(lines).toContain('Target: 2 workers ≥ 1.5× one worker');
    expect(lines).toContain('Measured: 2 workers 1.82× one worker (met)');
    // One worker kept 1.3 cores busy: two can do 2 / 1.3 = 1.54× at most; 10.5 s against 13 s of CPU.
    expect(lines.at(-1)).toBe('Ceiling: one worker keeps 1.30 cores busy, so on 2 cores two can reach 1.54× at most; two used 19 % less CPU than one');
    const oneCore = formatTriageScaling(
      [
        { jobs: 1, seconds: 10, bundlesPerSecond: 4, cpuSeconds: 10 },
        { jobs: 2, seconds: 12, bundlesPerSecond: 3.33, cpuSeconds: 11.5 },
      ],
      1,
    );
    expect(oneCore).toContain('so on 1 core two can reach 1.00× at most; two used 15 % more CPU than one');
    expect(formatTriageScaling([{ jobs: 1, seconds: 6, bundlesPerSecond: 5 }, { jobs: 2, seconds: 5, bundlesPerSecond: 6 }])).toContain('1.20× one worker (not met)');
  });

  it('generates a set once, copies it, and times the real CLI for each jobs value', async () => {
    const dir = tempDir('bootlens-scaling-');
    const options = { dir, scale: 1, count: 3, scenarios: ['release-pull-secret-rejected', 'okd-crio-opt-cni'] };
    const bundles = await prepareTriageBundles(options);
    expect(bundles.map((b) => basename(b))).toEqual(['001-release-pull-secret-rejected.tar.gz', '002-okd-crio-opt-cni.tar.gz', '003-release-pull-secret-rejected.tar.gz']);
    // The generated bundle is kept for the next call (not generated again), and the copies are its bytes.
    const folder = join(dir, 'x1', 'okd-crio-opt-cni');
    const generated = join(folder, readdirSync(folder).find((n) => n.endsWith('.tar.gz'))!);
    const before = statSync(generated).mtimeMs;
    const again = await prepareTriageBundles(options);
    expect(again).toEqual(bundles);
    expect(statSync(generated).mtimeMs).toBe(before);
    expect(statSync(again[1]).size).toBe(statSync(generated).size);

    const rows = await measureTriageScaling({ bundles, jobs: [1, 2], repeats: 1 });
    expect(rows.map((r) => r.jobs)).toEqual([1, 2]);
    for (const r of rows) {
      expect(r.seconds).toBeGreaterThan(0);
      expect(r.bundlesPerSecond).toBeCloseTo(3 / r.seconds, 1);
      // Each worker says how many bundles it analyzed and the CPU time of its own thread.
      expect(r.workers).toHaveLength(r.jobs);
      expect(r.workers?.reduce((n, w) => n + w.bundles, 0)).toBe(3);
      for (const w of r.workers ?? []) expect(w.cpuSeconds).toBeGreaterThan(0);
    }
  }, 120_000);
});
