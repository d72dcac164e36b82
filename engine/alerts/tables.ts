/**
 * Price alerts and the margin warnings already sent (times in ms, engine/README.md). priceAlerts: a
 * member's alert on a pair, `above`/`below` a price or a `move` of a percentage either way from the price
 * when set; it fires once, at the first second the price reaches it (alerts.watch), and stays listed as
 * fired. marginWarnings: the positions (isolated, or a cross account) whose member was told their margin
 * ratio crossed the warning threshold: one notice per crossing. docs/DECISIONS.md "Wallet screens".
 */
import { defineTable } from '../store/port';

export type AlertKind = 'above' | 'below' | 'move';
export type AlertStatus = 'active' | 'fired' | 'cancelled';

export interface PriceAlertRow {
  id: string;
  memberId: string;
  symbol: string;
  kind: AlertKind;
  /** above/below: the price (micro-USDT, a decimal integer string); move: null. */
  price: string | null;
  /** move: the percentage in parts per million (5% = 50_000); else null. */
  movePpm: number | null;
  /** The pair's price when the alert was set (micro-USDT): a move is measured from it. */
  basePrice: string;
  status: AlertStatus;
  createdAt: number;
  /** When it fired or was cancelled. */
  endedAt: number | null;
  /** The price that reached it (micro-USDT), once fired. */
  firedPrice: string | null;
}

export const priceAlerts = defineTable<PriceAlertRow>('priceAlerts', {
  member: (r) => r.memberId,
  status: (r) => r.status,
});

export interface MarginWarningRow {
  /** A position id (isolated), or `cross:<memberId>`. */
  id: string;
  memberId: string;
  at: number;
}

export const marginWarnings = defineTable<MarginWarningRow>('marginWarnings', {
  member: (r) => r.memberId,
  /** The hook looks at every warning each second: the table holds only positions above the threshold now. */
  all: () => 'all',
});
