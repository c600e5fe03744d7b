// Golden tests: `bootlens analyze` on every committed sample gives the stage and category its
// expected.json names. The built CLI must be there (`npm test` builds it first): a missing CLI
// fails these tests, it never skips them.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const SAMPLES = join(process.cwd(), 'samples');


const samples = existsSync(SAMPLES)
  ? readdirSync(SAMPLES, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(SAMPLES, d.name, 'expected.json')))
      .map((d) => d.name)
      .sort()
  : [];

/** The sample's bundle file name. */
function bundleOf(name: string): string | undefined {
  return readdirSync(join(SAMPLES, name)).find((f) => /^log-bundle-.*\.tar\.gz$/.test(f));
}

// One `bootlens analyze` of every sample, one report each in argument order: start-up and rule
// loading are paid once, not once per sample (a quarter of the CPU time).
let run: { status: number | null; stderr: string; reports: { bundle: { name: string }; verdict: { stage: string | null; category: string | null } }[] };
beforeAll(() => {
  const bundles = samples.map((name) => join(SAMPLES, name, bundleOf(name) ?? 'missing'));
  const r = spawnSync(process.execPath, [CLI, 'analyze', ...bundles, '--format', 'json'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 256 * 1024 * 1024 });
  let reports: typeof run.reports = [];
  try {
    reports = JSON.parse(r.stdout) as typeof reports;
  } catch {
    // Not JSON (no CLI, a crash): every sample's test fails on the status and stderr below.
  }
  run = { status: r.status, stderr: r.stderr, reports };
}, 120_000);

describe('bootlens analyze on the committed samples', () => {
  it('finds the built CLI and samples to check', () => {
    expect(existsSync(CLI), `${CLI} is missing: run \`npm run build\` (npm test does)`).toBe(true);
    const help = spawnSync(process.execPath, [CLI, 'analyze', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--format/);
    expect(samples.length).toBeGreaterThanOrEqual(16);
  });

  it.each(samples)('%s', (name) => {
    const dir = join(SAMPLES, name);
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { stage: string | null; category: string | null };
    const bundle = bundleOf(name);
    expect(bundle).toBeDefined();
    expect([0, 1], run.stderr).toContain(run.status);
    expect(run.reports).toHaveLength(samples.length);
    const report = run.reports[samples.indexOf(name)];
    expect(report.bundle.name).toBe(bundle);
    expect({ stage: report.verdict.stage ?? null, category: report.verdict.category ?? null }).toEqual({ stage: expected.stage, category: expected.category });
  });
});
