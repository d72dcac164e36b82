/**
 * /user/account: who the member is (profile from /api/user/getuser), the security and service screens,
 * what this device stores for them, and log out (through the session machine).
 */
import { useTranslation } from 'react-i18next';
import { useSession } from '../../state/session';
import { LogoutButton } from './LogoutButton';
import { formatTime } from '../../lib/format';
import { StorageInfo } from '../../pwa/StorageInfo';
import { MenuLinks } from '../../ui/MenuLinks';
import { StaleNote } from '../../ui/Freshness';
import { QueryState } from '../../ui/QueryState';
import { realNameLabel, vipLabel } from './labels';
import { useProfile } from '../../state/use-profile';
import { PATHS } from '../../lib/paths';
import './account.css';

const LINKS = [
  { to: PATHS.userChangePsw, key: 'account.changeSecrets' },
  { to: PATHS.userforget, key: 'account.forgotKey' },
  { to: PATHS.userTwofactor, key: 'routes.userTwofactor' },
  { to: PATHS.userPasskeys, key: 'routes.userPasskeys' },
  { to: PATHS.userDevices, key: 'routes.userDevices' },
  { to: PATHS.userAntiphishing, key: 'routes.userAntiphishing' },
  { to: PATHS.userReserves, key: 'routes.userReserves' },
  { to: PATHS.userCert, key: 'routes.userCert' },
  { to: PATHS.userBank, key: 'routes.userBank' },
  { to: PATHS.userAddressbook, key: 'routes.userAddressbook' },
  { to: PATHS.userInvite, key: 'routes.userInvite' },
  { to: PATHS.userFinanceLog, key: 'routes.userFinanceLog' },
  { to: PATHS.userHelp, key: 'routes.userHelp' },
] as const;

export function AccountPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const loggingOut = useSession((s) => s.matches('loggingOut'));
  const p = profile.data;
  return (
    <div className="page account">
      <StaleNote at={profile.pulledAt} />
      <section className="card" aria-labelledby="profile-title">
        <h2 id="profile-title" className="section-title">
          {t('account.profile')}
        </h2>
        {p ? (
          <dl className="detail-list">
            <dt>{t('auth.username')}</dt>
            <dd>{p.username}</dd>
            <dt>{t('auth.email')}</dt>
            <dd>
              <bdi>{p.email ?? t('account.notSet')}</bdi>
            </dd>
            <dt>{t('auth.phone')}</dt>
            <dd>
              <bdi>{p.phone ?? t('account.notSet')}</bdi>
            </dd>
            <dt>{t('account.vip')}</dt>
            <dd>{vipLabel(p.vip)}</dd>
            <dt>{t('account.creditScore')}</dt>
            <dd>{p.creditScore}</dd>
            <dt>{t('account.realName')}</dt>
            <dd>{realNameLabel(p.realNameStatus, t)}</dd>
            <dt>{t('account.inviteCode')}</dt>
            <dd>
              <bdi>{p.inviteCode}</bdi>
            </dd>
            <dt>{t('account.memberSince')}</dt>
            <dd>
              <bdi>{formatTime(p.createdAt, 'YYYY-MM-DD')}</bdi>
            </dd>
          </dl>
        ) : (
          <QueryState status={profile.status} error={profile.error} onRetry={profile.reload} />
        )}
      </section>

      <section className="card" aria-labelledby="security-title">
        <h2 id="security-title" className="section-title">
          {t('account.security')}
        </h2>
        <MenuLinks links={LINKS.map((l) => ({ to: l.to, label: t(l.key) }))} />
      </section>

      <section className="card" aria-labelledby="device-title">
        <h2 id="device-title" className="section-title">
          {t('account.device')}
        </h2>
        <StorageInfo />
      </section>

      <LogoutButton busy={loggingOut} />
    </div>
  );
}
