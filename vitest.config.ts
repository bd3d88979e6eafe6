import { defineConfig } from 'vitest/config';

// Three projects with their own budgets. No retries anywhere: a flaky test is a bug to fix.
// Language-server tests share 2 cores with the servers they start, so they run few at a time, and
// the projects run one after the other (groupOrder): unit, then integration, then languages.
// Every lspgate a test spawns runs in its own process unless the test asks for the daemon
// (test/integration/daemon*.test.ts give it a private XDG_RUNTIME_DIR): tests count and kill
// their own servers, and a shared daemon would outlive them. Inline projects do not inherit the
// root's options, so each project sets it.
// Servers start at the first question that needs one (LSPGATE_SERVER_START=on-demand): a test that only
// reads the catalog does not pay for every server of its fixture; test/integration/one-catalog.test.ts
// checks the default (servers started once the syntax pass is done).
const env = { LSPGATE_DAEMON: 'off', LSPGATE_SERVER_START: 'on-demand' };

export default defineConfig({
  test: {
    retry: 0,
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          env,
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 10_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          env,
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
          env,
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
