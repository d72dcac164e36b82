/**
 * What the Quotes tab lists (pure, so it is tested without a screen): the pairs a search matches, the view
 * (all, favourites, rising, falling) and the order (by 24h volume, last price or 24h change, either way).
 * Every comparison is exact: decimal strings through the money module, never floats.
 */
import type { Quote } from '../../engine/index';
import { compareDecimal, parseAmountText, signOf } from '../../engine/index';

export type QuoteView = 'all' | 'favourites' | 'rising' | 'falling';
export const VIEWS: readonly QuoteView[] = ['all', 'favourites', 'rising', 'falling'];

export type SortKey = 'volume' | 'price' | 'change';
export const SORT_KEYS: readonly SortKey[] = ['volume', 'price', 'change'];
export type SortDirection = 'desc' | 'asc';
export interface QuoteSort {
  key: SortKey;
  direction: SortDirection;
}

/** Letters and digits only, upper case: "btc/usdt", "BTC USDT" and "btcusdt" are one query. */
function squash(text: string): string {
  return text.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();
}

/** Pairs whose name contains the query (any case, with or without "/"); every pair for an empty one. */
export function searchQuotes(quotes: readonly Quote[], query: string): Quote[] {
  const q = squash(query);
  if (!q) return [...quotes];
  return quotes.filter((quote) => squash(quote.symbol).includes(q) || squash(quote.base).includes(q));
}

/** The 24h volume in USDT (base volume x last price) as an exact integer (micro x micro), for ranking. */
function turnover(quote: Quote): bigint {
  const volume = parseAmountText(quote.volume) ?? 0n;
  const price = parseAmountText(quote.latest) ?? 0n;
  return volume * price;
}

function compare(a: Quote, b: Quote, key: SortKey): number {
  if (key === 'price') return compareDecimal(a.latest, b.latest);
  if (key === 'change') return compareDecimal(a.change24h, b.change24h);
  const x = turnover(a);
  const y = turnover(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** The quotes in the order asked (stable: equal pairs keep the feed's order); as given without a sort. */
export function sortQuotes(quotes: readonly Quote[], sort: QuoteSort | null): Quote[] {
  if (!sort) return [...quotes];
  const sign = sort.direction === 'desc' ? -1 : 1;
  return [...quotes].sort((a, b) => sign * compare(a, b, sort.key));
}

/** The view's pairs: favourites in the order starred; rising and falling biggest move first. */
export function selectQuotes(
  quotes: readonly Quote[],
  view: QuoteView,
  favourites: readonly string[] = [],
): Quote[] {
  if (view === 'favourites')
    return favourites.map((s) => quotes.find((q) => q.symbol === s)).filter((q): q is Quote => !!q);
  if (view === 'rising')
    return quotes
      .filter((q) => signOf(q.change24h) > 0)
      .sort((a, b) => compareDecimal(b.change24h, a.change24h));
  if (view === 'falling')
    return quotes
      .filter((q) => signOf(q.change24h) < 0)
      .sort((a, b) => compareDecimal(a.change24h, b.change24h));
  return [...quotes];
}

/** The next sort when the member presses `key`'s button: highest first, then lowest first, then none. */
export function nextSort(current: QuoteSort | null, key: SortKey): QuoteSort | null {
  if (!current || current.key !== key) return { key, direction: 'desc' };
  return current.direction === 'desc' ? { key, direction: 'asc' } : null;
}

/** `?sort=price-desc` <-> { key, direction }; anything else is no sort. */
export function parseSort(text: string | null): QuoteSort | null {
  const [key, direction] = (text ?? '').split('-');
  if (!SORT_KEYS.includes(key as SortKey) || (direction !== 'desc' && direction !== 'asc')) return null;
  return { key: key as SortKey, direction };
}

export function sortParam(sort: QuoteSort | null): string | null {
  return sort ? `${sort.key}-${sort.direction}` : null;
}
