/**
 * Live instances in processes of their own (tests/engine/server/instance-child.ts), for the tests that need a
 * real process: kill -9, SIGTERM, two instances on one database. Each child leads its own process group, and
 * `stopChildren` (in the file's afterAll) kills the groups still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import type { BodyOf, ContractPath, DataOf } from '../../../engine/index';
import { TEST_XPUB, type Envelope, type Session } from './serve';
import { testDriver } from './sql';

export interface ChildServer {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

/** Starts instance-child.ts with `env` over this process's; resolves once it prints READY <url>. */
export async function startChild(env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./instance-child.ts', import.meta.url).pathname],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'], detached: true },
  );
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`instance exited with ${code} before listening`)));
  });
  return { child, url, exited };
}

/** The env of a live (not demo) instance on `schema`, with its watch-only deposit key (docs/SERVER.md). */
export function liveEnv(schema: string, extra: Record<string, string> = {}): Record<string, string> {
  return { DB_SCHEMA: schema, PBKDF2_ITERATIONS: '1000', DEMO: 'false', WALLET_XPUB: TEST_XPUB, ...extra };
}

/** Kills the process group of every child still running. */
export function stopChildren(): void {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** POSTs `body` to a child's `path` as `session`. */
/** A contract call to a child instance over HTTP, typed as the test server's (serve.ts). */
export async function post<P extends ContractPath>(
  url: string,
  path: P,
  body: BodyOf<P>,
  session: Session,
): Promise<Envelope<DataOf<P>>> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...session.headers },
    body: JSON.stringify(body ?? {}),
  });
  // The server answers a contract path with that path's envelope.
  return (await response.json()) as Envelope<DataOf<P>>;
}

/**
 * kill -9 during a burst: `workers` callers transfer 1 USDT from `from` to `to` through the child until
 * `killAfter` transfers are acknowledged, then its process group is killed. Resolves, once it has exited,
 * with the ids of the acknowledged transfers (a call whose answer was lost is not among them).
 */
export async function transferUntilKilled(
  server: ChildServer,
  from: Session,
  to: string,
  { workers, killAfter }: { workers: number; killAfter: number },
): Promise<string[]> {
  const acked: string[] = [];
  let killed = false;
  const worker = async () => {
    for (;;) {
      try {
        const r = await post(server.url, '/api/transfer/submit', { account: to, amount: '1' }, from);
        expect(r.code).toBe(0);
        acked.push(String(r.data.id));
        if (acked.length >= killAfter && !killed && server.child.pid) {
          killed = true;
          process.kill(-server.child.pid, 'SIGKILL');
        }
      } catch (error) {
        if (killed) return; // the instance is gone: the answer was lost, whatever happened to the call
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  await server.exited;
  expect(killed).toBe(true);
  return acked;
}

/** The ids of the transfers stored in `schema`. */
export async function storedTransferIds(schema: string): Promise<Set<string>> {
  const driver = await testDriver();
  try {
    const { rows } = await driver.query<{ id: string }>(`SELECT id FROM ${schema}.transfers`);
    return new Set(rows.map((r) => r.id));
  } finally {
    await driver.close();
  }
}
