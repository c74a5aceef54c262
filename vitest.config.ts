import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects: the unit tests, and the fidelity tests against the H200's ncu numbers, whose
// full-size profiles are made once up front (test/setup/fidelityReports.ts).
export default defineConfig({
  test: {
    environment: 'node',
    // vitest 4 runs cores - 1 workers by default: one on CI's two cores (the tests are CPU-bound)
    maxWorkers: availableParallelism(),
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/fidelity/**'] },
      },
      {
        extends: true,
        test: {
          name: 'fidelity',
          include: ['test/fidelity/**/*.test.ts'],
          globalSetup: ['test/setup/fidelityReports.ts'],
          testTimeout: 600_000,
          hookTimeout: 1_200_000,
        },
      },
    ],
  },
});
