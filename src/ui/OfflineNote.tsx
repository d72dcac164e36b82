/** A banner while the device has no network: what is on screen may be stale, and sending will wait or fail. */
import { useTranslation } from 'react-i18next';
import { useOnlineStatus } from '../pwa/online';
import './ui.css';

export function OfflineNote() {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  if (online) return null;
  return (
    <p className="offline-note" role="status">
      {t('wallet.offline')}
    </p>
  );
}
