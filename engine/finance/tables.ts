/** Finance records: subscriptions, round sales and the profit log shared by finance, mining and invites. */
import { defineTable } from '../store/port';

export type FinanceOrderStatus = 'active' | 'redeemed';

export interface FinanceOrderRow {
  id: string;
  memberId: string;
  productId: string;
  productName: string;
  /** Principal in micro-units (string: rows store amounts as integer strings). */
  amount: string;
  rateBps: number;
  termDays: number;
  /** Whole days credited so far (0..termDays). */
  daysCredited: number;
  /** Sum of the credits so far. */
  earned: string;
  /** The credit of the most recent day. */
  lastDaily: string;
  startAt: number;
  redeemAt: number;
  holdId: string;
  status: FinanceOrderStatus;
  redeemedAt: number | null;
}

export const financeOrders = defineTable<FinanceOrderRow>('financeOrders', {
  member: (o) => o.memberId,
  memberProduct: (o) => (o.status === 'active' ? `${o.memberId}:${o.productId}` : null),
});

/** Amount sold of one product in one round: id `<productId>:<round>`. */
export interface RoundRow {
  id: string;
  sold: string;
}

export const financeRounds = defineTable<RoundRow>('financeRounds');

export type ProfitType = 'finance' | 'mining' | 'invite';

export interface ProfitRow {
  id: string;
  memberId: string;
  type: ProfitType;
  amount: string;
  /** The order, pledge or invitee the profit comes from. */
  ref: string;
  note: string;
  at: number;
}

export const profitLog = defineTable<ProfitRow>('profitLog', {
  member: (p) => p.memberId,
  memberType: (p) => `${p.memberId}:${p.type}`,
});
