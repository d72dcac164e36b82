import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadOnUpgrade } from './bootstrap';
import { CHANNEL_NAME, closeBroadcastForTests } from './broadcast';

afterEach(() => closeBroadcastForTests());

describe('database upgrade in another tab', () => {
  it("reloads this tab when the demo engine's worker says a newer version is upgrading its database", async () => {
    const reload = vi.fn();
    const stop = reloadOnUpgrade(reload);
    const worker = new BroadcastChannel(CHANNEL_NAME);
    worker.postMessage({ type: 'changed', topics: ['balance'] });
    worker.postMessage({ type: 'reload' });
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce());
    stop();
    worker.close();
  });
});
