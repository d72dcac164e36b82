/**
 * Who is on the other side of the platform: the reviewers of withdrawals, payment-proof deposits and
 * identity checks, the payment provider behind quick buy, the chains and the market maker. In demo mode every one of them is
 * simulated inside the engine; in live mode none is (issue 12 item 0, docs/OPERATIONS.md), so no balance
 * changes without an operator's action or a confirmed deposit reported by a real chain gateway.
 *
 * The demo flag is read HERE and nowhere else on a money path: `resolveCounterparties` runs once per engine
 * and domains ask `ctx.counterparties.reviewer`, `.payments`, `.chain` instead of testing `config.demo`.
 */
import type { EngineConfig } from './config';
import { marketFor } from './market/instance';
import { simulatedSource, type MarketSource } from './market/source';
import type { Micro } from './money';

/** One quick-buy charge: the member pays `total` of `currency` (fiat) for `amount` USDT. */
export interface PaymentCharge {
  /** The quick-buy order id (idempotency key for the provider: the same id is never charged twice). */
  orderId: string;
  memberId: string;
  /** USDT bought, micro-units. */
  amount: Micro;
  /** Fiat currency code (ISO 4217) and the fiat total as a decimal string, as quoted to the member. */
  currency: string;
  total: string;
}

export type PaymentResult =
  /** The provider holds the member's money: the engine credits the USDT in the same unit of work. */
  | { status: 'paid'; reference: string }
  /** Nothing was taken: the buy fails with the reason and nothing is credited. */
  | { status: 'declined'; reason: string };

/**
 * A payment provider adapter (card acquirer, bank transfer gateway...). Quick buy is available only when one
 * is configured. `charge` must be idempotent by `orderId` and must answer only once the outcome is final;
 * providers that settle later by webhook are not supported yet (docs/OPERATIONS.md).
 */
export interface PaymentProvider {
  /** Shown to operators and in logs, e.g. "demo" or "acme-cards". */
  readonly name: string;
  charge(request: PaymentCharge): Promise<PaymentResult>;
}

/** The demo's provider: every charge is paid at once (the money comes from `world:FIAT`). */
export const simulatedPayments: PaymentProvider = {
  name: 'demo',
  charge: async (request) => ({ status: 'paid', reference: `demo:${request.orderId}` }),
};

/**
 * The simulated reviewer (demo only). When present, it decides withdrawals after config.withdrawReviewMs
 * (engine/withdrawals/rules.ts review()), credits payment-proof and transaction-hash deposits after
 * config.rechargeReviewMs and passes identity checks after config.certReviewMs. When absent, each of these
 * stays pending / under review until an operator decides (engine/operations.ts).
 */
export interface SimulatedReviewer {
  readonly withdrawals: true;
  readonly deposits: true;
  readonly identity: true;
}

/**
 * The simulated chains (engine/chain/simulator.ts): /api/demo/chain/send answers, and an approved
 * withdrawal is "sent" on them with a simulated hash. Absent in live mode, where a chain gateway
 * (server/chain/gateway.ts) watches the real chains and broadcasts through the signer.
 */
export interface SimulatedChains {
  readonly simulated: true;
}

export interface Counterparties {
  readonly mode: 'demo' | 'live';
  readonly reviewer: SimulatedReviewer | null;
  readonly payments: PaymentProvider | null;
  readonly chain: SimulatedChains | null;
  /**
   * Where prices come from (engine/market/source.ts), with house:market on the other side of every order:
   * the simulator in demo mode; in live mode the market-data gateway's source when the server has one
   * (server/market-data), else none, so the market calls show no quotes and /api/order/place answers 403.
   */
  readonly market: MarketSource | null;
}

export interface CounterpartyOptions {
  /** A real payment provider adapter; live mode only (demo mode always uses the simulated one). */
  payments?: PaymentProvider;
  /** Live prices (the market-data gateway's source); live mode only (demo mode always simulates). */
  market?: MarketSource;
  /** The engine's seed: the demo's simulated market is a function of it. */
  seed?: number;
}

/** The one place the demo flag decides who the counterparties are. */
export function resolveCounterparties(
  config: Pick<EngineConfig, 'demo'> & Partial<Pick<EngineConfig, 'marketModel'>>,
  options: CounterpartyOptions = {},
): Counterparties {
  if (config.demo) {
    return {
      mode: 'demo',
      reviewer: { withdrawals: true, deposits: true, identity: true },
      payments: simulatedPayments,
      chain: { simulated: true },
      market: simulatedSource(marketFor(options.seed ?? 1, config.marketModel)),
    };
  }
  return {
    mode: 'live',
    reviewer: null,
    payments: options.payments ?? null,
    chain: null,
    market: options.market ?? null,
  };
}
