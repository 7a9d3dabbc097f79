import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fault suite and the cluster suite run on their own: npm run test:faults
    // (vitest.faults.config.ts), npm run test:cluster (vitest.cluster.config.ts).
    exclude: [...configDefaults.exclude, 'test/faults/**', 'test/cluster/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // REDIS_URL if it answers, else a private redis-server for the run (test/support/redisGlobalSetup.ts).
    globalSetup: ['test/support/redisGlobalSetup.ts'],
  },
});
