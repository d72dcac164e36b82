/**
 * /finance/order: the member's subscriptions with daily and cumulative earnings, the next credit and the
 * redemption day; active and redeemed ones apart.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { FinanceOrderView } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { Amount, useFigure } from '../../ui/Amount';
import { useReplica } from '../../sync/live';
import { ReplicaList } from '../../ui/ReplicaList';
import { StatusBadge } from '../../ui/StatusBadge';
import { PATHS } from '../../lib/paths';
import '../../ui/market.css';
import './finance.css';

type Status = 'active' | 'redeemed';

function OrderItem({ order }: { order: FinanceOrderView }) {
  const { t } = useTranslation();
  const figure = useFigure();
  const money = (v: string, decimals?: number) => figure(v, { unit: 'USDT', decimals });
  return (
    <>
      <div className="record-head">
        <strong>{order.productName}</strong>
        <StatusBadge status={order.status === 'active' ? 'in progress' : 'finished'} />
      </div>
      <p className="record-amount" dir="ltr">
        {money(order.amount)}
      </p>
      <p className="terms">
        {t('finance.orderTerms', {
          rate: figure(order.annualRate, { kind: 'percent' }),
          days: order.termDays,
          credited: order.daysCredited,
        })}
      </p>
      <dl className="stat-grid">
        <div>
          <dt>{t('finance.dailyEarnings')}</dt>
          <dd>
            <Amount value={order.dailyEarnings} decimals={6} unit="USDT" />
          </dd>
        </div>
        <div>
          <dt>{t('finance.cumulativeEarnings')}</dt>
          <dd dir="ltr" className="up-text">
            {money(order.cumulativeEarnings, 6)}
          </dd>
        </div>
        <div>
          <dt>{t('finance.expectedReturn')}</dt>
          <dd>
            <Amount value={order.expectedReturn} decimals={6} unit="USDT" />
          </dd>
        </div>
      </dl>
      <p className="record-meta">
        {t('finance.started', { time: formatTime(order.startTime) })} ·{' '}
        {t('finance.redeems', { time: formatTime(order.redemptionDay) })}
        {order.interestDate !== null && (
          <> · {t('finance.nextCredit', { time: formatTime(order.interestDate) })}</>
        )}
        {order.result !== null && <> · {t('finance.returned', { amount: money(order.result) })}</>}
      </p>
    </>
  );
}

export function OrdersPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>('active');
  const all = useReplica<FinanceOrderView>('financeOrders');
  const data = useMemo(
    () => ({ ...all, records: all.records.filter((o) => o.status === status) }),
    [all, status],
  );
  return (
    <div className="page finance-orders">
      <section className="card" aria-labelledby="orders-heading">
        <div className="section-head">
          <h2 id="orders-heading" className="section-title">
            {t('finance.myOrders')}
          </h2>
          <Link className="text-link" to={PATHS.userFinanceLog}>
            {t('finance.profitLog')}
          </Link>
        </div>
        <div className="segmented" role="group" aria-label={t('finance.filter')}>
          {(['active', 'redeemed'] as const).map((s) => (
            <button
              key={s}
              type="button"
              className="segment"
              aria-pressed={status === s}
              onClick={() => setStatus(s)}
            >
              {t(`finance.orderStatus.${s}`)}
            </button>
          ))}
        </div>
      </section>
      <ReplicaList
        key={status}
        data={data}
        pageSize={20}
        label={t(`finance.orderStatus.${status}`)}
        emptyText={t('finance.noOrders')}
        itemKey={(o) => o.id}
        renderItem={(o) => <OrderItem order={o} />}
      />
      <Link className="button block" to={PATHS.finance}>
        {t('finance.browse')}
      </Link>
    </div>
  );
}
