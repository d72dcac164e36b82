import { describe, expect, it, vi } from 'vitest';
import { persistAfterLogin } from './bootstrap';
import { valueStore } from './store';

describe('persistent storage after login', () => {
  it('asks once, when a member logs in', () => {
    const user = valueStore<{ id: string } | null>(null);
    const request = vi.fn(async () => 'granted');
    const stop = persistAfterLogin(user, request);
    expect(request).not.toHaveBeenCalled();
    user.set({ id: '1' });
    user.set({ id: '1b' });
    expect(request).toHaveBeenCalledOnce();
    stop();
  });

  it('asks at start when a member is already logged in', () => {
    const request = vi.fn(async () => 'granted');
    persistAfterLogin(valueStore<{ id: string } | null>({ id: '1' }), request)();
    expect(request).toHaveBeenCalledOnce();
  });
});
