/**
 * The shell's sync status (issue 10): online, offline, syncing or "N waiting", with the last sync time in
 * its accessible name. Activating it opens a small sheet listing the mutations still queued on this device
 * (what, how much, since when). Shown only while a member is signed in.
 */
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { useUser } from '../app/user-store';
import { formatAmount, formatTime } from '../lib/format';
import { useOnlineStatus } from '../pwa/online';
import { Dialog } from '../ui/Dialog';
import { freshnessTime, useMinuteClock } from '../ui/Freshness';
import { appSync, useSyncStatus } from './app';
import type { OutboxEntry } from './db';
import './sync.css';

/** The translation key naming a queued mutation by its contract path. */
export function mutationLabelKey(name: string): string {
  if (name.startsWith('/api/transfer/')) return 'offline.mutation.transfer';
  if (name === '/api/account/transfer') return 'offline.mutation.move';
  if (name === '/api/order/cancel') return 'offline.mutation.cancel';
  if (name.startsWith('/api/order/')) return 'offline.mutation.order';
  if (name.startsWith('/api/bank/')) return 'offline.mutation.bank';
  if (name.startsWith('/api/withdraw/')) return 'offline.mutation.withdraw';
  return 'offline.mutation.other';
}

function amountOf(args: unknown): string | null {
  if (typeof args !== 'object' || args === null) return null;
  const value =
    (args as { amount?: unknown; volume?: unknown }).amount ?? (args as { volume?: unknown }).volume;
  return typeof value === 'string' ? value : null;
}

export function SyncStatusButton() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const online = useOnlineStatus();
  const status = useSyncStatus();
  const now = useMinuteClock();
  const [open, setOpen] = useState(false);
  if (!user) return null;
  const state = !online || status.state === 'offline' ? 'offline' : status.state;
  const label =
    status.pending > 0
      ? t('offline.waiting', { count: status.pending })
      : t(`offline.state.${state === 'idle' ? 'online' : state}`);
  const last =
    status.lastSync === null
      ? t('offline.neverSynced')
      : t('offline.lastSync', {
          time: freshnessTime(status.lastSync, Math.max(now, status.lastSync), i18n.language),
        });
  return (
    <>
      <button
        type="button"
        className={`sync-chip sync-${state}`}
        aria-label={t('offline.statusLabel', { status: label, last })}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="sync-status"
      >
        <span className="sync-dot" aria-hidden="true" />
        <span>{label}</span>
      </button>
      {open && (
        <QueueSheet memberId={user.id} last={last} onClose={() => setOpen(false)} locale={i18n.language} />
      )}
    </>
  );
}

function QueueSheet({
  memberId,
  last,
  locale,
  onClose,
}: {
  memberId: string;
  last: string;
  locale: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const db = appSync().db;
  const queued = useLiveQuery(
    () => db.outbox.where('memberId').equals(memberId).sortBy('seq'),
    [db, memberId],
  ) as OutboxEntry[] | undefined;
  return (
    <Dialog title={t('offline.queueTitle')} onClose={onClose}>
      <p className="muted">{last}</p>
      {queued && queued.length === 0 && <p>{t('offline.queueEmpty')}</p>}
      {queued && queued.length > 0 && (
        <ul className="sync-queue" aria-label={t('offline.queueTitle')}>
          {queued.map((entry) => {
            const amount = amountOf(entry.args);
            return (
              <li key={entry.id}>
                <span className="sync-queue-name">{t(mutationLabelKey(entry.name))}</span>
                {amount && (
                  <span dir="ltr" className="sync-queue-amount">
                    {formatAmount(amount, { locale })} USDT
                  </span>
                )}
                <span className="muted">
                  {t('offline.queuedAt', { time: formatTime(entry.createdAt, 'HH:mm') })}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Dialog>
  );
}
