/**
 * Open contract positions: side, size, entry and mark price, margin, unrealised PnL and liquidation price,
 * refreshed every few seconds while shown; isolated margin can be added or reduced (K5), each position's
 * funding history opened (K12) and a position closed at market (K8).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PositionView } from '../../../engine/index';
import { api } from '../../api';
import { toastStore } from '../../app/toast-store';
import { formatAmount } from '../../lib/format';
import { QueryState } from '../../ui/QueryState';
import { useCached } from '../../sync/cache';
import { CachedNote } from '../../ui/Freshness';
import { signOf } from '../../lib/decimal';
import { FundingHistoryDialog } from './FundingHistoryDialog';
import { MarginDialog } from './MarginDialog';
import { PositionRisk } from './PositionRisk';

export const POSITIONS_REFRESH_MS = 3000;

function PositionItem({
  p,
  onMargin,
  onFunding,
  onClose,
}: {
  p: PositionView;
  onMargin: () => void;
  onFunding: () => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const num = (v: string, decimals?: number) => formatAmount(v, { decimals, locale: i18n.language });
  const pnlSign = signOf(p.unrealisedPnl);
  return (
    <li className="record" aria-label={`${p.symbol} ${t(`trade.sides.${p.side}`)}`}>
      <div className="record-head">
        <strong>
          <span className={p.side === 'long' ? 'up-text' : 'down-text'}>{t(`trade.sides.${p.side}`)}</span>{' '}
          {p.symbol} {p.leverage}x
        </strong>
        <span className="badge badge-wait">{t(`trade.${p.marginMode}`)}</span>
      </div>
      <dl className="stat-grid">
        <div>
          <dt>{t('trade.size')}</dt>
          <dd>
            <bdi>{num(p.volume, 6)}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('trade.entry')}</dt>
          <dd>
            <bdi>{num(p.entryPrice, 4)}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('trade.mark')}</dt>
          <dd>
            <bdi>{num(p.markPrice, 4)}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('trade.margin')}</dt>
          <dd>
            <bdi>{num(p.margin)}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('trade.unrealised')}</dt>
          <dd dir="ltr" className={pnlSign > 0 ? 'up-text' : pnlSign < 0 ? 'down-text' : undefined}>
            {pnlSign > 0 ? '+' : ''}
            {num(p.unrealisedPnl)}
          </dd>
        </div>
        <div>
          <dt>{t('trade.liquidation')}</dt>
          <dd>
            <bdi>{p.liquidationPrice === null ? t('trade.none') : num(p.liquidationPrice, 4)}</bdi>
          </dd>
        </div>
      </dl>
      <PositionRisk p={p} />
      <div className="trade-actions">
        {p.marginMode === 'isolated' && (
          <button type="button" className="button small" onClick={onMargin}>
            {t('trade.adjustMargin')}
          </button>
        )}
        <button type="button" className="button small" onClick={onFunding}>
          {t('trade.funding.title')}
        </button>
        <button type="button" className="button small" onClick={onClose}>
          {t('trade.close')}
        </button>
      </div>
    </li>
  );
}

export function PositionsPanel({ version, onChanged }: { version: number; onChanged: () => void }) {
  const { t } = useTranslation();
  const [tick, setTick] = useState(0);
  // Open positions are valued at live mark prices: the device keeps the last answer (with its time) and
  // asks again on the feed's events (`version`) and every few seconds.
  const query = useCached(
    'positions:contract',
    () => api.call('/api/position/list', { market: 'contract' }, { silent: true }),
    { member: true, refresh: `${version}-${tick}` },
  );
  const [adjusting, setAdjusting] = useState<PositionView | null>(null);
  const [funding, setFunding] = useState<PositionView | null>(null);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), POSITIONS_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const close = async (p: PositionView) => {
    try {
      await api.call('/api/order/place', {
        symbol: p.symbol,
        market: 'contract',
        side: p.side === 'long' ? 'close_long' : 'close_short',
        type: 'market',
        volume: p.volume,
      });
      toastStore.show(t('trade.closed'), 'success');
      onChanged();
    } catch {
      // Shown by the client.
    }
  };

  const list = query.data?.list ?? [];
  return (
    <section aria-label={t('trade.positions')}>
      <CachedNote at={query.at} stale={query.stale} />
      {list.length > 0 && (
        <ul className="record-list" aria-label={t('trade.positions')}>
          {list.map((p) => (
            <PositionItem
              key={p.id}
              p={p}
              onMargin={() => setAdjusting(p)}
              onFunding={() => setFunding(p)}
              onClose={() => void close(p)}
            />
          ))}
        </ul>
      )}
      {/* Background refreshes keep the last figures on screen instead of flashing a spinner. */}
      {!(query.status === 'loading' && query.data) && (
        <QueryState
          status={query.status}
          error={query.error}
          onRetry={query.reload}
          isEmpty={list.length === 0}
          emptyText={t('trade.noPositions')}
        />
      )}
      {adjusting && (
        <MarginDialog
          position={adjusting}
          onClose={() => setAdjusting(null)}
          onDone={() => {
            setAdjusting(null);
            onChanged();
          }}
        />
      )}
      {funding && <FundingHistoryDialog position={funding} onClose={() => setFunding(null)} />}
    </section>
  );
}
