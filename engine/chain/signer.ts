/**
 * The signer: the only component that may hold the deposit wallet's private keys and send funds
 * (docs/SERVER.md "Key custody"). The engine never signs: an approved withdrawal is handed to a Signer as
 * a WithdrawalOrder and the engine records the transaction the signer reports.
 *
 * - Demo: the simulated chain is the signer (`simulatedSigner`): nothing is signed, the transaction is
 *   simulated and its hash derived from the record id.
 * - Production: a separate process or service (an HSM- or MPC-backed wallet) with its own credentials,
 *   reachable only from the API servers, that validates each order against its own limits before signing.
 *   Its adapter implements this interface; the API server itself holds only WALLET_XPUB.
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
