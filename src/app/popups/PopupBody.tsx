/** The global popups' bodies (loaded on the first open, see GlobalPopups). */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';
import type { PopupName } from '../../state/popup-store';
import { LanguagePopup } from './LanguagePopup';
import { ServicePopup } from './ServicePopup';
import { ThemePopup } from './ThemePopup';

// The demo tools load on demand: the shell (and /home's first paint) never carries them.
const DemoToolsPanel = lazy(async () => ({
  default: (await import('../../features/demo/DemoToolsPanel')).DemoToolsPanel,
}));

export default function PopupBody({ popup, onClose: close }: { popup: PopupName; onClose: () => void }) {
  const { t } = useTranslation();
  switch (popup) {
    case 'service':
      return <ServicePopup onClose={close} />;
    case 'language':
      return <LanguagePopup onClose={close} />;
    case 'theme':
      return <ThemePopup onClose={close} />;
    case 'demo':
      return (
        <Suspense
          fallback={
            <Dialog title={t('demo.title')} onClose={close}>
              <p>{t('demo.body')}</p>
            </Dialog>
          }
        >
          <DemoToolsPanel onClose={close} />
        </Suspense>
      );
    case 'sessionExpired':
      return (
        <Dialog
          title={t('errors.sessionExpiredTitle')}
          onClose={close}
          dismissible={false}
          actions={
            <button type="button" className="button primary" onClick={close}>
              {t('common.ok')}
            </button>
          }
        >
          <p>{t('errors.sessionExpiredBody')}</p>
        </Dialog>
      );
  }
}
