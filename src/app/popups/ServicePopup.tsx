/** Customer service: the contact from /api/site/getsite with a copy button that really copies. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { copyText } from '../../lib/clipboard';
import { Dialog } from '../../ui/Dialog';
import { toastStore } from '../../state/toast-store';

type State = { status: 'loading' } | { status: 'ready'; contact: string } | { status: 'unavailable' };

export function ServicePopup({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    let live = true;
    api
      .call('/api/site/getsite', undefined, { auth: false, silent: true })
      .then((site) => {
        const contact = site.customerservice?.trim();
        if (live) setState(contact ? { status: 'ready', contact } : { status: 'unavailable' });
      })
      .catch(() => {
        if (live) setState({ status: 'unavailable' });
      });
    return () => {
      live = false;
    };
  }, []);

  async function copy(contact: string) {
    const ok = await copyText(contact);
    toastStore.show(t(ok ? 'common.copied' : 'common.copyFailed'), ok ? 'success' : 'error');
  }

  const isLink = state.status === 'ready' && /^https?:\/\//i.test(state.contact);

  return (
    <Dialog
      title={t('service.title')}
      onClose={onClose}
      actions={
        <>
          {state.status === 'ready' && (
            <button type="button" className="button primary" onClick={() => void copy(state.contact)}>
              {t('service.copy')}
            </button>
          )}
          <button type="button" className="button" onClick={onClose}>
            {t('common.close')}
          </button>
        </>
      }
    >
      {state.status === 'loading' && <p aria-busy="true">{t('service.loading')}</p>}
      {state.status === 'unavailable' && <p>{t('service.unavailable')}</p>}
      {state.status === 'ready' && (
        <dl className="service-contact">
          <dt>{t('service.contact')}</dt>
          <dd dir="ltr">
            {isLink ? (
              <a href={state.contact} target="_blank" rel="noopener noreferrer">
                {state.contact}
              </a>
            ) : (
              state.contact
            )}
          </dd>
        </dl>
      )}
    </Dialog>
  );
}
