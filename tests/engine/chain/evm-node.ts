/**
 * A local EVM node for the gateway tests: ganache from npm (no download), on a free loopback port, in its
 * own process group so `stop()` ends it and anything it started. Plus the USDT-like test token compiled by
 * solcjs (the npm `solc` package, no download), and `startTestChain`: both together, the token deployed,
 * with the clients the gateway tests use (evm.test.ts, live-server.test.ts, nonce-lock.test.ts).
 *
 * The chain side only: the live-server tests' process and HTTP helpers (the signer process, stopping a
 * process group, waiting for a state, a member's balance) are in live-helpers.ts, shared with the TRON
 * live-server test (whose chain is the stand-in TronGrid of tron-node.ts).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import solc from 'solc';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { stopGroup } from './live-helpers';

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

export const TEST_CHAIN_ID = 31_337;

/** The local chain, for viem's wallet and test clients. */
export const localChain = defineChain({
  id: TEST_CHAIN_ID,
  name: 'local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
});

/** ganache, its clients, and the test token deployed by the funder (who holds its whole supply). */
export interface TestChain {
  node: EvmNode;
  token: Compiled;
  tokenAddress: Address;
  publicClient: PublicClient;
  testClient: ReturnType<typeof createTestClient>;
  funder: ReturnType<typeof createWalletClient>;
  /** The token balance of `address`, in the token's units (micro-USDT). */
  tokenBalance(address: Address): Promise<bigint>;
  /** The funder pays `amount` of the token to `to`; resolves once mined, with the transaction hash. */
  pay(to: Address, amount: bigint): Promise<Hex>;
}

/**
 * Starts ganache with the funded accounts (the first key is the funder), compiles and deploys the test
 * token (10,000,000 USDT to the funder). Stop it with `node.stop()`.
 */
export async function startTestChain(keys: readonly [Hex, ...Hex[]]): Promise<TestChain> {
  const token = compileTestToken();
  const node = await startEvmNode(keys, TEST_CHAIN_ID);
  try {
    const transport = http(node.url);
    const chain = localChain;
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
    const testClient = createTestClient({ chain, transport, mode: 'ganache' });
    const account = privateKeyToAccount(keys[0]);
    const funder = createWalletClient({ chain, transport, account });
    const deploy = await funder.deployContract({
      abi: token.abi,
      bytecode: token.bytecode,
      args: [10_000_000_000_000n],
      account,
      chain,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash: deploy, pollingInterval: 50 });
    if (!receipt.contractAddress) throw new Error('token not deployed');
    const tokenAddress = receipt.contractAddress;
    return {
      node,
      token,
      tokenAddress,
      publicClient,
      testClient,
      funder,
      tokenBalance: async (address) =>
        (await publicClient.readContract({
          address: tokenAddress,
          abi: token.abi,
          functionName: 'balanceOf',
          args: [address],
        })) as bigint,
      pay: async (to, amount) => {
        const hash = await funder.writeContract({
          address: tokenAddress,
          abi: token.abi,
          functionName: 'transfer',
          args: [to, amount],
          account,
          chain,
        });
        await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
        return hash;
      },
    };
  } catch (error) {
    await node.stop();
    throw error;
  }
}
