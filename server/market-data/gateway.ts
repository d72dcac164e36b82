/**
 * The market-data gateway: where the server's prices come from. `simulatedMarketData` (demo: the engine's
 * simulator) and `venueMarketData` (live, MARKET_VENUES: real venues through ccxt, venue.ts), connected on the
 * instance holding the background-work lease only, which publishes each pair's snapshot once a second on the
 * cluster's market bus; every instance prices from what it hears (replica.ts). docs/OPERATIONS.md "Market
 * data and the house's risk".
 */
import {
  INTERVALS,
  marketFor,
  PPM,
  simulatedSource,
  type BookLevel,
  type Interval,
  type MarketModel,
  type MarketSource,
  type SymbolSpec,
} from '../../engine/server';
import type { Exchange } from 'ccxt';
import type { EventBus } from '../events';
import { composeCandles, mergeCandle, periodStart, type CandleStore } from './candles';
import type { MarketConfig } from './config';
import { computeIndex, weightedMedian, type IndexResult } from './index-price';
import { MarketReplica } from './replica';
import {
  parseSnapshot,
  SNAPSHOT_TYPE,
  type PairSnapshot,
  type SnapshotCandle,
  type VenueState,
} from './snapshot';
import { VenueFeed, type VenueLog } from './venue';

export interface VenueReport {
  venue: string;
  connected: boolean;
  pairs: string[];
  lastError: string | null;
}

export interface MarketDataGateway {
  readonly kind: 'simulated' | 'venues';
  /** The engine's market on this instance. */
  readonly source: MarketSource;
  /** True while this instance is the one connected to the venues. */
  readonly leading: boolean;
  venues(): VenueReport[];
  /** Each configured venue's state for `symbol` as the last snapshot says (any instance); demo: none. */
  venueStates(symbol: string): VenueState[];
  close(): Promise<void>;
}

/** Demo mode: the simulator the engine prices with anyway (the same instance: marketFor caches). */
export function simulatedMarketData(seed: number, model?: MarketModel): MarketDataGateway {
  return {
    kind: 'simulated',
    source: simulatedSource(marketFor(seed, model)),
    leading: false,
    venues: () => [],
    venueStates: () => [],
    close: async () => undefined,
  };
}

export interface GatewayLog extends VenueLog {
  error(obj: object, msg: string): void;
}

export interface VenueGatewayOptions {
  config: MarketConfig;
  candles: CandleStore;
  clock: () => number;
  log: GatewayLog;
  /** Builds a venue's ccxt exchange; the default is ccxt.pro's with its rate limits on. */
  exchange?: (venue: string) => Promise<Exchange>;
  /** How often snapshots are made (default 1 s). */
  publishMs?: number;
  /** How often the lease is checked (default 2 s). */
  leaseCheckMs?: number;
}

export async function ccxtExchange(venue: string): Promise<Exchange> {
  const { pro } = await import('ccxt');
  const Ctor = (pro as unknown as Record<string, (new (config: object) => Exchange) | undefined>)[venue];
  if (!Ctor) throw new Error(`ccxt has no WebSocket-capable exchange "${venue}"`);
  return new Ctor({ enableRateLimit: true, timeout: 10_000 });
}

/** The ids ccxt knows (for MARKET_VENUES' check at start). */
export async function knownVenues(): Promise<Set<string>> {
  const { pro } = await import('ccxt');
  return new Set(Object.keys(pro));
}

const MINUTE = 60_000;

/** The leader's per-pair working state: the index it last had and the candles it is building. */
interface Builder {
  spec: SymbolSpec;
  lastIndex: bigint | null;
  indexTime: number;
  lastUsed: string[];
  stale: boolean;
  /** Per interval: the candle of the current period before the minute in progress, and that period. */
  periods: Map<Interval, { time: number; closed: SnapshotCandle | null }>;
  minute: SnapshotCandle | null;
  prevClose: { day: number; close: string | null } | null;
}

function mergeBooks(
  books: { bids: BookLevel[]; asks: BookLevel[] }[],
  levels: number,
): {
  bids: [number, number][];
  asks: [number, number][];
} {
  const side = (pick: (b: { bids: BookLevel[]; asks: BookLevel[] }) => BookLevel[], descending: boolean) => {
    const sum = new Map<number, number>();
    for (const b of books) for (const l of pick(b)) sum.set(l.price, (sum.get(l.price) ?? 0) + l.qty);
    return [...sum.entries()].sort(([a], [b]) => (descending ? b - a : a - b)).slice(0, levels);
  };
  return { bids: side((b) => b.bids, true), asks: side((b) => b.asks, false) };
}

export class VenueMarketData implements MarketDataGateway {
  readonly kind = 'venues' as const;
  readonly source: MarketReplica;
  private feeds: VenueFeed[] = [];
  private readonly builders = new Map<string, Builder>();
  private leaseTimer: NodeJS.Timeout | undefined;
  private publishTimer: NodeJS.Timeout | undefined;
  private unsubscribe: () => void = () => undefined;
  private link: { bus: EventBus; mayRun: () => Promise<boolean> } | null = null;
  private switching: Promise<void> = Promise.resolve();
  private publishing = false;
  private closed = false;
  leading = false;

  constructor(private readonly options: VenueGatewayOptions) {
    const { config } = options;
    this.source = new MarketReplica({
      pairs: config.pairs,
      staleMs: config.staleMs,
      venues: config.venues,
      candles: options.candles,
    });
    for (const spec of config.pairs)
      this.builders.set(spec.symbol, {
        spec,
        lastIndex: null,
        indexTime: 0,
        lastUsed: [],
        stale: true,
        periods: new Map(),
        minute: null,
        prevClose: null,
      });
  }

  /**
   * Loads what storage has (minute samples), listens to `bus` (the cluster's market bus: snapshots travel
   * on it, never to members' sockets) and starts watching the lease (`mayRun`: true while this instance
   * holds the background-work lease).
   */
  async start(link: { bus: EventBus; mayRun: () => Promise<boolean> }): Promise<void> {
    this.link = link;
    this.unsubscribe = link.bus.subscribe((message) => {
      if (message.type !== SNAPSHOT_TYPE || !Array.isArray(message.data)) return;
      for (const raw of message.data) {
        const snapshot = parseSnapshot(raw);
        if (snapshot) this.source.apply(snapshot);
      }
    });
    await this.source.load(this.options.clock());
    const check = () => {
      this.switching = this.switching
        .then(() => this.checkLease())
        .catch((error: unknown) => {
          this.options.log.error({ err: error }, 'market-data gateway: lease check failed');
        });
    };
    check();
    this.leaseTimer = setInterval(check, this.options.leaseCheckMs ?? 2_000);
    this.leaseTimer.unref();
    await this.switching;
  }

  private async checkLease(): Promise<void> {
    if (this.closed || !this.link) return;
    const leader = await this.link.mayRun();
    if (leader && !this.leading) await this.lead();
    else if (!leader && this.leading) await this.follow();
  }

  private async lead(): Promise<void> {
    const { config, log } = this.options;
    const make = this.options.exchange ?? ccxtExchange;
    this.feeds = [];
    for (const venue of config.venues) {
      try {
        const feed = new VenueFeed(venue, await make(venue), {
          pairs: config.pairs,
          bookLevels: config.bookLevels,
          pollMs: config.pollMs,
          perpetuals: config.perpetuals,
          clock: this.options.clock,
          log,
        });
        feed.start();
        this.feeds.push(feed);
      } catch (error) {
        log.error(
          { venue, err: error instanceof Error ? error.message : String(error) },
          'venue not started',
        );
      }
    }
    this.leading = true;
    log.info(
      { venues: config.venues, pairs: config.pairs.map((p) => p.symbol) },
      'market-data gateway: connecting to the venues (this instance holds the lease)',
    );
    void this.backfill();
    this.publishTimer = setInterval(() => void this.publish(), this.options.publishMs ?? 1_000);
    this.publishTimer.unref();
  }

  private async follow(): Promise<void> {
    clearInterval(this.publishTimer);
    this.publishTimer = undefined;
    this.leading = false;
    const feeds = this.feeds;
    this.feeds = [];
    await Promise.all(feeds.map((f) => f.close()));
    this.options.log.info({}, 'market-data gateway: another instance holds the lease; listening only');
  }

  /** Each venue's recent candles of every interval, composed and stored (once markets have loaded). */
  private async backfill(): Promise<void> {
    const { config, candles, log } = this.options;
    if (config.backfill === 0) return;
    const deadline = this.options.clock() + 60_000;
    while (
      this.leading &&
      this.feeds.some((f) => f.listedPairs().length === 0) &&
      this.options.clock() < deadline
    )
      await new Promise((r) => setTimeout(r, 200));
    for (const spec of config.pairs) {
      for (const interval of INTERVALS) {
        if (!this.leading) return;
        const perVenue = await Promise.all(
          this.feeds.map((f) =>
            f.history(spec.symbol, interval, config.backfill).catch((error: unknown) => {
              log.warn({ venue: f.id, pair: spec.symbol, interval, err: String(error) }, 'backfill failed');
              return [];
            }),
          ),
        );
        const composed = composeCandles(perVenue);
        const used = this.feeds.filter((_, i) => (perVenue[i]?.length ?? 0) > 0).map((f) => f.id);
        await candles.upsert(spec.symbol, interval, composed, used.join(','));
      }
    }
    log.info({ pairs: config.pairs.length }, 'market-data gateway: candles backfilled from the venues');
  }

  /** One snapshot per pair, published on the market bus. */
  async publish(): Promise<void> {
    if (this.publishing || !this.leading) return;
    this.publishing = true;
    try {
      const now = this.options.clock();
      const snapshots: PairSnapshot[] = [];
      for (const builder of this.builders.values()) snapshots.push(await this.snapshot(builder, now));
      this.link?.bus.publish({ type: SNAPSHOT_TYPE, data: snapshots });
    } catch (error) {
      this.options.log.error({ err: error }, 'market-data gateway: snapshot failed');
    } finally {
      this.publishing = false;
    }
  }

  private async snapshot(b: Builder, now: number): Promise<PairSnapshot> {
    const { config, log } = this.options;
    const symbol = b.spec.symbol;
    const states = this.feeds.map((f) => ({
      feed: f,
      state: f.pairs.get(symbol),
      listed: f.listedPairs().includes(symbol),
    }));
    const prices = states
      .filter((s) => s.listed && s.state)
      .map(({ feed, state }) => {
        const times = [state!.lastTime, state!.bookTime, state!.candleTime].filter(
          (t): t is number => t !== null,
        );
        return {
          venue: feed.id,
          price: state!.last,
          time: times.length ? Math.max(...times) : null,
          weight: config.weights[feed.id] ?? 1,
        };
      });
    const index: IndexResult = computeIndex(prices, now, config);
    const venues: VenueState[] = states.map(({ feed, state, listed }) => {
      const excluded = index.excluded.find((e) => e.venue === feed.id);
      return {
        venue: feed.id,
        price: state?.last?.toString() ?? null,
        time: state?.lastTime ?? null,
        state: !listed ? 'unlisted' : index.used.includes(feed.id) ? 'used' : (excluded?.reason ?? 'stale'),
      };
    });
    if (index.stale !== b.stale) {
      if (index.stale)
        log.warn(
          { pair: symbol, venues: venues.map((v) => `${v.venue}:${v.state}`) },
          'index stale: too few venues with fresh prices; orders in the pair are refused and liquidations wait',
        );
      else log.info({ pair: symbol, venues: index.used }, 'index fresh again');
      b.stale = index.stale;
    }
    if (!index.stale && index.price !== null) {
      b.lastIndex = index.price;
      b.indexTime = now;
      b.lastUsed = index.used;
    }
    const used = states.filter((s) => index.used.includes(s.feed.id) && s.state).map((s) => s.state!);
    const median = (values: (bigint | null)[]) => {
      const known = values.filter((v): v is bigint => v !== null && v > 0n);
      return known.length ? weightedMedian(known.map((price) => ({ price, weight: 1 }))).toString() : null;
    };
    const premiumPpm = this.premium(used, index.price, now);
    const book = mergeBooks(
      used.filter((s) => s.bookTime !== null && now - s.bookTime <= config.staleMs),
      config.bookLevels * Math.max(1, used.length),
    );
    const candles =
      index.stale || index.price === null
        ? this.currentCandles(b)
        : await this.candles(b, index.price, used, now, premiumPpm);
    return {
      symbol,
      at: now,
      index: b.lastIndex?.toString() ?? null,
      indexTime: b.indexTime,
      stale: index.stale,
      source: (index.stale ? b.lastUsed : index.used).join(','),
      premiumPpm,
      open: median(used.map((s) => s.open)),
      high: median(used.map((s) => s.high)),
      low: median(used.map((s) => s.low)),
      volume: used.length ? used.reduce((sum, s) => sum + (s.volume ?? 0n), 0n).toString() : null,
      prevClose: await this.prevClose(b, now),
      bids: index.stale ? [] : book.bids,
      asks: index.stale ? [] : book.asks,
      candles,
      venues,
    };
  }

  /** The perpetuals' premium over the index: the median of the fresh venues' (perp - index) / index, ppm. */
  private premium(
    used: { perp: bigint | null; perpTime: number | null }[],
    index: bigint | null,
    now: number,
  ): number {
    if (!this.options.config.perpetuals || index === null || index <= 0n) return 0;
    const premiums = used
      .filter(
        (s) => s.perp !== null && s.perpTime !== null && now - s.perpTime <= this.options.config.staleMs,
      )
      .map((s) => ((s.perp! - index) * PPM) / index);
    if (premiums.length === 0) return 0;
    const sorted = premiums.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return Number(sorted[Math.floor((sorted.length - 1) / 2)]!);
  }

  private async prevClose(b: Builder, now: number): Promise<string | null> {
    const day = Math.floor(now / 86_400_000) * 86_400;
    if (b.prevClose?.day !== day) {
      const candle = await this.options.candles.candleAt(b.spec.symbol, '1d', day - 86_400);
      b.prevClose = { day, close: candle?.close ?? null };
    }
    return b.prevClose.close;
  }

  private currentCandles(b: Builder): Partial<Record<Interval, SnapshotCandle>> {
    const out: Partial<Record<Interval, SnapshotCandle>> = {};
    if (!b.minute) return out;
    out['1m'] = b.minute;
    for (const [interval, period] of b.periods)
      out[interval] = mergeCandle(period.closed, b.minute, period.time);
    return out;
  }

  /** Advances the pair's candles with an index sample; stores the closed minute and the current periods. */
  private async candles(
    b: Builder,
    price: bigint,
    used: { candles: Map<number, { volume: bigint }> }[],
    now: number,
    premiumPpm: number,
  ): Promise<Partial<Record<Interval, SnapshotCandle>>> {
    const { candles } = this.options;
    const symbol = b.spec.symbol;
    const minuteMs = Math.floor(now / MINUTE) * MINUTE;
    const minuteSec = minuteMs / 1000;
    const p = price.toString();
    if (b.minute && b.minute.time !== minuteSec) {
      // The minute closed: store it, its sample, and every interval's period with it.
      const closed = b.minute;
      await candles.saveMinute(symbol, {
        minute: closed.time * 1000,
        index: BigInt(closed.close),
        premiumPpm,
      });
      const toStore: [Interval, SnapshotCandle][] = [['1m', closed]];
      for (const [interval, period] of b.periods) {
        period.closed = mergeCandle(period.closed, closed, period.time);
        toStore.push([interval, period.closed]);
      }
      for (const [interval, candle] of toStore)
        await candles.upsert(symbol, interval, [candle], b.lastUsed.join(','));
      b.minute = null;
    }
    const volume = used.reduce((sum, s) => sum + (s.candles.get(minuteMs)?.volume ?? 0n), 0n).toString();
    if (!b.minute) b.minute = { time: minuteSec, open: p, high: p, low: p, close: p, volume };
    else
      b.minute = {
        ...b.minute,
        high: price > BigInt(b.minute.high) ? p : b.minute.high,
        low: price < BigInt(b.minute.low) ? p : b.minute.low,
        close: p,
        volume,
      };
    for (const interval of INTERVALS) {
      if (interval === '1m') continue;
      const time = periodStart(interval, minuteSec);
      const period = b.periods.get(interval);
      // A new period starts from what storage has for it (the backfilled candle, or one stored before a restart).
      if (!period || period.time !== time)
        b.periods.set(interval, { time, closed: await candles.candleAt(symbol, interval, time) });
    }
    return this.currentCandles(b);
  }

  venues(): VenueReport[] {
    return this.feeds.map((f) => ({
      venue: f.id,
      connected: f.connected,
      pairs: f.listedPairs(),
      lastError: f.lastError,
    }));
  }

  venueStates(symbol: string): VenueState[] {
    return (
      this.source.snapshotOf(symbol)?.venues ??
      this.options.config.venues.map((venue) => ({ venue, price: null, time: null, state: 'stale' as const }))
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.leaseTimer);
    await this.switching;
    if (this.leading) await this.follow();
    this.unsubscribe();
  }
}
