/** Deposit rows in wire form: amounts as decimal strings, times as Unix seconds. */
import { chainOf } from '../chain/domain';
import type { Ctx } from '../context';
import { toSeconds } from '../context';
import { formatAmount } from '../money';
import type { DepositRow } from './tables';
import type { DepositRecord } from './types';

function confirmationsOf(ctx: Ctx, row: DepositRow): number | null {
  if (row.source !== 'chain' || row.includedHeight === null || row.required === null) return null;
  if (row.status === 'success') return row.required;
  if (row.confirmations !== undefined && row.confirmations !== null) {
    return Math.min(row.confirmations, row.required);
  }
  const seen = chainOf(ctx, row.network).confirmationsOf(row.includedHeight, ctx.now);
  return Math.min(seen, row.required);
}

export function depositView(ctx: Ctx, row: DepositRow): DepositRecord {
  return {
    id: row.id,
    currency: row.currency,
    network: row.network,
    address: row.address,
    amount: formatAmount(BigInt(row.amount)),
    status: row.status,
    type: row.source,
    txid: row.txid,
    proof: row.proof,
    confirmations: confirmationsOf(ctx, row),
    required: row.required,
    createdAt: toSeconds(row.createdAt),
    updatedAt: toSeconds(row.updatedAt),
  };
}
