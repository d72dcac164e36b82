/**
 * Minutes inside one hour of the skeleton, and ticks inside one minute: the 60 minute closes are a Brownian
 * bridge pinned to the hour's start and end (so minutes reproduce hourly.ts exactly), with the one-factor
 * model minute by minute and variances from an AR(1) in log volatility scaled to the hour's GARCH variance;
 * each minute's path is piecewise linear through its open, high, low and close, so a tick at any instant and
 * a partial minute's high/low are exact. docs/TRADING.md "Market model".
 */
import { dexp } from './detmath';
import type { HourlyPath } from './hourly';
import { hashWords, Stream, unit } from './rng';
import { PRICE_SCALE, VOLUME_SCALE } from './symbols';
import type { SymbolSpec } from './symbols';

const SALT_MINUTES = 11;
const SALT_TICKS = 12;
/** The market's stream id (hourly.ts): shared by every pair. */
const STREAM_MARKET = 0;
/** Log volatility within the hour: stationary sd 0.45, minute-to-minute persistence 0.93. */
const LOG_VOL_SD = 0.55;
const LOG_VOL_PHI = 0.95;
const LOG_VOL_INNOVATION = LOG_VOL_SD * Math.sqrt(1 - LOG_VOL_PHI * LOG_VOL_PHI);
export const MINUTE_MS = 60_000;

/** One candle: integer micro-USDT prices and 1e-4-unit volume. */
export interface Bar {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** Open, high, low, close, volume of the 60 minutes of one hour, 5 slots per minute. */
export type HourBlock = Float64Array;

export class MinuteModel {
  private readonly blocks = new Map<number, HourBlock>();
  // Scratch space: a cold daily chart generates 24,000 hours, and fresh arrays for each cost more in
  // garbage collection than the generation itself.
  private readonly walk = new Float64Array(61);
  private readonly cum = new Float64Array(61);
  private readonly vars = new Float64Array(60);
  private readonly ys = new Float64Array(61);
  private readonly scratch = new Float64Array(300);

  constructor(
    private readonly seed: number,
    private readonly spec: SymbolSpec,
    private readonly path: HourlyPath,
  ) {}

  /**
   * Hours from here on are kept when peeked too: the last two days before the newest hour asked for whole
   * (the 24 h window, funding and mark price read them minute by minute as well as aggregated: the market
   * summary generated 16 of its ~41 hours per pair twice). Nothing is kept by peeking before any such hour.
   */
  private recentFrom = Infinity;

  getBlock(h: number): HourBlock {
    const cached = this.blocks.get(h);
    if (cached) return cached;
    if (h - 48 > this.recentFrom || this.recentFrom === Infinity) this.recentFrom = h - 48;
    const block = this.generate(h, new Float64Array(300));
    // Blocks are 2.4 KB each: 512 (~1.2 MB per pair) cover a 1,000-candle 30m chart.
    if (this.blocks.size >= 512) this.blocks.clear();
    this.blocks.set(h, block);
    return block;
  }

  /** Hour h's minutes without caching them: valid only until the next call (for aggregating). */
  peekBlock(h: number): HourBlock {
    return this.blocks.get(h) ?? (h >= this.recentFrom ? this.getBlock(h) : this.generate(h, this.scratch));
  }

  /** The complete minute m (minutes since the anchor). */
  minute(m: number): Bar {
    const block = this.getBlock(Math.floor(m / 60));
    const i = (m % 60) * 5;
    return { o: block[i]!, h: block[i + 1]!, l: block[i + 2]!, c: block[i + 3]!, v: block[i + 4]! };
  }

  /** Minute m as seen `offsetMs` (0..60000) after it opened. */
  partialMinute(m: number, offsetMs: number): Bar {
    const full = this.minute(m);
    if (offsetMs >= MINUTE_MS) return full;
    const vertices = this.vertices(m, full);
    const c = interpolate(vertices, offsetMs, this.spec.tick);
    let h = Math.max(full.o, c);
    let l = Math.min(full.o, c);
    for (let i = 0; i < vertices.length; i += 2) {
      if (vertices[i]! > offsetMs) break;
      h = Math.max(h, vertices[i + 1]!);
      l = Math.min(l, vertices[i + 1]!);
    }
    return { o: full.o, h, l, c, v: Math.floor((full.v * Math.max(0, offsetMs)) / MINUTE_MS) };
  }

  /**
   * Minute m from `offsetMs` after it opened to its close: the part a rolling window that starts inside
   * the minute covers. Its volume is what partialMinute leaves out, so the two halves add up to the minute.
   */
  tailMinute(m: number, offsetMs: number): Bar {
    const full = this.minute(m);
    if (offsetMs <= 0) return full;
    if (offsetMs >= MINUTE_MS) return { o: full.c, h: full.c, l: full.c, c: full.c, v: 0 };
    const vertices = this.vertices(m, full);
    const o = interpolate(vertices, offsetMs, this.spec.tick);
    let h = Math.max(o, full.c);
    let l = Math.min(o, full.c);
    for (let i = 0; i < vertices.length; i += 2) {
      if (vertices[i]! <= offsetMs) continue;
      h = Math.max(h, vertices[i + 1]!);
      l = Math.min(l, vertices[i + 1]!);
    }
    return { o, h, l, c: full.c, v: full.v - Math.floor((full.v * offsetMs) / MINUTE_MS) };
  }

  /** The traded price at `offsetMs` into minute m. */
  priceAt(m: number, offsetMs: number): number {
    const full = this.minute(m);
    if (offsetMs <= 0) return full.o;
    if (offsetMs >= MINUTE_MS) return full.c;
    return interpolate(this.vertices(m, full), offsetMs, this.spec.tick);
  }

  private round(micro: number): number {
    const tick = this.spec.tick;
    return Math.max(tick, Math.round(micro / tick) * tick);
  }

  private generate(h: number, block: HourBlock): HourBlock {
    const hour = this.path.hour(h);
    const stream = new Stream(hashWords(this.seed, this.spec.id, h, SALT_MINUTES));
    // The market's stream: the same numbers for every pair, so their minutes move together.
    const market = new Stream(hashWords(this.seed, STREAM_MARKET, h, SALT_MINUTES));
    // Volatility within the hour: an AR(1) in log volatility, the market's activity, starting from its
    // stationary law; the minute variances are scaled to add up to the hour's, so hours keep their GARCH.
    const vars = this.vars;
    let lv = LOG_VOL_SD * market.normal();
    let total = 0;
    for (let k = 0; k < 60; k++) {
      if (k > 0) lv = LOG_VOL_PHI * lv + LOG_VOL_INNOVATION * market.normal();
      const w = dexp(2 * lv);
      vars[k] = w;
      total += w;
    }
    const hourVar = hour.sigma * hour.sigma;
    const beta = this.spec.beta;
    const idio = Math.sqrt(1 - beta * beta);
    const walk = this.walk;
    const cum = this.cum;
    walk[0] = 0;
    cum[0] = 0;
    for (let k = 1; k <= 60; k++) {
      const v = (vars[k - 1]! / total) * hourVar;
      vars[k - 1] = Math.sqrt(v);
      const z = beta * market.normal() + idio * stream.normal();
      walk[k] = walk[k - 1]! + vars[k - 1]! * z;
      cum[k] = cum[k - 1]! + v;
    }
    const drift = hour.x1 - hour.jump - hour.x0;
    const end = walk[60]!;
    const ys = this.ys;
    for (let k = 0; k <= 60; k++) {
      // A bridge with unequal steps: the hour's own move and the walk's correction are spread in
      // proportion to the variance passed, so busy minutes carry more of it.
      const f = hourVar > 0 ? cum[k]! / cum[60]! : k / 60;
      ys[k] = hour.x0 + drift * f + walk[k]! - end * f + (k > hour.jumpMinute ? hour.jump : 0);
    }
    // Pin both ends to the skeleton's own numbers so adjacent hours meet at the identical price.
    ys[0] = hour.x0;
    ys[60] = hour.x1;
    const volumeScale =
      this.spec.minuteVolume * VOLUME_SCALE * (0.35 + 0.65 * (hour.sigma / this.path.typicalSigma));
    const tick = this.spec.tick;
    let p0 = dexp(ys[0]!) * PRICE_SCALE;
    let prevClose = this.round(p0);
    for (let k = 0; k < 60; k++) {
      const s = vars[k]!;
      const p1 = dexp(ys[k + 1]!) * PRICE_SCALE;
      const o = prevClose;
      const c = this.round(p1);
      // Wicks are a fraction of a minute's sigma, so e^w = 1 + w + w^2/2 is exact to well below a tick.
      const up = s * 0.9 * stream.next() ** 2;
      const down = s * 0.9 * stream.next() ** 2;
      const hi = Math.max(o, c, this.round(Math.max(p0, p1) * (1 + up + (up * up) / 2)));
      const lo = Math.max(
        tick,
        Math.min(o, c, this.round(Math.min(p0, p1) * (1 - down + (down * down) / 2))),
      );
      const move = s > 0 ? Math.abs(ys[k + 1]! - ys[k]!) / s : 0;
      const burst = k === hour.jumpMinute && hour.jump !== 0 ? 6 : 1;
      const busy = (s * s * 60) / (hourVar > 0 ? hourVar : 1);
      const v = Math.round(
        volumeScale * (0.5 + stream.next()) * (0.7 + 0.3 * move) * (0.5 + 0.5 * Math.sqrt(busy)) * burst,
      );
      const at = k * 5;
      block[at] = o;
      block[at + 1] = hi;
      block[at + 2] = lo;
      block[at + 3] = c;
      block[at + 4] = v;
      prevClose = c;
      p0 = p1;
    }
    return block;
  }

  /** Intra-minute path as [timeMs, price, timeMs, price, ...], from 0 ms (open) to 60000 ms (close). */
  private vertices(m: number, bar: Bar): number[] {
    const key = hashWords(this.seed, this.spec.id, m, SALT_TICKS);
    const u = (i: number): number => unit(hashWords(key, i));
    const tick = this.spec.tick;
    const inRange = (r: number): number => bar.l + Math.round(((bar.h - bar.l) * r) / tick) * tick;
    // A rising minute usually dips first and peaks later; a falling one the other way round.
    const lowFirst = u(1) < (bar.c >= bar.o ? 0.7 : 0.3);
    const ta = 8_000 + Math.floor(u(2) * 22_000);
    const tb = ta + 5_000 + Math.floor(u(3) * (47_000 - ta));
    const tq = Math.floor(ta * (0.2 + 0.6 * u(4)));
    const tr = tb + Math.floor((MINUTE_MS - tb) * (0.2 + 0.6 * u(5)));
    const first = lowFirst ? bar.l : bar.h;
    const second = lowFirst ? bar.h : bar.l;
    return [0, bar.o, tq, inRange(u(6)), ta, first, tb, second, tr, inRange(u(7)), MINUTE_MS, bar.c];
  }
}

function interpolate(vertices: number[], t: number, tick: number): number {
  for (let i = 2; i < vertices.length; i += 2) {
    const t1 = vertices[i]!;
    if (t <= t1) {
      const t0 = vertices[i - 2]!;
      const p0 = vertices[i - 1]!;
      const p1 = vertices[i + 1]!;
      const f = t1 === t0 ? 1 : (t - t0) / (t1 - t0);
      return p0 + Math.round(((p1 - p0) * f) / tick) * tick;
    }
  }
  return vertices[vertices.length - 1]!;
}
