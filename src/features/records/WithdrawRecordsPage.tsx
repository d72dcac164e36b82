/**
 * /order/withdrawRecord and /order/withdraw: withdrawals, newest first, with fee, amount received and the
 * review's outcome, filtered on the device by date and status, address and hash with Copy. /order/withdraw also
 * offers a new withdrawal (the /user menu lists the one entry, /order/withdrawRecord).
 */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { WithdrawalRecord } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { Amount, useFigure } from '../../ui/Amount';
import { ReplicaList } from '../../ui/ReplicaList';
import { StatusBadge } from '../../ui/StatusBadge';
import { networkLabel } from '../../ui/NetworkChoice';
import { PATHS } from '../../lib/paths';
import { HashLine } from './HashLine';
import { RecordFilters, useFilteredReplica } from './RecordFilters';
import { useStatusOptions } from './status-options';
import '../../ui/wallet.css';

export function WithdrawRecordsPage({ withAction = false }: { withAction?: boolean }) {
  const { t } = useTranslation();
  const { data, bar } = useFilteredReplica<WithdrawalRecord>('withdrawals', (w) => w.status);
  const statuses = useStatusOptions(['pending', 'success', 'rejected']);
  return (
    <div className="page records">
      {withAction && (
        <Link className="button primary block" to={PATHS.userWithdraw}>
          {t('records.newWithdrawal')}
        </Link>
      )}
      <RecordFilters {...bar} statuses={statuses} />
      <ReplicaList
        label={t('routes.orderWithdrawRecord')}
        data={data}
        itemKey={(w) => w.id}
        emptyText={t('records.emptyWithdrawals')}
        renderItem={(w) => <WithdrawalItem record={w} />}
      />
    </div>
  );
}

export function WithdrawOrdersPage() {
  return <WithdrawRecordsPage withAction />;
}

function WithdrawalItem({ record: w }: { record: WithdrawalRecord }) {
  const { t } = useTranslation();
  const figure = useFigure();
  const money = (v: string) => figure(v, { kind: 'exact' });
  return (
    <>
      <div className="record-head">
        <span className="record-amount" dir="ltr">
          <Amount value={w.amount} kind="exact" unit="USDT" prefix="-" />
        </span>
        <StatusBadge status={w.status} />
      </div>
      <div className="record-meta">
        {t('records.feeReceived', { fee: money(w.fee), received: money(w.received) })}
      </div>
      <div className="record-meta">
        {networkLabel(w.network)} · {formatTime(w.createdAt)}
      </div>
      <HashLine label={t('statement.address')} value={w.address} />
      {w.txid && <HashLine label={t('records.txid')} value={w.txid} />}
      {w.reason && <div className="record-meta">{t('records.reason', { reason: w.reason })}</div>}
    </>
  );
}
