import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Two projects: the unit tests, and the fidelity tests against the H200's ncu numbers, whose
// full-size profiles are made once up front (test/setup/fidelityReports.ts).
export default defineConfig({
  // kernels import the public API by the package name, as a user's kernel does; in the tests that is
  // the sources (the CLI maps it with a resolve hook, src/kernel/resolve.ts)
  resolve: { alias: [{ find: /^warpsight$/, replacement: fileURLToPath(new URL('./src/api.ts', import.meta.url)) }] },
  test: {
    environment: 'node',
    // vitest 4 runs cores - 1 workers by default: one on CI's two cores (the tests are CPU-bound)
    maxWorkers: availableParallelism(),
    // a worker runs its test files one after another in one module graph instead of a fresh one each:
    // the profiler's modules are imported once per worker, not once per file (unit tests 149 vs 168 s,
    // fidelity tests 43 vs 49 s on two cores). Tests must not lean on a fresh module: a mock or a
    // spy is restored after its test (afterEach vi.restoreAllMocks), nothing is left in process.env
    isolate: false,
    testTimeout: 120_000,
    // the tests see the same environment on a developer's machine and in CI: with CI set, profile
    // prints a plain progress line per launch on stderr, which tests of the one-error-line contract
    // would count; the tests of progress set CI themselves
    env: { CI: '' },
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
