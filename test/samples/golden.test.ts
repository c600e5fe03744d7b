// Golden tests: `bootlens analyze` on every committed sample gives the stage and category its
// expected.json names. Skipped while the built CLI has no `analyze` command.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const SAMPLES = join(process.cwd(), 'samples');

function analyzeAvailable(): boolean {
  if (!existsSync(CLI)) return false;
  const r = spawnSync(process.execPath, [CLI, 'analyze', '--help'], { encoding: 'utf8' });
  return r.status === 0 && /analyze/.test(r.stdout) && /--format/.test(r.stdout);
}

const samples = existsSync(SAMPLES)
  ? readdirSync(SAMPLES, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(SAMPLES, d.name, 'expected.json')))
      .map((d) => d.name)
      .sort()
  : [];

describe.skipIf(!analyzeAvailable())('bootlens analyze on the committed samples', () => {
  it('finds samples to check', () => {
    expect(samples.length).toBeGreaterThanOrEqual(16);
  });

  it.each(samples)('%s', (name) => {
    const dir = join(SAMPLES, name);
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { stage: string | null; category: string | null };
    const bundle = readdirSync(dir).find((f) => /^log-bundle-.*\.tar\.gz$/.test(f));
    expect(bundle).toBeDefined();
    const r = spawnSync(process.execPath, [CLI, 'analyze', join(dir, bundle as string), '--format', 'json'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
    expect([0, 1], r.stderr).toContain(r.status);
    const report = JSON.parse(r.stdout) as { verdict: { stage: string | null; category: string | null } };
    expect({ stage: report.verdict.stage ?? null, category: report.verdict.category ?? null }).toEqual({ stage: expected.stage, category: expected.category });
  }, 60_000);
});
