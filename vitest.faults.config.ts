import { defineConfig } from 'vitest/config';

/** The fault suite (`npm run test:faults`): long, chaotic, one file at a time. */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
