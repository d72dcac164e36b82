/** Withdrawal rows in wire form: amounts as decimal strings, times as Unix seconds. */
import { toSeconds } from '../context';
import { formatAmount } from '../money';
import type { WithdrawalRow } from './tables';
import type { WithdrawalRecord } from './types';

export function withdrawalView(row: WithdrawalRow): WithdrawalRecord {
  return {
    id: row.id,
    currency: row.currency,
    network: row.network,
    address: row.address,
    amount: formatAmount(BigInt(row.amount)),
    fee: formatAmount(BigInt(row.fee)),
    received: formatAmount(BigInt(row.received)),
    status: row.status,
    txid: row.txid,
    reason: row.reason,
    createdAt: toSeconds(row.createdAt),
    reviewAt: toSeconds(row.reviewAt),
    finishedAt: row.finishedAt === null ? null : toSeconds(row.finishedAt),
  };
}
