/** Renders whichever global popup is open (one at a time, see popup-store). */
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';
import { popupStore, usePopup } from '../popup-store';
import { LanguagePopup } from './LanguagePopup';
import { ServicePopup } from './ServicePopup';
import { ThemePopup } from './ThemePopup';

export function GlobalPopups() {
  const { t } = useTranslation();
  const popup = usePopup();
  const close = () => popupStore.close();
  switch (popup) {
    case null:
      return null;
    case 'service':
      return <ServicePopup onClose={close} />;
    case 'language':
      return <LanguagePopup onClose={close} />;
    case 'theme':
      return <ThemePopup onClose={close} />;
    case 'demo':
      return (
        <Dialog title={t('demo.title')} onClose={close}>
          <p>{t('demo.body')}</p>
        </Dialog>
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
