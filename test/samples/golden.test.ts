// Golden tests: `bootlens analyze` on every committed sample gives the stage and category its
// expected.json names. The built CLI must be there (`npm test` builds it first): a missing CLI
// fails these tests, it never skips them.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const SAMPLES = join(process.cwd(), 'samples');


const samples = existsSync(SAMPLES)
  ? readdirSync(SAMPLES, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(SAMPLES, d.name, 'expected.json')))
      .map((d) => d.name)
      .sort()
  : [];

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
    const bundle = readdirSync(dir).find((f) => /^log-bundle-.*\.tar\.gz$/.test(f));
    expect(bundle).toBeDefined();
    const r = spawnSync(process.execPath, [CLI, 'analyze', join(dir, bundle as string), '--format', 'json'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
    expect([0, 1], r.stderr).toContain(r.status);
    const report = JSON.parse(r.stdout) as { verdict: { stage: string | null; category: string | null } };
    expect({ stage: report.verdict.stage ?? null, category: report.verdict.category ?? null }).toEqual({ stage: expected.stage, category: expected.category });
  }, 60_000);
});
