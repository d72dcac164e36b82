/**
 * /user/reserves (docs/SPEC.md §10, docs/RULES.md Q2-Q3): the member's proof downloaded, stored on the device
 * and checked there; a stored proof checked again offline; a tampered balance or signature shown as not
 * verified; a member who joined after the snapshot told when the next one comes.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import type { ReserveProof } from '../../../engine/index';
import { resignedBy } from '../../../tests/app/reserves-fixtures';
import { REMEMBERED_KEY } from './reserves-check';
import { api } from '../../api';
import { ApiError } from '../../api/api-error';
import { CLIENT_CODES } from '../../api/transport';
import { renderApp } from '../../app/test-utils';
import { appSync } from '../../sync/app';
import { memberCacheKey, putCache, readCache } from '../../sync/cache';
import { testClock, testEngine } from '../../../tests/app/test-engine';
import { fundedMember, wireTestApi } from '../../../tests/app/test-wallet';

vi.mock('../../api/transport-worker', () => import('../../../tests/app/test-engine'));
vi.mock('../../api/engine-transport', () => import('../../../tests/app/test-engine'));

const HOUR = 3_600_000;

beforeAll(wireTestApi);
afterEach(() => {
  cleanup();
  setOnline(true);
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  localStorage.removeItem(REMEMBERED_KEY);
});

function setOnline(value: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => value });
  act(() => {
    window.dispatchEvent(new Event(value ? 'online' : 'offline'));
  });
}

async function nextHour() {
  testClock.advance(HOUR);
  await (await testEngine()).settle();
}

async function storedProof(memberId: string): Promise<ReserveProof> {
  const row = await readCache(appSync().db, memberCacheKey(memberId, 'reserves:proof'));
  return (row?.value as { proof: ReserveProof }).proof;
}

async function store(memberId: string, proof: ReserveProof) {
  await putCache(appSync().db, memberCacheKey(memberId, 'reserves:proof'), 'data', { proof });
}

describe('/user/reserves', () => {
  it('is under Account and security by its plain name', async () => {
    const member = await fundedMember('porlink');
    await renderApp('/user/account', { user: member });
    const card = (await screen.findByRole('heading', { name: 'Security and services' })).closest(
      'section',
    ) as HTMLElement;
    expect(within(card).getByRole('link', { name: 'Proof of reserves' }).getAttribute('href')).toBe(
      '/user/reserves',
    );
  });

  it('downloads the member’s proof, verifies it on the device, offline too, and shows a tampered one as broken', async () => {
    const member = await fundedMember('porok', '25.5');
    await nextHour();
    await renderApp('/user/reserves', { user: member });
    expect(
      await screen.findByText('Verified on this device: your balances are included in this snapshot'),
    ).toBeTruthy();
    expect(
      screen.getByText(/these balances, the total and the reserves behind them are simulated/),
    ).toBeTruthy();
    const mine = screen.getByRole('region', { name: 'Your balances in this snapshot' });
    expect(within(mine).getByText('Cash')).toBeTruthy();
    expect(within(mine).getAllByText('25.50 USDT')).toHaveLength(2);
    const proof = await waitFor(async () => {
      const p = await storedProof(member.id);
      expect(p.leaf.balances['cash']).toBe('25.5');
      return p;
    });
    expect(screen.getByText(String(proof.snapshot.leafCount), { selector: 'dd bdi' })).toBeTruthy();
    cleanup();

    // Offline, the server out of reach (live mode): the stored proof is checked again, with its time.
    setOnline(false);
    const call = api.call.bind(api) as (path: string, ...rest: unknown[]) => Promise<unknown>;
    vi.spyOn(api, 'call').mockImplementation(((path: string, ...rest: unknown[]) =>
      path.startsWith('/api/reserves/')
        ? Promise.reject(new ApiError(CLIENT_CODES.offline, '', null))
        : call(path, ...rest)) as typeof api.call);
    await renderApp('/user/reserves', { user: member });
    expect(
      await screen.findByText('Verified on this device: your balances are included in this snapshot'),
    ).toBeTruthy();
    expect(screen.getByTestId('freshness').textContent).toMatch(/^Updated /);
    cleanup();

    // A balance the snapshot did not count: the leaf no longer reaches the signed root.
    await store(member.id, {
      ...proof,
      leaf: { ...proof.leaf, balances: { ...proof.leaf.balances, cash: '2550' } },
    });
    await renderApp('/user/reserves', { user: member });
    const broken = await screen.findByRole('alert');
    expect(broken.textContent).toContain('Not verified: this proof does not match its signed snapshot');
    expect(broken.textContent).toContain('Your balances and path do not lead to the snapshot');
    cleanup();

    // A changed total (signed): the signature no longer holds.
    await store(member.id, { ...proof, snapshot: { ...proof.snapshot, total: '1' } });
    await renderApp('/user/reserves', { user: member });
    expect((await screen.findByRole('alert')).textContent).toContain(
      "The snapshot's signature does not match its signing key.",
    );
    cleanup();

    // Signed, correctly, by a key the app does not pin (a server sending its own key with its own snapshot).
    await store(member.id, { ...proof, snapshot: await resignedBy(7, proof.snapshot) });
    await renderApp('/user/reserves', { user: member });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The snapshot is signed by a key this app does not recognise: do not trust it',
    );
  });

  it('with no key pinned (a live build without VITE_POR_PUBLIC_KEYS): the first key is trusted on first use, another one warned about until the member accepts it', async () => {
    const member = await fundedMember('portofu', '5');
    await nextHour();
    await renderApp('/user/reserves', { user: member });
    await screen.findByText('Verified on this device: your balances are included in this snapshot');
    const proof = await waitFor(() => storedProof(member.id));
    cleanup();
    vi.stubEnv('VITE_API_MODE', 'live');
    const call = api.call.bind(api) as (path: string, ...rest: unknown[]) => Promise<unknown>;
    vi.spyOn(api, 'call').mockImplementation(((path: string, ...rest: unknown[]) =>
      path.startsWith('/api/reserves/')
        ? Promise.reject(new ApiError(CLIENT_CODES.offline, '', null))
        : call(path, ...rest)) as typeof api.call);
    await renderApp('/user/reserves', { user: member });
    expect(await screen.findByText(/^No signing key is built into this app/)).toBeTruthy();
    cleanup();

    await store(member.id, { ...proof, snapshot: await resignedBy(8, proof.snapshot) });
    await renderApp('/user/reserves', { user: member });
    const warning = await screen.findByRole('alert');
    expect(warning.textContent).toContain('Warning: the signing key has changed');
    await userEventClick('Trust the new key');
    expect(
      await screen.findByText('Verified on this device: your balances are included in this snapshot'),
    ).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('tells a member who joined after the snapshot when the next one comes', async () => {
    await fundedMember('porfirst');
    await nextHour();
    const late = await fundedMember('porlate');
    await renderApp('/user/reserves', { user: late });
    expect(
      await screen.findByText(/^Your account opened after the latest snapshot\. It is in the next one, at /),
    ).toBeTruthy();
    await nextHour();
    await userEventClick('Download the latest proof');
    expect(
      await screen.findByText('Verified on this device: your balances are included in this snapshot'),
    ).toBeTruthy();
  });
});

async function userEventClick(name: string) {
  const { default: userEvent } = await import('@testing-library/user-event');
  await userEvent.click(screen.getByRole('button', { name }));
}
