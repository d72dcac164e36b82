/**
 * Synced tables of the member's products and services: trading orders, finance subscriptions and their
 * profit log, mining pledges, bank cards and identity certificates. Views are the ones their own list calls
 * answer. Contract positions sync from views.ts: their stored fields only; the device values them at the
 * feed's mark prices with the engine's own livePositions (engine/trading/views.ts).
 */
import { certs, type CertRow } from '../accounts/cert';
import { toSeconds } from '../context';
import { bankCards, type BankCardRow } from '../bank/handlers';
import { financeOrders, profitLog, type FinanceOrderRow, type ProfitRow } from '../finance/tables';
import { orderView as financeOrderView, profitView } from '../finance/views';
import { pledges, pledgeView, type PledgeRow } from '../mining/handlers';
import type { Row } from '../store/port';
import { orders, type OrderRow } from '../trading/tables';
import { orderView } from '../trading/views';
import type { Synced } from './views';

function own<T extends Row & { memberId: string }>(
  table: Synced<T>['table'],
  view: (row: T) => unknown,
): Synced<Row> {
  const spec: Synced<T> = { table, membersOf: (row) => [row.memberId], view: (_ctx, row) => view(row) };
  return spec as unknown as Synced<Row>;
}

export const productTables: Synced<Row>[] = [
  own<OrderRow>(orders, orderView),
  own<FinanceOrderRow>(financeOrders, financeOrderView),
  own<ProfitRow>(profitLog, profitView),
  own<PledgeRow>(pledges, pledgeView),
  own<BankCardRow>(bankCards, (c) => ({
    id: c.id,
    bankName: c.bankName,
    cardNumber: `**** **** **** ${c.last4}`,
    holder: c.holder,
    time: toSeconds(c.createdAt),
  })),
  own<CertRow>(certs, (c) => ({
    ...c,
    createdAt: toSeconds(c.createdAt),
    reviewedAt: c.reviewedAt === null ? null : toSeconds(c.reviewedAt),
  })),
];
