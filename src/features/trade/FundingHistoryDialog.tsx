/**
 * A position's funding history (docs/RULES.md K12, docs/TRADING.md "Funding"): every 8-hour payment with its
 * time, rate and the amount paid or received, newest first, from /api/position/funding. Amounts are the
 * wire's decimal strings, formatted by the money module (exact, never a float). Read through the device
 * cache like the positions list: the last answer shows at once and offline, with its time.
 */
import { useTranslation } from 'react-i18next';
import { signOf, type FundingView, type LivePosition } from '../../../engine/index';
import { api } from '../../api';
import { formatTime } from '../../lib/format';
import { Amount, useFigure } from '../../ui/Amount';
import { useCached } from '../../sync/cache';
import { Dialog } from '../../ui/Dialog';
import { CachedNote } from '../../ui/Freshness';
import { QueryState } from '../../ui/QueryState';

/** The most recent payments shown: three a day, so a month of history. */
export const FUNDING_HISTORY_LIMIT = 100;

function FundingRow({ f }: { f: FundingView }) {
  const { t } = useTranslation();
  const figure = useFigure();
  const sign = signOf(f.amount);
  // Positive: the member paid; negative: received. The sign is read from the string, the digits kept exact.
  const amount = figure(f.amount.replace(/^-/, ''), { kind: 'exact' });
  return (
    <tr>
      <td>
        <time dateTime={new Date(f.time * 1000).toISOString()}>{formatTime(f.time, 'YYYY-MM-DD HH:mm')}</time>
      </td>
      <td>
        <Amount value={f.rate} kind="rate" unit="%" />
      </td>
      <td className={sign > 0 ? 'down-text' : sign < 0 ? 'up-text' : undefined}>
        {sign < 0 ? t('trade.funding.received', { amount }) : t('trade.funding.paid', { amount })}
      </td>
    </tr>
  );
}

export function FundingHistoryDialog({ position, onClose }: { position: LivePosition; onClose: () => void }) {
  const { t } = useTranslation();
  const query = useCached(
    `funding:${position.id}`,
    () =>
      api.call(
        '/api/position/funding',
        { positionId: position.id, limit: FUNDING_HISTORY_LIMIT },
        { silent: true },
      ),
    { member: true },
  );
  const list = query.data?.list ?? [];
  return (
    <Dialog title={t('trade.funding.titleOf', { symbol: position.symbol })} onClose={onClose}>
      <CachedNote at={query.at} stale={query.stale} />
      {list.length > 0 && (
        <table className="funding-table" aria-label={t('trade.funding.title')}>
          <thead>
            <tr>
              <th scope="col">{t('trade.funding.time')}</th>
              <th scope="col">{t('trade.funding.rate')}</th>
              <th scope="col">{t('trade.funding.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((f) => (
              <FundingRow key={f.id} f={f} />
            ))}
          </tbody>
        </table>
      )}
      <QueryState
        status={query.status}
        error={query.error}
        onRetry={query.reload}
        isEmpty={list.length === 0}
        emptyText={t('trade.funding.empty')}
      />
      <p className="terms">{t('trade.funding.note')}</p>
    </Dialog>
  );
}
