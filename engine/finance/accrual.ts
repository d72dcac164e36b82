/**
 * Finance earnings arithmetic (docs/RULES.md F2-F3). Exact bigint micro-units throughout.
 *
 * Earnings through day d are floor(principal x rateBps x d / (10_000 x 365)); the amount credited on day d
 * is the increase of that figure over day d-1. Each day's credit is therefore principal x rate / 365
 * rounded down or up by at most one micro-unit, and rounding never accumulates: after the whole term the
 * member has exactly floor(principal x rate x term / 365), whatever happened to the days in between.
 */
import { mulDiv } from '../money';
import type { Micro } from '../money';

const BPS_YEAR = 10_000n * 365n;

/** Earnings accrued after `days` whole days. */
export function earningsThrough(principal: Micro, rateBps: number, days: number): Micro {
  if (days <= 0) return 0n;
  return mulDiv(principal, BigInt(rateBps) * BigInt(days), BPS_YEAR, 'floor');
}

/** What day `day` (1-based) credits. */
export function earningsOfDay(principal: Micro, rateBps: number, day: number): Micro {
  return earningsThrough(principal, rateBps, day) - earningsThrough(principal, rateBps, day - 1);
}

/** The nominal daily earnings shown to the member: principal x rate / 365, rounded down. */
export function nominalDaily(principal: Micro, rateBps: number): Micro {
  return earningsThrough(principal, rateBps, 1);
}

/** A rate in basis points as a percent string with two decimals: 1250 -> "12.50". */
export function bpsToPercent(bps: number): string {
  return `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}`;
}
