/**
 * Checks of an order before it is sent, in exact micro-units (API.md: amounts are decimal strings with at
 * most 6 decimals): volume and price present and positive, and what the order costs against what is free
 * in the account that pays for it. The engine checks again (S5, O2); these only save a refused round trip.
 */
import { mulDiv, mulMicro, parseAmountText as toMicro } from '../../../engine/index';

export type OrderReason = 'required' | 'invalid' | 'belowMinimum' | 'overAvailable';

export function checkPositive(text: string): OrderReason | null {
  if (text.trim() === '') return 'required';
  const value = toMicro(text);
  return value === null || value === 0n ? 'invalid' : null;
}

/** price x volume in micro-USDT, rounded up as the engine charges a buyer (S2), or null. */
export function notional(price: string, volume: string): bigint | null {
  const p = toMicro(price);
  const v = toMicro(volume);
  if (p === null || v === null) return null;
  return mulMicro(p, v, 'ceil');
}

/** Margin = notional / leverage, rounded up (K1). */
export function marginFor(price: string, volume: string, leverage: number): bigint | null {
  const n = notional(price, volume);
  if (n === null || leverage < 1) return null;
  return mulDiv(n, 1n, BigInt(leverage), 'ceil');
}

/** Micro-units -> the wire decimal string: engine/money.ts's formatAmount, re-exported for the forms. */
export { formatMicro as microToString } from '../../../engine/index';

/** The first problem of a spot order, by field. */
export function checkSpot(input: {
  side: 'buy' | 'sell';
  type: 'market' | 'limit';
  price: string;
  volume: string;
  /** Reference price for a market order (the latest). */
  latest: string;
  availableUsdt: string | undefined;
  availableBase: string | undefined;
}): { price?: OrderReason; volume?: OrderReason } {
  const errors: { price?: OrderReason; volume?: OrderReason } = {};
  if (input.type === 'limit') {
    const p = checkPositive(input.price);
    if (p) errors.price = p;
  }
  const v = checkPositive(input.volume);
  if (v) errors.volume = v;
  if (errors.price || errors.volume) return errors;
  if (input.side === 'sell') {
    const have = input.availableBase === undefined ? null : toMicro(input.availableBase);
    const want = toMicro(input.volume);
    if (have !== null && want !== null && want > have) errors.volume = 'overAvailable';
  } else {
    const cost = notional(input.type === 'limit' ? input.price : input.latest, input.volume);
    const have = input.availableUsdt === undefined ? null : toMicro(input.availableUsdt);
    if (have !== null && cost !== null && cost > have) errors.volume = 'overAvailable';
  }
  return errors;
}
