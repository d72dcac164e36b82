/**
 * Withdrawal rules as pure functions of micro-USDT amounts, so each one is testable without an engine.
 * API.md: minimum 10 USDT (410), fee per network (TRC20 1, ERC20 5), received = amount - fee, review after
 * 60 s that sends or rejects.
 */
import type { Network } from '../chain/addresses';
import type { EngineConfig } from '../config';

/** The part of engine config (engine/config.ts) these rules read. */
export type WithdrawConfig = Pick<
  EngineConfig,
  'minWithdraw' | 'networks' | 'withdrawReviewLimit' | 'withdrawDenyList'
>;

export interface FeeQuote {
  feeMicro: bigint;
  /** amount - fee, never below zero (a quote for an amount under the fee receives nothing). */
  receivedMicro: bigint;
  /** The smallest amount that may be submitted on this network. */
  minimumMicro: bigint;
}

/**
 * The effective minimum is the configured one, raised above the fee if config ever set it lower, so a
 * withdrawal can never deliver zero or less.
 */
export function effectiveMinimum(config: WithdrawConfig, network: Network): bigint {
  const fee = config.networks[network].withdrawFee;
  return config.minWithdraw > fee ? config.minWithdraw : fee + 1n;
}

export function quoteFee(config: WithdrawConfig, network: Network, amountMicro: bigint): FeeQuote {
  const feeMicro = config.networks[network].withdrawFee;
  const received = amountMicro - feeMicro;
  return {
    feeMicro,
    receivedMicro: received > 0n ? received : 0n,
    minimumMicro: effectiveMinimum(config, network),
  };
}

export type ReviewVerdict = { send: true } | { send: false; reason: string };

/**
 * The simulated reviewer (demo mode decides automatically, API.md). It rejects a withdrawal to a deny-listed
 * address or above the single-withdrawal limit; everything else is sent. Deterministic, so tests and the
 * property test can predict each outcome.
 */
export function review(config: WithdrawConfig, address: string, amountMicro: bigint): ReviewVerdict {
  const lower = address.toLowerCase();
  if (config.withdrawDenyList.some((denied) => denied.toLowerCase() === lower)) {
    return { send: false, reason: 'Rejected by risk review: the destination address is on the deny-list' };
  }
  if (amountMicro > config.withdrawReviewLimit) {
    return { send: false, reason: 'Rejected by risk review: the amount exceeds the single-withdrawal limit' };
  }
  return { send: true };
}
