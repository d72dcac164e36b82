/**
 * Checks of an order before it is sent, in exact micro-units (API.md: amounts are decimal strings with at
 * most 6 decimals): volume and price present and positive, and what the order costs against what is free
 * in the account that pays for it. The engine checks again (S5, O2); these only save a refused round trip.
 */
import {
  formatMicro as formatMicroLocal,
  mulDiv,
  mulMicro,
  parseAmountText as toMicro,
} from '../../../engine/index';

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

const ONE = toMicro('1') ?? 1n;

/** Micro-units cut down to `decimals` places (a pair's quantity step). */
function toStep(value: bigint, decimals: number): bigint {
  const step = 10n ** BigInt(Math.max(0, 6 - decimals));
  return value - (value % step);
}

/**
 * The quantity a quick amount buys: `quarters` (1-4) quarters of the free contract balance as margin plus
 * fee at `leverage` and `price`, cut down to the pair's step (what a "25% / 50% / 75% / 100%" button fills
 * in). Null when a figure is missing.
 */
export function quantityForShare(input: {
  available: string | undefined;
  quarters: number;
  leverage: number;
  price: string;
  feeBps: number;
  decimals: number;
}): string | null {
  const available = input.available === undefined ? null : toMicro(input.available);
  const price = toMicro(input.price);
  if (available === null || price === null || price === 0n || input.leverage < 1) return null;
  const budget = mulDiv(available, BigInt(input.quarters), 4n, 'floor');
  // margin + fee = N / L + N x fee <= budget  =>  N = budget x L x 10,000 / (10,000 + L x feeBps)
  const lev = BigInt(input.leverage);
  const notional = mulDiv(budget * lev, 10_000n, 10_000n + lev * BigInt(input.feeBps), 'floor');
  return formatMicroLocal(toStep(mulDiv(notional, ONE, price, 'floor'), input.decimals));
}

/** The quantity a total in USDT (the position's value) buys at `price`, cut down to the pair's step. */
export function quantityForTotal(total: string, price: string, decimals: number): string | null {
  const value = toMicro(total);
  const p = toMicro(price);
  if (value === null || p === null || p === 0n) return null;
  return formatMicroLocal(toStep(mulDiv(value, ONE, p, 'floor'), decimals));
}

export type TriggerReason = 'tpSide' | 'slSide' | 'invalid';

/**
 * A take-profit or stop-loss typed on the form, against the mark (the engine checks again: 4038, 4039): a
 * long's take-profit above the mark and stop-loss below, a short's the reverse. Empty is fine (none).
 */
export function checkTrigger(
  kind: 'tp' | 'sl',
  side: 'long' | 'short',
  text: string,
  mark: string | undefined,
): TriggerReason | null {
  if (text.trim() === '') return null;
  const value = toMicro(text);
  if (value === null || value === 0n) return 'invalid';
  const m = mark === undefined ? null : toMicro(mark);
  if (m === null) return null;
  const above = (kind === 'tp') === (side === 'long');
  if (above ? value <= m : value >= m) return kind === 'tp' ? 'tpSide' : 'slSide';
  return null;
}

/**
 * The quantity a spot quick amount fills in (issue 26 item 2): a buy spends `quarters` quarters of the free
 * USDT with the fee within it (the engine takes value + fee from the cash account, S2), at `price` (the
 * limit's, or the last for a market order); a sell offers `quarters` quarters of the free coin. Both cut
 * down to the pair's step; null when a figure is missing or the price is zero.
 */
export function spotQuantityForShare(input: {
  side: 'buy' | 'sell';
  quarters: number;
  availableUsdt: string | undefined;
  availableBase: string | undefined;
  price: string;
  feeBps: number;
  decimals: number;
}): string | null {
  if (input.side === 'buy')
    return quantityForShare({
      available: input.availableUsdt,
      quarters: input.quarters,
      leverage: 1,
      price: input.price,
      feeBps: input.feeBps,
      decimals: input.decimals,
    });
  const have = input.availableBase === undefined ? null : toMicro(input.availableBase);
  if (have === null) return null;
  return formatMicroLocal(toStep(mulDiv(have, BigInt(input.quarters), 4n, 'floor'), input.decimals));
}

/** The total in USDT a quantity comes to at `price` (rounded up to the micro-USDT, as `notional`), or ''. */
export function totalForQuantity(quantity: string, price: string): string {
  const value = notional(price, quantity);
  return value === null ? '' : formatMicroLocal(value);
}
