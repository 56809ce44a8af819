import { defineConfig } from 'vitest/config';

// Three projects: the pure core and adapters run in parallel; anything that drives a real tmux
// server, a pseudo-terminal or whole `swarm` processes runs serially (2 cores, shared machines).
// Each test process leases from a machine lease folder of its own (tests/helpers/stateDir.ts).
const STATE_DIR = './tests/helpers/stateDir.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          setupFiles: [STATE_DIR],
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: ['tests/e2e/**', 'tests/real/**', 'node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          setupFiles: [STATE_DIR],
          include: ['tests/e2e/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The published agent CLIs (`npm run test:real`: scripts/real-clis.mjs puts them on PATH).
        // Never part of `npm test`, which runs the two projects above.
        test: {
          name: 'real',
          setupFiles: [STATE_DIR],
          include: ['tests/real/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
