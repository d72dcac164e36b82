/**
 * /order/withdrawRecord and /order/withdraw: withdrawals, newest first, with fee, amount received and the
 * review's outcome. /order/withdraw also offers a new withdrawal.
 */
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { WithdrawalRecord } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { Amount, useFigure } from '../../ui/Amount';
import { useReplicaPage } from '../../sync/live';
import { PAGE_SIZE } from '../../ui/list-page';
import { ReplicaList } from '../../ui/ReplicaList';
import { StatusBadge } from '../../ui/StatusBadge';
import { networkLabel } from '../../ui/NetworkChoice';
import { PATHS } from '../../lib/paths';
import '../../ui/wallet.css';

export function WithdrawRecordsPage({ withAction = false }: { withAction?: boolean }) {
  const { t } = useTranslation();
  const data = useReplicaPage<WithdrawalRecord>('withdrawals', PAGE_SIZE);
  return (
    <div className="page records">
      {withAction && (
        <Link className="button primary block" to={PATHS.userWithdraw}>
          {t('records.newWithdrawal')}
        </Link>
      )}
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
      <div className="record-meta" dir="ltr" translate="no">
        {w.address}
      </div>
      {w.txid && (
        <div className="record-meta record-txid" dir="ltr" translate="no">
          {t('records.txid')}: {w.txid}
        </div>
      )}
      {w.reason && <div className="record-meta">{t('records.reason', { reason: w.reason })}</div>}
    </>
  );
}
