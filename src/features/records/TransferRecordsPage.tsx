/** /order/transferRecord: internal transfers in and out, newest first. */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import type { TransferRecord } from '../../../engine/index';
import { formatAmount, formatTime } from '../../lib/format';
import { PagedList } from '../../ui/PagedList';
import { PendingRows } from '../../ui/PendingRows';
import { appWrites } from '../../sync/app-writes';
import { usePendingMutations } from '../../sync/pending';
import { StatusBadge } from '../../ui/StatusBadge';
import { PAGE_SIZE } from './list-page';
import '../wallet/wallet.css';

export function TransferRecordsPage() {
  const { t } = useTranslation();
  const load = useCallback(
    (page: number) => api.call('/api/transfer/list', { page, limit: PAGE_SIZE }, { silent: true }),
    [],
  );
  // Transfers made on this device that the server has not settled yet (waiting, or refused), listed first.
  const pending = usePendingMutations('/api/transfer/submit');
  return (
    <div className="page records">
      <PendingRows
        rows={pending}
        label={t('outbox.title')}
        sign="-"
        describe={(row) => t('records.transferTo', { account: String(row.args.account ?? '') })}
        onDismiss={(id) => void appWrites().acknowledge(id)}
      />
      <PagedList
        label={t('routes.orderTransferRecord')}
        load={load}
        itemKey={(r) => `${r.id}-${r.direction}`}
        emptyText={t('records.emptyTransfers')}
        renderItem={(r) => <TransferItem record={r} />}
      />
    </div>
  );
}

function TransferItem({ record: r }: { record: TransferRecord }) {
  const { t, i18n } = useTranslation();
  const sign = r.direction === 'in' ? '+' : '-';
  return (
    <>
      <div className="record-head">
        <span className={`record-amount ${r.direction}`} dir="ltr">
          {sign}
          {formatAmount(r.amount, { locale: i18n.language })} USDT
        </span>
        <StatusBadge status={r.status} />
      </div>
      <div className="record-meta">
        {t(r.direction === 'in' ? 'records.transferFrom' : 'records.transferTo', { account: r.account })}
      </div>
      <div className="record-meta">{formatTime(r.createdAt)}</div>
    </>
  );
}
