/** The account page's storage line: how much this device holds for Strata, and whether it is protected. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, storageUsage, type StorageUsage } from './storage';

export function StorageInfo({ read = storageUsage }: { read?: () => Promise<StorageUsage | undefined> }) {
  const { t, i18n } = useTranslation();
  const [usage, setUsage] = useState<StorageUsage | undefined | 'loading'>('loading');

  useEffect(() => {
    let live = true;
    read()
      .catch(() => undefined)
      .then((result) => {
        if (live) setUsage(result);
      });
    return () => {
      live = false;
    };
  }, [read]);

  if (usage === 'loading') return null;
  if (!usage) return <p className="pwa-install-text">{t('pwa.storageUnknown')}</p>;
  const locale = i18n.language;
  return (
    <div className="pwa-storage">
      <p>
        {t('pwa.storageUsage', {
          usage: formatBytes(usage.usage, locale),
          quota: formatBytes(usage.quota, locale),
        })}
      </p>
      {usage.persisted && <p className="pwa-install-text">{t('pwa.storagePersisted')}</p>}
    </div>
  );
}
