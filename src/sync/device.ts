/**
 * The app's device database ('strata-device': outbox, results, replica, cache), on its own so a screen that
 * only reads the device cache (/home's quotes) opens it without loading the sync engine and its machine
 * (src/sync/app.ts builds the engine on this same instance).
 */
import { isDemoMode } from '../api/config';
import { onDatabaseUpgrade } from '../pwa/db-upgrade';
import { openDeviceDb, type DeviceDb } from './db';
import { readFirstData, seedFirstData } from './first-data';

let deviceDb: DeviceDb | undefined;

/** A newer version upgrading the device database closes this tab's connection and reloads it into the new one. */
function upgradable<T extends Parameters<typeof onDatabaseUpgrade>[0]>(db: T): T {
  onDatabaseUpgrade(db);
  return db;
}

/**
 * The device database the app's sync engine works on (outbox, results, replica). Live mode: opening it first
 * writes the page's first data (the market list the server inlined, src/sync/first-data.ts) where the device
 * has nothing newer, in a transaction issued before any screen's read, so the first read sees it.
 */
export function appDeviceDb(): DeviceDb {
  if (deviceDb) return deviceDb;
  const db = upgradable(openDeviceDb());
  deviceDb = db;
  const first = isDemoMode() ? null : readFirstData();
  if (first) void seedFirstData(db, first).catch(() => undefined);
  return db;
}
