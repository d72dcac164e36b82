/**
 * Writes the server has not settled, as rows a records list or a screen shows above its records: the
 * amount, a "Waiting for connection" badge, and once answered either nothing (applied: the server's record
 * takes its place) or the refusal with its catalogue meaning, that the money was not touched, and Dismiss.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError, errorText } from '../api/errors';
import { formatTime } from '../lib/format';
import { Amount, useFigure } from './Amount';
import type { PendingState, PendingWrite } from '../sync/pending';
import './ui.css';

const TONE: Record<PendingState, 'wait' | 'good' | 'bad'> = {
  waiting: 'wait',
  applied: 'good',
  failed: 'bad',
};

export function PendingBadge({ state }: { state: PendingState }) {
  const { t } = useTranslation();
  return <span className={`badge badge-${TONE[state]}`}>{t(`outbox.state.${state}`)}</span>;
}

export interface PendingRowsProps {
  rows: readonly PendingWrite[];
  /** Names the list for screen readers. */
  label: string;
  /** What the write is ("To alice"), under its amount. */
  describe: (row: PendingWrite) => ReactNode;
  /** The sign before the amount: '-' for money going out. */
  sign?: string;
  onDismiss: (id: string) => void;
}

export function PendingRows({ rows, label, describe, sign = '', onDismiss }: PendingRowsProps) {
  const { t } = useTranslation();
  if (rows.length === 0) return null;
  return (
    <ul className="record-list pending-list" aria-label={label}>
      {rows.map((row) => {
        const amount = typeof row.args.amount === 'string' ? row.args.amount : null;
        return (
          <li key={row.id} className={`record pending-row pending-${row.state}`}>
            <div className="record-head">
              <span className="record-amount" dir="ltr">
                {amount !== null && <Amount value={amount} kind="exact" unit="USDT" prefix={sign} />}
              </span>
              <PendingBadge state={row.state} />
            </div>
            <div className="record-meta">{describe(row)}</div>
            {row.state === 'failed' && row.code !== undefined && (
              <p className="record-meta pending-reason" role="alert">
                {errorText(describeError(row.code, row.msg), (k, p) => t(k, { ...p }))}{' '}
                {t('outbox.untouched')}
              </p>
            )}
            <div className="record-meta">{formatTime(row.createdAt)}</div>
            {row.state !== 'waiting' && (
              <button type="button" className="text-link pending-dismiss" onClick={() => onDismiss(row.id)}>
                {t('outbox.dismiss')}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** "−25.00 USDT waiting" beside a confirmed balance; nothing when no outgoing write waits. */
export function PendingOutgoing({ amount }: { amount: string }) {
  const { t } = useTranslation();
  const figure = useFigure();
  if (amount === '0') return null;
  return (
    <span className="pending-out" dir="auto">
      {t('outbox.pendingOut', { amount: figure(amount, { kind: 'exact' }) })}
    </span>
  );
}
