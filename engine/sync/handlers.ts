/**
 * The server half of sync (docs/RULES.md Y1-Y8): push replays a device's outbox exactly once per mutation
 * id; pull pages through the member's change log, which `beforeCommit` writes in every unit of work.
 */
import type { Domain } from '../routes';
import { initSync, logChanges } from './capture';
import { pullHandler } from './pull';
import { syncable } from './mutations';
import { pushHandler } from './push';

/** `extra`: more replayable paths (tests replay a test-only domain's calls). */
export function createSyncDomain(extra: readonly string[] = []): Domain {
  return {
    name: 'sync',
    handlers: {
      '/api/sync/push': pushHandler(syncable(extra)),
      '/api/sync/pull': pullHandler,
    },
    beforeCommit: logChanges,
    init: initSync,
  };
}

export const syncDomain: Domain = createSyncDomain();
