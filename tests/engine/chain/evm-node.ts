/**
 * A local EVM node for the gateway tests: ganache from npm (no download), on a free loopback port, in its
 * own process group so `stop()` ends it and anything it started. Plus the USDT-like test token compiled by
 * solcjs (the npm `solc` package, no download).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import solc from 'solc';
import type { Abi, Hex } from 'viem';

const require = createRequire(import.meta.url);

export interface EvmNode {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

/** Starts ganache with the given funded accounts (private keys, 1,000 ETH each); resolves once it listens. */
export async function startEvmNode(keys: readonly Hex[], chainId: number): Promise<EvmNode> {
  const cli = require.resolve('ganache/dist/node/cli.js');
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        cli,
        '--server.host=127.0.0.1',
        `--server.port=${port}`,
        `--chain.chainId=${chainId}`,
        '--chain.hardfork=shanghai',
        '--miner.instamine=eager',
        ...keys.map((key) => `--wallet.accounts=${key},1000000000000000000000`),
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const listening = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 20_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('RPC Listening on')) {
          clearTimeout(timer);
          resolve(true);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (listening && child.pid !== undefined) {
      return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stopGroup(child) };
    }
    await stopGroup(child);
    if (!output.includes('EADDRINUSE')) throw new Error(`ganache did not start:\n${output.slice(-2000)}`);
  }
  throw new Error('ganache: no free port after 3 attempts');
}

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

/** Compiles tests/engine/chain/TestUSDT.sol with solcjs for the node's hardfork. */
export function compileTestToken(): Compiled {
  const source = readFileSync(fileURLToPath(new URL('./TestUSDT.sol', import.meta.url)), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'TestUSDT.sol': { content: source } },
    settings: {
      evmVersion: 'shanghai',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts['TestUSDT.sol']?.['TestUSDT'];
  if (!contract) throw new Error('TestUSDT not compiled');
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}
