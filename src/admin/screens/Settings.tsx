/** Site settings an admin may change: the maker-checker threshold for withdrawals. */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../../ui/Field';
import { adminCall } from '../api';
import { Notice, QueryStatus } from '../components';
import { errorMessage, useAdminQuery } from '../hooks';

/** A plain non-negative decimal with at most 6 places (USDT's micro-units); checked as text, never a float. */
const AMOUNT = /^\d{1,15}(\.\d{1,6})?$/;

export function SettingsScreen() {
  const { t } = useTranslation();
  const query = useAdminQuery('GET /api/admin/settings', {});
  const [threshold, setThreshold] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const current = query.data?.makerCheckerThreshold;

  useEffect(() => {
    if (current !== undefined) setThreshold(current);
  }, [current]);

  async function save(e: FormEvent) {
    e.preventDefault();
    const value = threshold.trim();
    if (!AMOUNT.test(value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const saved = await adminCall('POST /api/admin/settings', { makerCheckerThreshold: value });
      setThreshold(saved.makerCheckerThreshold);
      setNotice(t('settings.saved'));
    } catch (err) {
      setError(errorMessage(t, err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="admin-screen" aria-labelledby="settings-title">
      <header className="admin-screen-head">
        <h1 id="settings-title">{t('nav.settings')}</h1>
      </header>
      <QueryStatus status={query.status} error={query.error} onRetry={query.reload} empty={false} />
      {query.data && (
        <form className="form admin-narrow" onSubmit={(e) => void save(e)} noValidate>
          <Field
            label={t('settings.threshold')}
            inputMode="decimal"
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
            hint={t('settings.thresholdHint')}
            error={invalid ? t('settings.invalid') : undefined}
          />
          {error && (
            <p className="admin-error-text" role="alert">
              {error}
            </p>
          )}
          <div>
            <button type="submit" className="button primary" disabled={busy}>
              {t('common.save')}
            </button>
          </div>
          <Notice text={notice} />
        </form>
      )}
    </section>
  );
}
