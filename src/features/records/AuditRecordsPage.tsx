/**
 * /pay/record, audit records: each withdrawal as the review sees it (pending audit, passed, rejected), with
 * when the review is due or was done, and why a rejection happened.
 */
import { useTranslation } from 'react-i18next';
import type { WithdrawalRecord } from '../../../engine/index';
import { formatTime } from '../../lib/format';
import { Amount } from '../../ui/Amount';
import { useReplicaPage } from '../../sync/live';
import { PAGE_SIZE } from '../../ui/list-page';
import { ReplicaList } from '../../ui/ReplicaList';
import { StatusBadge } from '../../ui/StatusBadge';
import { networkLabel } from '../../ui/NetworkChoice';
import '../../ui/wallet.css';

/** A withdrawal's status in review words (SPEC.md §4 labels). */
export function auditStatus(status: WithdrawalRecord['status']): string {
  return status === 'pending' ? 'pending audit' : status === 'success' ? 'passed' : 'rejected';
}

export function AuditRecordsPage() {
  const { t } = useTranslation();
  const data = useReplicaPage<WithdrawalRecord>('withdrawals', PAGE_SIZE);
  return (
    <div className="page records">
      <ReplicaList
        label={t('routes.payRecord')}
        data={data}
        itemKey={(w) => w.id}
        emptyText={t('records.emptyAudit')}
        renderItem={(w) => <AuditItem record={w} />}
      />
    </div>
  );
}

function AuditItem({ record: w }: { record: WithdrawalRecord }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="record-head">
        <span className="record-amount">
          {t('records.auditWithdrawal', { network: networkLabel(w.network) })}
        </span>
        <StatusBadge status={auditStatus(w.status)} />
      </div>
      <div className="record-meta" dir="ltr">
        <Amount value={w.amount} kind="exact" unit="USDT" />
      </div>
      <div className="record-meta">
        {w.finishedAt
          ? t('records.reviewedAt', { time: formatTime(w.finishedAt) })
          : t('records.reviewDue', { time: formatTime(w.reviewAt) })}
      </div>
      {w.reason && <div className="record-meta">{t('records.reason', { reason: w.reason })}</div>}
    </>
  );
}
