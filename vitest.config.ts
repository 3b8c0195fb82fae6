import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts', 'tests/workers/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/helpers/watchdog.ts'],
          globalSetup: ['tests/helpers/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'faults',
          include: ['tests/faults/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/helpers/watchdog.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          pool: 'forks',
          maxWorkers: 1,
        },
      },
      './client/vite.config.ts',
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/helpers/watchdog.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
