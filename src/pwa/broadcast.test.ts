import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAME, broadcast, closeBroadcastForTests, isStrataMessage, onBroadcast } from './broadcast';

afterEach(() => closeBroadcastForTests());

describe('cross-tab notices', () => {
  it('reaches another tab listening on the strata channel', async () => {
    const otherTab = new BroadcastChannel(CHANNEL_NAME);
    const received = new Promise<unknown>((resolve) => {
      otherTab.onmessage = (event) => resolve(event.data);
    });
    broadcast({ type: 'changed', topics: ['balance'] });
    expect(await received).toEqual({ type: 'changed', topics: ['balance'] });
    otherTab.close();
  });

  it('hands only well-formed messages to listeners', async () => {
    const listener = vi.fn();
    const unsubscribe = onBroadcast(listener);
    const otherTab = new BroadcastChannel(CHANNEL_NAME);
    otherTab.postMessage({ type: 'changed', topics: [42] });
    otherTab.postMessage('hello');
    otherTab.postMessage({ type: 'logout' });
    // Messages arrive in order: once the last one is handed over, the two before it were refused. (A busy
    // machine delivers across worker threads in over a second, vi.waitFor's default.)
    await vi.waitFor(() => expect(listener).toHaveBeenCalledOnce(), { timeout: 15_000 });
    expect(listener).toHaveBeenCalledWith({ type: 'logout' });
    unsubscribe();
    otherTab.close();
  });

  it('validates message shapes', () => {
    expect(isStrataMessage({ type: 'changed', topics: ['order', 'position'] })).toBe(true);
    expect(isStrataMessage({ type: 'changed' })).toBe(false);
    expect(isStrataMessage({ type: 'reload' })).toBe(true);
    expect(isStrataMessage({ type: 'reboot' })).toBe(false);
    expect(isStrataMessage(null)).toBe(false);
  });
});
