/**
 * /order/rechargeRecord: deposits, newest first, with confirmations while pending; filtered on the device by
 * date and status, each transaction hash with Copy.
 */
import { useTranslation } from 'react-i18next';
import type { DepositRecord } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { Amount } from '../../ui/Amount';
import { ReplicaList } from '../../ui/ReplicaList';
import { StatusBadge } from '../../ui/StatusBadge';
import { networkLabel } from '../../ui/NetworkChoice';
import { HashLine } from './HashLine';
import { RecordFilters, useFilteredReplica } from './RecordFilters';
import { useStatusOptions } from './status-options';
import '../../ui/wallet.css';

export function DepositRecordsPage() {
  const { t } = useTranslation();
  const { data, bar } = useFilteredReplica<DepositRecord>('deposits', (d) => d.status);
  const statuses = useStatusOptions(['pending', 'success', 'rejected']);
  return (
    <div className="page records">
      <RecordFilters {...bar} statuses={statuses} />
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
      {d.txid && <HashLine label={t('records.txid')} value={d.txid} />}
    </>
  );
}
