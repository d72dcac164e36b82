/**
 * /user/antiphishing (docs/SPEC.md §10): the member's anti-phishing code, a phrase shown in every message the
 * service sends them (the notices in the app, any e-mail). Set, change or remove it; with two-factor on, a
 * code or a passkey confirms the change. The rule (4-20 letters, digits, spaces or . _ - ! ?) is checked here
 * as the engine checks it (6120). Online only.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { toastStore } from '../../state/toast-store';
import { useSecurityOverview, type SecondFactor } from '../../lib/security';
import { toFailure, type Failure } from '../../machines/failure';
import { FailureAlert } from '../../ui/FailureAlert';
import { Field } from '../../ui/Field';
import { StaleNote } from '../../ui/Freshness';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { OfflineNote } from '../../ui/OfflineNote';
import { QueryState } from '../../ui/QueryState';
import { SecondFactorDialog } from '../../ui/SecondFactorDialog';
import './security.css';

/** The engine's rule (engine/twofactor/handlers.ts antiPhishingProblem): whether `phrase` may be saved. */
export function phraseValid(phrase: string): boolean {
  const trimmed = phrase.trim().replace(/\s+/g, ' ');
  const length = [...trimmed].length;
  return length >= 4 && length <= 20 && /^[\p{L}\p{N}\p{M} _.!?-]+$/u.test(trimmed);
}

export function AntiPhishingPage() {
  const { t } = useTranslation();
  const [version, setVersion] = useState(0);
  const overview = useSecurityOverview(version);
  const [phrase, setPhrase] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  /** What is being confirmed: a new phrase, or null to remove the code. */
  const [pending, setPending] = useState<{ phrase: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const data = overview.data;
  const twoFactorOn = data?.twoFactor.on ?? false;

  async function save(next: string | null, factor: SecondFactor) {
    setBusy(true);
    setFailure(null);
    try {
      await api.call('/api/security/antiphishing', { phrase: next, ...factor }, { silent: true });
      setPending(null);
      setPhrase('');
      toastStore.show(
        t(next === null ? 'security.antiPhishing.removed' : 'security.antiPhishing.saved'),
        'success',
      );
      setVersion((v) => v + 1);
    } catch (error) {
      setFailure(toFailure(error));
    } finally {
      setBusy(false);
    }
  }

  function ask(next: string | null) {
    setFailure(null);
    if (twoFactorOn) setPending({ phrase: next });
    else void save(next, {});
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!phraseValid(phrase)) return setFieldError(t('security.antiPhishing.invalid'));
    ask(phrase.trim().replace(/\s+/g, ' '));
  }

  return (
    <div className="page security">
      <OfflineNote />
      <StaleNote at={overview.stale ? overview.at : null} />
      <section className="card" aria-labelledby="antiphishing-title">
        <h2 id="antiphishing-title" className="section-title">
          {t('routes.userAntiphishing')}
        </h2>
        <p className="hint">{t('security.antiPhishing.intro')}</p>
        {data ? (
          <>
            <dl className="detail-list">
              <dt>{t('security.antiPhishing.current')}</dt>
              <dd>
                {data.antiPhishing === null ? (
                  t('security.antiPhishing.none')
                ) : (
                  <bdi className="phrase">{data.antiPhishing}</bdi>
                )}
              </dd>
            </dl>
            <NeedsConnection>
              <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
                <Field
                  label={t('security.antiPhishing.phrase')}
                  name="phrase"
                  autoComplete="off"
                  maxLength={40}
                  value={phrase}
                  error={fieldError}
                  hint={t('security.antiPhishing.hint')}
                  onChange={(e) => {
                    setPhrase(e.target.value);
                    setFieldError(undefined);
                  }}
                />
                {pending === null && <FailureAlert failure={failure} />}
                <button type="submit" className="button primary block" disabled={busy}>
                  {t('security.antiPhishing.save')}
                </button>
                {data.antiPhishing !== null && (
                  <button
                    type="button"
                    className="button danger block"
                    disabled={busy}
                    onClick={() => ask(null)}
                  >
                    {t('security.antiPhishing.remove')}
                  </button>
                )}
              </form>
            </NeedsConnection>
          </>
        ) : (
          <QueryState status={overview.status} error={overview.error} onRetry={overview.reload} />
        )}
      </section>
      {pending && (
        <SecondFactorDialog
          title={t(pending.phrase === null ? 'security.antiPhishing.remove' : 'routes.userAntiphishing')}
          confirmLabel={t(
            pending.phrase === null ? 'security.antiPhishing.remove' : 'security.antiPhishing.save',
          )}
          action="security"
          passkeys={(data?.passkeys ?? 0) > 0}
          busy={busy}
          failure={failure}
          onConfirm={(factor) => void save(pending.phrase, factor)}
          onClose={() => setPending(null)}
        >
          {pending.phrase !== null && (
            <p>
              <bdi className="phrase">{pending.phrase}</bdi>
            </p>
          )}
        </SecondFactorDialog>
      )}
    </div>
  );
}
