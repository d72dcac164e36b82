/**
 * The signer: the only component that may hold the deposit wallet's private keys and send funds. The engine
 * never signs: an approved withdrawal is handed to a Signer as a WithdrawalOrder and the engine records the
 * transaction it reports. Demo: the simulated chain (`simulatedSigner`, a hash derived from the record id).
 * Production: a separate process or service with its own limits (server/signer), reachable only from the
 * API servers, which hold only WALLET_XPUB. docs/SERVER.md "Key custody".
 */
import type { Network } from './encoding';
import type { ChainTx, SimulatedChain } from './simulator';

export interface WithdrawalOrder {
  /** Idempotency: a signer sends each order id at most once, whatever the number of calls. */
  orderId: string;
  network: Network;
  /** Destination address in its canonical form. */
  to: string;
  /** What arrives on chain, in micro-USDT (integer string). */
  amount: string;
}

export interface Signer {
  send(order: WithdrawalOrder, nowMs: number): Promise<ChainTx>;
}

/** The demo signer: the simulated chain of `network` "sends" the order. */
export function simulatedSigner(chain: SimulatedChain): Signer {
  return {
    send: (order, nowMs) => Promise.resolve(chain.send(`out:${order.orderId}`, nowMs)),
  };
}
