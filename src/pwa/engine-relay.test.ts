import { describe, expect, it, vi } from 'vitest';
import type { EngineHost } from '../worker/engine-host';
import { decodeForm, encodeForm, relayEngineHost } from './engine-relay';
import { fakeBus, fakeLocks } from './test-locks';

function fakeHost(created: string[], tab: string): EngineHost {
  return {
    handle: vi.fn(async (request) => {
      const form = request.body instanceof FormData ? { form: [...request.body.keys()] } : {};
      const data = { tab, ...form };
      return { status: 200, body: { code: 0, msg: '', data } };
    }),
    settle: vi.fn(async () => undefined),
    subscribe: () => () => undefined,
    now: async () => 42,
    advance: async (ms) => 42 + ms,
    reset: async () => undefined,
    dispose: () => created.push(`disposed ${tab}`),
  };
}

describe('the demo engine shared by every tab', () => {
  it('opens the engine in the leading tab only; an upload from another tab arrives as FormData', async () => {
    const bus = fakeBus();
    const locks = fakeLocks();
    const created: string[] = [];
    const tab = (id: string) =>
      relayEngineHost(
        () => {
          created.push(`created ${id}`);
          return fakeHost(created, id);
        },
        { channel: bus.tab(), locks, tabId: id },
      );
    const a = tab('a');
    const b = tab('b');
    // Browsers clone the File entries themselves; jsdom's File does not survive Node's structuredClone, so
    // this checks the FormData round trip with text entries.
    const form = new FormData();
    form.append('kind', 'proof');
    form.append('note', 'tx 0xabc');
    const answer = await b.handle({ method: 'POST', path: '/api/Recharges/uploads', body: form });
    expect(answer.body.data).toEqual({ tab: 'a', form: ['kind', 'note'] });
    expect(await b.advance(8)).toBe(50);
    expect(created).toEqual(['created a']);
    a.dispose();
    b.dispose();
  });

  it('leaves ordinary requests untouched when encoding', () => {
    const request = { method: 'POST', path: '/api/transfer/submit', body: { account: 'bob', amount: '1' } };
    expect(encodeForm(request)).toBe(request);
    expect(decodeForm(request)).toBe(request);
    expect(encodeForm(null)).toBeNull();
  });
});
