/**
 * The shell's sync status (issue 10): online, offline, syncing or "N waiting", with the last sync time in
 * its accessible name. Activating it opens a small sheet listing the mutations still queued on this device
 * (what, how much, since when). Shown only while a member is signed in.
 */
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StableLabel } from '../ui/StableLabel';
import { useUser } from '../state/user-store';
import { useOnlineStatus } from '../pwa/online';
import { freshnessTime, useMinuteClock } from '../ui/Freshness';
import { useSyncStatus } from './status';
import './sync.css';

// The sheet reads the outbox (Dexie): its own chunk, loaded when the member opens it.
const QueueSheet = lazy(async () => ({ default: (await import('./QueueSheet')).QueueSheet }));

export function SyncStatusButton() {
  const { t } = useTranslation();
  const user = useUser();
  const online = useOnlineStatus();
  const status = useSyncStatus();
  const now = useMinuteClock();
  const [open, setOpen] = useState(false);
  if (!user) return null;
  const state = !online || status.state === 'offline' ? 'offline' : status.state;
  const label =
    status.pending > 0
      ? t('offline.waiting', { count: status.pending })
      : t(`offline.state.${state === 'idle' ? 'online' : state}`);
  const last =
    status.lastSync === null
      ? t('offline.neverSynced')
      : t('offline.lastSync', {
          time: freshnessTime(status.lastSync, Math.max(now, status.lastSync), t),
        });
  return (
    <>
      <button
        type="button"
        className={`sync-chip sync-${state}`}
        aria-label={t('offline.statusLabel', { status: label, last })}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="sync-status"
      >
        <span className="sync-dot" aria-hidden="true" />
        {/* On a phone the chip is its dot: the count of waiting actions stays visible (its name says it). */}
        {status.pending > 0 && (
          <span className="sync-count" aria-hidden="true">
            {status.pending}
          </span>
        )}
        <StableLabel
          text={label}
          alternatives={[t('offline.state.online'), t('offline.state.syncing'), t('offline.state.offline')]}
        />
      </button>
      {open && (
        <Suspense fallback={null}>
          <QueueSheet memberId={user.id} last={last} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
