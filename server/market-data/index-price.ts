/**
 * The index price of a pair from several venues, exact in micro-USDT, as Binance documents its USDⓈ-M
 * price index and OKX its spot index: stale venues and outliers from the median get weight zero, the rest's
 * weighted median is the index, and with fewer than `minVenues` left the index is stale (orders refused,
 * liquidations paused). Rules and sources: docs/TRADING.md "Index price".
 */
export interface VenuePrice {
  venue: string;
  /** The venue's last traded price, micro-USDT; null when it has none yet. */
  price: bigint | null;
  /** When the venue last sent anything for the pair (ms); null: never. */
  time: number | null;
  weight: number;
}

export type Exclusion = 'stale' | 'outlier';

export interface IndexOptions {
  staleMs: number;
  outlierBps: number;
  minVenues: number;
}

export interface IndexResult {
  /** The index (micro-USDT); null when it is stale. */
  price: bigint | null;
  stale: boolean;
  /** The venues the index is made of, in the order given. */
  used: string[];
  excluded: { venue: string; reason: Exclusion }[];
}

function halfUp(sum: bigint): bigint {
  return (sum + 1n) / 2n;
}

/** The weighted median: the lowest price at which half the weight is reached; midway on an exact half. */
export function weightedMedian(entries: readonly { price: bigint; weight: number }[]): bigint {
  if (entries.length === 0) throw new RangeError('weightedMedian of nothing');
  const sorted = [...entries].sort((a, b) => (a.price < b.price ? -1 : a.price > b.price ? 1 : 0));
  const total = sorted.reduce((sum, e) => sum + e.weight, 0);
  let cumulative = 0;
  for (let i = 0; i < sorted.length; i++) {
    const entry = sorted[i]!;
    cumulative += entry.weight;
    if (cumulative * 2 === total && i + 1 < sorted.length) return halfUp(entry.price + sorted[i + 1]!.price);
    if (cumulative * 2 >= total) return entry.price;
  }
  return sorted[sorted.length - 1]!.price;
}

export function computeIndex(prices: readonly VenuePrice[], now: number, options: IndexOptions): IndexResult {
  const excluded: IndexResult['excluded'] = [];
  const fresh: { venue: string; price: bigint; weight: number }[] = [];
  for (const p of prices) {
    if (p.price === null || p.price <= 0n || p.time === null || now - p.time > options.staleMs) {
      excluded.push({ venue: p.venue, reason: 'stale' });
    } else {
      fresh.push({ venue: p.venue, price: p.price, weight: p.weight });
    }
  }
  if (fresh.length < options.minVenues || fresh.length === 0)
    return { price: null, stale: true, used: [], excluded };
  const median = weightedMedian(fresh.map((f) => ({ price: f.price, weight: 1 })));
  const far = (price: bigint) => {
    const diff = price > median ? price - median : median - price;
    return diff * 10_000n > median * BigInt(options.outlierBps);
  };
  const outliers = fresh.filter((f) => far(f.price));
  if (outliers.length > 1) {
    // Several venues far from the median: Binance takes the plain median of all as the index. A median of
    // two is only their midpoint, which neither venue traded at: with fewer than three the index is stale.
    if (fresh.length < 3) return { price: null, stale: true, used: [], excluded };
    return { price: median, stale: false, used: fresh.map((f) => f.venue), excluded };
  }
  for (const o of outliers) excluded.push({ venue: o.venue, reason: 'outlier' });
  const kept = fresh.filter((f) => !far(f.price));
  if (kept.length < options.minVenues) return { price: null, stale: true, used: [], excluded };
  return { price: weightedMedian(kept), stale: false, used: kept.map((k) => k.venue), excluded };
}
