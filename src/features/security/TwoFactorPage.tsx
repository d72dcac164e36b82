/**
 * /user/twofactor (docs/SPEC.md §10): two-factor authentication with an authenticator app. Off: the login
 * password, then the QR code (and the key as text, for typing), then the app's first code turns it on and
 * the ten recovery codes are shown once. On: since when, recovery codes left, a lock after wrong codes, new
 * recovery codes and turning it off (both with a code or a passkey). Online only: the device cannot confirm
 * a code.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { TotpSetup } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { useSecurityOverview, type SecondFactor } from '../../lib/security';
import { toFailure, type Failure } from '../../machines/failure';
import { toastStore } from '../../state/toast-store';
import { FailureAlert } from '../../ui/FailureAlert';
import { Field } from '../../ui/Field';
import { StaleNote } from '../../ui/Freshness';
import { NeedsConnection } from '../../ui/NeedsConnection';
import { OfflineNote } from '../../ui/OfflineNote';
import { PasswordField } from '../../ui/PasswordField';
import { QueryState } from '../../ui/QueryState';
import { SecondFactorDialog } from '../../ui/SecondFactorDialog';
import { secondFactorError, secondFactorProblem } from '../../ui/SecondFactorField';
import { RecoveryCodes } from './RecoveryCodes';
import { SecretQr } from './SecretQr';
import './security.css';

type Step =
  | { name: 'idle' }
  | { name: 'password' }
  | { name: 'scan'; setup: TotpSetup }
  | { name: 'codes'; codes: string[] };

export function TwoFactorPage() {
  const { t } = useTranslation();
  const [version, setVersion] = useState(0);
  const overview = useSecurityOverview(version);
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const refresh = () => setVersion((v) => v + 1);
  const data = overview.data;

  return (
    <div className="page security">
      <OfflineNote />
      <StaleNote at={overview.stale ? overview.at : null} />
      <section className="card" aria-labelledby="twofactor-title">
        <h2 id="twofactor-title" className="section-title">
          {t('security.twoFactor.title')}
        </h2>
        <p className="hint">{t('security.twoFactor.intro')}</p>
        {step.name === 'codes' ? (
          <RecoveryCodes codes={step.codes} onDone={() => setStep({ name: 'idle' })} />
        ) : !data ? (
          <QueryState status={overview.status} error={overview.error} onRetry={overview.reload} />
        ) : data.twoFactor.on ? (
          <TwoFactorOn
            overview={data}
            onRenewed={(codes) => {
              refresh();
              setStep({ name: 'codes', codes });
            }}
            onOff={refresh}
          />
        ) : (
          <NeedsConnection>
            <Enrol
              step={step}
              onStep={setStep}
              onEnabled={(codes) => {
                refresh();
                setStep({ name: 'codes', codes });
              }}
            />
          </NeedsConnection>
        )}
      </section>
    </div>
  );
}

function Enrol({
  step,
  onStep,
  onEnabled,
}: {
  step: Step;
  onStep: (step: Step) => void;
  onEnabled: (codes: string[]) => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setFailure(null);
    try {
      await work();
    } catch (error) {
      setFailure(toFailure(error));
    } finally {
      setBusy(false);
    }
  }

  function start(e: FormEvent) {
    e.preventDefault();
    if (!password) return setFieldError(t('security.twoFactor.passwordRequired'));
    void run(async () => {
      const setup = await api.call('/api/security/totp/setup', { password }, { silent: true });
      setPassword('');
      onStep({ name: 'scan', setup });
    });
  }

  function enable(e: FormEvent) {
    e.preventDefault();
    const value = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(value))
      return setFieldError(secondFactorError(secondFactorProblem(value) ?? 'shape', t));
    void run(async () => {
      const { recoveryCodes } = await api.call(
        '/api/security/totp/enable',
        { code: value },
        { silent: true },
      );
      setCode('');
      toastStore.show(t('security.twoFactor.enabled'), 'success');
      onEnabled(recoveryCodes);
    });
  }

  if (step.name === 'idle') {
    return (
      <>
        <p className="status-line">
          <span className="badge badge-wait">{t('security.off')}</span>
        </p>
        <button type="button" className="button primary block" onClick={() => onStep({ name: 'password' })}>
          {t('security.twoFactor.turnOn')}
        </button>
      </>
    );
  }

  if (step.name === 'password') {
    return (
      <form className="form" onSubmit={start} noValidate aria-busy={busy}>
        <PasswordField
          label={t('security.twoFactor.password')}
          autoComplete="current-password"
          value={password}
          error={fieldError}
          autoFocus
          onChange={(e) => {
            setPassword(e.target.value);
            setFieldError(undefined);
          }}
        />
        <FailureAlert failure={failure} />
        <div className="form-actions">
          <button type="button" className="button" onClick={() => onStep({ name: 'idle' })}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {t('security.twoFactor.continue')}
          </button>
        </div>
      </form>
    );
  }

  if (step.name !== 'scan') return null;
  const { setup } = step;
  return (
    <form className="form" onSubmit={enable} noValidate aria-busy={busy}>
      <ol className="steps">
        <li>{t('security.twoFactor.scan')}</li>
      </ol>
      <SecretQr uri={setup.uri} />
      <p className="hint">{t('security.twoFactor.typeKey')}</p>
      <p className="secret-text" dir="ltr" translate="no" aria-label={t('security.twoFactor.keyLabel')}>
        <code>{setup.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
      </p>
      <p className="hint">
        {t('security.twoFactor.account', { issuer: setup.issuer, account: setup.account })}
      </p>
      <ol className="steps" start={2}>
        <li>{t('security.twoFactor.enterFirst')}</li>
      </ol>
      <Field
        label={t('security.twoFactor.firstCode')}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        dir="ltr"
        value={code}
        error={fieldError}
        hint={t('security.twoFactor.expires', { time: formatTime(setup.expiresAt, 'HH:mm') })}
        onChange={(e) => {
          setCode(e.target.value);
          setFieldError(undefined);
        }}
      />
      <FailureAlert failure={failure} />
      <div className="form-actions">
        <button type="button" className="button" onClick={() => onStep({ name: 'idle' })}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {t('security.twoFactor.confirmOn')}
        </button>
      </div>
    </form>
  );
}

function TwoFactorOn({
  overview,
  onRenewed,
  onOff,
}: {
  overview: NonNullable<ReturnType<typeof useSecurityOverview>['data']>;
  onRenewed: (codes: string[]) => void;
  onOff: () => void;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<'off' | 'renew' | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const { twoFactor } = overview;

  async function confirm(factor: SecondFactor) {
    setBusy(true);
    setFailure(null);
    try {
      if (asking === 'off') {
        await api.call('/api/security/totp/disable', factor, { silent: true });
        toastStore.show(t('security.twoFactor.disabled'), 'success');
        setAsking(null);
        onOff();
      } else {
        const { recoveryCodes } = await api.call('/api/security/recovery/renew', factor, { silent: true });
        setAsking(null);
        onRenewed(recoveryCodes);
      }
    } catch (error) {
      setFailure(toFailure(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <dl className="detail-list">
        <dt>{t('security.status')}</dt>
        <dd>
          <span className="badge badge-good">{t('security.on')}</span>
        </dd>
        {twoFactor.enabledAt !== null && (
          <>
            <dt>{t('security.twoFactor.since')}</dt>
            <dd>
              <bdi>{formatTime(twoFactor.enabledAt, 'YYYY-MM-DD HH:mm')}</bdi>
            </dd>
          </>
        )}
        <dt>{t('security.twoFactor.recoveryLeft')}</dt>
        <dd>{twoFactor.recoveryLeft}</dd>
      </dl>
      {twoFactor.lockedUntil !== null && (
        <p className="form-error" role="status">
          {t('security.twoFactor.locked', { time: formatTime(twoFactor.lockedUntil, 'YYYY-MM-DD HH:mm') })}
        </p>
      )}
      <NeedsConnection>
        <div className="stack">
          <button type="button" className="button block" onClick={() => setAsking('renew')}>
            {t('security.twoFactor.renew')}
          </button>
          <button type="button" className="button danger block" onClick={() => setAsking('off')}>
            {t('security.twoFactor.turnOff')}
          </button>
        </div>
      </NeedsConnection>
      {asking && (
        <SecondFactorDialog
          title={t(asking === 'off' ? 'security.twoFactor.turnOff' : 'security.twoFactor.renew')}
          confirmLabel={t(
            asking === 'off' ? 'security.twoFactor.confirmOff' : 'security.twoFactor.confirmRenew',
          )}
          action="security"
          passkeys={overview.passkeys > 0}
          busy={busy}
          failure={failure}
          onConfirm={(factor) => void confirm(factor)}
          onClose={() => {
            setAsking(null);
            setFailure(null);
          }}
        >
          <p>{t(asking === 'off' ? 'security.twoFactor.offWarning' : 'security.twoFactor.renewWarning')}</p>
        </SecondFactorDialog>
      )}
    </>
  );
}
