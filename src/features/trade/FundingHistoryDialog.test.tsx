import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { FundingView, PositionView } from '../../../engine/index';
import { TEST_USER } from '../../app/test-utils';
import { userStore } from '../../state/user-store';
import { initI18n, i18next } from '../../i18n';
import { formatTime } from '../../lib/format';
import { FundingHistoryDialog } from './FundingHistoryDialog';

const call = vi.hoisted(() => vi.fn());
vi.mock('../../api', () => ({ api: { call } }));

beforeAll(async () => {
  await initI18n('en-US');
  userStore.set(TEST_USER);
});

afterEach(() => {
  cleanup();
  call.mockReset();
  setOnline(true);
});

function setOnline(value: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
  act(() => {
    window.dispatchEvent(new Event(value ? 'online' : 'offline'));
  });
}

// Each test uses its own position id: the answer is kept in the device cache under it.
const position = (id: string) => ({ id, symbol: 'BTC/USDT' }) as PositionView;

const row = (id: string, time: number, rate: string, amount: string): FundingView => ({
  id,
  positionId: 'p1',
  symbol: 'BTC/USDT',
  time,
  rate,
  markPrice: '95000',
  amount,
});

const open = (id: string) =>
  render(
    <I18nextProvider i18n={i18next}>
      <FundingHistoryDialog position={position(id)} onClose={() => undefined} />
    </I18nextProvider>,
  );

describe('funding history dialog (K12)', () => {
  it('lists each payment newest first with its time, rate and the exact amount paid or received', async () => {
    const paidAt = Date.UTC(2026, 10, 21, 8) / 1000;
    const receivedAt = Date.UTC(2026, 10, 21, 0) / 1000;
    call.mockResolvedValue({
      list: [row('2', paidAt, '0.0100', '1234.567891'), row('1', receivedAt, '-0.0042', '-0.000001')],
      total: 2,
      page: 1,
      limit: 100,
    });
    open('p1');
    const dialog = screen.getByRole('dialog', { name: 'Funding history: BTC/USDT' });
    const table = await within(dialog).findByRole('table', { name: 'Funding history' });
    expect(call).toHaveBeenCalledWith(
      '/api/position/funding',
      { positionId: 'p1', limit: 100 },
      { silent: true },
    );
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Time', 'Rate', 'Amount']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      [formatTime(paidAt, 'YYYY-MM-DD HH:mm'), '0.0100%', 'Paid 1,234.567891 USDT'],
      [formatTime(receivedAt, 'YYYY-MM-DD HH:mm'), '-0.0042%', 'Received 0.000001 USDT'],
    ]);
  });

  it('says so when the position has paid no funding yet', async () => {
    call.mockResolvedValue({ list: [], total: 0, page: 1, limit: 100 });
    open('p2');
    expect(await screen.findByText('No funding payments yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows loading while the answer is on its way', async () => {
    call.mockReturnValue(new Promise(() => undefined));
    open('p3');
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.getByText('Loading…')).toBeTruthy();
  });

  it('offline with nothing kept on the device: the offline state with a retry', async () => {
    setOnline(false);
    call.mockRejectedValue({ code: 'ERR_NETWORK', msg: '' });
    open('p4');
    expect(await screen.findByText('You are offline. Please check your connection.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('offline with an answer kept on the device: the last list with the time it dates from', async () => {
    call.mockResolvedValue({
      list: [row('3', Date.UTC(2026, 10, 21, 16) / 1000, '0.0100', '2.5')],
      total: 1,
      page: 1,
      limit: 100,
    });
    open('p5');
    expect(await screen.findByText('Paid 2.50 USDT')).toBeTruthy();
    cleanup();
    setOnline(false);
    call.mockRejectedValue({ code: 'ERR_NETWORK', msg: '' });
    open('p5');
    expect(await screen.findByText('Paid 2.50 USDT')).toBeTruthy();
    expect(screen.getByTestId('freshness').textContent).toMatch(/^Updated /);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
