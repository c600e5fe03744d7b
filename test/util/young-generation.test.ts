// The young generation stops growing once held: checked in a fresh process (the flag is
// process-wide), against the same process without the hold, which grows past it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';

const MODULE = pathToFileURL(join(packageRoot(), 'dist', 'src', 'util', 'young-generation.js')).href;

/** The largest young generation (MiB) of a process that keeps many short-lived objects alive for a while. */
function largestYoung(hold: boolean): number {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { holdYoungGeneration } from ${JSON.stringify(MODULE)};
    if (${hold}) holdYoungGeneration(4);
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    let max = young();
    const keep = [];
    for (let round = 0; round < 200; round++) {
      for (let i = 0; i < 20000; i++) keep.push({ i, s: 'x' + i });
      if (keep.length > 200000) keep.splice(0, 100000);
      await new Promise((r) => setImmediate(r));
      max = Math.max(max, young());
    }
    process.stdout.write(String(max / 1048576));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return Number(r.stdout);
}

describe('holdYoungGeneration', () => {
  it('stops the young generation within one doubling of the size it was held at', () => {
    // The hold takes effect after the collection that reached the size: one more doubling at most.
    expect(largestYoung(true)).toBeLessThanOrEqual(8);
  });

  it('without it, the same allocations grow the young generation past that', () => {
    expect(largestYoung(false)).toBeGreaterThanOrEqual(16);
  });
});
