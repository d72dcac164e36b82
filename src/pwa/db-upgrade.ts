/**
 * A newer tab (after an update) opens the database at a higher version. IndexedDB cannot upgrade while older
 * connections stay open, and an old tab's code does not know the new schema, so each older tab closes its
 * connection at once and reloads into the new version (the service worker already serves it).
 */
import type Dexie from 'dexie';

export interface UpgradeOptions {
  reload?: () => void;
  /** This tab is the one upgrading and another connection has not closed yet (e.g. a frozen tab). */
  onBlocked?: () => void;
}

export function onDatabaseUpgrade(db: Dexie, options: UpgradeOptions = {}): () => void {
  const reload = options.reload ?? (() => location.reload());
  const onVersionChange = () => {
    // disableAutoOpen: a call arriving after this must fail, not silently reopen the old schema.
    db.close({ disableAutoOpen: true });
    reload();
    // Stop Dexie's default handler, which would only log and close.
    return false;
  };
  const onBlocked = () => options.onBlocked?.();
  db.on('versionchange', onVersionChange);
  db.on('blocked', onBlocked);
  return () => {
    db.on('versionchange').unsubscribe(onVersionChange);
    db.on('blocked').unsubscribe(onBlocked);
  };
}
