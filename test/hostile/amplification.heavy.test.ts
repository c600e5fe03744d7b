// The heavy amplification cases (`npm run test:hostile`): 100 000 container logs in 1.4 MB took
// analyze past ten minutes (a search of all containers per log, and the miner closing every file
// it had opened each time it opened one); now it is a read of 100 000 entries.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/fixture-bundle.js';
import { manyContainersBundle } from './crafted-bundles.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

describe('a bundle of 100 000 container logs', () => {
  for (const [what, line] of [
    ['empty', ''],
    ['of one error line each', 'error: exit status 1\n'],
  ] as const) {
    it(`${what}: analyze ends with a verdict and its similar issues`, () => {
      const file = join(tempDir('bootlens-many-'), 'many.tar.gz');
      writeFileSync(file, manyContainersBundle(100_000, line));
      const r = spawnSync(process.execPath, [CLI, 'analyze', file, '-f', 'json'], { encoding: 'utf8', timeout: 590_000, maxBuffer: 256 * 1024 * 1024 });
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(1);
      const report = JSON.parse(r.stdout) as { bundle: { name: string }; similarity: { mode: string } };
      expect(report.bundle.name).toBe('many.tar.gz');
      expect(report.similarity.mode).toBe('lexical');
    });
  }
});
