import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { machineCoverage } from '../../tests/app/machine-coverage';
import { REFUNDED_NOTICE_MS, TICK_MS, vipMachine, type VipContext, type VipEvent } from './vip';
import { levelOf, type BuyInput } from './vip-effects';

const DAY_S = 86_400;

/**
 * SimulatedClock.increment jumps straight to the end, so a timer scheduled by a timer that fired on the way
 * would start late; stepping a millisecond at a time keeps each tick on its exact instant.
 */
function advance(clock: SimulatedClock, ms: number): void {
  for (let i = 0; i < ms; i += 1) clock.increment(1);
}

/** Effects that only record their calls; the test answers with BOUGHT / REFUNDED / FAILED itself. */
function start() {
  const buys: BuyInput[] = [];
  const refunds: Array<{ level: number }> = [];
  const clock = new SimulatedClock();
  const machine = vipMachine.provide({
    actors: {
      buy: fromCallback<EventObject, BuyInput>(({ input }) => void buys.push(input)),
      refund: fromCallback<EventObject, { level: number }>(({ input }) => void refunds.push(input)),
    },
  });
  const actor = createActor(machine, { clock });
  const emitted: string[] = [];
  actor.on('*', (event) => emitted.push(event.type));
  actor.start();
  const state = () => actor.getSnapshot().value;
  const context = (): VipContext => actor.getSnapshot().context;
  return { actor, clock, buys, refunds, emitted, state, context };
}

/** A VIP1 trial read at `at` ms that ends `seconds` later. */
function trial(s: ReturnType<typeof start>, seconds: number, at = 0) {
  s.actor.send({ type: 'BUY', level: 1, key: '1234' });
  s.actor.send({
    type: 'BOUGHT',
    result: { vip: 'vip1', deposit: '50', expiresAt: at / 1000 + seconds },
    at,
  });
}

describe('vip machine', () => {
  it('reads levels from the profile strings', () => {
    expect([levelOf('vip0'), levelOf('vip6'), levelOf('VIP3'), levelOf('vip9'), levelOf(undefined)]).toEqual([
      0, 6, 3, 0, 0,
    ]);
  });

  it('buys VIP2 with the key and becomes active', () => {
    const s = start();
    s.actor.send({ type: 'BUY', level: 2, key: '1234' });
    expect(s.state()).toBe('purchasing');
    expect(s.buys).toEqual([{ level: 2, key: '1234' }]);
    expect(s.context().pending).toBe(2);
    s.actor.send({ type: 'BOUGHT', result: { vip: 'vip2', deposit: '500' }, at: 0 });
    expect(s.state()).toBe('active');
    expect(s.context()).toMatchObject({ level: 2, pending: null, expiresAt: null });
    expect(s.emitted).toEqual(['bought']);
  });

  it('refuses a level not above the current one locally with 4033', () => {
    const s = start();
    s.actor.send({ type: 'BUY', level: 3, key: '1234' });
    s.actor.send({ type: 'BOUGHT', result: { vip: 'vip3', deposit: '2000' }, at: 0 });
    s.actor.send({ type: 'BUY', level: 2, key: '1234' });
    s.actor.send({ type: 'BUY', level: 3, key: '1234' });
    expect(s.state()).toBe('active');
    expect(s.context().error).toEqual({ code: 4033, msg: '' });
    expect(s.buys).toHaveLength(1);
    expect(s.emitted).toEqual(['bought', 'failed', 'failed']);
  });

  it('a failed purchase returns to the level the member had, with the code', () => {
    const s = start();
    s.actor.send({ type: 'BUY', level: 2, key: 'bad' });
    s.actor.send({ type: 'FAILED', code: 3007, msg: 'key wrong' });
    expect(s.state()).toBe('vip0');
    expect(s.context().error).toEqual({ code: 3007, msg: 'key wrong' });
    trial(s, 10);
    s.actor.send({ type: 'BUY', level: 2, key: '1234' });
    s.actor.send({ type: 'FAILED', code: 4011 });
    expect(s.state()).toBe('trial');
    expect(s.context().level).toBe(1);
  });

  it('counts a VIP1 trial down to the second and expires exactly at expiresAt', () => {
    const s = start();
    trial(s, 5, 500);
    expect(s.state()).toBe('trial');
    expect(s.context()).toMatchObject({ level: 1, expiresAt: 5500, remaining: 5000 });
    advance(s.clock, TICK_MS);
    expect(s.context().remaining).toBe(4000);
    advance(s.clock, 4 * TICK_MS - 1);
    expect(s.state()).toBe('trial');
    expect(s.context().remaining).toBe(1000);
    advance(s.clock, 1);
    expect(s.state()).toBe('expired');
    expect(s.context()).toMatchObject({ level: 0, remaining: 0, expiresAt: null });
    expect(s.emitted).toEqual(['bought', 'expired']);
  });

  it('a trial whose remainder is not whole seconds still ends on time', () => {
    const s = start();
    trial(s, 2.5);
    advance(s.clock, 2499);
    expect(s.state()).toBe('trial');
    advance(s.clock, 1);
    expect(s.state()).toBe('expired');
  });

  it('upgrading from the trial stops its countdown', () => {
    const s = start();
    trial(s, 2);
    s.actor.send({ type: 'BUY', level: 2, key: '1234' });
    s.actor.send({ type: 'BOUGHT', result: { vip: 'vip2', deposit: '500' }, at: 0 });
    advance(s.clock, 10 * TICK_MS);
    expect(s.state()).toBe('active');
  });

  it('refunds a VIP2+ deposit, shows refunded, then falls back to vip0', () => {
    const s = start();
    s.actor.send({ type: 'BUY', level: 4, key: '1234' });
    s.actor.send({ type: 'BOUGHT', result: { vip: 'vip4', deposit: '10000' }, at: 0 });
    s.actor.send({ type: 'REFUND' });
    expect(s.state()).toBe('refundRequested');
    expect(s.refunds).toEqual([{ level: 4 }]);
    s.actor.send({ type: 'FAILED', code: 500 });
    expect(s.state()).toBe('active');
    s.actor.send({ type: 'REFUND' });
    s.actor.send({ type: 'REFUNDED' });
    expect(s.state()).toBe('refunded');
    expect(s.context().level).toBe(0);
    s.clock.increment(REFUNDED_NOTICE_MS);
    expect(s.state()).toBe('vip0');
    expect(s.emitted).toEqual(['bought', 'failed', 'refunded']);
  });

  it('follows the server profile: active, trial with its remaining time, a lapsed trial as expired', () => {
    const s = start();
    s.actor.send({ type: 'SYNC', profile: { vip: 'vip3' }, at: 0 });
    expect(s.state()).toBe('active');
    s.actor.send({ type: 'SYNC', profile: { vip: 'vip1', vipExpiresAt: 60 * DAY_S }, at: 59 * DAY_S * 1000 });
    expect(s.state()).toBe('trial');
    expect(s.context().remaining).toBe(DAY_S * 1000);
    // Fast-forward in demo mode: the server expired the trial; the next profile says vip0.
    s.actor.send({ type: 'SYNC', profile: { vip: 'vip0', vipExpiresAt: null }, at: 61 * DAY_S * 1000 });
    expect(s.state()).toBe('expired');
    s.actor.send({ type: 'SYNC', profile: { vip: 'vip0' }, at: 0 });
    expect(s.state()).toBe('expired');
    s.actor.send({ type: 'SYNC', profile: { vip: 'vip2' }, at: 0 });
    expect(s.state()).toBe('active');
  });

  it('round-trips a persisted snapshot; SYNC restarts the countdown of a restored trial', () => {
    const s = start();
    trial(s, 3);
    advance(s.clock, TICK_MS);
    const persisted = JSON.parse(JSON.stringify(s.actor.getPersistedSnapshot()));
    const clock = new SimulatedClock();
    const restored = createActor(vipMachine, { snapshot: persisted, clock }).start();
    expect(restored.getSnapshot().value).toBe('trial');
    expect(restored.getSnapshot().context).toEqual(s.context());
    restored.send({ type: 'SYNC', profile: { vip: 'vip1', vipExpiresAt: 3 }, at: 1000 });
    advance(clock, 1999);
    expect(restored.getSnapshot().value).toBe('trial');
    advance(clock, 1);
    expect(restored.getSnapshot().value).toBe('expired');
  });

  it('generated paths reach every state and transition, and replay on a live actor', () => {
    const events: VipEvent[] = [
      { type: 'BUY', level: 1, key: 'k' },
      { type: 'BUY', level: 2, key: 'k' },
      { type: 'BUY', level: 3, key: 'k' },
      { type: 'BUY', level: 0, key: 'k' },
      { type: 'BOUGHT', result: { vip: 'vip1', deposit: '50', expiresAt: 2 }, at: 0 },
      { type: 'BOUGHT', result: { vip: 'vip2', deposit: '500' }, at: 0 },
      { type: 'FAILED', code: 500 },
      { type: 'REFUND' },
      { type: 'REFUNDED' },
      { type: 'SYNC', profile: { vip: 'vip0' }, at: 0 },
      { type: 'SYNC', profile: { vip: 'vip1', vipExpiresAt: 2 }, at: 0 },
      { type: 'SYNC', profile: { vip: 'vip2' }, at: 0 },
    ];
    const serialize = (snapshot: AnyMachineSnapshot) => {
      const { level, remaining } = snapshot.context as VipContext;
      return JSON.stringify([snapshot.value, level, remaining]);
    };
    const coverage = machineCoverage(vipMachine, { events: () => events, serialize });
    expect(coverage.unvisitedStates).toEqual([]);
    expect(coverage.unvisitedTransitions).toEqual([]);
    for (const path of coverage.paths) {
      const s = start();
      for (const event of path.events) {
        if (event.type.startsWith('xstate.after.tick'))
          s.clock.increment(Math.min(TICK_MS, s.context().remaining));
        else if (event.type.startsWith('xstate.after.notice')) s.clock.increment(REFUNDED_NOTICE_MS);
        else s.actor.send(event as VipEvent);
      }
      expect(serialize(s.actor.getSnapshot())).toBe(path.target);
    }
  });
});
