/**
 * System notifications on this device (the Notifications API, shown by the service worker while Strata is in
 * the background: src/lib/system-notices.ts). Permission is asked only when the member presses "Turn on"
 * here, never on load; a blocked or missing API is said plainly.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notificationPermission, requestNotifications } from '../../lib/system-notices';

export function SystemNotifications() {
  const { t } = useTranslation();
  const [permission, setPermission] = useState(notificationPermission);
  const text =
    permission === 'unsupported'
      ? t('notifications.system.unsupported')
      : permission === 'granted'
        ? t('notifications.system.on')
        : permission === 'denied'
          ? t('notifications.system.denied')
          : t('notifications.system.off');
  return (
    <section className="card system-notices" aria-labelledby="system-notices-title">
      <h2 id="system-notices-title" className="section-title">
        {t('notifications.system.title')}
      </h2>
      <p className="record-meta" role="status">
        {text}
      </p>
      {permission === 'default' && (
        <button
          type="button"
          className="button primary"
          onClick={() => void requestNotifications().then(setPermission)}
        >
          {t('notifications.system.turnOn')}
        </button>
      )}
    </section>
  );
}
