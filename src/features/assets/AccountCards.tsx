/**
 * /user's asset overview (docs/SPEC.md §12): the total as the sum of one card per account (cash, funding,
 * contracts, up/down, finance), today's PnL, and the hide-balances switch. Figures come from the device
 * replica (balances, positions, the profit log) valued at the quotes the screen has (the feed's marks).
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { assetsView, type PositionRecord } from '../../../engine/index';
import { engineNow } from '../../api/engine-clock';
import { useQuotes } from '../../lib/use-quotes';
import { useReplicaTables } from '../../sync/live';
import {
  assetsFromReplica,
  balanceFigures,
  balancesKnown,
  type ReplicaBalance,
} from '../../sync/member-views';
import { Amount, type AmountProps } from '../../ui/Amount';
import {
  accountCards,
  cardsTotal,
  startOfDay,
  todayPnl,
  type AccountCard,
  type FundingRecord,
  type ProfitRecord,
} from './overview';
import { useBalancesHidden } from './hide-balances';

/** What the overview reads (AssetsPage's warmAssets reads them before the first render, with the profile's). */
export const OVERVIEW_TABLES = ['balances', 'positions', 'profitLog', 'fundingPayments'] as const;

/** A figure, or "****" while the member hides balances on this device. */
export function Figure(props: AmountProps) {
  const { t } = useTranslation();
  const hidden = useBalancesHidden();
  if (hidden)
    return (
      <span className="amount amount-hidden" aria-label={t('overview.hiddenLabel')}>
        ****
      </span>
    );
  return <Amount {...props} />;
}

export function useOverview() {
  const { quotes } = useQuotes();
  const { tables, pulledAt } = useReplicaTables(OVERVIEW_TABLES);
  const balances = tables.balances as ReplicaBalance[] | undefined;
  const positions = tables.positions as PositionRecord[] | undefined;
  const profits = tables.profitLog as ProfitRecord[] | undefined;
  const funding = tables.fundingPayments as FundingRecord[] | undefined;
  const known = balancesKnown(balances, pulledAt);
  return useMemo(() => {
    // Positions or profits on the device without the balances (a first pull half way) are no total yet.
    if (!known) return undefined;
    // Without quotes yet, coins are valued at 0 and positions at their entry: USDT is still exact.
    const view = quotes.length
      ? assetsFromReplica(balances ?? [], positions ?? [], quotes)
      : assetsView(balanceFigures(balances ?? []), 0n, () => 0n);
    const cards = accountCards(view);
    return {
      cards,
      total: cardsTotal(cards),
      today: todayPnl(
        positions ?? [],
        profits ?? [],
        // The day of the engine's clock: after the demo's fast-forward it is not the device's day.
        startOfDay(engineNow()),
        funding ?? [],
        new Map(quotes.map((q) => [q.symbol, q.markPrice ?? q.latest])),
      ),
    };
  }, [known, balances, positions, profits, funding, quotes]);
}

/** A card whose figures are not read yet ("--"): the five accounts always show, so nothing moves when they are. */
type ShownCard = {
  [K in keyof AccountCard]: K extends 'account' ? AccountCard[K] : AccountCard[K] | undefined;
};

/** The cards of an empty account (assetsView's list, accountCards' rule of which show unrealised PnL), unread. */
const LOADING: readonly ShownCard[] = accountCards(assetsView([], 0n, () => 0n)).map((c) => ({
  account: c.account,
  valuation: undefined,
  available: undefined,
  frozen: undefined,
  unrealisedPnl: c.unrealisedPnl === null ? null : undefined,
}));

export function AccountCards({ cards }: { cards: readonly AccountCard[] | undefined }) {
  const { t } = useTranslation();
  const shown: readonly ShownCard[] = cards ?? LOADING;
  return (
    <section className="card" aria-labelledby="overview-accounts" aria-busy={cards ? undefined : true}>
      <h2 id="overview-accounts" className="section-title">
        {t('overview.accounts')}
      </h2>
      <ul className="account-cards">
        {shown.map((c) => (
          <li key={c.account} className="account-card">
            <h3 className="account-name">{t(`overview.account.${c.account}`)}</h3>
            <p className="account-value">
              <Figure value={c.valuation} unit="USDT" />
            </p>
            <dl className="account-lines">
              <div>
                <dt>{t('assets.available')}</dt>
                <dd>
                  <Figure value={c.available} />
                </dd>
              </div>
              <div>
                <dt>{t('assets.frozen')}</dt>
                <dd>
                  <Figure value={c.frozen} />
                </dd>
              </div>
              {c.unrealisedPnl !== null && (
                <div>
                  <dt>{t('overview.unrealised')}</dt>
                  <dd>
                    <Figure value={c.unrealisedPnl} sign />
                  </dd>
                </div>
              )}
            </dl>
          </li>
        ))}
      </ul>
      <p className="record-meta">{t('overview.sumNote')}</p>
    </section>
  );
}

const SVG = {
  viewBox: '0 0 24 24',
  width: 22,
  height: 22,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round' as const,
  strokeLinejoin: 'round' as const,
  'aria-hidden': true,
};

/** The hide-balances switch's eye: open while figures show, struck through while hidden. */
export function EyeIcon({ closed }: { closed: boolean }) {
  return (
    <svg {...SVG}>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {closed && <path d="M4 4l16 16" />}
    </svg>
  );
}

export function BellIcon() {
  return (
    <svg {...SVG}>
      <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" />
      <path d="M10 20a2 2 0 0 0 4 0" />
    </svg>
  );
}
