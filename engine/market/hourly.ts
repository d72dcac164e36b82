/**
 * The hourly skeleton of each price path: the log price at every hour boundary, a driftless random walk with
 * GARCH(1,1) variance, Student-t innovations, one shared market factor and jumps, pinned to the pair's
 * reference price at the reference time and walked outwards from it (forwards and backwards), with one
 * checkpoint per day on each side so any hour is at most 23 steps from one. Minutes and ticks are generated
 * inside the hour from counter-based randomness. The model, its equations and its sources: docs/TRADING.md
 * "Market model".
 */
import { dlog } from './detmath';
import { hashWords, normalFrom, unit } from './rng';
import type { SymbolSpec } from './symbols';

/** 2015-01-01T00:00:00Z in Unix seconds: the first hour of simulated history. */
export const ANCHOR_SECONDS = 1_420_070_400;
const HOURS_PER_DAY = 24;
const DAY_MS = 86_400_000;

/** Where each pair's walk is pinned (docs/TRADING.md "Market model"). */
export interface MarketModel {
  /** Engine time (ms) of the reference; rounded down to a UTC midnight, not before the anchor. */
  referenceTime: number;
  /** Reference price in USDT by base asset ("BTC": 95000); a pair left out uses its SymbolSpec.reference. */
  prices: Readonly<Record<string, number>>;
}

/** 2026-01-01T00:00:00Z and the specs' own reference prices. */
export const DEFAULT_MARKET_MODEL: MarketModel = { referenceTime: 1_767_225_600_000, prices: {} };

const GARCH_ALPHA = 0.06;
const GARCH_BETA = 0.93;
/** Shocks feeding the variance are capped so one jump cannot set the variance off for weeks. */
const SHOCK_CAP = 25;
/**
 * Student-t innovations with 4 degrees of freedom, scaled to unit variance: z sqrt((nu - 2) / chi2_nu).
 * The scale is capped at T_SCALE_CAP (a shock of at most ~14 sigma): an uncapped t has no bound, and one
 * hour of a thousand sigma would send a price to zero.
 */
const T_NU = 4;
const T_SCALE_CAP = 4;
/** Market-wide jumps (every pair at once, each by its own jumpSize), about one in 25 days. */
const MARKET_JUMP_PROBABILITY = 1 / 600;
/** A pair's own jumps, about one in 42 days. */
const OWN_JUMP_PROBABILITY = 1 / 1000;
/** E[(1 + 2u)^2] and E[(0.5 + u)^2] for u uniform on (0, 1): the jump sizes' second moments. */
const MARKET_JUMP_M2 = 13 / 3;
const OWN_JUMP_M2 = 13 / 12;

const STREAM_MARKET = 0;
const SALT_DIFFUSION = 1;
const SALT_JUMP = 2;
const SALT_MIXING = 3;

/** One hour of the skeleton: log price at its start and end, its volatility and its jump (if any). */
export interface Hour {
  readonly x0: number;
  readonly x1: number;
  readonly sigma: number;
  /** Jump in log price inside the hour (0 for most hours) and the minute (0-59) it happens in. */
  readonly jump: number;
  readonly jumpMinute: number;
}

/**
 * The market's own draws for each hour (the Student-t of the shared factor and the market-wide jump), which
 * every pair's walk uses: computed once per hour for all pairs of a market instead of once per pair. They
 * depend on the seed and the hour alone, so a path with its own copy draws exactly the same numbers.
 */
export class MarketFactor {
  /** Per day: for each of its 24 hours, [student, jump direction x size factor, jump minute] (NaN: not yet). */
  private readonly days = new Map<number, Float64Array>();
  private jumpFactor = 0;
  private jumpMinute = 0;

  constructor(readonly seed: number) {}

  /** The unit-variance Student-t of the market factor at hour h; leaves its jump in jumpOf/minuteOf. */
  draw(h: number): number {
    const day = Math.floor(h / HOURS_PER_DAY);
    let slots = this.days.get(day);
    if (!slots) {
      if (this.days.size >= 4_096) this.days.clear();
      slots = new Float64Array(HOURS_PER_DAY * 3).fill(NaN);
      this.days.set(day, slots);
    }
    const at = (h - day * HOURS_PER_DAY) * 3;
    if (Number.isNaN(slots[at]!)) {
      slots[at] = studentDraw(this.seed, STREAM_MARKET, h);
      let factor = 0;
      let minute = 0;
      const marketKey = hashWords(this.seed, STREAM_MARKET, h, SALT_JUMP);
      if (unit(marketKey) < MARKET_JUMP_PROBABILITY) {
        const sizeKey = hashWords(marketKey, 1);
        const direction = sizeKey & 1 ? 1 : -1;
        // Kept apart from the pair's jumpSize so the product is formed in the same order as before.
        factor = direction * (1 + 2 * unit(sizeKey));
        minute = hashWords(marketKey, 2) % 60;
        // A jump's direction is its factor's sign; a factor is never 0 when there is a jump.
      }
      slots[at + 1] = factor;
      slots[at + 2] = minute;
    }
    this.jumpFactor = slots[at + 1]!;
    this.jumpMinute = slots[at + 2]!;
    return slots[at]!;
  }

  /** The last draw's market-wide jump: 0, or +-(1 + 2u) (times the pair's jumpSize). */
  get lastJump(): number {
    return this.jumpFactor;
  }

  get lastJumpMinute(): number {
    return this.jumpMinute;
  }
}

/** A unit-variance Student-t (T_NU = 4): a normal over sqrt(chi2_4 / 2), chi2_4 = -2 ln(u1 u2). */
function studentDraw(seed: number, stream: number, h: number): number {
  const k = hashWords(seed, stream, h, SALT_MIXING);
  const chi2 = -2 * dlog(unit(k) * unit(hashWords(k, 1)));
  const scale = Math.min(T_SCALE_CAP, Math.sqrt((T_NU - 2) / chi2));
  const n = hashWords(seed, stream, h, SALT_DIFFUSION);
  return normalFrom(unit(n), unit(hashWords(n, 1)), unit(hashWords(n, 2)), unit(hashWords(n, 3))) * scale;
}

export class HourlyPath {
  private readonly x0: number;
  private readonly baseVar: number;
  private readonly omega: number;
  private readonly idio: number;
  /** The reference day (days since the anchor): hours before it are walked backwards. */
  readonly refDay: number;
  /**
   * Forward checkpoints: x and v at the start of day refDay + i. Backward checkpoints: x at the end of day
   * refDay - 1 - i and the variance of its last hour (the next backward step).
   */
  private fwd = { xs: new Float64Array(64), vs: new Float64Array(64), n: 1 };
  private back = { xs: new Float64Array(64), vs: new Float64Array(64), n: 1 };
  private readonly expanded = new Map<number, Hour[]>();

  private readonly market: MarketFactor;
  /** advance()'s results (see there). */
  private r = 0;
  private sigma = 0;
  private jump = 0;
  private jumpMinute = 0;
  private v = 0;

  constructor(
    private readonly seed: number,
    private readonly spec: SymbolSpec,
    model: MarketModel = DEFAULT_MARKET_MODEL,
    /** The market's draws, shared by the pairs of one market (MarketSim); the same seed's numbers either way. */
    market?: MarketFactor,
  ) {
    this.market = market && market.seed === seed ? market : new MarketFactor(seed);
    const reference = model.prices[spec.base] ?? spec.reference;
    this.x0 = dlog(reference);
    this.refDay = Math.max(0, Math.floor((model.referenceTime - ANCHOR_SECONDS * 1000) / DAY_MS));
    // The pair's hourly variance is dailyVol^2 / 24 in all; the jumps take their share of it first.
    const total = (spec.dailyVol * spec.dailyVol) / HOURS_PER_DAY;
    const jumps =
      spec.jumpSize *
      spec.jumpSize *
      (MARKET_JUMP_PROBABILITY * MARKET_JUMP_M2 + OWN_JUMP_PROBABILITY * OWN_JUMP_M2);
    this.baseVar = Math.max(total * 0.3, total - jumps);
    this.omega = this.baseVar * (1 - GARCH_ALPHA - GARCH_BETA);
    this.idio = Math.sqrt(1 - spec.beta * spec.beta);
    this.fwd.xs[0] = this.x0;
    this.fwd.vs[0] = this.baseVar;
    this.back.xs[0] = this.x0;
    this.back.vs[0] = this.baseVar;
  }

  /** Hour h since the anchor (h >= 0). */
  hour(h: number): Hour {
    const day = Math.floor(h / HOURS_PER_DAY);
    const hours = this.expandDay(day);
    const entry = hours[h - day * HOURS_PER_DAY];
    if (!entry) throw new RangeError(`hour ${h} out of range`);
    return entry;
  }

  /** Long-run mean volatility of one hour, for scaling volumes. */
  get typicalSigma(): number {
    return Math.sqrt(this.baseVar);
  }

  private expandDay(day: number): Hour[] {
    const cached = this.expanded.get(day);
    if (cached) return cached;
    const hours: Hour[] = new Array<Hour>(HOURS_PER_DAY);
    if (day >= this.refDay) {
      const i = day - this.refDay;
      this.ensure(this.fwd, i, true);
      let x = this.fwd.xs[i]!;
      let v = this.fwd.vs[i]!;
      for (let k = 0; k < HOURS_PER_DAY; k++) {
        const s = this.step(day * HOURS_PER_DAY + k, v);
        hours[k] = { x0: x, x1: x + s.r, sigma: s.sigma, jump: s.jump, jumpMinute: s.jumpMinute };
        x += s.r;
        v = s.v;
      }
    } else {
      const i = this.refDay - 1 - day;
      this.ensure(this.back, i, false);
      let x = this.back.xs[i]!;
      let v = this.back.vs[i]!;
      for (let k = HOURS_PER_DAY - 1; k >= 0; k--) {
        const s = this.step(day * HOURS_PER_DAY + k, v);
        hours[k] = { x0: x - s.r, x1: x, sigma: s.sigma, jump: s.jump, jumpMinute: s.jumpMinute };
        x -= s.r;
        v = s.v;
      }
    }
    if (this.expanded.size >= 96) this.expanded.clear();
    this.expanded.set(day, hours);
    return hours;
  }

  /** Extends one side's checkpoints up to index i (days away from the reference). */
  private ensure(side: { xs: Float64Array; vs: Float64Array; n: number }, i: number, forward: boolean): void {
    while (side.n <= i) {
      if (side.n >= side.xs.length) {
        const xs = new Float64Array(side.xs.length * 2);
        const vs = new Float64Array(side.vs.length * 2);
        xs.set(side.xs);
        vs.set(side.vs);
        side.xs = xs;
        side.vs = vs;
      }
      let x = side.xs[side.n - 1]!;
      let v = side.vs[side.n - 1]!;
      const day = forward ? this.refDay + side.n - 1 : this.refDay - side.n;
      for (let k = 0; k < HOURS_PER_DAY; k++) {
        const h = forward ? day * HOURS_PER_DAY + k : day * HOURS_PER_DAY + HOURS_PER_DAY - 1 - k;
        this.advance(h, v);
        x = forward ? x + this.r : x - this.r;
        v = this.v;
      }
      side.xs[side.n] = x;
      side.vs[side.n] = v;
      side.n++;
    }
  }

  /** The return of hour h drawn with variance v, and the variance of the next step outwards. */
  private step(
    h: number,
    v: number,
  ): { r: number; sigma: number; jump: number; jumpMinute: number; v: number } {
    this.advance(h, v);
    return { r: this.r, sigma: this.sigma, jump: this.jump, jumpMinute: this.jumpMinute, v: this.v };
  }

  /**
   * One step of the walk (step's numbers), left in this.r, this.sigma, this.jump, this.jumpMinute and this.v
   * instead of a new object: the walk from the reference day to now (~8,000 hours per pair in late 2026) runs
   * before the engine's first answer, much of it before V8 has optimised it, where an object per hour is
   * allocated and collected (2026-11-29: ~10% less CPU for the eight pairs' walk in a fresh Node process; the
   * same numbers bit for bit, checked against the previous code over three seeds and both sides of the
   * reference).
   */
  private advance(h: number, v: number): void {
    const sigma = Math.sqrt(v);
    // One factor (the crypto market) and the pair's own part, each a unit-variance Student-t.
    const z = this.spec.beta * this.market.draw(h) + this.idio * studentDraw(this.seed, this.spec.id, h);
    const diffusion = sigma * z;
    let jump = 0;
    let jumpMinute = 0;
    const marketJump = this.market.lastJump;
    if (marketJump !== 0) {
      // direction * jumpSize * (1 + 2u), multiplied in that order: |factor| is (1 + 2u) exactly.
      jump = (marketJump > 0 ? 1 : -1) * this.spec.jumpSize * Math.abs(marketJump);
      jumpMinute = this.market.lastJumpMinute;
    }
    const ownKey = hashWords(this.seed, this.spec.id, h, SALT_JUMP);
    if (unit(ownKey) < OWN_JUMP_PROBABILITY) {
      const sizeKey = hashWords(ownKey, 1);
      const direction = sizeKey & 1 ? 1 : -1;
      if (jump === 0) jumpMinute = hashWords(ownKey, 2) % 60;
      jump += direction * this.spec.jumpSize * (0.5 + unit(sizeKey));
    }
    const shock = Math.min((diffusion + jump) ** 2, SHOCK_CAP * this.baseVar);
    this.r = diffusion + jump;
    this.sigma = sigma;
    this.jump = jump;
    this.jumpMinute = jumpMinute;
    this.v = this.omega + GARCH_ALPHA * shock + GARCH_BETA * v;
  }
}
