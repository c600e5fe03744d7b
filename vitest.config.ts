import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Heavy hostile cases (100 000 logs, undecidable regexes) run in `npm run test:hostile`.
    exclude: ['**/node_modules/**', 'test/**/*.heavy.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    // Timeouts only stop a hang; no test relies on them for its result. Hooks build archives
    // and get the same room as tests (vitest's 10 s default failed under load).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Text reports follow COLUMNS; a shell that exports it must not change what tests see
    // (100 is the width without it). Tests of the width set their own.
    env: { COLUMNS: '100' },
    pool: 'forks',
    // vitest's default is one worker fewer than the cores, i.e. one on a two-core machine; most
    // test time is spent waiting on a spawned CLI, so every core gets a worker.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
