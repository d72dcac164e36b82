/**
 * The first-data marks (issue 25): the element that holds a screen's first real figure carries its Element
 * Timing name, and no loading state does (the browser reports an element once, at its first paint, so a
 * marked placeholder would report the placeholder). bench/first-data.bench.ts reads these entries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Quote } from '../../engine/index';
import { renderWithI18n } from '../pwa/test-i18n';
import { Amount } from '../ui/Amount';
import { QuoteList } from '../ui/QuoteList';
import { QuoteListSkeleton } from '../ui/QuoteListSkeleton';
import { FIRST_DATA } from './first-data';

afterEach(cleanup);

const quote = (base: string, latest: string): Quote =>
  ({
    symbol: `${base}USDT`,
    base,
    latest,
    change24h: '1.25',
    high: latest,
    low: latest,
    open: latest,
    prevClose: latest,
    volume: '12.5',
    time: 1_780_000_000,
    source: 'simulated',
  }) as Quote;

const marked = (root: ParentNode) =>
  [...root.querySelectorAll('[elementtiming]')].map((e) => [e.getAttribute('elementtiming'), e.textContent]);

describe('first-data marks (Element Timing)', () => {
  it('a figure carries its name, its "--" never does', () => {
    const { container, rerender } = renderWithI18n(<Amount value={undefined} timing={FIRST_DATA.balance} />);
    expect(container.textContent).toBe('--');
    expect(marked(container)).toEqual([]);
    rerender(<Amount value="1234.5" unit="USDT" timing={FIRST_DATA.balance} />);
    expect(marked(container)).toEqual([['balance', '1,234.50 USDT']]);
  });

  it("the quotes' loading rows carry no name; the first real row's price does, and only it", () => {
    const { container, rerender } = renderWithI18n(<QuoteListSkeleton rows={4} compact />);
    expect(container.querySelectorAll('.quote-row')).toHaveLength(4);
    expect(marked(container)).toEqual([]);
    rerender(
      <MemoryRouter>
        <QuoteList quotes={[quote('BTC', '91234.5'), quote('ETH', '3100.25')]} label="Quotes" compact />
      </MemoryRouter>,
    );
    expect(container.querySelectorAll('.quote-row')).toHaveLength(2);
    expect(marked(container)).toEqual([['quote-row', '91,234.50']]);
  });
});
