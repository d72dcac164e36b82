import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { localeParts } from './scripts/vite-locale-parts.ts';

/**
 * The end-to-end files that start server processes of their own (the reference server, two instances behind
 * HAProxy, the back office): they run alone, after the others (package.json test:e2e). Beside another file
 * on 2 cores, the balancer's member waited over 30 s for a balance after two instance restarts (2026-11-29:
 * restarts slowed by the other file's browser lengthen the socket's reconnect backoff).
 */
const SERVER_E2E = ['tests/e2e/balancer.test.ts', 'tests/e2e/live.test.ts', 'tests/e2e/admin.test.ts'];

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
      e2eProject('e2e', { exclude: SERVER_E2E }),
      e2eProject('e2e-servers', { include: SERVER_E2E }),
    ],
  },
});

function e2eProject(name: string, files: { include?: string[]; exclude?: string[] }) {
  return {
    test: {
      name,
      environment: 'node' as const,
      include: files.include ?? ['tests/e2e/**/*.test.ts'],
      exclude: files.exclude ?? [],
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
      // The other files run two at a time (package.json test:e2e, --maxWorkers=2): each has its own browser
      // and its own contexts (so its own device storage). One at a time (Vitest's default on 2 cores,
      // cores - 1) the whole suite took 545 s on that machine, and CI 19.2 of its 20 minutes. The unit projects
      // run with --maxWorkers=2 (package.json test:unit): with one worker they left a core idle (load average
      // ~1.5, 570 s on 2026-11-29). The login timing test (A5, unknown and known names within 10%) runs after
      // them, alone: beside another worker the known name's failure counter write in PostgreSQL slowed with the
      // machine (paired ratio 0.868).
    },
  };
}
