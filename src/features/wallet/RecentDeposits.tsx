/**
 * The member's latest deposits with their confirmation progress (x / N), kept in the device cache (shown
 * offline with the last progress). While one is pending the list is read again every few seconds, since
 * confirmations grow with the chain, not with the record; when one is credited the member is told and the
 * balances refresh.
 */
import { useCallback, useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { DepositRecord } from '../../../engine/index';
import { toastStore } from '../../state/toast-store';
import { formatTime } from '../../lib/format';
import { Amount, useFigure } from '../../ui/Amount';
import { QueryState } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { useCached } from '../../sync/cache';
import { networkLabel } from '../../ui/NetworkChoice';
import { PATHS } from '../../lib/paths';

/** TRC-20 makes a block every 3 s: checking as often shows every confirmation. */
export const POLL_MS = 3000;

export function RecentDeposits({ refreshKey, onCredited }: { refreshKey: number; onCredited: () => void }) {
  const { t } = useTranslation();
  const figure = useFigure();
  const load = useCallback(
    () => api.call('/api/recharge/list', { page: 1, limit: 5 }, { silent: true }).then((r) => r.list),
    [],
  );
  const query = useCached('recentDeposits', load, { member: true });
  const list = query.data;
  const pending = list?.some((d) => d.status === 'pending') ?? false;
  const seen = useRef(new Map<string, string>());
  const { reload } = query;
  const firstKey = useRef(refreshKey);

  useEffect(() => {
    // A new deposit was made on this screen: read the list again (the first key is the mount's own read).
    if (refreshKey !== firstKey.current) reload();
  }, [refreshKey, reload]);

  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [pending, reload]);

  useEffect(() => {
    if (!list) return;
    for (const d of list) {
      const before = seen.current.get(d.id);
      if (before === 'pending' && d.status === 'success') {
        toastStore.show(t('recharge.credited', { amount: figure(d.amount, { kind: 'exact' }) }), 'success');
        onCredited();
      }
      seen.current.set(d.id, d.status);
    }
  }, [list, onCredited, t, figure]);

  return (
    <section className="card" aria-labelledby="recent-deposits">
      <div className="section-head">
        <h2 id="recent-deposits" className="section-title">
          {t('recharge.recent')}
        </h2>
        <Link to={PATHS.orderRechargeRecord} className="text-link">
          {t('recharge.allRecords')}
        </Link>
      </div>
      {list && list.length > 0 ? (
        <ul className="record-list" aria-live="polite">
          {list.map((d) => (
            <DepositRow key={d.id} deposit={d} />
          ))}
        </ul>
      ) : (
        <QueryState
          status={query.status}
          error={query.error}
          onRetry={reload}
          isEmpty={list?.length === 0}
          emptyText={t('recharge.noDeposits')}
        />
      )}
    </section>
  );
}

export function DepositRow({ deposit: d }: { deposit: DepositRecord }) {
  const { t } = useTranslation();
  const showProgress = d.type === 'chain' && d.required !== null && d.confirmations !== null;
  return (
    <li className="record">
      <div className="record-head">
        <span className="record-amount" dir="ltr">
          <Amount value={d.amount} kind="exact" unit="USDT" prefix="+" />
        </span>
        <StatusBadge status={d.status} />
      </div>
      <div className="record-meta">
        {networkLabel(d.network)} · {formatTime(d.createdAt)}
      </div>
      {showProgress && d.status === 'pending' && (
        <div className="progress-row">
          <progress
            max={d.required ?? 1}
            value={d.confirmations ?? 0}
            aria-label={t('recharge.confirmations', { done: d.confirmations, required: d.required })}
          />
          <span className="record-meta">
            {t('recharge.confirmations', { done: d.confirmations, required: d.required })}
          </span>
        </div>
      )}
    </li>
  );
}
