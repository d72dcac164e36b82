/**
 * Open contract positions: side, size, entry and mark price, margin, unrealised PnL and liquidation price;
 * ROE, take-profit and stop-loss; isolated margin can be added or reduced (K5), each position's funding
 * history opened (K12), its take-profit and stop-loss set (K16) and all or part of it closed at market (K8). The positions are the replica's (`positions`, with the contract account's
 * `balances`), valued on the device at the quotes' mark prices with the engine's own livePositions, so the
 * figures follow the feed every second, online or not, and equal what /api/position/list answers. The cross
 * account's one margin ratio is shown once above the list (CrossAccount), each position's liquidation price
 * on it (a hedged long and short of one pair share one).
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LivePosition, PositionRecord, Quote } from '../../../engine/index';
import { Amount } from '../../ui/Amount';
import { appSync } from '../../sync/app';
import { useReplicaTables, type Replicated } from '../../sync/live';
import { crossFromReplica, positionsFromReplica, type ReplicaBalance } from '../../sync/member-views';
import { CrossAccount } from './CrossAccount';
import { StaleNote } from '../../ui/Freshness';
import { QueryState } from '../../ui/QueryState';
import { ReplicaState } from '../../ui/ReplicaList';
import { signOf } from '../../lib/decimal';
import { FundingHistoryDialog } from './FundingHistoryDialog';
import { MarginDialog } from './MarginDialog';
import { PositionRisk } from './PositionRisk';
import { TriggersDialog } from './TriggersDialog';
import { CloseDialog } from './CloseDialog';

const TABLES = ['positions', 'balances'] as const;

export function PositionItem({
  p,
  onMargin,
  onFunding,
  onTriggers,
  onClose,
}: {
  p: LivePosition;
  onMargin: () => void;
  onFunding: () => void;
  onTriggers: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const pnlSign = signOf(p.unrealisedPnl);
  const tone = pnlSign > 0 ? 'up-text' : pnlSign < 0 ? 'down-text' : undefined;
  const price = (v: string | null) => (
    <Amount value={v} kind="price" symbol={p.symbol} empty={t('trade.none')} />
  );
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
            <Amount value={p.volume} kind="quantity" symbol={p.symbol} />
          </dd>
        </div>
        <div>
          <dt>{t('trade.entry')}</dt>
          <dd>{price(p.entryPrice)}</dd>
        </div>
        <div>
          <dt>{t('trade.mark')}</dt>
          <dd>{price(p.markPrice)}</dd>
        </div>
        <div>
          <dt>{t('trade.margin')}</dt>
          <dd>
            <Amount value={p.margin} />
          </dd>
        </div>
        <div>
          <dt>{t('trade.unrealised')}</dt>
          <dd className={tone}>
            <Amount value={p.unrealisedPnl} sign />
          </dd>
        </div>
        <div>
          <dt>{t('tradeScreen.roe')}</dt>
          <dd className={tone}>
            <Amount value={p.roe} kind="percent" unit="%" sign />
          </dd>
        </div>
        <div>
          <dt>{t('trade.liquidation')}</dt>
          <dd>{price(p.liquidationPrice)}</dd>
        </div>
        <div>
          <dt>{t('tradeScreen.tpsl')}</dt>
          <dd>
            {p.takeProfit || p.stopLoss ? (
              <>
                {price(p.takeProfit ?? null)} / {price(p.stopLoss ?? null)}
              </>
            ) : (
              t('trade.none')
            )}
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
        <button type="button" className="button small" onClick={onTriggers}>
          {t('tradeScreen.tpsl')}
        </button>
        <button type="button" className="button small" onClick={onClose}>
          {t('tradeScreen.closeButton')}
        </button>
      </div>
    </li>
  );
}

export function PositionsPanel({
  version,
  quotes,
  onChanged,
}: {
  version: number;
  /** The quotes the trade screen shows: their mark prices value the positions. */
  quotes: readonly Quote[];
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const replica = useReplicaTables(TABLES);
  const positions = replica.tables.positions as PositionRecord[] | undefined;
  const balances = replica.tables.balances as ReplicaBalance[] | undefined;
  // A position is valued only once its pair's quote is on the device (kept quotes show at once).
  const priced = useMemo(
    () => (positions ?? []).every((p) => p.status !== 'open' || quotes.some((q) => q.symbol === p.symbol)),
    [positions, quotes],
  );
  const list = useMemo(
    () => (priced ? positionsFromReplica(positions ?? [], balances ?? [], quotes) : []),
    [priced, positions, balances, quotes],
  );
  // The cross account's one margin ratio, shown once while there is a cross position.
  const cross = useMemo(
    () =>
      priced && list.some((p) => p.marginMode === 'cross')
        ? crossFromReplica(positions ?? [], balances ?? [], quotes)
        : null,
    [priced, list, positions, balances, quotes],
  );
  const state: Replicated<LivePosition> = {
    records: list,
    loaded: replica.loaded,
    pulledAt: replica.pulledAt,
    everLoaded: replica.everLoaded,
  };
  const [adjusting, setAdjusting] = useState<LivePosition | null>(null);
  const [funding, setFunding] = useState<LivePosition | null>(null);
  // An order, a margin change or a feed event bumps `version`: the replica catches up by a pull.
  useEffect(() => {
    if (version > 0) appSync().requestPull();
  }, [version]);

  const [triggers, setTriggers] = useState<LivePosition | null>(null);
  const [closing, setClosing] = useState<LivePosition | null>(null);

  return (
    <section aria-label={t('trade.positions')}>
      {replica.everLoaded && <StaleNote at={replica.pulledAt} />}
      {cross && <CrossAccount cross={cross} />}
      {list.length > 0 && (
        <ul className="record-list" aria-label={t('trade.positions')}>
          {list.map((p) => (
            <PositionItem
              key={p.id}
              p={p}
              onMargin={() => setAdjusting(p)}
              onFunding={() => setFunding(p)}
              onTriggers={() => setTriggers(p)}
              onClose={() => setClosing(p)}
            />
          ))}
        </ul>
      )}
      {!priced ? (
        <QueryState status="loading" />
      ) : (
        list.length === 0 && <ReplicaState data={state} emptyText={t('trade.noPositions')} />
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
      {triggers && (
        <TriggersDialog
          position={triggers}
          onClose={() => setTriggers(null)}
          onDone={() => {
            setTriggers(null);
            onChanged();
          }}
        />
      )}
      {closing && (
        <CloseDialog
          position={closing}
          onClose={() => setClosing(null)}
          onDone={() => {
            setClosing(null);
            onChanged();
          }}
        />
      )}
    </section>
  );
}
