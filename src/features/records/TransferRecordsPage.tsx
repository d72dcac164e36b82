/** /order/transferRecord: internal transfers in and out, newest first. */
import { useTranslation } from 'react-i18next';
import type { TransferRecord } from '../../../engine/index';
import { formatAmount, formatTime } from '../../lib/format';
import { useReplica } from '../../sync/live';
import { ReplicaList } from '../../ui/ReplicaList';
import { StatusBadge } from '../../ui/StatusBadge';
import '../wallet/wallet.css';

export function TransferRecordsPage() {
  const { t } = useTranslation();
  const data = useReplica<TransferRecord>('transfers');
  return (
    <div className="page records">
      <ReplicaList
        label={t('routes.orderTransferRecord')}
        data={data}
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
