/** /order/rechargeRecord: deposits, newest first, with confirmations while pending. */
import { useTranslation } from 'react-i18next';
import type { DepositRecord } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { Amount } from '../../ui/Amount';
import { useReplicaPage } from '../../sync/live';
import { PAGE_SIZE } from '../../ui/list-page';
import { ReplicaList } from '../../ui/ReplicaList';
import { StatusBadge } from '../../ui/StatusBadge';
import { networkLabel } from '../../ui/NetworkChoice';
import '../../ui/wallet.css';

export function DepositRecordsPage() {
  const { t } = useTranslation();
  const data = useReplicaPage<DepositRecord>('deposits', PAGE_SIZE);
  return (
    <div className="page records">
      <ReplicaList
        label={t('routes.orderRechargeRecord')}
        data={data}
        itemKey={(d) => d.id}
        emptyText={t('records.emptyDeposits')}
        renderItem={(d) => <DepositItem deposit={d} />}
      />
    </div>
  );
}

function DepositItem({ deposit: d }: { deposit: DepositRecord }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="record-head">
        <span className="record-amount" dir="ltr">
          <Amount value={d.amount} kind="exact" unit="USDT" prefix="+" />
        </span>
        <StatusBadge status={d.status} />
      </div>
      <div className="record-meta">
        {networkLabel(d.network)} · {t(d.type === 'chain' ? 'records.viaChain' : 'records.viaManual')} ·{' '}
        {formatTime(d.createdAt)}
      </div>
      {d.status === 'pending' && d.required !== null && (
        <div className="record-meta">
          {t('recharge.confirmations', { done: d.confirmations ?? 0, required: d.required })}
        </div>
      )}
      {d.txid && (
        <div className="record-meta" dir="ltr" translate="no">
          {t('records.txid')}: {d.txid}
        </div>
      )}
    </>
  );
}
