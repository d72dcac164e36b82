/**
 * The simulated USDT pairs and the parameters of their price model. Reference prices and volatilities are
 * those of the real markets in 2025 (docs/TRADING.md "Market model"); volume is in base-asset units per minute at normal volatility.
 */

import { DECIMALS, SCALE } from '../money';

/** Prices are integers of micro-USDT (the scale of engine money), rounded to the tick. */
export const PRICE_DECIMALS = DECIMALS;
export const PRICE_SCALE = Number(SCALE);
/** Volumes are integers of 1e-4 base units: a DOGE day (~2e9 coins) stays far below 2^53. */
export const VOLUME_DECIMALS = 4;
export const VOLUME_SCALE = 10_000;

export interface SymbolSpec {
  /** Pair name on the wire, e.g. "BTC/USDT". */
  readonly symbol: string;
  readonly base: string;
  /** Stable small id used as a hash input; never reuse one. */
  readonly id: number;
  /**
   * Reference price in USDT: the price at the market model's reference time (hourly.ts), from which the
   * history walks freely in both directions (no pull back to it).
   */
  readonly reference: number;
  /** Typical standard deviation of daily log returns. */
  readonly dailyVol: number;
  /** Price tick in micro-USDT. */
  readonly tick: number;
  /** Mean volume per minute in base units. */
  readonly minuteVolume: number;
  /** Loading on the shared crypto-market factor (crypto pairs move together). */
  readonly beta: number;
  /** Typical absolute size of a jump in log price. */
  readonly jumpSize: number;
  /** Half of the quoted bid-ask spread, in basis points of the mid price. */
  readonly halfSpreadBps: number;
}

export const SYMBOLS: readonly SymbolSpec[] = [
  spec('BTC', 1, 95_000, 0.024, 10_000, 17, 0.9, 0.03, 0.5),
  spec('ETH', 2, 3_400, 0.03, 10_000, 280, 0.88, 0.04, 0.5),
  spec('TRX', 3, 0.25, 0.021, 10, 1_000_000, 0.55, 0.04, 1.5),
  spec('BNB', 4, 650, 0.024, 10_000, 350, 0.7, 0.035, 1),
  spec('SOL', 5, 180, 0.04, 10_000, 2_800, 0.75, 0.05, 1),
  spec('XRP', 6, 2.2, 0.036, 100, 200_000, 0.7, 0.05, 1),
  spec('DOGE', 7, 0.32, 0.04, 10, 1_000_000, 0.7, 0.06, 1.5),
  spec('LTC', 8, 100, 0.031, 10_000, 500, 0.7, 0.045, 1.5),
];

function spec(
  base: string,
  id: number,
  reference: number,
  dailyVol: number,
  tick: number,
  minuteVolume: number,
  beta: number,
  jumpSize: number,
  halfSpreadBps: number,
): SymbolSpec {
  return {
    symbol: `${base}/USDT`,
    base,
    id,
    reference,
    dailyVol,
    tick,
    minuteVolume,
    beta,
    jumpSize,
    halfSpreadBps,
  };
}

const BY_NAME = new Map<string, SymbolSpec>();
for (const s of SYMBOLS) {
  BY_NAME.set(s.symbol, s);
  BY_NAME.set(`${s.base}USDT`, s);
  BY_NAME.set(s.base, s);
}

/** Accepts "BTC/USDT", "BTCUSDT" or "BTC", case-insensitively. */
export function findSymbol(name: string): SymbolSpec | undefined {
  return BY_NAME.get(name.trim().toUpperCase());
}

/** Renders an integer of 10^-decimals units as an exact decimal string ("95000.12", "0.32115"). */
export function formatScaled(value: number, decimals: number): string {
  const negative = value < 0;
  const abs = Math.abs(value);
  const scale = 10 ** decimals;
  const whole = Math.floor(abs / scale);
  const frac = abs - whole * scale;
  let text = String(whole);
  if (frac > 0) text += '.' + String(frac).padStart(decimals, '0').replace(/0+$/, '');
  return negative ? '-' + text : text;
}

export const formatPrice = (micro: number): string => formatScaled(micro, PRICE_DECIMALS);
export const formatVolume = (units: number): string => formatScaled(units, VOLUME_DECIMALS);

/** How a pair's figures are shown: prices at the pair's tick, quantities at its step (VOLUME_DECIMALS). */
export interface PairScale {
  readonly priceDecimals: number;
  readonly quantityDecimals: number;
}

/** The display scale of a pair ("BTC/USDT": 2 and 4; "DOGE/USDT": 5 and 4), or undefined for an unknown one. */
export function pairScale(symbol: string): PairScale | undefined {
  const spec = findSymbol(symbol);
  if (!spec) return undefined;
  // The tick is a power of ten of micro-USDT: 10_000 (0.01) has 4 zeros, so 6 - 4 = 2 places.
  const zeros = /0*$/.exec(String(spec.tick))?.[0].length ?? 0;
  return { priceDecimals: Math.max(0, PRICE_DECIMALS - zeros), quantityDecimals: VOLUME_DECIMALS };
}
