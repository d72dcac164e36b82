/**
 * The device's sync lifecycle (docs/OFFLINE.md): push the outbox, pull the replica's changes, follow the
 * network, and try again with back-off when a push or pull got no usable answer.
 * Its interface is documented on `syncMachine` below.
 */
import { assign, emit, enqueueActions, fromPromise, raise, setup, stateIn } from 'xstate';
import type { FlushReport } from '../sync/outbox';
import { codeOf, PullFailure, type PullOutput, type PushOutput } from './sync-effects';

/**
 * A push or pull that got no usable answer while the device says it is online (a server restarting, a lost
 * answer, a proxy error) is tried again after 1 s, then 2 s, 4 s, ... at most 30 s apart, until one succeeds.
 * Not after a 401: the session is gone and signing in starts a sync of its own.
 */
export const RETRY = { firstMs: 1_000, maxMs: 30_000 } as const;

/** The wait before retry number `failures` (1-based): 1 s, 2 s, 4 s ... at most 30 s. */
export function retryDelay(failures: number): number {
  const doublings = Math.max(0, Math.min(failures - 1, 16));
  return Math.min(RETRY.firstMs * 2 ** doublings, RETRY.maxMs);
}

export type SyncState = 'idle' | 'syncing' | 'offline' | 'error';

export interface SyncStatus {
  state: SyncState;
  /** The member's mutations still in the outbox. */
  pending: number;
  /** The code of the last failure ('ERR_NETWORK', 401, ...), null after a clean sync. */
  error: string | null;
  /** When the signed-in member's replica was last pulled complete (ms), null if never on this device. */
  lastSync: number | null;
}

export interface SyncInput {
  online: boolean;
}

export interface SyncContext {
  online: boolean;
  pending: number;
  error: string | null;
  lastSync: number | null;
  failures: number;
  pushAgain: boolean;
  pullAgain: boolean;
  pullAfterPush: boolean;
  applied: number;
}

export type SyncEvent =
  | { type: 'ONLINE'; signedIn: boolean }
  | { type: 'OFFLINE' }
  | { type: 'FOLLOW'; signedIn: boolean }
  | { type: 'UNFOLLOW' }
  | { type: 'ENQUEUED' }
  | { type: 'REFRESHED'; pending: number; lastSync: number | null }
  | { type: 'PUSH' }
  | { type: 'PULL' }
  | { type: 'SYNC' }
  | { type: 'STALE'; signedIn: boolean }
  /** Raised by a failed pass for the retry region (not sent from outside). */
  | { type: 'FAILED'; code: string; signedIn: boolean };

export type SyncEmitted =
  | { type: 'pushed'; report: FlushReport }
  | { type: 'pushFailed'; error: unknown }
  | { type: 'pullEnded'; applied: number }
  | { type: 'pullFailed'; error: unknown };

const unprovided = (name: string) =>
  new Error(`sync machine: provide the ${name} effect (syncEffects in sync-effects.ts)`);

const isOnline = stateIn({ network: 'online' });

/**
 * Interface
 * - input: `{ online }` (navigator.onLine at start).
 * - regions (parallel): network (online | offline), leader (follower | following: this tab answers online
 *   events), push (idle | pushing), pull (idle | pulling), retry (idle | waiting: the back-off timer).
 * - context: pending (the member's mutations in the outbox), error (the last failure's code, null after a
 *   success), lastSync, failures (retries scheduled since the last success, which set the back-off), and the
 *   run flags: pushAgain / pullAgain (a request while a pass runs makes one more pass, not a second run),
 *   pullAfterPush (SYNC: pull once the push run ended without error), applied (changes pulled this run).
 * - events: ONLINE / OFFLINE (the browser), FOLLOW / UNFOLLOW (the tab election), ENQUEUED (the outbox
 *   grew by one), REFRESHED (the outbox and replica re-read), PUSH, PULL, SYNC (push then pull), STALE (the
 *   server's data changed: a feed account event, the page shown again, a demo fast-forward, one's own
 *   write: a pull when online and signed in). `signedIn` on an event is read by the adapter when it sends it.
 * - emitted: pushed(report) when a push run ends, pullEnded(applied) / pullFailed(error) when a pull run
 *   ends, pushFailed(error) when a push pass threw: the adapter resolves its promises on these.
 * - actors: push, pull (sync-effects.ts: one pass each); delays: retry (1 s, 2 s, 4 s ... at most 30 s).
 * The status the UI reads (idle, syncing, offline, error) is `syncStatus(snapshot)`.
 */
export const syncMachine = setup({
  types: {
    input: {} as SyncInput,
    context: {} as SyncContext,
    events: {} as SyncEvent,
    emitted: {} as SyncEmitted,
  },
  actors: {
    push: fromPromise<PushOutput>(() => Promise.reject(unprovided('push'))),
    pull: fromPromise<PullOutput>(() => Promise.reject(unprovided('pull'))),
  },
  delays: { retry: ({ context }) => retryDelay(context.failures) },
  guards: {
    startedOffline: ({ context }) => !context.online,
    online: isOnline,
    /** Online and a member signed in, as the event says (a reconnect, a stale replica). */
    canSync: ({ context, event }) => context.online && 'signedIn' in event && event.signedIn,
    /** A member is signed in, as the event says (an ONLINE event is itself the news that the device is online). */
    signedIn: ({ event }) => 'signedIn' in event && event.signedIn,
    retryable: ({ context, event }) =>
      event.type === 'FAILED' && event.code !== '401' && event.signedIn && context.online,
    pushAgain: ({ context }) => context.pushAgain,
    pullAgain: ({ context }) => context.pullAgain,
  },
  actions: {
    wentOnline: assign({ online: true }),
    wentOffline: assign({ online: false }),
    sync: raise({ type: 'SYNC' }),
    push: raise({ type: 'PUSH' }),
    countEnqueued: assign({ pending: ({ context }) => context.pending + 1 }),
    refreshed: assign(({ event }) =>
      event.type === 'REFRESHED' ? { pending: event.pending, lastSync: event.lastSync } : {},
    ),
    pushAgain: assign({ pushAgain: true }),
    pullAfterPush: assign({ pullAfterPush: true }),
    pullAgain: assign({ pullAgain: true }),
    startPullRun: assign({ applied: 0, pullAgain: false }),
    countRetry: assign({ failures: ({ context }) => context.failures + 1 }),
  },
}).createMachine({
  id: 'sync',
  type: 'parallel',
  context: ({ input }) => ({
    online: input.online,
    pending: 0,
    error: null,
    lastSync: null,
    failures: 0,
    pushAgain: false,
    pullAgain: false,
    pullAfterPush: false,
    applied: 0,
  }),
  on: {
    ENQUEUED: [{ guard: 'online', actions: ['countEnqueued', 'push'] }, { actions: 'countEnqueued' }],
    REFRESHED: { actions: 'refreshed' },
  },
  states: {
    network: {
      initial: 'online',
      on: {
        ONLINE: { target: '.online', actions: 'wentOnline' },
        OFFLINE: { target: '.offline', actions: 'wentOffline' },
      },
      states: {
        // Started offline (navigator.onLine false): straight on to `offline`, in the same step.
        online: { always: { guard: 'startedOffline', target: 'offline' } },
        offline: {},
      },
    },
    // Only the tab that leads answers the browser's online event with a sync; any tab may push and pull.
    leader: {
      initial: 'follower',
      states: {
        follower: {
          on: {
            FOLLOW: [{ guard: 'canSync', target: 'following', actions: 'sync' }, { target: 'following' }],
          },
        },
        following: {
          on: { UNFOLLOW: 'follower', ONLINE: { guard: 'signedIn', actions: 'sync' } },
        },
      },
    },
    push: {
      initial: 'idle',
      states: {
        idle: {
          on: { PUSH: 'pushing', SYNC: { target: 'pushing', actions: 'pullAfterPush' } },
        },
        pushing: {
          on: { PUSH: { actions: 'pushAgain' }, SYNC: { actions: ['pushAgain', 'pullAfterPush'] } },
          invoke: {
            id: 'push',
            src: 'push',
            onDone: [
              {
                // No usable answer: the run stops here (what is left stays queued), and may be retried.
                guard: ({ event }) =>
                  event.output.report.error !== undefined && event.output.report.error !== null,
                target: 'idle',
                actions: [
                  assign(({ event }) => ({
                    pending: event.output.report.pending,
                    error: codeOf(event.output.report.error),
                    pushAgain: false,
                    pullAfterPush: false,
                  })),
                  raise(({ event }) => ({
                    type: 'FAILED' as const,
                    code: codeOf(event.output.report.error),
                    signedIn: event.output.signedIn,
                  })),
                  emit(({ event }) => ({ type: 'pushed' as const, report: event.output.report })),
                ],
              },
              {
                guard: 'pushAgain',
                target: 'pushing',
                reenter: true,
                actions: assign(({ context, event }) => ({
                  pending: event.output.report.pending,
                  error: null,
                  pushAgain: false,
                  // An empty outbox proves nothing about the server: only answers reset the back-off.
                  failures: event.output.report.answered > 0 ? 0 : context.failures,
                })),
              },
              {
                target: 'idle',
                actions: [
                  // SYNC: the pull follows a push run that ended without error.
                  enqueueActions(({ context, enqueue }) => {
                    if (context.pullAfterPush) enqueue.raise({ type: 'PULL' });
                  }),
                  assign(({ context, event }) => ({
                    pending: event.output.report.pending,
                    error: null,
                    pullAfterPush: false,
                    failures: event.output.report.answered > 0 ? 0 : context.failures,
                  })),
                  emit(({ event }) => ({ type: 'pushed' as const, report: event.output.report })),
                ],
              },
            ],
            // A pass that threw (signed out, a device database error): no answer to show, nothing to retry.
            onError: {
              target: 'idle',
              actions: [
                assign({ pushAgain: false, pullAfterPush: false }),
                emit(({ event }) => ({ type: 'pushFailed' as const, error: event.error })),
              ],
            },
          },
        },
      },
    },
    pull: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            PULL: { target: 'pulling', actions: 'startPullRun' },
            STALE: { guard: 'canSync', target: 'pulling', actions: 'startPullRun' },
          },
        },
        pulling: {
          on: { PULL: { actions: 'pullAgain' }, STALE: { guard: 'canSync', actions: 'pullAgain' } },
          invoke: {
            id: 'pull',
            src: 'pull',
            onDone: [
              {
                guard: 'pullAgain',
                target: 'pulling',
                reenter: true,
                actions: assign(({ context, event }) => ({
                  ...pulled(context, event.output),
                  pullAgain: false,
                })),
              },
              {
                target: 'idle',
                actions: [
                  assign(({ context, event }) => pulled(context, event.output)),
                  emit(({ context }) => ({ type: 'pullEnded' as const, applied: context.applied })),
                ],
              },
            ],
            onError: [
              {
                guard: ({ event }) => event.error instanceof PullFailure,
                target: 'idle',
                actions: [
                  assign(({ event }) => ({ error: codeOf(failureOf(event.error)), pullAgain: false })),
                  raise(({ event }) => ({
                    type: 'FAILED' as const,
                    code: codeOf(failureOf(event.error)),
                    signedIn: event.error instanceof PullFailure && event.error.signedIn,
                  })),
                  emit(({ event }) => ({ type: 'pullFailed' as const, error: failureOf(event.error) })),
                ],
              },
              {
                target: 'idle',
                actions: [
                  assign({ pullAgain: false }),
                  emit(({ event }) => ({ type: 'pullFailed' as const, error: event.error })),
                ],
              },
            ],
          },
        },
      },
    },
    // One retry at a time, with back-off; offline, the online event syncs instead.
    retry: {
      initial: 'idle',
      states: {
        idle: { on: { FAILED: { guard: 'retryable', target: 'waiting', actions: 'countRetry' } } },
        waiting: {
          after: { retry: [{ guard: 'online', target: 'idle', actions: 'sync' }, { target: 'idle' }] },
        },
      },
    },
  },
});

function failureOf(error: unknown): unknown {
  return error instanceof PullFailure ? error.error : error;
}

function pulled(context: SyncContext, output: PullOutput): Partial<SyncContext> {
  return {
    applied: context.applied + output.applied,
    failures: 0,
    // The member may have signed out while the pages arrived: their time is not the next member's.
    ...(output.current ? { error: null, lastSync: output.finished } : {}),
  };
}

type SyncSnapshot = ReturnType<typeof syncMachine.transition>;

/** What the UI shows: offline, syncing while a pass runs, error while the last failure stands, else idle. */
export function syncStatus(snapshot: Pick<SyncSnapshot, 'matches' | 'context'>): SyncStatus {
  const { context } = snapshot;
  const state: SyncState = snapshot.matches({ network: 'offline' })
    ? 'offline'
    : snapshot.matches({ push: 'pushing' }) || snapshot.matches({ pull: 'pulling' })
      ? 'syncing'
      : context.error !== null
        ? 'error'
        : 'idle';
  return { state, pending: context.pending, error: context.error, lastSync: context.lastSync };
}
