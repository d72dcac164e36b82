import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../lib/storage';
import { popupStore } from './popup-store';
import { toLocalUser, userStore } from './user-store';

afterEach(() => {
  localStorage.clear();
  userStore.reload();
  popupStore.close();
});

describe('local user state (SPEC.md §3)', () => {
  it('persists {id, token, username, vip, balance} as JSON with vip0 and 0 as defaults', () => {
    userStore.set({ id: 42, token: 'tok', username: 'bob' });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? 'null')).toEqual({
      id: '42',
      token: 'tok',
      username: 'bob',
      vip: 'vip0',
      balance: '0',
    });
    userStore.reload();
    expect(userStore.get()?.username).toBe('bob');
  });

  it('clears on logout and notifies subscribers', () => {
    userStore.set({ id: '1', token: 't', username: 'a' });
    let calls = 0;
    const off = userStore.subscribe(() => (calls += 1));
    userStore.clear();
    off();
    expect(userStore.get()).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    expect(calls).toBe(1);
  });

  it('ignores malformed stored JSON instead of crashing', () => {
    localStorage.setItem(STORAGE_KEYS.user, '{not json');
    userStore.reload();
    expect(userStore.get()).toBeNull();
    expect(toLocalUser({ token: 'no id' })).toBeUndefined();
  });
});

describe('popups', () => {
  it('shows one session-expired dialog at a time, and it outranks the other popups', async () => {
    const first = popupStore.openSessionExpired();
    expect(first).not.toBeNull();
    expect(popupStore.openSessionExpired()).toBeNull();
    popupStore.open('language');
    expect(popupStore.get()).toBe('sessionExpired');
    popupStore.close();
    await expect(first).resolves.toBeUndefined();
    expect(popupStore.get()).toBeNull();
  });
});
