import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithI18n } from '../pwa/test-i18n';
import { QueryState } from './QueryState';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('QueryState (every screen: loading, error, offline, empty)', () => {
  it('announces loading politely', () => {
    renderWithI18n(<QueryState status="loading" />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
  });

  it("shows a screen's own loading view instead of the spinner when given one", () => {
    renderWithI18n(<QueryState status="loading" loadingView={<p>rows</p>} />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('rows')).toBeTruthy();
  });

  it('shows a failure in the catalogue wording with a retry', async () => {
    const retry = vi.fn();
    renderWithI18n(<QueryState status="error" error={{ code: 500, msg: '' }} onRetry={retry} />);
    expect(screen.getByRole('alert').textContent).toContain('Server error. Please try again later.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('says offline when an unanswered call meets a device without network', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderWithI18n(<QueryState status="error" error={{ code: 'ERR_NETWORK', msg: '' }} />);
    expect(screen.getByRole('alert').textContent).toBe('You are offline. Please check your connection.');
  });

  it('shows the empty text only for a ready, empty result', () => {
    const { rerender } = renderWithI18n(<QueryState status="ready" isEmpty emptyText="Nothing here." />);
    expect(screen.getByText('Nothing here.')).toBeTruthy();
    rerender(<QueryState status="ready" isEmpty={false} emptyText="Nothing here." />);
    expect(screen.queryByText('Nothing here.')).toBeNull();
  });
});
