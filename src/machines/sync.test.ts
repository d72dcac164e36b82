import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type AnyMachineSnapshot } from 'xstate';
import { controlled, flush } from '../../tests/app/controlled-actors';
import { machineCoverage, onePathPerTransition } from '../../tests/app/machine-coverage';
import type { FlushReport } from '../sync/outbox';
import { retryDelay, RETRY, syncMachine, syncStatus, type SyncContext, type SyncEvent } from './sync';
import { PullFailure, SignedOutError, type PullOutput, type PushOutput } from './sync-effects';

const report = (patch: Partial<FlushReport> = {}): FlushReport => ({
  answered: 0,
  pending: 0,
  error: null,
  ...patch,
});
const pushed = (patch: Partial<FlushReport> = {}): PushOutput => ({ report: report(patch), signedIn: true });
const pulledOk = (applied = 0, finished: number | null = 1): PullOutput => ({
  applied,
  finished,
  current: true,
});
const OFFLINE_ERROR = { code: 0, msg: 'offline' };

/** The machine with push and pull passes the test answers itself, on a simulated clock. */
function start(online = true) {
  const push = controlled<PushOutput>();
  const pull = controlled<PullOutput>();
  const clock = new SimulatedClock();
  const actor = createActor(syncMachine.provide({ actors: { push: push.logic, pull: pull.logic } }), {
    clock,
    input: { online },
  });
  const emitted: string[] = [];
  actor.on('*', (event) => emitted.push(event.type));
  actor.start();
  const status = () => syncStatus(actor.getSnapshot());
  const context = (): SyncContext => actor.getSnapshot().context;
  return { actor, push, pull, clock, emitted, status, context };
}

describe('sync machine', () => {
  it('starts idle online and offline without a network; the status follows the browser', () => {
    expect(start(true).status()).toEqual({ state: 'idle', pending: 0, error: null, lastSync: null });
    const s = start(false);
    expect(s.status().state).toBe('offline');
    s.actor.send({ type: 'ONLINE', signedIn: true });
    expect(s.status().state).toBe('idle');
    s.actor.send({ type: 'OFFLINE' });
    expect(s.status().state).toBe('offline');
    // A follower tab only tracks the network: no sync on reconnect.
    expect(s.push.calls).toHaveLength(0);
  });

  it('a queued mutation is pushed at once online, and only counted offline', async () => {
    const s = start(false);
    s.actor.send({ type: 'ENQUEUED' });
    s.actor.send({ type: 'ENQUEUED' });
    expect(s.status()).toMatchObject({ state: 'offline', pending: 2 });
    expect(s.push.calls).toHaveLength(0);
    s.actor.send({ type: 'ONLINE', signedIn: true });
    s.actor.send({ type: 'ENQUEUED' });
    expect(s.status()).toMatchObject({ state: 'syncing', pending: 3 });
    await s.push.resolve(pushed({ answered: 3 }));
    expect(s.status()).toMatchObject({ state: 'idle', pending: 0, error: null });
    expect(s.emitted).toEqual(['pushed']);
  });

  it('the leader syncs on reconnect (push, then pull) when a member is signed in', async () => {
    const s = start(false);
    s.actor.send({ type: 'FOLLOW', signedIn: true });
    expect(s.push.calls).toHaveLength(0);
    s.actor.send({ type: 'ONLINE', signedIn: false });
    expect(s.push.calls).toHaveLength(0);
    s.actor.send({ type: 'ONLINE', signedIn: true });
    expect(s.actor.getSnapshot().matches({ push: 'pushing' })).toBe(true);
    await s.push.resolve(pushed());
    expect(s.actor.getSnapshot().matches({ pull: 'pulling' })).toBe(true);
    await s.pull.resolve(pulledOk(4, 1_234));
    expect(s.status()).toEqual({ state: 'idle', pending: 0, error: null, lastSync: 1_234 });
    expect(s.emitted).toEqual(['pushed', 'pullEnded']);
    // Following a tab that goes back to following: online at that moment, it syncs at once.
    s.actor.send({ type: 'UNFOLLOW' });
    s.actor.send({ type: 'FOLLOW', signedIn: true });
    expect(s.push.calls).toHaveLength(2);
  });

  it('a push that got no answer stops the sync before its pull and shows the code', async () => {
    const s = start();
    s.actor.send({ type: 'SYNC' });
    await s.push.resolve(pushed({ pending: 2, error: { code: 503 } }));
    expect(s.status()).toMatchObject({ state: 'error', pending: 2, error: '503' });
    expect(s.pull.calls).toHaveLength(0);
  });

  it('requests during a run make one more pass, not a second run: never two pulls at once', async () => {
    const s = start();
    s.actor.send({ type: 'PULL' });
    s.actor.send({ type: 'PULL' });
    s.actor.send({ type: 'STALE', signedIn: true });
    expect(s.pull.calls).toHaveLength(1);
    await s.pull.resolve(pulledOk(2));
    expect(s.pull.calls).toHaveLength(2);
    expect(s.emitted).toEqual([]);
    await s.pull.resolve(pulledOk(3));
    // One end for the run, with what both passes applied.
    expect(s.emitted).toEqual(['pullEnded']);
    expect(s.context().applied).toBe(5);
    s.actor.send({ type: 'PUSH' });
    s.actor.send({ type: 'PUSH' });
    await s.push.resolve(pushed({ answered: 1 }));
    await s.push.resolve(pushed());
    expect(s.push.calls).toHaveLength(2);
    expect(s.emitted).toEqual(['pullEnded', 'pushed']);
  });

  it('a stale replica is pulled only online and signed in', () => {
    const s = start(false);
    s.actor.send({ type: 'STALE', signedIn: true });
    s.actor.send({ type: 'ONLINE', signedIn: true });
    s.actor.send({ type: 'STALE', signedIn: false });
    expect(s.pull.calls).toHaveLength(0);
    s.actor.send({ type: 'STALE', signedIn: true });
    expect(s.pull.calls).toHaveLength(1);
  });

  it(`retries after ${RETRY.firstMs} ms, doubling to ${RETRY.maxMs} ms, and starts over after a success`, async () => {
    const s = start();
    const waits: number[] = [];
    s.actor.send({ type: 'PULL' });
    for (let attempt = 0; attempt < 7; attempt += 1) {
      await s.pull.reject(new PullFailure(OFFLINE_ERROR, true));
      expect(s.status()).toMatchObject({ state: 'error', error: '0' });
      let waited = 0;
      while (s.push.calls.length === attempt) {
        s.clock.increment(500);
        waited += 500;
      }
      waits.push(waited);
      // A retry is a sync: push, then pull.
      await s.push.resolve(pushed());
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    await s.pull.resolve(pulledOk());
    expect(s.status()).toMatchObject({ state: 'idle', error: null });
    expect(s.context().failures).toBe(0);
    s.actor.send({ type: 'PULL' });
    await s.pull.reject(new PullFailure(OFFLINE_ERROR, true));
    s.clock.increment(RETRY.firstMs);
    expect(s.push.calls).toHaveLength(8);
  });

  it('does not retry after a 401, signed out, or offline; a retry due while offline waits for the online event', async () => {
    const s = start();
    s.actor.send({ type: 'PULL' });
    const waiting = () => s.actor.getSnapshot().matches({ retry: 'waiting' });
    await s.pull.reject(new PullFailure({ code: 401, msg: 'Token expired' }, true));
    expect(s.status()).toMatchObject({ state: 'error', error: '401' });
    expect(waiting()).toBe(false);
    s.actor.send({ type: 'PUSH' });
    await s.push.resolve({ report: report({ error: OFFLINE_ERROR }), signedIn: false });
    expect(waiting()).toBe(false);
    s.actor.send({ type: 'OFFLINE' });
    s.actor.send({ type: 'PULL' });
    await s.pull.reject(new PullFailure(OFFLINE_ERROR, true));
    expect(waiting()).toBe(false);
    s.clock.increment(RETRY.maxMs * 10);
    expect(s.actor.getSnapshot().matches({ retry: 'idle' })).toBe(true);
    expect(s.push.calls).toHaveLength(1);
    expect(s.status()).toMatchObject({ state: 'offline', error: '0' });

    s.actor.send({ type: 'ONLINE', signedIn: true });
    s.actor.send({ type: 'PULL' });
    await s.pull.reject(new PullFailure(OFFLINE_ERROR, true));
    s.actor.send({ type: 'OFFLINE' });
    s.clock.increment(RETRY.maxMs);
    expect(s.push.calls).toHaveLength(1);
  });

  it('a pass with no member signed in changes nothing in the status', async () => {
    const s = start();
    s.actor.send({ type: 'PULL' });
    await s.pull.reject(new SignedOutError());
    s.actor.send({ type: 'PUSH' });
    await s.push.reject(new SignedOutError());
    expect(s.status()).toEqual({ state: 'idle', pending: 0, error: null, lastSync: null });
    expect(s.emitted).toEqual(['pullFailed', 'pushFailed']);
  });

  it("a pull that ends after its member signed out keeps the next member's time and error untouched", async () => {
    const s = start();
    s.actor.send({ type: 'PUSH' });
    await s.push.resolve(pushed({ error: { code: 502 } }));
    s.actor.send({ type: 'PULL' });
    await s.pull.resolve({ applied: 0, finished: 99, current: false });
    expect(s.status()).toMatchObject({ error: '502', lastSync: null });
    s.actor.send({ type: 'REFRESHED', pending: 7, lastSync: 5 });
    expect(s.status()).toMatchObject({ pending: 7, lastSync: 5 });
  });

  it('never two pulls at once; online it ends syncing or idle, offline it shows offline (property)', async () => {
    const step = fc.constantFrom(
      'online',
      'offline',
      'enqueue',
      'stale',
      'pull',
      'push',
      'sync',
      'follow',
      'unfollow',
      'settle',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), fc.boolean(), async (steps, startOnline) => {
        let pulls = 0;
        let most = 0;
        let outbox = 0;
        const pass = async <T>(work: () => T): Promise<T> => {
          await Promise.resolve();
          return work();
        };
        const actor = createActor(
          syncMachine.provide({
            actors: {
              push: fromPromise(() =>
                pass(() => {
                  const answered = outbox;
                  outbox = 0;
                  return pushed({ answered });
                }),
              ),
              pull: fromPromise(async () => {
                pulls += 1;
                most = Math.max(most, pulls);
                try {
                  return await pass(() => pulledOk());
                } finally {
                  pulls -= 1;
                }
              }),
            },
          }),
          { clock: new SimulatedClock(), input: { online: startOnline } },
        ).start();
        const send = (event: SyncEvent) => actor.send(event);
        for (const s of steps) {
          if (s === 'online') send({ type: 'ONLINE', signedIn: true });
          else if (s === 'offline') send({ type: 'OFFLINE' });
          else if (s === 'enqueue') {
            outbox += 1;
            send({ type: 'ENQUEUED' });
          } else if (s === 'stale') send({ type: 'STALE', signedIn: true });
          else if (s === 'pull') send({ type: 'PULL' });
          else if (s === 'push') send({ type: 'PUSH' });
          else if (s === 'sync') send({ type: 'SYNC' });
          else if (s === 'follow') send({ type: 'FOLLOW', signedIn: true });
          else if (s === 'unfollow') send({ type: 'UNFOLLOW' });
          else await flush();
          const { state } = syncStatus(actor.getSnapshot());
          if (actor.getSnapshot().context.online) expect(['syncing', 'idle']).toContain(state);
          else expect(state).toBe('offline');
        }
        await flush();
        await flush();
        const snapshot = actor.getSnapshot();
        const online = snapshot.context.online;
        expect(syncStatus(snapshot).state).toBe(online ? 'idle' : 'offline');
        expect(snapshot.matches({ network: online ? 'online' : 'offline' })).toBe(true);
        expect(most).toBeLessThanOrEqual(1);
        // Online, what was queued went out (each ENQUEUED pushes at once; the passes answer everything).
        if (online && steps.at(-1) === 'enqueue') expect(outbox).toBe(0);
        actor.stop();
      }),
      { numRuns: 100 },
    );
  });

  const events = (): Array<{ type: string; [field: string]: unknown }> => [
    { type: 'ONLINE', signedIn: true },
    { type: 'ONLINE', signedIn: false },
    { type: 'OFFLINE' },
    { type: 'FOLLOW', signedIn: true },
    { type: 'FOLLOW', signedIn: false },
    { type: 'UNFOLLOW' },
    { type: 'ENQUEUED' },
    { type: 'REFRESHED', pending: 1, lastSync: 1 },
    { type: 'PUSH' },
    { type: 'PULL' },
    { type: 'SYNC' },
    { type: 'STALE', signedIn: true },
    { type: 'FAILED', code: '503', signedIn: true },
    { type: 'FAILED', code: '401', signedIn: true },
    { type: 'xstate.done.actor.push', output: pushed({ answered: 1 }) },
    { type: 'xstate.done.actor.push', output: pushed({ error: OFFLINE_ERROR }) },
    { type: 'xstate.error.actor.push', error: new SignedOutError() },
    { type: 'xstate.done.actor.pull', output: pulledOk() },
    { type: 'xstate.error.actor.pull', error: new PullFailure(OFFLINE_ERROR, true) },
    { type: 'xstate.error.actor.pull', error: new SignedOutError() },
  ];
  const serialize = (snapshot: AnyMachineSnapshot) => {
    const c = snapshot.context as SyncContext;
    return JSON.stringify([snapshot.value, c.online, c.pushAgain, c.pullAgain, c.pullAfterPush]);
  };

  it('generated paths reach every state and transition, and replay on a live actor', async () => {
    const coverage = machineCoverage(syncMachine, { events, serialize, input: { online: true } });
    expect(coverage.unvisitedStates).toEqual([]);
    expect(coverage.unvisitedTransitions).toEqual([]);
    // Five parallel regions make about 1,700 edges; the shortest path through each transition replays them all.
    const paths = onePathPerTransition(coverage);
    expect(new Set(paths.flatMap((path) => path.covers))).toEqual(new Set(coverage.transitions));
    for (const path of paths) {
      const s = start(true);
      for (const event of path.events as Array<{ type: string; output?: unknown; error?: unknown }>) {
        const [, kind, , id] = event.type.split('.');
        const effect = id === 'push' ? s.push : id === 'pull' ? s.pull : undefined;
        if (effect && kind === 'done') await effect.resolve(event.output as never);
        else if (effect && kind === 'error') await effect.reject(event.error);
        else if (event.type.startsWith('xstate.after.retry'))
          s.clock.increment(retryDelay(s.context().failures));
        else s.actor.send(event as SyncEvent);
        await flush();
      }
      expect(serialize(s.actor.getSnapshot())).toBe(path.target);
    }
  });
});
