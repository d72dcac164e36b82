/**
 * Helpers for running live mode against a local EVM node (docs/DEPLOY.md "Live mode on a local EVM node"):
 * `deploy [hotWallet]`, `pay <token> <to> <usdt>`, `mine [blocks]`, `balance <token> <addr>`, `xpub`
 * (`npx tsx scripts/local-evm.ts <command>`, or `npm run chain:local`). Test chains only: the keys are the
 * well-known development keys, funded only on the ganache node the docs start. LOCAL_EVM_RPC (default
 * http://127.0.0.1:8545) names the node; LOCAL_EVM_FUNDER_KEY the paying account.
 */
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  formatUnits,
  getAddress,
  http,
  isAddress,
  parseUnits,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { walletXpubFromSeed } from '../engine/chain/addresses.ts';
import { compileTestToken } from '../tests/engine/chain/evm-node.ts';

/** Development keys (public knowledge): never use them on a real chain. */
export const LOCAL_FUNDER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
export const LOCAL_HOT_WALLET_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

const rpc = process.env['LOCAL_EVM_RPC'] ?? 'http://127.0.0.1:8545';
const funderKey = (process.env['LOCAL_EVM_FUNDER_KEY'] as Hex | undefined) ?? LOCAL_FUNDER_KEY;

function address(value: string | undefined, what: string): Address {
  if (!value || !isAddress(value, { strict: false })) {
    console.error(`${what} must be an EVM address`);
    process.exit(2);
  }
  return getAddress(value);
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'xpub') {
    console.log(`WALLET_XPUB=${walletXpubFromSeed(crypto.getRandomValues(new Uint8Array(64)))}`);
    return;
  }
  const transport = http(rpc);
  const probe = createPublicClient({ transport });
  const chain = defineChain({
    id: await probe.getChainId(),
    name: 'local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
  });
  const client = createPublicClient({ chain, transport, pollingInterval: 100 });
  const account = privateKeyToAccount(funderKey);
  const wallet = createWalletClient({ chain, transport, account });
  const token = compileTestToken();

  const transfer = async (contract: Address, to: Address, usdt: string) => {
    const hash = await wallet.writeContract({
      address: contract,
      abi: token.abi,
      functionName: 'transfer',
      args: [to, parseUnits(usdt, 6)],
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  };

  switch (command) {
    case 'deploy': {
      const hash = await wallet.deployContract({
        abi: token.abi,
        bytecode: token.bytecode,
        args: [parseUnits('10000000', 6)],
      });
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (!receipt.contractAddress) throw new Error('not deployed');
      const hot = args[0] ? address(args[0], 'hotWallet') : privateKeyToAccount(LOCAL_HOT_WALLET_KEY).address;
      await transfer(receipt.contractAddress, hot, '10000');
      console.log(`Test USDT deployed at block ${receipt.blockNumber}; ${hot} (hot wallet) holds 10000 USDT`);
      console.log(`EVM_USDT_ADDRESS=${getAddress(receipt.contractAddress)}`);
      console.log(`EVM_FROM_BLOCK=${receipt.blockNumber}`);
      return;
    }
    case 'pay': {
      const [contract, to, usdt] = args;
      const hash = await transfer(address(contract, 'token'), address(to, 'to'), usdt ?? '100');
      console.log(`paid ${usdt ?? '100'} USDT to ${to}: ${hash}`);
      return;
    }
    case 'mine': {
      const blocks = Number(args[0] ?? 12);
      await createTestClient({ chain, transport, mode: 'ganache' }).mine({ blocks });
      console.log(`mined ${blocks} blocks; head ${await client.getBlockNumber()}`);
      return;
    }
    case 'balance': {
      const [contract, owner] = args;
      const value = (await client.readContract({
        address: address(contract, 'token'),
        abi: token.abi,
        functionName: 'balanceOf',
        args: [address(owner, 'address')],
      })) as bigint;
      console.log(`${formatUnits(value, 6)} USDT`);
      return;
    }
    default:
      console.error(
        'usage: local-evm.ts deploy [hotWallet] | pay <token> <to> <usdt> | mine [n] | balance <token> <addr>',
      );
      process.exit(2);
  }
}

await main();
