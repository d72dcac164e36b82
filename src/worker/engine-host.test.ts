import { afterEach, describe, expect, it } from 'vitest';
import type { Engine, EngineFeedMessage, EngineOptions, FeedMessage } from '../../engine/index';
import { createEngineHost, type EngineHost } from './engine-host';
import { createOffsetStore, memoryOffsetStore } from './offset-store';

/** A stand-in engine that records what the host gives it and echoes the engine time it sees. */
function fakeEngines() {
  const made: Array<{
    options: EngineOptions;
    settles: number;
    closed: boolean;
    emit: (m: EngineFeedMessage) => void;
  }> = [];
  const createEngine = async (options: EngineOptions): Promise<Engine> => {
    const listeners = new Set<(m: EngineFeedMessage) => void>();
    const record = {
      options,
      settles: 0,
      closed: false,
      emit: (m: EngineFeedMessage) => listeners.forEach((l) => l(m)),
    };
    made.push(record);
    const engine: Pick<Engine, 'handle' | 'settle' | 'subscribe'> & { close(): Promise<void> } = {
      close: async () => {
        record.closed = true;
      },
      handle: async (request) => ({
        status: 200,
        body: {
          code: 0,
          msg: '',
          data: { path: request.path, body: request.body, now: options.clock?.now() },
        },
      }),
      settle: async () => {
        record.settles += 1;
      },
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    return engine as Engine;
  };
  return { made, createEngine };
}

let host: EngineHost | undefined;
afterEach(() => host?.dispose());

describe('the demo engine host', () => {
  it('creates the engine on the demo database with the fixed seed and the real clock, settling before a call', async () => {
    const { made, createEngine } = fakeEngines();
    host = createEngineHost({
      createEngine,
      now: () => 1_000,
      offsets: memoryOffsetStore(),
      settleEveryMs: 0,
    });
    const response = await host.handle({ method: 'POST', path: '/api/user/getuser', body: { a: 1 } });
    expect(response.body.data).toEqual({ path: '/api/user/getuser', body: { a: 1 }, now: 1_000 });
    expect(made[0]?.settles).toBe(1);
    expect(made[0]?.options.storage).toBe('strata-demo');
    expect(made[0]?.options.seed).toEqual(expect.any(Number));
  });

  it('fast-forwards the engine clock, settles at once and keeps the offset across a reload', async () => {
    const { made, createEngine } = fakeEngines();
    const offsets = memoryOffsetStore();
    host = createEngineHost({ createEngine, now: () => 5_000, offsets, settleEveryMs: 0 });
    expect(await host.advance(3_600_000)).toBe(3_605_000);
    expect(made[0]?.settles).toBe(1);
    expect(await offsets.load()).toBe(3_600_000);
    host.dispose();

    host = createEngineHost({ createEngine, now: () => 6_000, offsets, settleEveryMs: 0 });
    expect(await host.now()).toBe(3_606_000);
    await expect(host.advance(-1)).rejects.toThrow(RangeError);
  });

  it('persists the offset in IndexedDB', async () => {
    const first = createOffsetStore('offset-test');
    await first.save(86_400_000);
    expect(await createOffsetStore('offset-test').load()).toBe(86_400_000);
  });

  it('settles on a timer, never two settles at once', async () => {
    const { made, createEngine } = fakeEngines();
    host = createEngineHost({ createEngine, offsets: memoryOffsetStore(), settleEveryMs: 10 });
    await host.now();
    await expect.poll(() => made[0]?.settles ?? 0, { timeout: 2_000 }).toBeGreaterThanOrEqual(3);
    const [a, b] = [host.settle(), host.settle()];
    expect(a).toBe(b);
  });

  it('reset deletes the database, zeroes the clock offset and moves feed listeners to the new engine', async () => {
    const { made, createEngine } = fakeEngines();
    const deleted: string[] = [];
    const offsets = memoryOffsetStore(1_000);
    host = createEngineHost({
      createEngine,
      now: () => 0,
      offsets,
      settleEveryMs: 0,
      deleteStorage: async (name) => {
        deleted.push(name);
      },
    });
    const seen: FeedMessage[] = [];
    host.subscribe((m) => seen.push(m));
    await host.reset();
    expect(deleted).toEqual(['strata-demo']);
    expect(await host.now()).toBe(0);
    expect(await offsets.load()).toBe(0);
    expect(made).toHaveLength(2);
    expect(made[0]?.closed).toBe(true);
    made[0]?.emit({ type: 'balance', data: { memberId: 'old' } });
    made[1]?.emit({ type: 'balance', data: { memberId: 'new' } });
    expect(seen).toEqual([{ type: 'balance', data: { memberId: 'new' } }]);
  });

  it('runs the real engine on IndexedDB and answers in the wire envelope', async () => {
    host = createEngineHost({ storage: 'strata-demo-test', settleEveryMs: 0 });
    const response = await host.handle({ method: 'GET', path: '/api/site/getsite' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(
      expect.objectContaining({ code: expect.any(Number), msg: expect.any(String) }),
    );
    await host.reset();
    await host.settle();
  });
});
