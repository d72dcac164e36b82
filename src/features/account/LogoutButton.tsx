/**
 * Log out. When writes made on this device are still waiting in the outbox, a dialog says how many and that
 * logging out deletes them, and asks first; then the session logs out and the device forgets the member.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { session } from '../../state/session';
import { useSyncStatus } from '../../sync/status';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

export function LogoutButton({ busy }: { busy: boolean }) {
  const { t } = useTranslation();
  const { pending } = useSyncStatus();
  const [asking, setAsking] = useState(false);
  const logout = () => {
    setAsking(false);
    void session.logout();
  };
  return (
    <>
      <button
        type="button"
        className="button block"
        disabled={busy}
        onClick={() => (pending > 0 ? setAsking(true) : logout())}
      >
        {busy ? t('account.loggingOut') : t('account.logout')}
      </button>
      {asking && (
        <ConfirmDialog
          title={t('offline.logoutTitle')}
          confirmLabel={t('offline.logoutAnyway')}
          tone="danger"
          onClose={() => setAsking(false)}
          onConfirm={logout}
        >
          <p>{t('offline.logoutWaiting', { count: pending })}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
