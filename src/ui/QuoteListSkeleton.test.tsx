import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderWithI18n } from '../pwa/test-i18n';
import { QuoteListSkeleton } from './QuoteListSkeleton';

afterEach(cleanup);

describe('QuoteListSkeleton (the quotes loading)', () => {
  it('announces loading politely and hides its bars from screen readers', () => {
    const { container } = renderWithI18n(<QuoteListSkeleton rows={8} />);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Loading…');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(container.querySelector('ul.quote-list')?.getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryByRole('list')).toBeNull();
  });

  it("has QuoteList's row shape: pair, price and change; the full rows carry the volume and high-low lines", () => {
    const { container, rerender } = renderWithI18n(<QuoteListSkeleton rows={8} />);
    const rows = container.querySelectorAll('.quote-row');
    expect(rows).toHaveLength(8);
    for (const row of rows) {
      expect([...row.children].map((c) => c.className)).toEqual([
        'quote-pair',
        'quote-price',
        'change change-flat change-block',
      ]);
    }
    expect(container.querySelectorAll('.quote-sub')).toHaveLength(16);
    rerender(<QuoteListSkeleton rows={4} compact />);
    expect(container.querySelectorAll('.quote-row')).toHaveLength(4);
    expect(container.querySelectorAll('.quote-sub')).toHaveLength(0);
    // Nothing moves on screen: no animation is attached to the bars.
    expect(container.querySelector('.spinner')).toBeNull();
  });
});
