/**
 * What the signer has signed, per withdrawal id, across its EVM and TRON routes: read back from the journal
 * at start (journal.ts), kept with every signature of this run, with the USDT limits both routes share
 * (limits.ts). A withdrawal id is paid by one transaction only: a second signature is given only for the same
 * nonce, amount and destination (EVM) or the very same transaction (TRON, which has no nonce), never on the
 * other network, and is not counted again toward the daily limit; otherwise 409. Why: docs/OPERATIONS.md
 * "The signer process" ("The journal").
 */
import type { JournalEntry, SignerJournal } from './journal';
import { createSpendLimits, type SpendLimitSettings } from './limits';
import { Refusal } from './wire';
import { formatAmount } from '../../engine/server';

/** The first signature of a withdrawal id: what a second one must match. */
export type FirstSignature =
  | { network: 'ERC20'; nonce: number; amount: bigint; to: string }
  | { network: 'TRC20'; txId: string; amount: bigint; to: string };

export interface Reservation {
  /** True when the withdrawal id was signed before (the same transaction, or an EVM replacement). */
  readonly again: boolean;
  /**
   * Writes the signature to the journal (fsync'd): only then may it be answered. If the write fails the
   * reservation stays (the entry may have reached the disk): the same transaction is still signed again.
   */
  commit(entry: JournalEntry): void;
  /** The signature failed: the amount and (for a first signature) the withdrawal id are released. */
  release(): void;
}

export interface SignatureLedger {
  /**
   * Checks a signature request of `withdrawalId` against the limits (403) and its earlier signature (409),
   * and reserves it, before any asynchronous signing: two requests at once cannot both pass.
   */
  reserve(withdrawalId: string, signature: FirstSignature): Reservation;
  /** Micro-USDT counted toward today's (UTC) limit, both networks together. */
  signedToday(): bigint;
  /** Distinct withdrawal ids signed. */
  readonly withdrawals: number;
}

const usdt = formatAmount;

/** A withdrawal id as the engine makes them (and nothing a log line could be confused by). */
const WITHDRAWAL_ID = /^[A-Za-z0-9_.:-]{1,100}$/;

/** Refuses (400) a request without a well-formed withdrawal id: every signature is journaled under one. */
export function checkWithdrawalId(withdrawalId: unknown): asserts withdrawalId is string {
  if (typeof withdrawalId !== 'string' || !WITHDRAWAL_ID.test(withdrawalId))
    throw new Refusal(400, 'withdrawalId is required: the withdrawal id, 1 to 100 of A-Z a-z 0-9 _ . : -');
}

export function createSignatureLedger(
  settings: SpendLimitSettings & { journal?: SignerJournal },
): SignatureLedger {
  const limits = createSpendLimits(settings);
  const journal = settings.journal;
  const signed = new Map<string, FirstSignature>();
  for (const entry of journal?.entries ?? []) {
    // The first signature of a withdrawal id counts; a second one (the same transaction) never counts again.
    if (signed.has(entry.withdrawalId)) continue;
    signed.set(
      entry.withdrawalId,
      entry.network === 'TRC20'
        ? { network: 'TRC20', txId: entry.txId, amount: entry.amount, to: entry.to }
        : { network: 'ERC20', nonce: entry.nonce, amount: entry.amount, to: entry.to },
    );
    limits.restore(entry.amount, entry.at);
  }

  function conflict(withdrawalId: string, earlier: FirstSignature, next: FirstSignature): string | undefined {
    if (earlier.network !== next.network)
      return `Refused: withdrawal ${withdrawalId} was already signed on ${earlier.network}, not ${next.network}`;
    if (earlier.network === 'ERC20' && next.network === 'ERC20') {
      // Two signatures with one nonce cannot both be mined; with another nonce the withdrawal could be paid twice.
      if (earlier.nonce !== next.nonce)
        return (
          `Refused: withdrawal ${withdrawalId} was already signed with nonce ${earlier.nonce}; ` +
          `only a replacement with that nonce is signed, not nonce ${next.nonce}`
        );
      if (earlier.amount !== next.amount || earlier.to.toLowerCase() !== next.to.toLowerCase())
        return (
          `Refused: withdrawal ${withdrawalId} was already signed for ${usdt(earlier.amount)} USDT to ` +
          `${earlier.to}; a replacement must send the same`
        );
    }
    if (earlier.network === 'TRC20' && next.network === 'TRC20' && earlier.txId !== next.txId)
      // TRON has no nonce: two transactions of one withdrawal could both be included.
      return (
        `Refused: withdrawal ${withdrawalId} was already signed as TRON transaction ${earlier.txId}; ` +
        `only that same transaction is signed again, not ${next.txId}`
      );
    return undefined;
  }

  return {
    get withdrawals() {
      return signed.size;
    },
    signedToday: () => limits.signedToday(),
    reserve(withdrawalId, next) {
      limits.checkTransfer(next.amount);
      const earlier = signed.get(withdrawalId);
      const refused = earlier && conflict(withdrawalId, earlier, next);
      if (refused) throw new Refusal(409, refused);
      // A second signature is not counted again (its first one was).
      const releaseAmount = limits.reserve(next.amount, earlier ? 0n : next.amount);
      if (!earlier) signed.set(withdrawalId, next);
      return {
        again: earlier !== undefined,
        commit: (entry) => journal?.append(entry),
        release: () => {
          releaseAmount();
          if (!earlier && signed.get(withdrawalId) === next) signed.delete(withdrawalId);
        },
      };
    },
  };
}
