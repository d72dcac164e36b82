/**
 * Tells the member when the device is offline. The live region is always mounted (screen readers announce
 * changes to an existing region, not a newly inserted one); it is empty while online.
 */
import { useTranslation } from 'react-i18next';
import { useOnlineStatus } from './online';
import './pwa.css';

export function OnlineIndicator() {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  return (
    <div role="status" aria-live="polite" className="pwa-offline-region" data-testid="pwa-online-status">
      {online ? null : (
        <p className="pwa-offline" data-online="false">
          {t('pwa.offline')}
        </p>
      )}
    </div>
  );
}
