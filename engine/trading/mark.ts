/**
 * Index, last and mark prices of the perpetual contracts, and their funding rate, all pure functions of
 * (seed, model, pair, time): the index is the simulated spot price; last is the index times (1 + premium),
 * the premium a path of hourly knots in parts per million; mark is Binance's median of three; funding is
 * Binance's premium-index formula over 8 hours, capped to +-0.75%. Formulas: docs/TRADING.md "Mark price" and
 * "Funding"; rules K11-K12 in docs/RULES.md.
 */
import type { Book } from '../market/depth';
import { hashWords, unit } from '../market/rng';
import type { SymbolSpec } from '../market/symbols';
import { mulDiv, PPM, type Micro } from '../money';

/**
 * What the contract prices read from the simulated market (engine/market/market.ts MarketSim, which
 * quotes the mark price itself): its seed, the spot price and the spot book.
 */
export interface PriceSource {
  readonly seed: number;
  price(spec: SymbolSpec, nowMs: number): number;
  book(spec: SymbolSpec, nowMs: number, levels: number, max?: number): Book;
}

export const FUNDING_INTERVAL_MS = 8 * 3_600_000;
/** Interest rate per funding interval: 0.01% (100 ppm). */
export const INTEREST_PPM = 100;
/** clamp(I - P, -0.05%, +0.05%). */
export const CLAMP_PPM = 500;
/** The funding rate's cap: +-0.75%. */
export const FUNDING_CAP_PPM = 7_500;
const KNOT_MS = 3_600_000;
/** P2's moving average: one sample a minute over 30 minutes. */
export const MA_SAMPLES = 30;
const MINUTE_MS = 60_000;
const SALT_PREMIUM = 0x7e41;

/** The premium's hourly knots: its hard limit, either way (2%). */
export const PREMIUM_LIMIT_PPM = 20_000;
/** Premium per unit of the pair's 24-hour log return (ppm per 1 = 100%): a 5% rally adds 0.1%. */
const MOMENTUM_PPM = 20_000;
/** The slow component's reach (ppm) and time scale (hours): regimes of days, either sign. */
const SLOW_PPM = 350;
const SLOW_HOURS = 96;
/** The hourly component's reach (ppm). */
const FAST_PPM = 150;

/** Seeded value noise in [-1, 1] at knot `i` of a component. */
function noise(seed: number, spec: SymbolSpec, salt: number, i: number): number {
  return unit(hashWords(seed ^ SALT_PREMIUM ^ salt, spec.id, i)) * 2 - 1;
}

/** Smooth (cosine-interpolated) value noise at hour k on a grid of `hours`. */
function smooth(seed: number, spec: SymbolSpec, salt: number, k: number, hours: number): number {
  const i = Math.floor(k / hours);
  const f = (k - i * hours) / hours;
  const w = (1 - Math.cos(Math.PI * f)) / 2;
  return noise(seed, spec, salt, i) * (1 - w) + noise(seed, spec, salt, i + 1) * w;
}

/**
 * A premium knot (ppm) at hour k: the interest rate (+100), plus the pair's momentum (MOMENTUM_PPM x its
 * log return over the previous 24 hours: a rally lifts the perpetual over the index, a sell-off takes it
 * under), a slow regime (days, either sign) and an hourly wobble. It drifts with the market, leaves the
 * +-0.05% clamp around the interest rate for hours and days at a time, and goes negative (funding then
 * pays longs). Integer ppm within +-PREMIUM_LIMIT_PPM.
 */
function knot(sim: PriceSource, spec: SymbolSpec, k: number): number {
  return memo(sim, `k:${spec.symbol}:${k}`, () => {
    const now = sim.price(spec, k * KNOT_MS);
    const before = sim.price(spec, (k - 24) * KNOT_MS);
    const momentum = now > 0 && before > 0 ? Math.log(now / before) * MOMENTUM_PPM : 0;
    const slow = smooth(sim.seed, spec, 0x51, k, SLOW_HOURS) * SLOW_PPM;
    const fast = noise(sim.seed, spec, 0xfa, k) * FAST_PPM;
    const ppm = Math.round(INTEREST_PPM + momentum + slow + fast);
    return Math.max(-PREMIUM_LIMIT_PPM, Math.min(PREMIUM_LIMIT_PPM, ppm));
  });
}

/** The perpetual's premium over the index at `t`, in integer parts per million. */
export function premiumPpm(sim: PriceSource, spec: SymbolSpec, t: number): number {
  const k = Math.floor(t / KNOT_MS);
  const a = knot(sim, spec, k);
  const b = knot(sim, spec, k + 1);
  return a + Math.round(((b - a) * (t - k * KNOT_MS)) / KNOT_MS);
}

function shift(price: Micro, ppm: number, tick: number): Micro {
  const t = BigInt(tick);
  const shifted = mulDiv(price, PPM + BigInt(ppm), PPM, 'half-up');
  const rounded = mulDiv(shifted, 1n, t, 'half-up') * t;
  return rounded > 0n ? rounded : t;
}

export function indexPrice(sim: PriceSource, spec: SymbolSpec, t: number): Micro {
  return BigInt(sim.price(spec, t));
}

export function lastPrice(sim: PriceSource, spec: SymbolSpec, t: number): Micro {
  return shift(indexPrice(sim, spec, t), premiumPpm(sim, spec, t), spec.tick);
}

/** The contract book at `t`: the spot book shifted by the premium, level by level. */
export function contractBook(sim: PriceSource, spec: SymbolSpec, t: number, levels: number): Book {
  const book = sim.book(spec, t, levels, levels);
  const ppm = premiumPpm(sim, spec, t);
  const move = (l: { price: number; qty: number }) => ({
    price: Number(shift(BigInt(l.price), ppm, spec.tick)),
    qty: l.qty,
  });
  return {
    mid: Number(shift(BigInt(book.mid), ppm, spec.tick)),
    asks: book.asks.map(move),
    bids: book.bids.map(move),
  };
}

/** The funding time at or after `t` (00:00, 08:00, 16:00 UTC). */
export function nextFunding(t: number): number {
  return Math.ceil(t / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
}

/** Binance's formula on an average premium index, both in ppm: P + clamp(I - P, -0.05%, 0.05%), capped. */
export function fundingRateFromPremium(premium: number, interest = INTEREST_PPM): number {
  const spread = Math.max(-CLAMP_PPM, Math.min(CLAMP_PPM, interest - premium));
  return Math.max(-FUNDING_CAP_PPM, Math.min(FUNDING_CAP_PPM, premium + spread));
}

/**
 * Figures of a pair that are pure functions of (seed, model, pair, time) and cost hundreds of price
 * computations each (a funding rate averages 480 minutes, the mark price's basis 30): kept per market
 * (its seed and model are fixed at construction) and key, so the market list (eight mark prices per call)
 * does not compute them again for every call. Bounded: cleared past MEMO_MAX keys.
 */
const memos = new WeakMap<PriceSource, Map<string, number | bigint>>();
const MEMO_MAX = 8_192;

function memo<T extends number | bigint>(sim: PriceSource, key: string, compute: () => T): T {
  let m = memos.get(sim);
  if (!m) {
    m = new Map();
    memos.set(sim, m);
  }
  const known = m.get(key);
  if (known !== undefined) return known as T;
  const value = compute();
  if (m.size >= MEMO_MAX) m.clear();
  m.set(key, value);
  return value;
}

/** The funding rate (ppm) settled at funding time `at`, from the premium over (at - 8 h, at]. */
export function fundingRate(sim: PriceSource, spec: SymbolSpec, at: number): number {
  return memo(sim, `f:${spec.symbol}:${at}`, () => computeFundingRate(sim, spec, at));
}

function computeFundingRate(sim: PriceSource, spec: SymbolSpec, at: number): number {
  let sum = 0;
  let n = 0;
  for (let t = at - FUNDING_INTERVAL_MS + MINUTE_MS; t <= at; t += MINUTE_MS) {
    sum += premiumPpm(sim, spec, t);
    n++;
  }
  return fundingRateFromPremium(Math.round(sum / n));
}

/**
 * The funding rate (ppm) the next settlement would pay on the premium so far: Binance's "estimated funding
 * rate", the formula on the average premium over (previous funding time, now], one sample a minute (the
 * premium at `now` in the interval's first minute). Never a premium after `now`.
 */
export function estimatedFundingRate(sim: PriceSource, spec: SymbolSpec, now: number): number {
  const next = nextFunding(Math.floor(now) + 1);
  const first = next - FUNDING_INTERVAL_MS + MINUTE_MS;
  const last = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  if (last < first) return fundingRateFromPremium(premiumPpm(sim, spec, Math.floor(now)));
  return memo(sim, `e:${spec.symbol}:${last}`, () => {
    let sum = 0;
    let n = 0;
    for (let t = first; t <= last; t += MINUTE_MS) {
      sum += premiumPpm(sim, spec, t);
      n++;
    }
    return fundingRateFromPremium(Math.round(sum / n));
  });
}

/** A funding rate in ppm as the wire's percent with four decimals ("0.0100", "-0.0125"). */
export function ratePercent(ppm: number): string {
  const abs = Math.abs(Math.trunc(ppm));
  return `${ppm < 0 ? '-' : ''}${Math.floor(abs / 10_000)}.${String(abs % 10_000).padStart(4, '0')}`;
}

export function median3(a: Micro, b: Micro, c: Micro): Micro {
  const lo = a < b ? a : b;
  const hi = a < b ? b : a;
  return c < lo ? lo : c > hi ? hi : c;
}

/**
 * P1 at `t`: the index carried by the funding rate of the last funding time (`t` itself on one) over the
 * time to the next funding, index x (1 + rate x toNext / 8 h). `rateAt` answers a funding time's rate (ppm).
 */
export function fundingPrice(index: Micro, t: number, rateAt: (fundingTime: number) => number): Micro {
  const previous = nextFunding(t) === t ? t : nextFunding(t) - FUNDING_INTERVAL_MS;
  const rate = BigInt(rateAt(previous));
  const toNext = BigInt(nextFunding(t + 1) - t);
  return mulDiv(
    index,
    PPM * BigInt(FUNDING_INTERVAL_MS) + rate * toNext,
    PPM * BigInt(FUNDING_INTERVAL_MS),
    'half-up',
  );
}

/** P2's average of (last - index): `sum` over `n` samples, halves away from zero; 0 without samples. */
export function basisAverage(sum: bigint, n: bigint): bigint {
  if (n === 0n) return 0n;
  return sum >= 0n ? mulDiv(sum, 1n, n, 'half-up') : -mulDiv(-sum, 1n, n, 'half-up');
}

/**
 * Mark price at `time` (Binance's median of three), at its whole millisecond: the system clock has
 * sub-millisecond digits, which BigInt below refuses (every quote of the live server's market list failed).
 */
export function markPrice(sim: PriceSource, spec: SymbolSpec, time: number): Micro {
  const t = Math.floor(time);
  const index = indexPrice(sim, spec, t);
  const last = lastPrice(sim, spec, t);
  const p1 = fundingPrice(index, t, (at) => fundingRate(sim, spec, at));
  const minute = Math.floor(t / MINUTE_MS) * MINUTE_MS;
  const basis = memo(sim, `b:${spec.symbol}:${minute}`, () => {
    let sum = 0n;
    for (let i = 0; i < MA_SAMPLES; i++) {
      const s = minute - i * MINUTE_MS;
      sum += lastPrice(sim, spec, s) - indexPrice(sim, spec, s);
    }
    return sum;
  });
  return median3(p1, index + basisAverage(basis, BigInt(MA_SAMPLES)), last);
}
