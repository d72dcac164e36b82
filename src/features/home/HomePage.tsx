/**
 * /home: a hero with the demo disclaimer, shortcuts, and the live quotes summary (src/ui/QuotesSummary).
 * The quotes card reads the device cache (Dexie) and the feed: it loads after the screen is interactive, so
 * none of that is on /home's critical path (docs/PWA.md "Critical path"); its loading state is the same
 * markup the build-time shell paints.
 */
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { nextTask } from '../../lib/next-task';
import { useTranslation } from 'react-i18next';
import { useSiteDemo } from '../../api/site-config';
import { useUser } from '../../state/user-store';
import { Amount } from '../../ui/Amount';
import { QuoteListSkeleton } from '../../ui/QuoteListSkeleton';
import { Icon, type IconName } from '../../ui/icons';
import { useBalanceRefresh } from '../../lib/balance-refresh';
import { PATHS, type AppHref } from '../../lib/paths';

// Loading the card's code, opening the device database and the card's first render are three tasks, not one.
const QuotesSummary = lazy(async () => {
  const m = await import('../../ui/QuotesSummary');
  await nextTask();
  m.prepareQuotesSummary();
  await nextTask();
  return { default: m.QuotesSummary };
});

/** The card itself once start-up has loaded it (`warmHome`): rendered directly, with no loading frame. */
let WarmQuotes: ComponentType<{ rows: number }> | null = null;

/**
 * Start-up loads the quotes card and reads its device copy before the first render (src/app/routes.tsx), so
 * a returning visitor's first frame has the quote rows: the rows the shell put back from the last visit
 * (src/lib/snapshot.ts) stay on screen instead of turning into loading rows for a moment.
 */
export async function warmHome(): Promise<void> {
  const m = await import('../../ui/QuotesSummary');
  m.prepareQuotesSummary();
  await m.warmQuotes();
  WarmQuotes = m.QuotesSummary;
}

/** The pairs the quotes card shows: also its loading rows, before and after its code has loaded. */
const QUOTE_ROWS = 4;

const SHORTCUTS: { to: AppHref; labelKey: string; icon: IconName }[] = [
  { to: PATHS.userRecharge, labelKey: 'home.deposit', icon: 'deposit' },
  { to: PATHS.userWithdraw, labelKey: 'home.withdraw', icon: 'withdraw' },
  { to: PATHS.userTransfer, labelKey: 'home.transfer', icon: 'transfer' },
  { to: PATHS.userVip, labelKey: 'home.vip', icon: 'vip' },
  { to: PATHS.finance, labelKey: 'home.finance', icon: 'finance' },
  { to: PATHS.homeMore, labelKey: 'home.more', icon: 'more' },
];

export function HomePage() {
  const demo = useSiteDemo();
  const { t } = useTranslation();
  const user = useUser();
  useBalanceRefresh(user?.id);
  // Decided once per mount: a card loaded by start-up after this frame must not remount the lazy one.
  const [Warm] = useState(() => WarmQuotes);
  return (
    <div className="page home">
      <section className="hero" aria-labelledby="hero-title">
        <h2 id="hero-title">{user ? t('home.welcome', { name: user.username }) : t('home.heroTitle')}</h2>
        {user ? (
          <p className="hero-balance">
            <span>{t('home.balance')}</span>{' '}
            <strong>
              <Amount value={user.balance} unit="USDT" />
            </strong>
          </p>
        ) : (
          <p>{t('home.heroBody')}</p>
        )}
        {demo && <p className="hero-demo">{t('demo.disclaimer')}</p>}
        {!user && <p>{t('home.guest')}</p>}
        {!user && (
          <div className="hero-actions">
            <Link className="button primary" to={PATHS.login}>
              {t('common.login')}
            </Link>
            <Link className="button" to={PATHS.register}>
              {t('common.register')}
            </Link>
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="shortcuts-title">
        <h2 id="shortcuts-title" className="section-title">
          {t('home.shortcuts')}
        </h2>
        <ul className="shortcut-grid">
          {SHORTCUTS.map((s) => (
            <li key={s.to}>
              <Link className="shortcut" to={s.to}>
                <span className="shortcut-icon">
                  <Icon name={s.icon} />
                </span>
                <span>{t(s.labelKey)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section className="card" aria-labelledby="quotes-title">
        <div className="section-head">
          <h2 id="quotes-title" className="section-title">
            {t('home.quotesTitle')}
          </h2>
          <Link to={PATHS.market} className="text-link">
            {t('home.allQuotes')}
          </Link>
        </div>
        {/* The region the next visit's shell fills with these rows before any JavaScript (snapshot.ts). */}
        <div className="snapshot-region" data-snapshot="quotes">
          {Warm ? (
            <Warm rows={QUOTE_ROWS} />
          ) : (
            <Suspense fallback={<QuoteListSkeleton rows={QUOTE_ROWS} compact />}>
              <QuotesSummary rows={QUOTE_ROWS} />
            </Suspense>
          )}
        </div>
      </section>
    </div>
  );
}
