/**
 * Live mode: where a pair's prices come from and who the member trades with ("You trade with Strata at
 * prices from Binance, OKX and Coinbase", the venues of the pair's index now), and, while the pair's index is
 * stale, that its prices are the last fresh ones (with their time) and orders wait. Nothing for simulated
 * prices: demo mode says so with SimulatedNote.
 */
import { useTranslation } from 'react-i18next';
import type { Quote } from '../../engine/index';
import { freshnessTime, useMinuteClock } from './Freshness';

const NAMES: Readonly<Record<string, string>> = {
  binance: 'Binance',
  okx: 'OKX',
  coinbase: 'Coinbase',
  kraken: 'Kraken',
  bybit: 'Bybit',
  bitstamp: 'Bitstamp',
  bitfinex: 'Bitfinex',
  gate: 'Gate',
  kucoin: 'KuCoin',
  htx: 'HTX',
};

/** A venue's display name: its own spelling when known, else its id capitalised. */
export function venueName(id: string): string {
  return NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);
}

/** "Binance, OKX and Coinbase" in the member's language (Intl.ListFormat). */
export function venueList(source: string, locale: string): string {
  const names = source
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(venueName);
  return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(names);
}

export function MarketSourceNote({ quote }: { quote: Quote | undefined }) {
  const { t, i18n } = useTranslation();
  const now = useMinuteClock();
  const source = quote?.source;
  if (!quote || !source || source === 'simulated') return null;
  const at = quote.time * 1000;
  return (
    <div className="market-note">
      <p className="counterparty-note">
        {t('trade.counterparty', { venues: venueList(source, i18n.language) })}
      </p>
      {quote.stale && (
        <p className="stale-note" role="status">
          <time dateTime={new Date(at).toISOString()}>
            {t('market.staleSince', { time: freshnessTime(at, Math.max(now, at), t) })}
          </time>
        </p>
      )}
    </div>
  );
}
