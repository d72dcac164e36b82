/**
 * The signer's USDT limits (docs/OPERATIONS.md "The signer process"), shared by every route that signs a
 * transfer (EVM and TRON): the largest single transfer, and the most signed per UTC day in total across
 * networks. The day's total is kept in memory (a restart of the signer resets it).
 */
import { formatAmount } from '../../engine/money';
import { Refusal } from './wire';

export interface SpendLimitSettings {
  /** Largest transfer, micro-USDT; none when undefined. */
  maxPerTx?: bigint;
  /** Most per UTC day in total, micro-USDT; none when undefined. */
  maxPerDay?: bigint;
  /** Clock for the daily window (tests). */
  now?: () => number;
}

export interface SpendLimits {
  /**
   * Checks `amount` (micro-USDT) against both limits and counts it in today's total at once, before any
   * asynchronous signing, so two requests at once cannot both pass. Throws a 403 Refusal naming the limit.
   * Answers a function that takes the amount back out (the signature then failed).
   */
  reserve(amount: bigint): () => void;
}

const DAY_MS = 86_400_000;
const usdt = formatAmount;

export function createSpendLimits(settings: SpendLimitSettings): SpendLimits {
  const now = settings.now ?? Date.now;
  let day = -1;
  let signedToday = 0n;
  return {
    reserve(amount) {
      if (settings.maxPerTx !== undefined && amount > settings.maxPerTx)
        throw new Refusal(
          403,
          `Refused: ${usdt(amount)} USDT is over the per-transaction limit ${usdt(settings.maxPerTx)}`,
        );
      const today = Math.floor(now() / DAY_MS);
      if (today !== day) {
        day = today;
        signedToday = 0n;
      }
      if (settings.maxPerDay !== undefined && signedToday + amount > settings.maxPerDay)
        throw new Refusal(
          403,
          `Refused: ${usdt(amount)} USDT would exceed the daily limit ${usdt(settings.maxPerDay)} ` +
            `(${usdt(signedToday)} signed today)`,
        );
      signedToday += amount;
      const counted = day;
      let released = false;
      return () => {
        if (released || counted !== day) return;
        released = true;
        signedToday -= amount;
      };
    },
  };
}
