/**
 * The checks a subscription amount must pass before it is sent (API.md "Finance": min/max, the personal
 * limit and what is left this round answer 3010; the cash balance 4011), and the earnings it would make,
 * all in exact micro-USDT.
 */
import type { ProductView } from '../../../engine/index';
import { formatMicro, mulDiv, parseAmountText } from '../../../engine/index';

export type BuyReason =
  | 'required'
  | 'invalidAmount'
  | 'belowMinimum'
  | 'overMaximum'
  | 'overPersonal'
  | 'overRound'
  | 'overAvailable';

export function checkBuyAmount(
  text: string,
  product: ProductView,
  available: string | undefined,
): BuyReason | null {
  if (text.trim() === '') return 'required';
  const value = parseAmountText(text);
  if (value === null || value === 0n) return 'invalidAmount';
  const over = (limit: string) => {
    const cap = parseAmountText(limit);
    return cap !== null && value > cap;
  };
  const min = parseAmountText(product.min);
  if (min !== null && value < min) return 'belowMinimum';
  if (over(product.max)) return 'overMaximum';
  if (over(product.personalRemaining)) return 'overPersonal';
  if (over(product.remaining)) return 'overRound';
  if (available !== undefined && over(available)) return 'overAvailable';
  return null;
}

/** "12.50" (percent) -> basis points 1250; null when it is not a percent with at most 2 decimals. */
export function percentToBps(percent: string): bigint | null {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(percent.trim());
  if (!m) return null;
  return BigInt(m[1] ?? '0') * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
}

/**
 * Daily earnings = principal x annual rate / 365, and the term's total principal x rate x days / 365, each
 * rounded down to the micro-unit as the engine credits them. Decimal strings, or null for a bad amount.
 */
export function estimateEarnings(
  amount: string,
  annualRate: string,
  termDays: number,
): { daily: string; total: string } | null {
  const principal = parseAmountText(amount);
  const bps = percentToBps(annualRate);
  if (principal === null || bps === null) return null;
  const daily = mulDiv(principal, bps, 10_000n * 365n, 'floor');
  const total = mulDiv(principal * bps, BigInt(termDays), 10_000n * 365n, 'floor');
  return { daily: formatMicro(daily), total: formatMicro(total) };
}
