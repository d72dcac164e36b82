/**
 * /user/passkeys (docs/SPEC.md §10): the member's passkeys (name, when added and last used, synced or on one
 * device), "Add a passkey" (the browser's WebAuthn prompt through @simplewebauthn/browser; with two-factor
 * on, a code or an existing passkey confirms it first) and removing one. Online only.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../api';
import type { DataOf } from '../../../engine/index';
import { toastStore } from '../../state/toast-store';
import { formatTime } from '../../lib/format';
import {
  passkeyCancelled,
  registerPasskey,
  useSecurityOverview,
  type SecondFactor,
} from '../../lib/security';
import { toFailure, type Failure } from '../../machines/failure';
import { useCached } from '../../sync/cache';
import { FailureAlert } from '../../ui/FailureAlert';
import { Field } from '../../ui/Field';
import { StaleNote } from '../../ui/Freshness';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { OfflineNote } from '../../ui/OfflineNote';
import { QueryState } from '../../ui/QueryState';
import { SecondFactorDialog } from '../../ui/SecondFactorDialog';
import './security.css';

type Passkey = DataOf<'/api/security/passkey/list'>['list'][number];

export function PasskeysPage() {
  const { t } = useTranslation();
  const [version, setVersion] = useState(0);
  const overview = useSecurityOverview(version);
  const list = useCached(
    'security:passkeys',
    () => api.call('/api/security/passkey/list', undefined, { silent: true }),
    { member: true, refresh: version },
  );
  const refresh = () => setVersion((v) => v + 1);
  const twoFactorOn = overview.data?.twoFactor.on ?? false;
  const hasPasskeys = (overview.data?.passkeys ?? 0) > 0;
  const supported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;

  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState<'add' | Passkey | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  async function add(factor: SecondFactor) {
    setBusy(true);
    setFailure(null);
    try {
      await registerPasskey(name, factor);
      setName('');
      setConfirming(null);
      toastStore.show(t('security.passkeys.added'), 'success');
      refresh();
    } catch (error) {
      // A dismissed browser prompt is no failure; a refused call (a wrong code...) is shown where it was asked.
      if (!passkeyCancelled(error))
        setFailure(isApiError(error) ? toFailure(error) : { code: 'EPASSKEY', msg: '' });
    } finally {
      setBusy(false);
    }
  }

  async function remove(passkey: Passkey, factor: SecondFactor) {
    setBusy(true);
    setFailure(null);
    try {
      await api.call('/api/security/passkey/remove', { id: passkey.id, ...factor }, { silent: true });
      setConfirming(null);
      toastStore.show(t('security.passkeys.removed'), 'success');
      refresh();
    } catch (error) {
      setFailure(toFailure(error));
    } finally {
      setBusy(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (twoFactorOn) {
      setFailure(null);
      setConfirming('add');
    } else void add({});
  }

  const shownFailure = failure?.code === 'EPASSKEY' ? null : failure;

  return (
    <div className="page security">
      <OfflineNote />
      <StaleNote at={list.stale ? list.at : null} />
      <section className="card" aria-labelledby="passkeys-title">
        <h2 id="passkeys-title" className="section-title">
          {t('routes.userPasskeys')}
        </h2>
        <p className="hint">{t('security.passkeys.intro')}</p>
        {!supported ? (
          <p className="form-error" role="status">
            {t('security.passkeys.unsupported')}
          </p>
        ) : (
          <NeedsConnection>
            <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
              <Field
                label={t('security.passkeys.name')}
                name="passkeyName"
                autoComplete="off"
                maxLength={40}
                value={name}
                hint={t('security.passkeys.nameHint')}
                onChange={(e) => setName(e.target.value)}
              />
              {confirming === null && <FailureAlert failure={shownFailure} />}
              {failure?.code === 'EPASSKEY' && (
                <p className="form-error" role="alert">
                  {t('security.passkeyFailed')}
                </p>
              )}
              <button type="submit" className="button primary block" disabled={busy}>
                {t('security.passkeys.add')}
              </button>
            </form>
          </NeedsConnection>
        )}
      </section>

      <section className="card" aria-labelledby="passkeys-list">
        <h2 id="passkeys-list" className="section-title">
          {t('security.passkeys.list')}
        </h2>
        {list.data ? (
          list.data.list.length === 0 ? (
            <p className="muted">{t('security.passkeys.empty')}</p>
          ) : (
            <ul className="item-list" aria-labelledby="passkeys-list">
              {list.data.list.map((p) => (
                <li key={p.id} className="item">
                  <div className="item-head">
                    <bdi>{p.name}</bdi>
                    <NeedsConnection>
                      <button
                        type="button"
                        className="button small danger"
                        aria-label={`${t('security.passkeys.remove')}: ${p.name}`}
                        onClick={() => {
                          setFailure(null);
                          setConfirming(p);
                        }}
                      >
                        {t('security.passkeys.remove')}
                      </button>
                    </NeedsConnection>
                  </div>
                  <div className="item-meta">
                    {t('security.passkeys.addedOn', { time: formatTime(p.createdAt, 'YYYY-MM-DD HH:mm') })}
                    {' · '}
                    {p.lastUsedAt === null
                      ? t('security.passkeys.neverUsed')
                      : t('security.passkeys.lastUsed', {
                          time: formatTime(p.lastUsedAt, 'YYYY-MM-DD HH:mm'),
                        })}
                  </div>
                  <div className="item-meta">
                    {t(p.synced ? 'security.passkeys.synced' : 'security.passkeys.single')}
                  </div>
                </li>
              ))}
            </ul>
          )
        ) : (
          <QueryState status={list.status} error={list.error} onRetry={list.reload} />
        )}
      </section>

      {confirming === 'add' && (
        <SecondFactorDialog
          title={t('security.passkeys.add')}
          confirmLabel={t('common.confirm')}
          action="security"
          passkeys={hasPasskeys}
          busy={busy}
          failure={shownFailure}
          onConfirm={(factor) => void add(factor)}
          onClose={() => setConfirming(null)}
        >
          <p>{t('security.twoFactorOn')}</p>
        </SecondFactorDialog>
      )}
      {confirming !== null && confirming !== 'add' && (
        <SecondFactorDialog
          title={t('security.passkeys.removeTitle', { name: confirming.name })}
          confirmLabel={t('security.passkeys.remove')}
          action="security"
          passkeys={hasPasskeys}
          required={twoFactorOn}
          busy={busy}
          failure={shownFailure}
          onConfirm={(factor) => void remove(confirming, factor)}
          onClose={() => setConfirming(null)}
        >
          <p>{t('security.passkeys.removeWarning')}</p>
        </SecondFactorDialog>
      )}
    </div>
  );
}
