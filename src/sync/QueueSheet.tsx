/** The sync status chip's sheet: the member's queued mutations (what, amount, when queued). */
import { useLiveQuery } from 'dexie-react-hooks';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../lib/format';
import { Amount } from '../ui/Amount';
import { Dialog } from '../ui/Dialog';
import { appSync } from './app';
import type { OutboxEntry } from './db';

/** The translation key naming a queued mutation by its contract path. */
export function mutationLabelKey(name: string): string {
  if (name.startsWith('/api/transfer/')) return 'offline.mutation.transfer';
  if (name === '/api/account/transfer') return 'offline.mutation.move';
  if (name === '/api/order/cancel') return 'offline.mutation.cancel';
  if (name.startsWith('/api/order/')) return 'offline.mutation.order';
  if (name.startsWith('/api/bank/')) return 'offline.mutation.bank';
  if (name.startsWith('/api/withdraw/')) return 'offline.mutation.withdraw';
  if (name === '/api/market/favourite') return 'offline.mutation.favourite';
  if (name === '/api/notice/seen') return 'offline.mutation.noticesSeen';
  return 'offline.mutation.other';
}

function amountOf(args: unknown): string | null {
  if (typeof args !== 'object' || args === null) return null;
  const value =
    (args as { amount?: unknown; volume?: unknown }).amount ?? (args as { volume?: unknown }).volume;
  return typeof value === 'string' ? value : null;
}

export function QueueSheet({
  memberId,
  last,
  onClose,
}: {
  memberId: string;
  last: string;
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
                    <Amount value={amount} kind="exact" unit="USDT" />
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
