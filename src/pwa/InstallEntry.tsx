/** The "Install app" entry of /home/more: the browser's own prompt when offered, instructions otherwise. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInstallPrompt } from './install';
import './pwa.css';

export function InstallEntry() {
  const { t } = useTranslation();
  const { canPrompt, installed, platform, install } = useInstallPrompt();
  const [showHelp, setShowHelp] = useState(false);

  if (installed) {
    return (
      <section className="pwa-install" aria-labelledby="pwa-install-title">
        <h2 id="pwa-install-title" className="pwa-install-title">
          {t('pwa.install')}
        </h2>
        <p className="pwa-install-text">{t('pwa.installed')}</p>
      </section>
    );
  }

  return (
    <section className="pwa-install" aria-labelledby="pwa-install-title">
      <h2 id="pwa-install-title" className="pwa-install-title">
        {t('pwa.install')}
      </h2>
      <p className="pwa-install-text">{t('pwa.installHint')}</p>
      {canPrompt ? (
        <button type="button" className="pwa-install-action" onClick={() => void install()}>
          {t('pwa.install')}
        </button>
      ) : (
        <>
          <button
            type="button"
            className="pwa-install-action"
            aria-expanded={showHelp}
            aria-controls="pwa-install-help"
            onClick={() => setShowHelp((open) => !open)}
          >
            {t('pwa.installHow')}
          </button>
          {showHelp && (
            <p id="pwa-install-help" className="pwa-install-text">
              {platform === 'ios' ? t('pwa.installIos') : t('pwa.installOther')}
            </p>
          )}
        </>
      )}
    </section>
  );
}
