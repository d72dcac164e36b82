/**
 * One venue through ccxt (docs/OPERATIONS.md "Market data and the house's risk"): for each configured pair
 * its ticker, its order book and its one-minute candles (and, with MARKET_PERPETUALS, its USDT perpetual's
 * ticker for the funding premium), over the venue's public WebSocket streams where ccxt has them
 * (`exchange.has.watch*`) and by polling its REST API otherwise. ccxt keeps each venue's own rate limits
 * (enableRateLimit) and reconnects a dropped stream at the next watch call; this file retries every failed
 * call with a growing pause (1 s doubling to 30 s), says so at warn level while the venue is unreachable, and
 * at info level when it is back. What arrives is kept as exact integers (decimal.ts) with the time it
 * arrived: the staleness clock is ours, not the venue's (a venue's clock may be off).
 */
import { VOLUME_DECIMALS, type BookLevel, type SymbolSpec } from '../../engine/server';
import type { Exchange, OHLCV, OrderBook, Ticker } from 'ccxt';
import { scaled } from './decimal';

/** Prices in micro-USDT (6 decimals), volumes in micro base units. */
export interface VenueCandle {
  /** Open time, ms. */
  time: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
}

/** What a venue last said about one pair, and when it said it (our clock, ms). */
export interface VenuePairState {
  last: bigint | null;
  lastTime: number | null;
  /** The venue's rolling 24 hours: open, high, low (micro-USDT) and base volume (micro units). */
  open: bigint | null;
  high: bigint | null;
  low: bigint | null;
  volume: bigint | null;
  /** Best first; prices in micro-USDT (bids rounded down, asks up), quantities in 1e-4 base units. */
  bids: BookLevel[];
  asks: BookLevel[];
  bookTime: number | null;
  /** Its recent one-minute candles by open time. */
  candles: Map<number, VenueCandle>;
  candleTime: number | null;
  /** The venue's USDT perpetual: last price (micro-USDT) and when. */
  perp: bigint | null;
  perpTime: number | null;
}

export interface VenueLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface VenueOptions {
  pairs: readonly SymbolSpec[];
  bookLevels: number;
  pollMs: number;
  perpetuals: boolean;
  clock: () => number;
  log: VenueLog;
  /** Called after each update (the gateway recomputes the pair's index then). */
  onUpdate?: (symbol: string) => void;
}

const MAX_BACKOFF_MS = 30_000;
const KEEP_CANDLES = 180;
/** While a venue stays unreachable, the warning is repeated at most this often. */
const WARN_EVERY_MS = 60_000;

function emptyState(): VenuePairState {
  return {
    last: null,
    lastTime: null,
    open: null,
    high: null,
    low: null,
    volume: null,
    bids: [],
    asks: [],
    bookTime: null,
    candles: new Map(),
    candleTime: null,
    perp: null,
    perpTime: null,
  };
}

const price = (value: number | string | undefined | null, rounding: 'floor' | 'ceil' | 'half-up') =>
  scaled(value ?? null, 6, rounding);

/** ccxt's book side (best first) as engine levels: at most `levels`, rounded against the taker. */
export function bookSide(
  side: readonly (readonly (number | string | undefined)[])[],
  rounding: 'floor' | 'ceil',
  levels: number,
): BookLevel[] {
  const out: BookLevel[] = [];
  for (const entry of side) {
    if (out.length >= levels) break;
    const p = price(entry[0], rounding);
    const q = scaled(entry[1] ?? null, VOLUME_DECIMALS, 'floor');
    if (p === null || q === null || p <= 0n || q <= 0n) continue;
    const last = out[out.length - 1];
    // Two levels that round to one price add up.
    if (last && BigInt(last.price) === p) last.qty += Number(q);
    else out.push({ price: Number(p), qty: Number(q) });
  }
  return out;
}

export function candleOf(row: OHLCV): VenueCandle | null {
  const [time, o, h, l, c, v] = row;
  if (typeof time !== 'number') return null;
  const open = price(o, 'half-up');
  const high = price(h, 'half-up');
  const low = price(l, 'half-up');
  const close = price(c, 'half-up');
  const volume = scaled(v ?? 0, 6, 'floor') ?? 0n;
  if (open === null || high === null || low === null || close === null || open <= 0n) return null;
  return { time, open, high, low, close, volume };
}

export class VenueFeed {
  readonly pairs = new Map<string, VenuePairState>();
  /** The venue's symbols for our pairs (our "BTC/USDT" -> the venue's unified symbol), once markets load. */
  private listed = new Map<string, { spot: string; perp: string | null }>();
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private readonly timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  /** Failing loops, by name, with when the last warning was logged. */
  private readonly failing = new Map<string, number>();
  lastError: string | null = null;

  constructor(
    readonly id: string,
    private readonly exchange: Exchange,
    private readonly options: VenueOptions,
  ) {
    for (const spec of options.pairs) this.pairs.set(spec.symbol, emptyState());
  }

  /** Starts the venue's loops (markets first, then a loop per pair and stream); resolves at once. */
  start(): void {
    this.loops.push(this.run('markets', async () => this.loadMarkets(), true));
  }

  /** Which of our pairs the venue lists (empty until its markets loaded). */
  listedPairs(): string[] {
    return [...this.listed.keys()];
  }

  get connected(): boolean {
    return this.listed.size > 0 && this.failing.size === 0;
  }

  private async loadMarkets(): Promise<void> {
    await this.exchange.loadMarkets();
    const markets = this.exchange.markets ?? {};
    for (const spec of this.options.pairs) {
      const spot = markets[spec.symbol] ? spec.symbol : null;
      if (!spot) {
        this.options.log.info({ venue: this.id, pair: spec.symbol }, 'venue does not list the pair');
        continue;
      }
      const perpSymbol = `${spec.base}/USDT:USDT`;
      const perp = this.options.perpetuals && markets[perpSymbol] ? perpSymbol : null;
      this.listed.set(spec.symbol, { spot, perp });
    }
    for (const [symbol, names] of this.listed) {
      this.loops.push(this.run(`${symbol} ticker`, () => this.ticker(symbol, names.spot)));
      this.loops.push(this.run(`${symbol} book`, () => this.book(symbol, names.spot)));
      this.loops.push(this.run(`${symbol} candles`, () => this.candles(symbol, names.spot)));
      if (names.perp)
        this.loops.push(this.run(`${symbol} perpetual`, () => this.perpetual(symbol, names.perp!)));
    }
  }

  private state(symbol: string): VenuePairState {
    let state = this.pairs.get(symbol);
    if (!state) {
      state = emptyState();
      this.pairs.set(symbol, state);
    }
    return state;
  }

  private touched(symbol: string): void {
    this.options.onUpdate?.(symbol);
  }

  private applyTicker(symbol: string, t: Ticker): void {
    const s = this.state(symbol);
    const last = price(t.last ?? t.close, 'half-up');
    if (last === null || last <= 0n) return;
    s.last = last;
    s.lastTime = this.options.clock();
    s.open = price(t.open, 'half-up');
    s.high = price(t.high, 'half-up');
    s.low = price(t.low, 'half-up');
    s.volume = scaled(t.baseVolume ?? null, 6, 'floor');
    this.touched(symbol);
  }

  private applyBook(symbol: string, book: OrderBook): void {
    const s = this.state(symbol);
    s.bids = bookSide(book.bids, 'floor', this.options.bookLevels);
    s.asks = bookSide(book.asks, 'ceil', this.options.bookLevels);
    s.bookTime = this.options.clock();
    this.touched(symbol);
  }

  private applyCandles(symbol: string, rows: readonly OHLCV[]): void {
    const s = this.state(symbol);
    for (const row of rows) {
      const candle = candleOf(row);
      if (candle) s.candles.set(candle.time, candle);
    }
    if (s.candles.size > KEEP_CANDLES) {
      const times = [...s.candles.keys()].sort((a, b) => a - b);
      for (const t of times.slice(0, times.length - KEEP_CANDLES)) s.candles.delete(t);
    }
    s.candleTime = this.options.clock();
    this.touched(symbol);
  }

  private async ticker(symbol: string, venueSymbol: string): Promise<void> {
    if (this.exchange.has['watchTicker']) {
      this.applyTicker(symbol, await this.exchange.watchTicker(venueSymbol));
    } else {
      this.applyTicker(symbol, await this.exchange.fetchTicker(venueSymbol));
      await this.sleep(this.options.pollMs);
    }
  }

  private async book(symbol: string, venueSymbol: string): Promise<void> {
    if (this.exchange.has['watchOrderBook']) {
      this.applyBook(symbol, await this.exchange.watchOrderBook(venueSymbol));
    } else {
      this.applyBook(symbol, await this.exchange.fetchOrderBook(venueSymbol, this.options.bookLevels));
      await this.sleep(this.options.pollMs);
    }
  }

  private async candles(symbol: string, venueSymbol: string): Promise<void> {
    if (this.exchange.has['watchOHLCV']) {
      this.applyCandles(symbol, await this.exchange.watchOHLCV(venueSymbol, '1m'));
    } else {
      // Candles change once a minute: polled less often than books and tickers.
      this.applyCandles(symbol, await this.exchange.fetchOHLCV(venueSymbol, '1m', undefined, 5));
      await this.sleep(Math.max(this.options.pollMs, 10_000));
    }
  }

  private async perpetual(symbol: string, venueSymbol: string): Promise<void> {
    const t = this.exchange.has['watchTicker']
      ? await this.exchange.watchTicker(venueSymbol)
      : await this.exchange.fetchTicker(venueSymbol);
    const last = price(t.last ?? t.close, 'half-up');
    if (last !== null && last > 0n) {
      const s = this.state(symbol);
      s.perp = last;
      s.perpTime = this.options.clock();
      this.touched(symbol);
    }
    if (!this.exchange.has['watchTicker']) await this.sleep(this.options.pollMs);
  }

  /** The venue's candles of `interval` (backfill, candles.ts), as ccxt answers them. */
  async history(symbol: string, interval: string, limit: number): Promise<VenueCandle[]> {
    const names = this.listed.get(symbol);
    if (!names || !this.exchange.has['fetchOHLCV']) return [];
    const rows = await this.exchange.fetchOHLCV(names.spot, interval, undefined, limit);
    return rows.map(candleOf).filter((c): c is VenueCandle => c !== null);
  }

  /**
   * Runs `step` until stopped (`once`: until it succeeds), pausing after failures: 1 s, doubling to 30 s.
   * The first failure of a loop, and then one a minute, is logged at warn level with the venue's error.
   */
  private async run(name: string, step: () => Promise<void>, once = false): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await step();
        if (failures > 0) {
          this.failing.delete(name);
          this.options.log.info({ venue: this.id, stream: name, failures }, 'venue reachable again');
        }
        failures = 0;
        if (once) return;
      } catch (error) {
        if (this.stopped) return;
        failures += 1;
        this.lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        const now = this.options.clock();
        const warned = this.failing.get(name);
        if (warned === undefined || now - warned >= WARN_EVERY_MS) {
          this.failing.set(name, now);
          this.options.log.warn(
            { venue: this.id, stream: name, failures, err: this.lastError.slice(0, 300) },
            'venue unreachable: its prices leave the index until it answers again',
          );
        }
        await this.sleep(Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.min(failures - 1, 5)));
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.timers.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      this.timers.add(entry);
    });
  }

  async close(): Promise<void> {
    this.stopped = true;
    for (const entry of this.timers) {
      clearTimeout(entry.timer);
      entry.resolve();
    }
    this.timers.clear();
    // Pending watch calls reject once the exchange's sockets close; their loops then end.
    await this.exchange.close().catch(() => undefined);
    await Promise.allSettled(this.loops);
  }
}
