/**
 * Helpers shared by the live-server tests (live-server.test.ts on a local EVM node, live-server-tron.test.ts
 * on a stand-in TronGrid): the signer process started as `npm run signer` does and stopped by its process
 * group (also ganache's, evm-node.ts), the live server and signer one run sets up (LiveRun), waiting for a
 * state, a member's balance, deposits and withdrawals over HTTP, and the checks both chains share (a
 * deposit found after a restart, a withdrawal sent, one over the signer's limit refused, solvency). The
 * chains themselves are started by evm-node.ts (`startTestChain`: ganache and the test token) and
 * tron-node.ts (a stand-in TronGrid).
 */
import { spawn, type ChildProcess } from 'node:child_process';

import { mkdtempSync, rmSync } from 'node:fs';

import { tmpdir } from 'node:os';

import { join } from 'node:path';

import { fileURLToPath } from 'node:url';

import { expect } from 'vitest';

import { manualClock, type DepositRecord, type WithdrawalRecord } from '../../../engine/index';

import type { ChainNetwork } from '../../../server/chain/gateway';

import { configFromEnv, type ServerConfig } from '../../../server/config';

import { SqlStore } from '../../../server/sql-store';

import { adminCall, adminGet } from '../server/admin-helpers';

import { login, startTestServer, T0, TEST_XPUB, type Session, type TestServer } from '../server/serve';

import { dropSchema, freshSchema, testDriver } from '../server/sql';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface StartedSigner {
  url: string;
  child: ChildProcess;
  output: () => string;
}

/** `npm run signer` in its own process group, on a free port it reports on stdout. */
export async function startSigner(env: Record<string, string>): Promise<StartedSigner> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/signer/main.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', ...env },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`signer did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"msg":"listening","url":"([^"]+)"/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`signer exited ${code}:\n${output}`));
    });
  });
  return { url, child, output: () => output };
}

/** SIGTERM to the child's process group; resolves once it exited. */
export function stopGroup(child: ChildProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.pid === undefined) return resolve();
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

/** Probes until it answers a value (a state reached), or fails after `ms`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function cash(server: TestServer, s: Session): Promise<{ available: string; frozen: string }> {
  const u = (await server.call('/api/user/getuser', undefined, s)).data;
  return { available: u.available, frozen: u.frozen };
}

export async function deposits(server: TestServer, s: Session): Promise<DepositRecord[]> {
  return (await server.call('/api/recharge/list', {}, s)).data.list;
}

/** The secret the server and the signer share (SIGNER_TOKEN). */
export const SIGNER_SECRET = 'test-signer-secret-0123456789abcdef';

/**
 * One run's live server and signer: a fresh SQL schema, a manual clock, and the signer's journal
 * (SIGNER_STATE_FILE) in a directory of this run. `start` starts the signer (limits 120 per transaction,
 * 1000 a day) and the server with its chain settings exactly as main.ts reads them from the environment;
 * `open` (re)opens the server on the same schema; `stop` ends it all, the signer by its process group.
 */
export class LiveRun {
  readonly schema = freshSchema();
  readonly clock = manualClock(T0);
  readonly stateDir: string;
  readonly journal: string;
  signer!: StartedSigner;
  config: Partial<ServerConfig> = {};
  store!: SqlStore;
  private server: TestServer | undefined;

  constructor(dirPrefix: string) {
    this.stateDir = mkdtempSync(join(tmpdir(), dirPrefix));
    this.journal = join(this.stateDir, 'journal.jsonl');
  }

  /** The signer with `signerEnv` (its keys, its token's address), the server with `serverEnv` (the chain's). */
  async start(signerEnv: Record<string, string>, serverEnv: Record<string, string>): Promise<TestServer> {
    this.signer = await startSigner({
      ...signerEnv,
      SIGNER_TOKEN: SIGNER_SECRET,
      SIGNER_MAX_PER_TX: '120',
      SIGNER_MAX_PER_DAY: '1000',
      SIGNER_PORT: '0',
      SIGNER_STATE_FILE: this.journal,
    });
    const fromEnv = configFromEnv({
      DEMO: 'false',
      WALLET_XPUB: TEST_XPUB,
      ...serverEnv,
      SIGNER_URL: this.signer.url,
      SIGNER_TOKEN: SIGNER_SECRET,
      CHAIN_POLL_MS: '150',
    });
    this.config = {
      evm: fromEnv.evm,
      tron: fromEnv.tron,
      signer: fromEnv.signer,
      chainPollMs: fromEnv.chainPollMs,
      demo: false,
    };
    return this.open();
  }

  async open(): Promise<TestServer> {
    this.store = await SqlStore.open(await testDriver(), { schema: this.schema });
    this.server = await startTestServer({
      storage: this.store,
      clock: this.clock,
      config: { ...this.config, loginPerIpPerMinute: 1_000 },
    });
    return this.server;
  }

  /** The server, the signer's process group, then the chain (`node`), the schema and the journal's directory. */
  async stop(node: { stop(): Promise<void> } | undefined): Promise<void> {
    await this.server?.close();
    await stopGroup(this.signer?.child);
    await node?.stop();
    await dropSchema(this.schema);
    rmSync(this.stateDir, { recursive: true, force: true });
  }
}

/** Waits until the member's newest deposit is shown pending; answers it. */
export function pendingDeposit(server: TestServer, s: Session): Promise<DepositRecord> {
  return until('the pending deposit', async () => {
    const list = await deposits(server, s);
    return list[0]?.['status'] === 'pending' ? list[0] : undefined;
  });
}

/** Waits until the member has `available` USDT available. */
export async function untilAvailable(
  server: TestServer,
  s: Session,
  available: string,
  what: string,
): Promise<void> {
  await until(what, async () => ((await cash(server, s)).available === available ? true : undefined));
}

export async function withdrawals(server: TestServer, s: Session): Promise<WithdrawalRecord[]> {
  return (await server.call('/api/withdraw/list', {}, s)).data.list;
}

/** The member asks for a USDT withdrawal to `address`; the answer as it is. */
export function askWithdrawal(
  server: TestServer,
  s: Session,
  network: ChainNetwork,
  address: string,
  amount: string,
) {
  return server.call('/api/withdraw/submit', { currency: 'USDT', network, address, amount, key: 'key1' }, s);
}

/**
 * A server reopened after a deposit of `txid` was made while it was down: `username` logs in again, the
 * deposit is credited (the member then has `available`), and a further round credits nothing more.
 */
export async function expectFoundAfterRestart(
  server: TestServer,
  username: string,
  txid: string,
  available: string,
): Promise<Session> {
  const s = await login(server, username);
  await untilAvailable(server, s, available, 'the deposit made while down');
  await server.watcher?.round();
  const list = await deposits(server, s);
  expect(list).toHaveLength(2);
  expect(list.map((d) => d['txid'])).toContain(txid);
  expect(await cash(server, s)).toEqual({ available, frozen: '0' });
  return s;
}

/** An operator approves withdrawal `id`: sent, its hash answered. */
export async function approveSent(server: TestServer, token: string, id: string): Promise<string> {
  const approved = await adminCall(server, '/api/admin/withdrawals/approve', { id }, token);
  expect(approved).toMatchObject({ code: 0, data: { status: 'success' } });
  const { txHash } = approved.data;
  if (txHash === null) throw new Error(`withdrawal ${id} approved without a hash`);
  return txHash;
}

/** The member sees withdrawal `id` done with `txHash`, has `available` left, and the signer logged it. */
export async function expectWithdrawalDone(
  server: TestServer,
  s: Session,
  signer: StartedSigner,
  id: string,
  txHash: string,
  available: string,
): Promise<void> {
  expect((await withdrawals(server, s))[0]).toMatchObject({ id, status: 'success', txid: txHash });
  expect(await cash(server, s)).toEqual({ available, frozen: '0' });
  expect(signer.output()).toContain(`"withdrawalId":"${id}"`);
}

/**
 * Over the signer's per-transaction limit (120): a withdrawal of 130 is refused (503), `nothingSent` checks
 * that nothing reached the chain, the claim is released so the operator can reject it, and the member has
 * `available` again.
 */
export async function expectOverLimitRefused(
  server: TestServer,
  s: Session,
  token: string,
  to: { network: ChainNetwork; address: string },
  nothingSent: () => Promise<void> | void,
  available: string,
): Promise<void> {
  const big = await askWithdrawal(server, s, to.network, to.address, '130');
  const bigId = big.data.id;
  const refused = await adminCall(server, '/api/admin/withdrawals/approve', { id: bigId }, token);
  expect(refused.code).toBe(503);
  expect(refused.msg).toMatch(/per-transaction limit/);
  await nothingSent();
  const rejected = await adminCall(
    server,
    '/api/admin/withdrawals/reject',
    { id: bigId, reason: 'Over the hot wallet limit' },
    token,
  );
  expect(rejected.code).toBe(0);
  expect(await cash(server, s)).toEqual({ available, frozen: '0' });
}

/** The solvency view holds `holding` (a hot wallet's balance read from the chain) and owes `liabilities`; the engine's invariants hold. */
export async function expectSolvency(
  server: TestServer,
  token: string,
  holding: { network: ChainNetwork; address: string; amount: string },
  liabilities: string,
): Promise<void> {
  const solvency = (await adminGet(server, '/api/admin/solvency', {}, token)).data;
  expect(solvency.holdings).toContainEqual(expect.objectContaining(holding));
  expect(solvency.liabilities).toBe(liabilities);
  expect(await server.engine.diagnostics.checkInvariants()).toEqual([]);
}
