import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { localeParts } from './scripts/vite-locale-parts.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'engine',
          environment: 'node',
          include: ['engine/**/*.test.ts', 'tests/engine/**/*.test.ts'],
          setupFiles: ['tests/wait-ceiling.ts'],
          testTimeout: 30_000,
          // A server test's set-up (schema, migrations, listening) waits on PostgreSQL and a busy 2-core machine.
          hookTimeout: 30_000,
          // Files share their worker's modules instead of a fresh process each: 64 s instead of 103 s for the
          // 135 files on 2 workers (2026-11-29, Intel Xeon 2 cores). Module state a file leaves must not reach
          // the next: tables a storage test makes up are scratch tables (tests/engine/scratch-table.ts), not
          // registered beside the engine's.
          isolate: false,
        },
      },
      {
        plugins: [localeParts(), react()],
        test: {
          name: 'app',
          environment: 'jsdom',
          // Worker threads start faster than forked processes: 155 s instead of 206 s for the 101 files on the
          // 2-core machine (2026-11-28). The engine project stays on forks (its server tests start processes).
          pool: 'threads',
          include: ['src/**/*.test.{ts,tsx}', 'tests/app/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/wait-ceiling.ts', 'tests/setup-app.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/e2e/worker-env.ts'],
          // Hang guards, not waits: every test waits for the state a member sees. Two files at once on 2 cores
          // take up to 1.6x as long each (a11y 77 -> 96 s, wallet 63 -> 89 s on 2026-11-29's 2.45 GHz EPYC).
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // expect.poll's ceiling where a call names none (Vitest's is 1 s): a state a member sees within a second
          // on a quiet machine can take several beside another file on 2 cores (a second tab's leader-lock
          // request, 2026-11-29). A call that names its own keeps it.
          expect: { poll: { timeout: 15_000 } },
          // Files run two at a time (package.json test:e2e, --maxWorkers=2): each has its own browser, its own
          // contexts (so its own device storage) and, in live mode, its own server on a fresh schema. One at a
          // time (Vitest's default on 2 cores, cores - 1) the suite took 545 s on that machine, and CI 19.2 of
          // its 20 minutes; two at a time 403 s. The unit projects run with --maxWorkers=2 (package.json
          // test:unit): with one worker they left a core idle (load average ~1.5, 570 s on 2026-11-29). The login
          // timing test (A5, unknown and known names within 10%) runs after them, alone: beside another worker the
          // known name's failure counter write in PostgreSQL slowed with the machine (paired ratio 0.868).
        },
      },
    ],
  },
});
