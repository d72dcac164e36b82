/** Transfer records (one per transfer, listed to both parties) and per-recipient receive totals. */
import { defineTable } from '../store/port';

export interface TransferRow {
  id: string;
  fromId: string;
  toId: string;
  fromUsername: string;
  toUsername: string;
  /** What the sender typed to name the recipient (username, phone or e-mail). */
  account: string;
  amount: string;
  status: 'success';
  createdAt: number;
}

export const transfers = defineTable<TransferRow>('transfers', { party: (t) => [t.fromId, t.toId] });

/** id: `<memberId>:d:<YYYY-MM-DD>` or `<memberId>:m:<YYYY-MM>`; amount in micro-units. */
export interface ReceiveTotalRow {
  id: string;
  amount: string;
}

export const receiveTotals = defineTable<ReceiveTotalRow>('receiveTotals');
