/** What a member sees of a price alert (the list call and the synced `priceAlerts` rows). */
import { toSeconds } from '../context';
import type { UnixSeconds } from '../contract';
import { formatAmount } from '../money';
import type { AlertKind, AlertStatus, PriceAlertRow } from './tables';

export interface AlertView {
  id: string;
  symbol: string;
  kind: AlertKind;
  /** above/below: the target price (USDT); move: null. */
  price: string | null;
  /** move: the percentage either way ("5", "2.5"); else null. */
  percent: string | null;
  /** The pair's price when it was set. */
  basePrice: string;
  status: AlertStatus;
  createdAt: UnixSeconds;
  /** When it fired or was cancelled. */
  endedAt: UnixSeconds | null;
  /** The price that reached it, once fired. */
  firedPrice: string | null;
}

/** Parts per million as a percentage string: 50_000 -> "5", 25_000 -> "2.5" (1 ppm = 100 micro-percent). */
export function ppmPercent(ppm: number): string {
  return formatAmount(BigInt(ppm) * 100n);
}

export function alertView(row: PriceAlertRow): AlertView {
  return {
    id: row.id,
    symbol: row.symbol,
    kind: row.kind,
    price: row.price === null ? null : formatAmount(BigInt(row.price)),
    percent: row.movePpm === null ? null : ppmPercent(row.movePpm),
    basePrice: formatAmount(BigInt(row.basePrice)),
    status: row.status,
    createdAt: toSeconds(row.createdAt),
    endedAt: row.endedAt === null ? null : toSeconds(row.endedAt),
    firedPrice: row.firedPrice === null ? null : formatAmount(BigInt(row.firedPrice)),
  };
}
