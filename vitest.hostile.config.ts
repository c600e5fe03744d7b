// `npm run test:hostile`: the heavy hostile cases, kept out of `npm test` (which stays under two
// minutes on two cores); `.ci/run` runs both. Their timeouts only stop what was a hang.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  test: {
    ...base.test,
    include: ['test/**/*.heavy.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 600_000,
  },
});
