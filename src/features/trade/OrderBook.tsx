/**
 * The order book of one pair: the device's last copy (with its time) at once, /api/market/depth in the
 * background, then the feed's getQuota for that pair (ten times a second, written back to the device every
 * few seconds). Five asks above the latest price, five bids below; choosing a level fills the limit price.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Depth, FeedMessage, QuotaBook } from '../../../engine/index';
import { api } from '../../api';
import { Amount } from '../../ui/Amount';
import { QueryState } from '../../ui/QueryState';
import { useCached, useCacheWriter } from '../../sync/cache';
import { CachedNote } from '../../ui/Freshness';
import { useFeed } from '../../lib/feed';

const LEVELS = 5;
type Level = [string, string];

function fromQuota(book: QuotaBook): { asks: Level[]; bids: Level[] } {
  return {
    asks: book.sell.map((e): Level => [e.ask, e.amount]),
    bids: book.buy.map((e): Level => [e.bid, e.amount]),
  };
}

export function OrderBook({ symbol, onPick }: { symbol: string; onPick: (price: string) => void }) {
  const { t } = useTranslation();
  const query = useCached<Depth>(`depth:${symbol}`, () =>
    api.call('/api/market/depth', { symbol, limit: LEVELS }, { silent: true }),
  );
  const [live, setLive] = useState<{ symbol: string; asks: Level[]; bids: Level[] } | null>(null);
  useFeed((message: FeedMessage) => {
    if (message.type !== 'getQuota') return;
    const book = message.data;
    if (book?.symbol === symbol) setLive({ symbol, ...fromQuota(book) });
  });
  const current = live?.symbol === symbol ? live : null;
  useCacheWriter(`depth:${symbol}`, current ? { asks: current.asks, bids: current.bids } : null);
  const book = current ?? query.data;
  if (!book) return <QueryState status={query.status} error={query.error} onRetry={query.reload} />;
  const asks = book.asks.slice(0, LEVELS).reverse();
  const bids = book.bids.slice(0, LEVELS);
  const row = (side: 'ask' | 'bid') => (level: Level) => {
    // No aria-label: the figures on screen are the name (the list says Asks or Bids), so a screen reader
    // hears the price and quantity exactly as shown.
    return (
      <li key={`${side}${level[0]}`}>
        <button
          type="button"
          className={`book-row ${side === 'ask' ? 'down-text' : 'up-text'}`}
          onClick={() => onPick(level[0])}
        >
          <Amount value={level[0]} kind="price" symbol={symbol} className="book-price" />{' '}
          <Amount value={level[1]} kind="quantity" symbol={symbol} className="book-qty" />
        </button>
      </li>
    );
  };
  return (
    <section className="book" aria-label={t('trade.book')}>
      {!current && <CachedNote at={query.at} stale={query.stale} />}
      <div className="book-head muted">
        <span>{t('trade.price')}</span>
        <span>{t('trade.qty')}</span>
      </div>
      <ul className="book-side" aria-label={t('trade.asks')}>
        {asks.map(row('ask'))}
      </ul>
      <ul className="book-side" aria-label={t('trade.bids')}>
        {bids.map(row('bid'))}
      </ul>
    </section>
  );
}
