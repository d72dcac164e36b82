import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api } from '../../api';
import { renderApp } from '../../app/test-utils';
import { userStore } from '../../state/user-store';
import { onDemoChange } from '../../lib/demo-events';
import { seedMember, testClock } from '../../../tests/app/test-engine';
import { aheadParts } from './clock-text';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

afterEach(cleanup);

async function openPanel() {
  // The first call creates the (mocked) demo transport that demoControls() hands to the panel.
  await api.call('/api/site/getsite', undefined, { silent: true });
  await userEvent.click(await screen.findByRole('button', { name: 'Demo mode: learn more' }));
  // The explanation shows at once; the tools arrive with their lazy chunk.
  await screen.findByRole('button', { name: 'Fast-forward 1 hour' });
  return screen.getByRole('dialog', { name: 'Demo mode' });
}

describe('demo tools panel (issue 5 item 5)', () => {
  it('opens from the demo badge and labels itself a simulation', async () => {
    await renderApp('/home');
    const dialog = await openPanel();
    expect(dialog.textContent).toContain('Simulation only');
    expect(await screen.findByText(/^Simulated time: /)).toBeTruthy();
  });

  it('fast-forwards the simulated clock by an hour, a day and 30 days, and tells screens to reload', async () => {
    await renderApp('/home');
    await openPanel();
    const reloads = vi.fn();
    const off = onDemoChange(reloads);
    const start = testClock.now();
    await userEvent.click(screen.getByRole('button', { name: 'Fast-forward 1 hour' }));
    await waitFor(() => expect(testClock.now()).toBe(start + 3_600_000));
    await userEvent.click(screen.getByRole('button', { name: 'Fast-forward 1 day' }));
    await waitFor(() => expect(testClock.now()).toBe(start + 25 * 3_600_000));
    await userEvent.click(screen.getByRole('button', { name: 'Fast-forward 30 days' }));
    await waitFor(() => expect(testClock.now()).toBe(start + (25 + 720) * 3_600_000));
    expect(reloads).toHaveBeenCalledTimes(3);
    expect(screen.getByText('Simulated clock moved forward 30 days', { selector: '.toast' })).toBeTruthy();
    off();
  });

  it('resets the demo data only after a confirmation, and ends the stored session', async () => {
    const member = await seedMember('demoreset');
    const { router } = await renderApp('/home', { user: member });
    await openPanel();
    await userEvent.click(screen.getByRole('button', { name: 'Reset demo data' }));
    expect(screen.getByText('Delete all demo data on this device? This cannot be undone.')).toBeTruthy();
    expect(userStore.get()).not.toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete everything' }));
    await waitFor(() => expect(userStore.get()).toBeNull());
    expect(screen.queryByRole('dialog', { name: 'Demo mode' })).toBeNull();
    expect(router.state.location.pathname).toBe('/home');
  });
});

describe('aheadParts', () => {
  it('splits the offset into whole days and hours, never negative', () => {
    expect(aheadParts(25 * 3_600_000 + 59_000)).toEqual({ days: 1, hours: 1 });
    expect(aheadParts(-5)).toEqual({ days: 0, hours: 0 });
  });
});
