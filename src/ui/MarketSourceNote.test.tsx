/**
 * The trade screen's counterparty sentence (live mode): the venues of the pair's index in the member's
 * language, the stale note with its time, and nothing for simulated prices.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../engine/index';
import { initI18n } from '../i18n';
import { MarketSourceNote, venueList } from './MarketSourceNote';

beforeAll(async () => {
  await initI18n('en-US');
});

afterEach(cleanup);

const quote = (over: Partial<Quote>): Quote => ({
  symbol: 'BTC/USDT',
  base: 'BTC',
  latest: '95000',
  change24h: '0',
  high: '95000',
  low: '95000',
  open: '95000',
  prevClose: '95000',
  volume: '1',
  time: 1_760_000_000,
  source: 'binance,okx,coinbase',
  ...over,
});

describe('MarketSourceNote', () => {
  it('names the venues in the member’s language', () => {
    expect(venueList('binance,okx,coinbase', 'en-US')).toBe('Binance, OKX, and Coinbase');
    expect(venueList('binance,okx,coinbase', 'de-DE')).toBe('Binance, OKX und Coinbase');
    expect(venueList('kraken', 'en-US')).toBe('Kraken');
    render(<MarketSourceNote quote={quote({})} />);
    expect(screen.getByText('You trade with Strata at prices from Binance, OKX, and Coinbase')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says when a stale pair’s prices date from, and says nothing for simulated prices', () => {
    render(<MarketSourceNote quote={quote({ stale: true, source: 'okx,coinbase' })} />);
    expect(screen.getByRole('status').textContent).toMatch(
      /^Prices out of date since .+\. Orders are paused/,
    );
    cleanup();
    const { container } = render(<MarketSourceNote quote={quote({ source: 'simulated' })} />);
    expect(container.textContent).toBe('');
  });
});
