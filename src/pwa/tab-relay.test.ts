import { describe, expect, it, vi } from 'vitest';
import { LeaderLostError, createTabRelay, type Leadable } from './tab-relay';
import { fakeBus, fakeLocks } from './test-locks';

type Methods = {
  add(amount: number): Promise<number>;
  fail(): Promise<never>;
  slow(): Promise<string>;
};

/** A counter standing in for the engine: one shared total, as one database would hold. */
function counterService(log: string[], tab: string, total: { value: number }) {
  const listeners = new Set<(event: string) => void>();
  let release: (value: string) => void = () => undefined;
  return (): Leadable<Methods, string> => {
    log.push(`start ${tab}`);
    return {
      methods: {
        add: async (amount) => {
          total.value += amount;
          for (const listener of listeners) listener(`total ${total.value}`);
          return total.value;
        },
        fail: async () => {
          throw new RangeError('bad amount');
        },
        slow: () => new Promise<string>((resolve) => (release = resolve)),
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      dispose: () => {
        log.push(`stop ${tab}`);
        release('too late');
      },
    };
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup() {
  return setupOn(fakeBus());
}

function setupOn(bus: ReturnType<typeof fakeBus>) {
  const locks = fakeLocks();
  const log: string[] = [];
  const total = { value: 0 };
  const tab = (id: string) =>
    createTabRelay<Methods, string>({
      name: 'strata:engine',
      methods: ['add', 'fail', 'slow'],
      lead: counterService(log, id, total),
      channel: bus.tab(),
      locks,
      tabId: id,
    });
  return { tab, log, total };
}

describe('one engine for all tabs', () => {
  it('starts the service in one tab only and serves the other tabs from it', async () => {
    const { tab, log, total } = setup();
    const a = tab('a');
    const b = tab('b');
    const c = tab('c');
    await tick();
    expect(log).toEqual(['start a']);
    expect([a.isLeader(), b.isLeader(), c.isLeader()]).toEqual([true, false, false]);

    expect(await b.methods.add(5)).toBe(5);
    expect(await c.methods.add(2)).toBe(7);
    expect(await a.methods.add(1)).toBe(8);
    expect(total.value).toBe(8);
    a.dispose();
    b.dispose();
    c.dispose();
  });

  it('ignores what is not its wire on the channel (another script, an older build): calls still answer', async () => {
    const bus = fakeBus();
    const { tab, total } = setupOn(bus);
    const a = tab('a');
    const b = tab('b');
    const stranger = bus.tab();
    for (const junk of [null, 'hello', 42, { kind: 'nonsense' }, { leader: 'x' }, []])
      stranger.postMessage(junk);
    await tick();
    expect(await b.methods.add(4)).toBe(4);
    expect(total.value).toBe(4);
    a.dispose();
    b.dispose();
  });

  it('passes the leader errors to the calling tab', async () => {
    const { tab } = setup();
    const a = tab('a');
    const b = tab('b');
    await expect(b.methods.fail()).rejects.toMatchObject({ name: 'RangeError', message: 'bad amount' });
    a.dispose();
    b.dispose();
  });

  it('delivers the leader events to every tab', async () => {
    const { tab } = setup();
    const a = tab('a');
    const b = tab('b');
    const seenA = vi.fn();
    const seenB = vi.fn();
    a.subscribe(seenA);
    b.subscribe(seenB);
    await b.methods.add(3);
    await vi.waitFor(() => expect(seenB).toHaveBeenCalledWith('total 3'));
    expect(seenA).toHaveBeenCalledWith('total 3');
    a.dispose();
    b.dispose();
  });

  it('hands over when the leader closes: the next tab starts the service and keeps the state', async () => {
    const { tab, log, total } = setup();
    const a = tab('a');
    const b = tab('b');
    await b.methods.add(10);
    a.dispose();
    await tick();
    expect(b.isLeader()).toBe(true);
    expect(log).toEqual(['start a', 'stop a', 'start b']);
    expect(await b.methods.add(1)).toBe(11);
    expect(total.value).toBe(11);
    b.dispose();
  });

  it('fails, and never replays, a call the closing leader had not answered', async () => {
    const { tab, total } = setup();
    const a = tab('a');
    const b = tab('b');
    const c = tab('c');
    await tick();
    const inFlight = c.methods.slow();
    await tick();
    a.dispose();
    await expect(inFlight).rejects.toBeInstanceOf(LeaderLostError);
    // The survivors agree on the new leader and keep working.
    expect(await c.methods.add(4)).toBe(4);
    expect(total.value).toBe(4);
    b.dispose();
    c.dispose();
  });
});
