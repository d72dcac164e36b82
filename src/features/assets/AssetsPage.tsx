/**
 * /user, the Assets tab: total assets (the sum of one card per account), today's PnL, cash balance,
 * available and frozen, the hide-balances switch, the notification centre with its unread count, VIP badge,
 * credit score and real-name status, then shortcuts to every /user/* function and record list.
 */
import { memo } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../ui/icons';
import { MenuLinks } from '../../ui/MenuLinks';
import { StaleNote } from '../../ui/Freshness';
import { PendingOutgoing } from '../../ui/PendingRows';
import { QueryState } from '../../ui/QueryState';
import { usePendingOutgoing } from '../../sync/pending';
import { warmReplicaTables } from '../../sync/live';
import { PROFILE_TABLES, useProfile } from '../../state/use-profile';
import { levelName } from '../../lib/vip-levels';
import { MAIN_ACTIONS, MENU_SECTIONS } from './shortcuts';
import { useNotices } from '../../lib/notifications';
import { AccountCards, BellIcon, EyeIcon, Figure, OVERVIEW_TABLES, useOverview } from './AccountCards';
import { setBalancesHidden, useBalancesHidden } from './hide-balances';
import './overview.css';
import { PATHS } from '../../lib/paths';
import '../../ui/wallet.css';

/**
 * Start-up reads the figures from the device before the first render (src/app/routes.tsx): the profile's and
 * the account cards', so a returning member's first frame has them all and nothing moves when they arrive.
 */
export function warmAssets(): Promise<void> {
  return warmReplicaTables([PROFILE_TABLES, OVERVIEW_TABLES]);
}

export function AssetsPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const p = profile.data;
  // Transfers and withdrawals waiting in the outbox: shown beside the confirmed figure, never subtracted.
  const outgoing = usePendingOutgoing();
  const overview = useOverview();
  const hidden = useBalancesHidden();
  const { unread } = useNotices();

  return (
    <div className="page assets">
      <StaleNote at={profile.pulledAt} />
      <section className="hero" aria-labelledby="assets-total">
        <div className="section-head">
          <h2 id="assets-total" className="hero-label">
            {t('assets.total')}
          </h2>
          <span className="hero-tools">
            <button
              type="button"
              className="icon-toggle"
              aria-label={hidden ? t('overview.show') : t('overview.hide')}
              title={hidden ? t('overview.show') : t('overview.hide')}
              onClick={() => setBalancesHidden(!hidden)}
            >
              <EyeIcon closed={hidden} />
            </button>
            <Link
              to={PATHS.userNotifications}
              className="notice-bell"
              aria-label={t('overview.bell', { count: unread })}
            >
              <BellIcon />
              {unread > 0 && (
                <span className="notice-count" aria-hidden="true">
                  {unread > 99 ? '99+' : unread}
                </span>
              )}
            </Link>
            {p ? (
              <Link
                to={PATHS.userVip}
                className="vip-badge"
                aria-label={t('assets.vipBadge', { level: levelName(p.vip) })}
              >
                {levelName(p.vip)}
              </Link>
            ) : (
              // Holds the badge's line box until the profile is read, so the heading does not move then.
              <span className="vip-badge vip-badge-placeholder" aria-hidden="true">
                VIP
              </span>
            )}
          </span>
        </div>
        {/* Before the replica answers, the same layout with "--" in place of figures: nothing moves when
            they arrive (CLS 0). A failure with nothing on the device shows its error instead. */}
        {p || profile.status === 'loading' ? (
          // The region the next visit's shell fills with these figures before any JavaScript (snapshot.ts).
          <div className="snapshot-region" data-snapshot="assets">
            <p className="hero-amount" aria-busy={p ? undefined : true}>
              <Figure value={overview?.total ?? p?.totalAssets} timing="balance" />{' '}
              <span className="unit">USDT</span>
            </p>
            <p className="today-pnl">
              <span>{t('overview.todayPnl')}</span> <Figure value={overview?.today} sign unit="USDT" />
            </p>
            <dl className="balance-grid">
              <div>
                <dt>{t('assets.balance')}</dt>
                <dd>
                  <Figure value={p?.balance} />
                </dd>
              </div>
              <div>
                <dt>{t('assets.available')}</dt>
                <dd>
                  <Figure value={p?.available} />
                </dd>
                {outgoing !== '0' && (
                  <dd>
                    <PendingOutgoing amount={outgoing} />
                  </dd>
                )}
              </div>
              <div>
                <dt>{t('assets.frozen')}</dt>
                <dd>
                  <Figure value={p?.frozen} />
                </dd>
              </div>
            </dl>
          </div>
        ) : (
          <QueryState status={profile.status} error={profile.error} onRetry={profile.reload} />
        )}
        {p && profile.status === 'error' && (
          <QueryState status="error" error={profile.error} onRetry={profile.reload} />
        )}
      </section>

      <AssetsShortcuts />

      <AccountCards cards={overview?.cards} />

      <section className="card" aria-labelledby="assets-account" aria-busy={p ? undefined : true}>
        <h2 id="assets-account" className="section-title">
          {t('assets.account')}
        </h2>
        <dl className="detail-list">
          <dt>{t('assets.username')}</dt>
          <dd>{p ? p.username : '--'}</dd>
          <dt>{t('assets.vipLevel')}</dt>
          <dd>{p ? levelName(p.vip) : '--'}</dd>
          <dt>{t('assets.creditScore')}</dt>
          <dd>{p ? p.creditScore : '--'}</dd>
          <dt>{t('assets.realName')}</dt>
          <dd>
            {p ? (
              <Link to={PATHS.userCert}>{t(`assets.realNameStatus.${realNameKey(p.realNameStatus)}`)}</Link>
            ) : (
              '--'
            )}
          </dd>
        </dl>
      </section>

      <AssetsMenus />
    </div>
  );
}

/**
 * The shortcuts and the menus: the same for a given language, so they are memoised. The page re-renders at
 * every new figure (the device's copy, then the server's, the outbox); these ~30 links do not.
 */
const AssetsShortcuts = memo(function AssetsShortcuts() {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="assets-actions">
      <h2 id="assets-actions" className="visually-hidden">
        {t('assets.actions')}
      </h2>
      <ul className="shortcut-grid four">
        {MAIN_ACTIONS.map((a) => (
          <li key={a.to}>
            <Link className="shortcut" to={a.to}>
              <span className="shortcut-icon">
                <Icon name={a.icon} />
              </span>
              <span>{t(a.labelKey)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
});

const AssetsMenus = memo(function AssetsMenus() {
  const { t } = useTranslation();
  return (
    <>
      {MENU_SECTIONS.map((section) => (
        <section key={section.titleKey} className="card" aria-labelledby={section.titleKey}>
          <h2 id={section.titleKey} className="section-title">
            {t(section.titleKey)}
          </h2>
          <MenuLinks links={section.items.map((item) => ({ to: item.to, label: t(item.labelKey) }))} />
        </section>
      ))}
    </>
  );
});

function realNameKey(status: string): string {
  if (status === 'under review') return 'underReview';
  return status === 'passed' || status === 'rejected' ? status : 'none';
}
