/** The "a new version is available" banner: shown while an update waits, never applied without the member. */
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { applyUpdate, updateWaiting } from './register';
import './pwa.css';

export function UpdatePrompt({ onReload = applyUpdate }: { onReload?: () => void }) {
  const { t } = useTranslation();
  const waiting = useSyncExternalStore(updateWaiting.subscribe, updateWaiting.get, updateWaiting.get);
  if (!waiting) return null;
  return (
    <div className="pwa-banner" role="alert" data-testid="pwa-update">
      <span>{t('pwa.updateAvailable')}</span>
      <button type="button" className="pwa-banner-action" onClick={onReload}>
        {t('pwa.reload')}
      </button>
    </div>
  );
}
