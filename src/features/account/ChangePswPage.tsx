/**
 * /user/changePsw: change the login password (editPsw: signs out the member's other devices) or the
 * security key with the old key (edituserPsw: wrong old keys count toward the 430 lock). A tab list picks
 * which; a forgotten key goes to /userforget. A member with two-factor authentication confirms either change
 * with a code or a passkey (docs/SPEC.md §10).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api } from '../../api';
import { keyRule, passwordRule } from '../../lib/account-rules';
import { OfflineNote } from '../../ui/OfflineNote';
import { SecretForm } from './SecretForm';
import { PATHS } from '../../lib/paths';
import { useSecurityOverview } from '../../lib/security';
import './account.css';
import '../../ui/auth.css';

type Which = 'password' | 'key';

export function ChangePswPage() {
  const { t } = useTranslation();
  const [which, setWhich] = useState<Which>('password');
  const security = useSecurityOverview();
  const twoFactor = {
    on: security.data?.twoFactor.on ?? false,
    passkeys: (security.data?.passkeys ?? 0) > 0,
  };
  const tab = (value: Which, label: string) => (
    <button
      type="button"
      role="tab"
      id={`tab-${value}`}
      aria-selected={which === value}
      aria-controls={`panel-${value}`}
      tabIndex={which === value ? 0 : -1}
      onClick={() => setWhich(value)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
          const other: Which = value === 'password' ? 'key' : 'password';
          setWhich(other);
          document.getElementById(`tab-${other}`)?.focus();
        }
      }}
    >
      {label}
    </button>
  );

  return (
    <div className="page account">
      <OfflineNote />
      <div className="secret-tabs" role="tablist" aria-label={t('account.changeSecrets')}>
        {tab('password', t('account.loginPassword'))}
        {tab('key', t('account.securityKey'))}
      </div>
      <section
        className="card auth-card"
        role="tabpanel"
        id={`panel-${which}`}
        aria-labelledby={`tab-${which}`}
      >
        {which === 'password' ? (
          <SecretForm
            key="password"
            id="change-password"
            labels={{
              old: t('account.oldPassword'),
              next: t('auth.newPassword'),
              repeat: t('auth.repassword'),
              submit: t('account.changePassword'),
              done: t('account.passwordChanged'),
            }}
            hint={t('auth.passwordHint')}
            rule={passwordRule}
            oldEmptyKey="account.oldPasswordRequired"
            differKey="errors.passwordsDiffer"
            oldWrong={{ 402: 'errors.oldPasswordWrong' }}
            twoFactor={twoFactor}
            send={(v, factor) =>
              api.call(
                '/api/user/editPsw',
                { oldPassword: v.old, password: v.next, repassword: v.repeat, ...factor },
                { silent: true },
              )
            }
          />
        ) : (
          <>
            <SecretForm
              key="key"
              id="change-key"
              labels={{
                old: t('account.oldKey'),
                next: t('auth.newKey'),
                repeat: t('auth.rekey'),
                submit: t('account.changeKey'),
                done: t('account.keyChanged'),
              }}
              hint={t('auth.keyHint')}
              rule={keyRule}
              oldEmptyKey="account.oldKeyRequired"
              differKey="errors.keysDiffer"
              oldWrong={{ 3007: 'errors.e3007' }}
              twoFactor={twoFactor}
              send={(v, factor) =>
                api.call(
                  '/api/user/edituserPsw',
                  { oldKey: v.old, key: v.next, rekey: v.repeat, ...factor },
                  { silent: true },
                )
              }
            />
            <Link to={PATHS.userforget}>{t('account.forgotKey')}</Link>
          </>
        )}
      </section>
    </div>
  );
}
