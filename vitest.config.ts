import { defineConfig } from 'vitest/config';

// Three projects with their own budgets. No retries anywhere: a flaky test is a bug to fix.
// Language-server tests share 2 cores with the servers they start, so they run few at a time, and
// the projects run one after the other (groupOrder): unit, then integration, then languages.
export default defineConfig({
  test: {
    retry: 0,
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 10_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'languages',
          include: ['test/languages/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
