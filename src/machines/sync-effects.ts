/**
 * The sync machine's effects: one push pass (the outbox, in batches) and one pull pass (the replica's
 * changes), through the app's API client on the device database. src/sync/sync-engine.ts provides them to
 * the machine with `.provide({ actors: syncEffects(deps) })`; tests provide fakes.
 */
import { fromPromise } from 'xstate';
import type { ApiClient } from '../api/client';
import type { DeviceDb } from '../sync/db';
import { flushOutbox, type FlushReport } from '../sync/outbox';
import { pullChanges } from '../sync/replica';

export interface SyncDeps {
  api: ApiClient;
  db: DeviceDb;
  /** The signed-in member's id, or null when signed out (read at each pass: a member may sign out mid-run). */
  member: () => string | null;
  newId: () => string;
  now: () => number;
  batch?: number;
}

/** What a push pass answers: the flush's report and whether a member was still signed in after it. */
export interface PushOutput {
  report: FlushReport;
  signedIn: boolean;
}

/** What a pull pass answers; `current` is false when the member signed out (or switched) during the pass. */
export interface PullOutput {
  applied: number;
  /** When the replica was last pulled complete (ms), null when the pass did not finish it. */
  finished: number | null;
  current: boolean;
}

/** A pass started with no member signed in: it does nothing, and changes nothing in the status. */
export class SignedOutError extends Error {
  constructor() {
    super('Sync needs a signed-in member');
  }
}

/** A pull pass that got no usable answer: `error` is what the API client threw. */
export class PullFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly signedIn: boolean,
  ) {
    super('pull failed');
  }
}

/** The failure's catalogue code ('ERR_NETWORK', '401', ...) as the status shows it. */
export function codeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error) return String(error.code);
  return error instanceof Error ? error.message : String(error);
}

export function syncEffects(deps: SyncDeps) {
  const { api, db } = deps;
  let clientId: Promise<string> | undefined;

  /** One id per device database, kept so the server's records name the device a mutation came from. */
  function deviceId(): Promise<string> {
    clientId ??= db.transaction('rw', db.meta, async () => {
      const row = await db.meta.get('clientId');
      if (row) return row.value;
      const value = deps.newId();
      await db.meta.put({ key: 'clientId', value });
      return value;
    });
    return clientId;
  }

  const memberOrThrow = (): string => {
    const member = deps.member();
    if (!member) throw new SignedOutError();
    return member;
  };

  return {
    push: fromPromise<PushOutput>(async () => {
      const member = memberOrThrow();
      const report = await flushOutbox(db, api, {
        memberId: member,
        clientId: await deviceId(),
        now: deps.now,
        ...(deps.batch ? { batch: deps.batch } : {}),
      });
      return { report, signedIn: deps.member() !== null };
    }),
    pull: fromPromise<PullOutput>(async () => {
      const member = memberOrThrow();
      try {
        let finished: number | null = null;
        const applied = await pullChanges(db, api, member, () => (finished = deps.now()));
        // The member may have signed out while the pages arrived: their time is not the next member's.
        return { applied, finished, current: deps.member() === member };
      } catch (error) {
        throw new PullFailure(error, deps.member() !== null);
      }
    }),
  };
}
