/** tests/wait-ceiling.ts: vi.waitFor waits past Vitest's one-second default for a state that comes later. */
import { describe, expect, it, vi } from 'vitest';

describe('the wait ceiling', () => {
  it('vi.waitFor still waits for a state that takes longer than a second', async () => {
    const ready = Date.now() + 1_300;
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThanOrEqual(ready));
  });
});
