/**
 * The signer's USDT limits (docs/OPERATIONS.md "The signer process"), shared by every route that signs a
 * transfer (EVM and TRON): the largest single transfer, and the most signed per UTC day in total across
 * networks. The day's total starts from what the journal says was signed today (`restore`, at start: see
 * server/signer/ledger.ts), so a restart of the signer does not reset it.
 */
import { Refusal } from './wire';
import { formatAmount } from '../../engine/server';

export interface SpendLimitSettings {
  /** Largest transfer, micro-USDT; none when undefined. */
  maxPerTx?: bigint;
  /** Most per UTC day in total, micro-USDT; none when undefined. */
  maxPerDay?: bigint;
  /** Clock for the daily window (tests). */
  now?: () => number;
}

export interface SpendLimits {
  /** Throws a 403 Refusal when `amount` (micro-USDT) is over the per-transaction limit. */
  checkTransfer(amount: bigint): void;
  /**
   * Checks `amount` against both limits and counts `counted` of it (all of it by default; 0 for a
   * replacement of a signature counted earlier) in today's total at once, before any asynchronous signing,
   * so two requests at once cannot both pass. Throws a 403 Refusal naming the limit. Answers a function that
   * takes the amount back out (the signature then failed).
   */
  reserve(amount: bigint, counted?: bigint): () => void;
  /** Counts a signature read back from the journal, if it was made today (UTC). */
  restore(amount: bigint, at: number): void;
  /** Micro-USDT counted toward today's (UTC) limit. */
  signedToday(): bigint;
}

export const DAY_MS = 86_400_000;
const usdt = formatAmount;

export function createSpendLimits(settings: SpendLimitSettings): SpendLimits {
  const now = settings.now ?? Date.now;
  let day = Math.floor(now() / DAY_MS);
  let signedToday = 0n;
  const roll = () => {
    const today = Math.floor(now() / DAY_MS);
    if (today !== day) {
      day = today;
      signedToday = 0n;
    }
  };
  const checkTransfer = (amount: bigint) => {
    if (settings.maxPerTx !== undefined && amount > settings.maxPerTx)
      throw new Refusal(
        403,
        `Refused: ${usdt(amount)} USDT is over the per-transaction limit ${usdt(settings.maxPerTx)}`,
      );
  };
  return {
    checkTransfer,
    reserve(amount, counted = amount) {
      checkTransfer(amount);
      roll();
      if (settings.maxPerDay !== undefined && counted > 0n && signedToday + counted > settings.maxPerDay)
        throw new Refusal(
          403,
          `Refused: ${usdt(amount)} USDT would exceed the daily limit ${usdt(settings.maxPerDay)} ` +
            `(${usdt(signedToday)} signed today)`,
        );
      signedToday += counted;
      const countedDay = day;
      let released = false;
      return () => {
        if (released || countedDay !== day) return;
        released = true;
        signedToday -= counted;
      };
    },
    restore(amount, at) {
      roll();
      if (Math.floor(at / DAY_MS) === day) signedToday += amount;
    },
    signedToday() {
      roll();
      return signedToday;
    },
  };
}
