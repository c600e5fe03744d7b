// The shipped rules pass their own lint: every catalogue regex (forms, when, unless) is proven
// linear by the ReDoS checker, as a user's rule must be. Slow (the checker runs on every regex,
// with the start-up cache off so no verdict is read back): `npm run test:hostile`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

describe('rules lint on the shipped rules', () => {
  it('reports no problem', () => {
    const r = spawnSync(process.execPath, [CLI, 'rules', 'lint'], { encoding: 'utf8', timeout: 1_750_000, env: { ...process.env, BOOTLENS_CACHE_DIR: 'off' } });
    expect(r.error).toBeUndefined();
    expect(r.stdout).not.toMatch(/problem\(s\)/);
    expect(r.stdout).toMatch(/^\d+ rule files and \d+ built-in rules: no problems$/m);
    expect(r.status).toBe(0);
  }, 1_800_000);
});
