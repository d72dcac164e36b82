/**
 * The demo's chain gateway (DEMO=true only): the engine's simulated chains (engine/chain/simulator.ts) behind
 * the ChainGateway interface, so an operator's approval on a demo server goes the live path end to end
 * (claim, send through the gateway, record the hash) with the hash the simulated chain gives the
 * withdrawal. It watches nothing (the simulated chains credit demo deposits inside the engine) and holds no
 * key. A live server never builds one (server/app.ts).
 */
import type { ChainGateway, ChainNetwork, FeeEstimate, SentWithdrawal, WithdrawalRequest } from './gateway';
import { SimulatedChain } from '../../engine/server';

export interface SimulatedGateway extends ChainGateway {
  readonly simulated: true;
}

/** `seed` is the engine's (SEED): the same seed gives the same hashes as the engine's own simulated send. */
export function simulatedGateway(network: ChainNetwork, seed: number): SimulatedGateway {
  // Only the hash function is used; block times are irrelevant here.
  const chain = new SimulatedChain(network, { blockMs: 3_000, confirmations: 1 }, seed);
  return {
    simulated: true,
    network,
    confirmations: network === 'ERC20' ? 12 : 19,
    watch: () => undefined,
    poll: async () => [],
    sendWithdrawal: async (request: WithdrawalRequest): Promise<SentWithdrawal> => ({
      txHash: chain.txHash(`out:${request.id}`),
    }),
    estimateFee: async (): Promise<FeeEstimate> => ({
      asset: network === 'ERC20' ? 'ETH' : 'TRX',
      amount: 0n,
      units: 0n,
    }),
  };
}
