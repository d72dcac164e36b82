/** The device half of sync (ARCHITECTURE.md src/sync/): outbox, replica and the engine that drives them. */
export { openDeviceDb, DEVICE_DB_NAME, type DeviceDb, type OutboxEntry, type StoredResult } from './db';
export { PUSH_BATCH, type FlushReport } from './outbox';
export { replicaRecords, resetReplica, type Change } from './replica';
export {
  browserOnline,
  createSyncEngine,
  type OnlineSource,
  type SyncEngine,
  type SyncEngineOptions,
  type SyncState,
  type SyncStatus,
} from './sync-engine';
export { appSync, startAppSync, useSyncStatus } from './app';
