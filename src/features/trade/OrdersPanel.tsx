/**
 * Current delegations (open orders, cancellable) and the order history of one market. Reloads when
 * `version` changes.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderView } from '../../../engine/index';
import { appWrites, sendWrite } from '../../sync/app-writes';
import { usePendingMutations } from '../../sync/pending';
import { PendingRows } from '../../ui/PendingRows';
import { toastStore } from '../../state/toast-store';
import { formatTime } from '../../lib/format';
import { useFigure } from '../../ui/Amount';
import { appSync } from '../../sync/app';
import { useReplica } from '../../sync/live';
import { ReplicaList } from '../../ui/ReplicaList';
import { StatusBadge } from '../../ui/StatusBadge';
import { Segmented } from '../../ui/Segmented';

type Market = 'spot' | 'contract' | 'option';

const SIDE_TONE: Record<string, 'up' | 'down'> = {
  buy: 'up',
  open_long: 'up',
  close_short: 'up',
  up: 'up',
  sell: 'down',
  open_short: 'down',
  close_long: 'down',
  down: 'down',
};

/** Order states as SPEC.md §4's record labels. */
const STATUS_WORD: Record<string, string> = {
  open: 'pending',
  filled: 'success',
  cancelled: 'cancelled',
  settled: 'finished',
};

function OrderItem({ order, onCancel }: { order: OrderView; onCancel?: (order: OrderView) => void }) {
  const { t } = useTranslation();
  const figure = useFigure();
  const num = (v: string) => figure(v);
  const price = (v: string) => figure(v, { kind: 'price', symbol: order.symbol });
  const qty = (v: string) => figure(v, { kind: 'quantity', symbol: order.symbol });
  const tone = SIDE_TONE[order.side] ?? 'up';
  const base = order.symbol.split('/')[0] ?? '';
  return (
    <>
      <div className="record-head">
        <strong>
          <span className={`${tone}-text`}>{t(`trade.sides.${order.side}`)}</span> {order.symbol}
        </strong>
        <StatusBadge status={STATUS_WORD[order.status] ?? order.status} />
      </div>
      <p className="record-meta" dir="ltr">
        {order.market === 'option'
          ? t('trade.optionLine', {
              stake: num(order.volume),
              period: order.period ?? 0,
              payout: order.payoutRatio ?? '--',
              entry: order.entryPrice ? price(order.entryPrice) : '--',
            })
          : t('trade.orderLine', {
              type: t(`trade.${order.type}`),
              price: order.price ? price(order.price) : t('trade.market'),
              volume: qty(order.volume),
              filled: qty(order.filled),
              base,
            })}
      </p>
      <p className="record-meta">
        {formatTime(order.time)}
        {order.pnl !== null && <> · {t('trade.pnl', { amount: num(order.pnl) })}</>}
        {order.trigger && <> · {t(`tradeScreen.trigger.${order.trigger}`)}</>}
        {order.result !== null && <> · {t(`trade.results.${order.result}`, order.result)}</>}
        {order.payout !== null && <> · {t('trade.payout', { amount: num(order.payout) })}</>}
      </p>
      {onCancel && order.status === 'open' && (
        <button type="button" className="button small" onClick={() => onCancel(order)}>
          {t('trade.cancel', { symbol: order.symbol })}
        </button>
      )}
    </>
  );
}

export function OrdersPanel({
  market,
  version,
  onChanged,
}: {
  market: Market;
  version: number;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [view, setView] = useState<'open' | 'history'>('open');
  const pending = usePendingMutations(['/api/order/place', '/api/order/cancel']);
  const waiting = pending.filter((row) => row.name === '/api/order/cancel' || row.args.market === market);
  const all = useReplica<OrderView>('tradeOrders');
  // An order placed or cancelled here, or a feed event, bumps `version`: the replica catches up by a pull.
  useEffect(() => {
    if (version > 0) appSync().requestPull();
  }, [version]);
  const data = useMemo(
    () => ({
      ...all,
      records: all.records.filter((o) => o.market === market && (view !== 'open' || o.status === 'open')),
    }),
    [all, market, view],
  );
  const cancel = async (order: OrderView) => {
    try {
      const outcome = await sendWrite('/api/order/cancel', { id: order.id });
      if (!outcome.queued) toastStore.show(t('trade.cancelled'), 'success');
      onChanged();
    } catch {
      // Shown by the client.
    }
  };
  return (
    <section aria-label={t('trade.orders')}>
      <Segmented
        label={t('trade.orders')}
        value={view}
        onChange={setView}
        options={(['open', 'history'] as const).map((v) => ({ value: v, label: t(`trade.view.${v}`) }))}
      />
      {/* Limit orders and cancels made on this device that the server has not settled yet. */}
      <PendingRows
        rows={waiting}
        label={t('outbox.title')}
        describe={(row) =>
          row.name === '/api/order/cancel'
            ? t('outbox.kind.cancel')
            : `${t('outbox.kind.order')} · ${String(row.args.symbol ?? '')} ${String(row.args.volume ?? '')} @ ${String(row.args.price ?? '')}`
        }
        onDismiss={(id) => void appWrites().acknowledge(id)}
      />
      <ReplicaList
        key={`${market}-${view}`}
        data={data}
        pageSize={20}
        label={t(`trade.view.${view}`)}
        emptyText={t(view === 'open' ? 'trade.noOpen' : 'trade.noHistory')}
        alsoShown={waiting.length}
        itemKey={(o: OrderView) => o.id}
        renderItem={(o: OrderView) => (
          <OrderItem order={o} onCancel={view === 'open' ? (x) => void cancel(x) : undefined} />
        )}
      />
    </section>
  );
}
