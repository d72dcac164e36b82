/**
 * The live market as the engine sees it on one instance (engine/market/source.ts MarketSource), fed from the
 * cluster's market bus: the last snapshot the gateway published for each pair (stale when it says so or when
 * none came for the stale time), last and mark prices and funding on the venues' premium, the books, and the
 * price history past prices are read from. What each is made of: docs/OPERATIONS.md "Market data and the
 * house's risk" ("Each instance's replica").
 */
import {
  basisAverage,
  currOf,
  FUNDING_INTERVAL_MS,
  fundingPrice,
  MA_SAMPLES,
  INTERVAL_MINUTES,
  PPM,
  formatAmount,
  formatPrice,
  formatVolume,
  fundingRateFromPremium,
  median3,
  mulDiv,
  nextFunding,
  ratePercent,
  percent,
  type Book,
  type BookLevel,
  type Candle,
  type Depth,
  type Interval,
  type MarketSource,
  type MarketSubscription,
  type Micro,
  type PairStatus,
  type Quote,
  type Range,
  type SymbolSpec,
  type TimedMessage,
} from '../../engine/server';
import { wireCandle, type CandleStore, type MinuteSample } from './candles';
import type { PairSnapshot } from './snapshot';

const SECOND = 1_000;
const MINUTE = 60_000;
const HISTORY_MS = 2 * 3_600_000;
const MINUTES_KEPT = 9 * 60;
const QUOTA_LEVELS = 10;

interface Sample {
  t: number;
  index: bigint;
}

interface PairState {
  spec: SymbolSpec;
  snapshot: PairSnapshot | null;
  /** One index sample a second, oldest first. */
  history: Sample[];
  /** Minute start (ms) -> the index close and premium of that minute. */
  minutes: Map<number, MinuteSample>;
}

export interface ReplicaOptions {
  pairs: readonly SymbolSpec[];
  staleMs: number;
  /** The venues configured, for a pair that has never had an index ("binance,okx,coinbase"). */
  venues: readonly string[];
  candles: CandleStore;
}

function shift(price: Micro, ppm: number, tick: number): Micro {
  const t = BigInt(tick);
  const shifted = mulDiv(price, PPM + BigInt(ppm), PPM, 'half-up');
  const rounded = mulDiv(shifted, 1n, t, 'half-up') * t;
  return rounded > 0n ? rounded : t;
}

export class MarketReplica implements MarketSource {
  readonly simulated = false;
  private readonly states = new Map<string, PairState>();

  constructor(private readonly options: ReplicaOptions) {
    for (const spec of options.pairs)
      this.states.set(spec.symbol, { spec, snapshot: null, history: [], minutes: new Map() });
  }

  /** Loads the minute samples the mark and funding need (the last nine hours), from storage. */
  async load(now: number): Promise<void> {
    for (const state of this.states.values()) {
      for (const m of await this.options.candles.minutes(state.spec.symbol, now - MINUTES_KEPT * MINUTE))
        state.minutes.set(m.minute, m);
    }
  }

  apply(snapshot: PairSnapshot): void {
    const state = this.states.get(snapshot.symbol);
    if (!state) return;
    if (state.snapshot && state.snapshot.at > snapshot.at) return;
    state.snapshot = snapshot;
    if (snapshot.index === null || snapshot.stale) return;
    const index = BigInt(snapshot.index);
    const t = Math.floor(snapshot.at / SECOND) * SECOND;
    const last = state.history[state.history.length - 1];
    if (last && last.t === t) last.index = index;
    else state.history.push({ t, index });
    while (state.history.length > 0 && state.history[0]!.t < t - HISTORY_MS) state.history.shift();
    const minute = Math.floor(snapshot.at / MINUTE) * MINUTE;
    state.minutes.set(minute, { minute, index, premiumPpm: snapshot.premiumPpm });
    for (const m of state.minutes.keys()) if (m < minute - MINUTES_KEPT * MINUTE) state.minutes.delete(m);
  }

  snapshotOf(symbol: string): PairSnapshot | null {
    return this.states.get(symbol)?.snapshot ?? null;
  }

  private state(spec: SymbolSpec): PairState {
    const state = this.states.get(spec.symbol);
    if (!state) throw new RangeError(`${spec.symbol} is not priced here`);
    return state;
  }

  pairs(): readonly SymbolSpec[] {
    return this.options.pairs;
  }

  status(spec: SymbolSpec, now: number): PairStatus {
    const snap = this.states.get(spec.symbol)?.snapshot ?? null;
    if (!snap) return { source: this.options.venues.join(','), stale: true, time: 0 };
    const late = now - snap.at > this.options.staleMs;
    return { source: snap.source, stale: snap.stale || late || snap.index === null, time: snap.indexTime };
  }

  indexPrice(spec: SymbolSpec, t: number): Micro {
    const state = this.state(spec);
    const history = state.history;
    // The latest sample at or before t, else the snapshot's index.
    for (let i = history.length - 1; i >= 0; i--) if (history[i]!.t <= t) return history[i]!.index;
    const index = state.snapshot?.index;
    return index ? BigInt(index) : 0n;
  }

  price(spec: SymbolSpec, t: number): number {
    return Number(this.indexPrice(spec, t));
  }

  private premium(spec: SymbolSpec): number {
    return this.state(spec).snapshot?.premiumPpm ?? 0;
  }

  lastPrice(spec: SymbolSpec, t: number): Micro {
    const index = this.indexPrice(spec, t);
    return index > 0n ? shift(index, this.premium(spec), spec.tick) : 0n;
  }

  fundingRate(spec: SymbolSpec, at: number): number {
    const minutes = this.state(spec).minutes;
    let sum = 0;
    let n = 0;
    for (let m = at - FUNDING_INTERVAL_MS + MINUTE; m <= at; m += MINUTE) {
      const sample = minutes.get(Math.floor(m / MINUTE) * MINUTE);
      if (sample) {
        sum += sample.premiumPpm;
        n++;
      }
    }
    return fundingRateFromPremium(n > 0 ? Math.round(sum / n) : 0);
  }

  markPrice(spec: SymbolSpec, time: number): Micro {
    const t = Math.floor(time);
    const index = this.indexPrice(spec, t);
    if (index === 0n) return 0n;
    const last = this.lastPrice(spec, t);
    const p1 = fundingPrice(index, t, (at) => this.fundingRate(spec, at));
    // P2: the index plus the 30-minute average of (last - index), from the minutes there are samples of.
    const minutes = this.state(spec).minutes;
    const minute = Math.floor(t / MINUTE) * MINUTE;
    let basis = 0n;
    let n = 0n;
    for (let i = 0; i < MA_SAMPLES; i++) {
      const sample = minutes.get(minute - i * MINUTE);
      if (!sample) continue;
      basis += shift(sample.index, sample.premiumPpm, spec.tick) - sample.index;
      n++;
    }
    return median3(p1, index + basisAverage(basis, n), last);
  }

  extremes(spec: SymbolSpec, from: number, to: number): Range {
    const last = this.price(spec, to);
    const range: Range = { low: last, high: last };
    for (const s of this.state(spec).history) {
      if (s.t <= from || s.t > to) continue;
      const p = Number(s.index);
      if (p < range.low) range.low = p;
      if (p > range.high) range.high = p;
    }
    return range;
  }

  book(spec: SymbolSpec, t: number, levels: number, max = levels): Book {
    const snap = this.state(spec).snapshot;
    const n = Math.max(1, Math.min(levels, max));
    const toLevels = (side: [number, number][] | undefined): BookLevel[] =>
      (side ?? []).slice(0, n).map(([price, qty]) => ({ price, qty }));
    return { mid: this.price(spec, t), bids: toLevels(snap?.bids), asks: toLevels(snap?.asks) };
  }

  contractBook(spec: SymbolSpec, t: number, levels: number): Book {
    const book = this.book(spec, t, levels, levels);
    const ppm = this.premium(spec);
    if (ppm === 0) return book;
    const move = (l: BookLevel): BookLevel => ({
      price: Number(shift(BigInt(l.price), ppm, spec.tick)),
      qty: l.qty,
    });
    return { mid: Number(this.lastPrice(spec, t)), bids: book.bids.map(move), asks: book.asks.map(move) };
  }

  quote(spec: SymbolSpec, now: number): Quote | null {
    const snap = this.state(spec).snapshot;
    if (!snap || snap.index === null) return null;
    const status = this.status(spec, now);
    const latest = BigInt(snap.index);
    const open = snap.open ? BigInt(snap.open) : latest;
    const money = (v: string | null, fallback: bigint) => formatAmount(v ? BigInt(v) : fallback);
    return {
      symbol: spec.symbol,
      base: spec.base,
      latest: formatAmount(latest),
      change24h: percent(Number(latest), Number(open)),
      high: money(snap.high, latest),
      low: money(snap.low, latest),
      open: formatAmount(open),
      prevClose: money(snap.prevClose, open),
      volume: snap.volume ? formatAmount(BigInt(snap.volume)) : '0',
      time: Math.floor((status.stale ? snap.indexTime : now) / 1000),
      source: status.source,
      markPrice: formatAmount(status.stale ? latest : this.markPrice(spec, now)),
      // The premium samples seen so far this interval: the estimated rate of the next funding time.
      fundingRate: ratePercent(this.fundingRate(spec, nextFunding(Math.floor(now) + 1))),
      nextFundingTime: Math.floor(nextFunding(Math.floor(now) + 1) / 1000),
      ...(status.stale ? { stale: true as const } : {}),
    };
  }

  /** Pairs with no index yet are left out: never a made-up price. */
  quotes(now: number): Quote[] {
    return this.options.pairs.map((spec) => this.quote(spec, now)).filter((q): q is Quote => q !== null);
  }

  async kline(
    spec: SymbolSpec,
    interval: Interval,
    now: number,
    limit = 200,
    before?: number,
  ): Promise<Candle[]> {
    const stored = await this.options.candles.candles(spec.symbol, interval, limit, before);
    const current = this.state(spec).snapshot?.candles[interval];
    if (!current || (before !== undefined && current.time >= before)) return stored;
    // The candle in progress is the snapshot's (newer than what storage has).
    const out = stored.filter((c) => c.time !== current.time);
    out.push(wireCandle(current));
    return out.slice(-limit);
  }

  depth(spec: SymbolSpec, now: number, limit: number): Depth {
    const book = this.book(spec, now, limit, limit);
    return {
      symbol: spec.symbol,
      asks: book.asks.map((l) => [formatPrice(l.price), formatVolume(l.qty)]),
      bids: book.bids.map((l) => [formatPrice(l.price), formatVolume(l.qty)]),
      time: Math.floor(now / 1000),
    };
  }

  /**
   * The feed at `to` (the engine's market.feed hook, on the lease holder): each second the quotes, Curr and
   * the current candle of each subscription; each call the books of the subscribed pairs.
   */
  feed(from: number, to: number, subscriptions: readonly MarketSubscription[]): TimedMessage[] {
    const out: TimedMessage[] = [];
    const second = Math.floor(to / SECOND) * SECOND;
    if (second > from) {
      const quotes = this.quotes(to);
      out.push({ at: to, message: { type: 'ticker24hr', data: quotes } });
      out.push({ at: to, message: { type: 'Curr', data: currOf(quotes) } });
      for (const sub of subscriptions) {
        const state = this.states.get(sub.symbol);
        const candle = state?.snapshot?.candles[sub.interval];
        if (!state || !candle) continue;
        out.push({
          at: to,
          message: {
            type: 'Kline',
            data: { symbol: sub.symbol, interval: sub.interval, list: [wireCandle(candle)] },
          },
        });
      }
    }
    const booked = new Set<string>();
    for (const sub of subscriptions) {
      const state = this.states.get(sub.symbol);
      if (!state?.snapshot || booked.has(sub.symbol)) continue;
      booked.add(sub.symbol);
      const book = this.book(state.spec, to, QUOTA_LEVELS);
      out.push({
        at: to,
        message: {
          type: 'getQuota',
          data: {
            symbol: sub.symbol,
            buy: book.bids.map((l) => ({ bid: formatPrice(l.price), amount: formatVolume(l.qty) })),
            sell: book.asks.map((l) => ({ ask: formatPrice(l.price), amount: formatVolume(l.qty) })),
            time: Math.floor(to / 1000),
          },
        },
      });
    }
    return out;
  }
}

/** Minutes of an interval, for candle buckets. */
export const intervalMs = (interval: Interval): number => INTERVAL_MINUTES[interval] * MINUTE;
