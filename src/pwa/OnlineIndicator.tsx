/**
 * The shell's one calm banner while the device is offline (or the last sync failed): what is on screen is
 * saved on this device, and from when; on a screen with a form (OfflineNote), that nothing is sent until the
 * device is back online. The page's only offline notice (issue 26). The live region is always mounted (screen readers announce changes
 * to an existing region, not a newly inserted one); it is empty while online and in step.
 */
import { useTranslation } from 'react-i18next';
import { useUser } from '../state/user-store';
import { useSyncStatus } from '../sync/status';
import { freshnessTime, useMinuteClock } from '../ui/Freshness';
import { useOnlineStatus } from './online';
import { useOfflineDetailWanted } from './offline-notice';
import './pwa.css';

export function OnlineIndicator() {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  const user = useUser();
  const sync = useSyncStatus();
  const now = useMinuteClock();
  // A screen with a form or live figures (OfflineNote) has the banner say that sending waits, too.
  const detail = useOfflineDetailWanted();
  const failed = online && user !== null && sync.state === 'error';
  const since =
    user && sync.lastSync !== null
      ? t('offline.lastSync', {
          time: freshnessTime(sync.lastSync, Math.max(now, sync.lastSync), t),
        })
      : null;
  return (
    <div role="status" aria-live="polite" className="pwa-offline-region" data-testid="pwa-online-status">
      {online && !failed ? null : (
        <p className="pwa-offline" data-online={online ? 'true' : 'false'}>
          {online ? t('offline.syncFailed') : detail ? t('wallet.offline') : t('pwa.offline')}
          {since && <> · {since}</>}
        </p>
      )}
    </div>
  );
}
