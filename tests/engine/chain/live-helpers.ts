/**
 * Helpers shared by the live-server tests (live-server.test.ts on a local EVM node, live-server-tron.test.ts
 * on a stand-in TronGrid): the signer process started as `npm run signer` does and stopped by its process
 * group (also ganache's, evm-node.ts), waiting for a state, and a member's balance and deposit list over
 * HTTP. The chains themselves are started by evm-node.ts (`startTestChain`: ganache and the test token) and
 * tron-node.ts (a stand-in TronGrid).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Session, TestServer } from '../server/serve';

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
  const u = (await server.call('/api/user/getuser', {}, s)).data as { available: string; frozen: string };
  return { available: u.available, frozen: u.frozen };
}

export async function deposits(server: TestServer, s: Session): Promise<Array<Record<string, unknown>>> {
  return ((await server.call('/api/recharge/list', {}, s)).data as { list: Array<Record<string, unknown>> })
    .list;
}
