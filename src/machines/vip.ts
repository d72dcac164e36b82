/**
 * The member's VIP level (SPEC.md §4, API.md): vip0 -> purchasing -> active (VIP2-6, refundable deposit) or
 * trial (VIP1, 60 days, counted down to the second and then expired); active -> refundRequested -> refunded
 * -> vip0. Buying a level not above the current one is refused locally with 4033, as the server would.
 * Its interface is documented on `vipMachine` below.
 */
import { assertEvent, assign, emit, setup } from 'xstate';
import { toFailure, type Failure } from './failure';
import { levelOf, vipEffects, type BuyResult } from './vip-effects';

export type { BuyResult } from './vip-effects';

/** The countdown's resolution. */
export const TICK_MS = 1000;
/** How long `refunded` shows before the page falls back to vip0 (SPEC.md §9: toasts last 2,000 ms). */
export const REFUNDED_NOTICE_MS = 2000;

export interface VipProfile {
  vip: string;
  /** Unix seconds; set while VIP1 runs. */
  vipExpiresAt?: number | null;
}

export interface VipContext {
  level: number;
  expiresAt: number | null;
  remaining: number;
  pending: number | null;
  error: Failure | null;
}

export type VipEvent =
  | { type: 'BUY'; level: number; key: string }
  | { type: 'BOUGHT'; result: BuyResult; at: number }
  | { type: 'FAILED'; code: number | string; msg?: string }
  | { type: 'REFUND' }
  | { type: 'REFUNDED' }
  | { type: 'SYNC'; profile: VipProfile; at: number };

export type VipEmitted =
  | { type: 'bought'; level: number }
  | { type: 'failed'; error: Failure }
  | { type: 'expired' }
  | { type: 'refunded' };

/** 4033: the current level is greater than (or equal to) the one being bought. */
export const LEVEL_NOT_HIGHER = 4033;

function trialFrom(expiresAtSeconds: number | null | undefined, at: number) {
  const expiresAt = typeof expiresAtSeconds === 'number' ? expiresAtSeconds * 1000 : null;
  return { expiresAt, remaining: expiresAt === null ? 0 : Math.max(0, expiresAt - at) };
}

// A profile read from the server puts the machine where the server says; what level 0 means depends on
// where the machine was (a trial that reads level 0 has lapsed).
const toTrial = { guard: 'syncTrial', target: 'trial', reenter: true, actions: 'applyProfile' } as const;
const toActive = { guard: 'syncActive', target: 'active', actions: 'applyProfile' } as const;
const stay = { actions: 'applyProfile' } as const;

const buy = [
  { guard: 'isUpgrade', target: 'purchasing', actions: 'rememberPending' },
  { actions: ['refuseLevel', 'announceFailure'] },
] as const;

/**
 * Interface
 * - context: level (0-6), expiresAt (ms, trial only), remaining (ms left of the trial), pending (the level
 *   being bought or refunded), error (Failure of the last purchase or refund).
 * - events: BUY(level, key), BOUGHT(result, at), FAILED(code, msg), REFUND, REFUNDED, SYNC(profile, at).
 *   `at` is the time (ms) on the server's clock when the result or profile was read; remaining = expiresAt - at.
 *   Send SYNC with /api/user/getuser's { vip, vipExpiresAt } when the screen opens and after a refresh.
 * - emitted: bought(level), failed(error), expired, refunded.
 * - actors: buy, refund (vip-effects.ts). In demo mode provide
 *   `vipEffects(() => createDemoWorkerTransport().demo.clock())`, the engine's fast-forwarded clock; SYNC's `at`
 *   comes from the same clock.
 * Delayed events are not part of a persisted snapshot: after restoring one in `trial`, send SYNC to restart
 * the countdown.
 */
export const vipMachine = setup({
  types: {
    context: {} as VipContext,
    events: {} as VipEvent,
    emitted: {} as VipEmitted,
  },
  actors: vipEffects(),
  delays: {
    tick: ({ context }) => Math.min(TICK_MS, context.remaining),
    notice: REFUNDED_NOTICE_MS,
  },
  guards: {
    isUpgrade: ({ context, event }) =>
      event.type === 'BUY' &&
      Number.isInteger(event.level) &&
      event.level <= 6 &&
      event.level > context.level,
    syncTrial: ({ event }) => event.type === 'SYNC' && levelOf(event.profile.vip) === 1,
    syncActive: ({ event }) => event.type === 'SYNC' && levelOf(event.profile.vip) >= 2,
    boughtTrial: ({ event }) => event.type === 'BOUGHT' && levelOf(event.result.vip) === 1,
    atTrial: ({ context }) => context.level === 1,
    atActive: ({ context }) => context.level >= 2,
    lastTick: ({ context }) => context.remaining <= TICK_MS,
  },
  actions: {
    applyProfile: assign(({ event }) => {
      assertEvent(event, 'SYNC');
      return { level: levelOf(event.profile.vip), ...trialFrom(event.profile.vipExpiresAt, event.at) };
    }),
    applyPurchase: assign(({ event }) => {
      assertEvent(event, 'BOUGHT');
      return {
        level: levelOf(event.result.vip),
        pending: null,
        error: null,
        ...trialFrom(event.result.expiresAt, event.at),
      };
    }),
    announcePurchase: emit(({ context }) => ({ type: 'bought' as const, level: context.level })),
    fail: assign({
      pending: null,
      error: ({ event }) => {
        assertEvent(event, 'FAILED');
        return toFailure(event);
      },
    }),
    announceFailure: emit(({ context }) => ({
      type: 'failed' as const,
      error: context.error ?? { code: '', msg: '' },
    })),
    refuseLevel: assign({ error: { code: LEVEL_NOT_HIGHER, msg: '' } }),
    rememberPending: assign({
      pending: ({ event }) => {
        assertEvent(event, 'BUY');
        return event.level;
      },
    }),
    tick: assign({ remaining: ({ context }) => Math.max(0, context.remaining - TICK_MS) }),
    lapse: assign({ level: 0, expiresAt: null, remaining: 0 }),
    clearLevel: assign({ level: 0, expiresAt: null, remaining: 0, pending: null, error: null }),
  },
}).createMachine({
  id: 'vip',
  context: { level: 0, expiresAt: null, remaining: 0, pending: null, error: null },
  initial: 'vip0',
  states: {
    vip0: { on: { BUY: buy, SYNC: [toTrial, toActive, stay] } },
    purchasing: {
      invoke: {
        id: 'buy',
        src: 'buy',
        input: ({ event }) => {
          assertEvent(event, 'BUY');
          return { level: event.level, key: event.key };
        },
      },
      on: {
        BOUGHT: [
          { guard: 'boughtTrial', target: 'trial', actions: ['applyPurchase', 'announcePurchase'] },
          { target: 'active', actions: ['applyPurchase', 'announcePurchase'] },
        ],
        // Back to where the member was: the level did not change.
        FAILED: [
          { guard: 'atTrial', target: 'trial', actions: ['fail', 'announceFailure'] },
          { guard: 'atActive', target: 'active', actions: ['fail', 'announceFailure'] },
          { target: 'vip0', actions: ['fail', 'announceFailure'] },
        ],
      },
    },
    active: {
      on: {
        BUY: buy,
        REFUND: 'refundRequested',
        SYNC: [
          toTrial,
          { guard: 'syncActive', actions: 'applyProfile' },
          { target: 'vip0', actions: 'applyProfile' },
        ],
      },
    },
    trial: {
      // Each tick re-enters trial, which schedules the next; the last one lands exactly on expiresAt.
      after: {
        tick: [
          { guard: 'lastTick', target: 'expired', actions: 'lapse' },
          { target: 'trial', reenter: true, actions: 'tick' },
        ],
      },
      on: { BUY: buy, SYNC: [toTrial, toActive, { target: 'expired', actions: 'applyProfile' }] },
    },
    expired: {
      entry: emit({ type: 'expired' }),
      on: {
        BUY: buy,
        // Still level 0: keep showing the "VIP expired, upgrade to VIP2 or above" notice.
        SYNC: [toTrial, toActive, stay],
      },
    },
    refundRequested: {
      entry: assign({ pending: ({ context }) => context.level, error: null }),
      invoke: { id: 'refund', src: 'refund', input: ({ context }) => ({ level: context.level }) },
      on: {
        REFUNDED: { target: 'refunded', actions: ['clearLevel', emit({ type: 'refunded' })] },
        FAILED: { target: 'active', actions: ['fail', 'announceFailure'] },
      },
    },
    refunded: { after: { notice: 'vip0' } },
  },
});
