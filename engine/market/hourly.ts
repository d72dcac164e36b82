/**
 * The hourly skeleton of each price path: log price at every hour boundary, driven by a GARCH(1,1)
 * variance (volatility clustering), a shared market factor (pairs move together), occasional jumps and a
 * slow pull back to the symbol's long-run level (so levels stay realistic over years of history).
 *
 * The recursion is sequential by nature, so it is computed forward from a fixed anchor (2015-01-01 UTC)
 * and only one checkpoint per day is kept; any hour is at most 23 cheap steps from its checkpoint.
 * Everything finer (minutes, ticks) is generated inside the hour from counter-based randomness.
 */
import { dlog } from './detmath';
import { hashWords, normalFrom, unit } from './rng';
import type { SymbolSpec } from './symbols';

/** 2015-01-01T00:00:00Z in Unix seconds: the first hour of simulated history. */
export const ANCHOR_SECONDS = 1_420_070_400;
const HOURS_PER_DAY = 24;

const GARCH_ALPHA = 0.05;
const GARCH_BETA = 0.94;
/** Reversion per hour towards the long-run level: a half-life of about 120 days. */
const KAPPA = Math.LN2 / (120 * 24);
const JUMP_PROBABILITY = 1 / 400;
/** Shocks feeding the variance are capped so one jump cannot set the variance off for weeks. */
const SHOCK_CAP = 25;

const STREAM_MARKET = 0;
const SALT_DIFFUSION = 1;
const SALT_JUMP = 2;
const SALT_START = 3;

/** One hour of the skeleton: log price at its start and end, its volatility and its jump (if any). */
export interface Hour {
  readonly x0: number;
  readonly x1: number;
  readonly sigma: number;
  /** Jump in log price inside the hour (0 for most hours) and the minute (0-59) it happens in. */
  readonly jump: number;
  readonly jumpMinute: number;
}

export class HourlyPath {
  private readonly mu: number;
  private readonly baseVar: number;
  private readonly omega: number;
  private readonly idio: number;
  /** x and variance at the start of each day since the anchor. */
  private xs = new Float64Array(1024);
  private vs = new Float64Array(1024);
  private days = 0;
  private readonly expanded = new Map<number, Hour[]>();

  constructor(
    private readonly seed: number,
    private readonly spec: SymbolSpec,
  ) {
    this.mu = dlog(spec.level);
    this.baseVar = (spec.dailyVol * spec.dailyVol) / HOURS_PER_DAY;
    this.omega = this.baseVar * (1 - GARCH_ALPHA - GARCH_BETA);
    this.idio = Math.sqrt(1 - spec.beta * spec.beta);
    const z = this.normal(spec.id, 0, SALT_START);
    this.xs[0] = this.mu + 0.15 * z;
    this.vs[0] = this.baseVar;
    this.days = 1;
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
    this.ensureCheckpoint(day);
    const hours: Hour[] = [];
    let x = this.xs[day] ?? 0;
    let v = this.vs[day] ?? this.baseVar;
    for (let i = 0; i < HOURS_PER_DAY; i++) {
      const step = this.step(day * HOURS_PER_DAY + i, x, v);
      hours.push(step.hour);
      x = step.x;
      v = step.v;
    }
    if (this.expanded.size >= 96) this.expanded.clear();
    this.expanded.set(day, hours);
    return hours;
  }

  private ensureCheckpoint(day: number): void {
    while (this.days <= day) {
      if (this.days >= this.xs.length) {
        const xs = new Float64Array(this.xs.length * 2);
        const vs = new Float64Array(this.vs.length * 2);
        xs.set(this.xs);
        vs.set(this.vs);
        this.xs = xs;
        this.vs = vs;
      }
      let x = this.xs[this.days - 1] ?? 0;
      let v = this.vs[this.days - 1] ?? this.baseVar;
      for (let i = 0; i < HOURS_PER_DAY; i++) {
        const step = this.step((this.days - 1) * HOURS_PER_DAY + i, x, v);
        x = step.x;
        v = step.v;
      }
      this.xs[this.days] = x;
      this.vs[this.days] = v;
      this.days++;
    }
  }

  private step(h: number, x: number, v: number): { hour: Hour; x: number; v: number } {
    const sigma = Math.sqrt(v);
    const z =
      this.spec.beta * this.normal(STREAM_MARKET, h, SALT_DIFFUSION) +
      this.idio * this.normal(this.spec.id, h, SALT_DIFFUSION);
    const diffusion = sigma * z;
    let jump = 0;
    let jumpMinute = 0;
    const jumpKey = hashWords(this.seed, this.spec.id, h, SALT_JUMP);
    if (unit(jumpKey) < JUMP_PROBABILITY) {
      const sizeKey = hashWords(jumpKey, 1);
      const direction = sizeKey & 1 ? 1 : -1;
      jump = direction * this.spec.jumpSize * (0.5 + unit(sizeKey));
      jumpMinute = hashWords(jumpKey, 2) % 60;
    }
    const x1 = x + KAPPA * (this.mu - x) + diffusion + jump;
    const shock = Math.min((diffusion + jump) ** 2, SHOCK_CAP * this.baseVar);
    const v1 = this.omega + GARCH_ALPHA * shock + GARCH_BETA * v;
    return { hour: { x0: x, x1, sigma, jump, jumpMinute }, x: x1, v: v1 };
  }

  private normal(stream: number, h: number, salt: number): number {
    const k = hashWords(this.seed, stream, h, salt);
    return normalFrom(unit(k), unit(hashWords(k, 1)), unit(hashWords(k, 2)), unit(hashWords(k, 3)));
  }
}
