/** Ledger storage: the journal (source of truth), cached balances and holds. Amounts are micro-unit strings. */
import { defineTable } from '../store/port';

export interface Leg {
  account: string;
  asset: string;
  /** Signed micro-units as a decimal integer string: positive credits the account. */
  amount: string;
}

export interface JournalEntry {
  id: string;
  at: number;
  kind: string;
  ref: string;
  legs: Leg[];
  members: string[];
}

export interface BalanceRow {
  id: string;
  account: string;
  asset: string;
  amount: string;
  owner: string | null;
}

export type HoldStatus = 'held' | 'released' | 'captured';

export interface HoldRow {
  id: string;
  memberId: string;
  /** The available account the money came from and returns to. */
  account: string;
  frozenAccount: string;
  asset: string;
  amount: string;
  reason: string;
  ref: string;
  status: HoldStatus;
  createdAt: number;
  closedAt: number | null;
}

export const journal = defineTable<JournalEntry>('journal', { ref: (e) => e.ref, member: (e) => e.members });
export const balances = defineTable<BalanceRow>('balances', { owner: (b) => b.owner });
export const holds = defineTable<HoldRow>('holds', {
  member: (h) => h.memberId,
  ref: (h) => h.ref,
  active: (h) => (h.status === 'held' ? `${h.memberId}:${h.reason}` : null),
});

export function balanceId(account: string, asset: string): string {
  return `${account}|${asset}`;
}
