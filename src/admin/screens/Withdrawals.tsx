/**
 * Withdrawals awaiting review. Approve shows what will be sent (amount, fee, what arrives, address, network)
 * and the approvals so far; above the maker-checker threshold the first approval only records itself and a
 * second, different operator's approval sends it. Reject needs a reason, which the member sees. A withdrawal
 * being sent shows whether its signed transaction was recorded (the hash: it may be on chain, the reconciler
 * decides); one with none (the process stopped before the signature) can be released to review with a reason
 * for the audit log.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminWithdrawal, AdminWithdrawalStatus } from '../../../contract/admin/model';
import { adminCall } from '../api';
import { ActionDialog, Details } from '../components';
import type { CsvColumn } from '../csv';
import { isoTime, useFormatTime, useQueue } from '../hooks';
import { useSession } from '../session';
import { QueueScreen, RowAction, StatusCell, type Column } from '../table';

const STATUSES: readonly AdminWithdrawalStatus[] = ['pending', 'sending', 'success', 'rejected'];

export const WITHDRAWAL_COLUMNS: CsvColumn<AdminWithdrawal>[] = [
  { header: 'id', value: (w) => w.id },
  { header: 'member_id', value: (w) => w.memberId },
  { header: 'username', value: (w) => w.username },
  { header: 'network', value: (w) => w.network },
  { header: 'address', value: (w) => w.address },
  { header: 'amount', value: (w) => w.amount },
  { header: 'fee', value: (w) => w.fee },
  { header: 'received', value: (w) => w.received },
  { header: 'status', value: (w) => w.status },
  { header: 'created_at', value: (w) => isoTime(w.createdAt) },
  { header: 'finished_at', value: (w) => isoTime(w.finishedAt) },
  { header: 'tx_hash', value: (w) => w.txHash },
  { header: 'reason', value: (w) => w.reason },
  { header: 'approvals_needed', value: (w) => w.approvalsNeeded },
  { header: 'approved_by', value: (w) => w.approvals.map((a) => a.username).join(' ') },
  { header: 'sending_since', value: (w) => isoTime(w.sendingSince) },
  { header: 'broadcast_hash', value: (w) => w.broadcast?.txHash ?? null },
];

export function WithdrawalsScreen() {
  const { t } = useTranslation();
  const { operator } = useSession();
  const time = useFormatTime();
  const queue = useQueue('GET /api/admin/withdrawals', 'withdrawals', STATUSES, 'pending');
  const [approving, setApproving] = useState<AdminWithdrawal | null>(null);
  const [rejecting, setRejecting] = useState<AdminWithdrawal | null>(null);
  const [releasing, setReleasing] = useState<AdminWithdrawal | null>(null);

  const mine = (w: AdminWithdrawal) => w.approvals.some((a) => a.operatorId === operator?.id);

  async function approve(w: AdminWithdrawal) {
    const after = await adminCall('POST /api/admin/withdrawals/approve', { id: w.id });
    setApproving(null);
    queue.done(
      after.status === 'pending' && after.approvals.length < after.approvalsNeeded
        ? t('withdrawals.approvedWaiting', { done: after.approvals.length, needed: after.approvalsNeeded })
        : t('withdrawals.sent', { id: after.id }),
    );
  }

  async function reject(w: AdminWithdrawal, reason: string) {
    await adminCall('POST /api/admin/withdrawals/reject', { id: w.id, reason });
    setRejecting(null);
    queue.done(t('withdrawals.rejected', { id: w.id }));
  }

  async function release(w: AdminWithdrawal, reason: string) {
    await adminCall('POST /api/admin/withdrawals/release', { id: w.id, reason });
    setReleasing(null);
    queue.done(t('withdrawals.released', { id: w.id }));
  }

  const columns: Column<AdminWithdrawal>[] = [
    { header: t('field.id'), cell: (w) => w.id },
    { header: t('field.member'), cell: (w) => w.username },
    { header: t('field.amount'), cell: (w) => w.amount, className: 'admin-amount' },
    { header: t('field.network'), cell: (w) => w.network },
    { header: t('field.address'), cell: (w) => w.address, className: 'admin-mono' },
    {
      header: t('field.status'),
      cell: (w) => (
        <StatusCell status={w.status} reason={w.reason}>
          {w.txHash && <span className="admin-sub admin-mono">{w.txHash}</span>}
          {w.status === 'sending' &&
            (w.broadcast ? (
              <span className="admin-sub">
                {t('withdrawals.broadcastRecorded')} <span className="admin-mono">{w.broadcast.txHash}</span>
              </span>
            ) : (
              <span className="admin-sub">{t('withdrawals.noBroadcast')}</span>
            ))}
        </StatusCell>
      ),
    },
    {
      header: t('field.approvals'),
      cell: (w) => t('withdrawals.approvalsCell', { done: w.approvals.length, needed: w.approvalsNeeded }),
    },
    { header: t('field.created'), cell: (w) => time(w.createdAt) },
    {
      header: t('field.actions'),
      className: 'admin-actions',
      cell: (w) =>
        w.status === 'sending'
          ? !w.broadcast && (
              <RowAction label={t('withdrawals.releaseLabel', { id: w.id })} onClick={() => setReleasing(w)}>
                {t('withdrawals.release')}
              </RowAction>
            )
          : w.status === 'pending' && (
              <>
                <RowAction
                  label={t('withdrawals.approveLabel', { id: w.id })}
                  tone="primary"
                  onClick={() => setApproving(w)}
                >
                  {t('withdrawals.approve')}
                </RowAction>
                <RowAction
                  label={t('withdrawals.rejectLabel', { id: w.id })}
                  tone="danger"
                  onClick={() => setRejecting(w)}
                >
                  {t('withdrawals.reject')}
                </RowAction>
              </>
            ),
    },
  ];

  return (
    <QueueScreen
      name="withdrawals"
      title={t('nav.withdrawals')}
      csvColumns={WITHDRAWAL_COLUMNS}
      columns={columns}
      {...queue.screen}
    >
      {approving && (
        <ActionDialog
          title={t('withdrawals.approveTitle', { id: approving.id })}
          confirmLabel={t('withdrawals.approve')}
          onConfirm={() => approve(approving)}
          onClose={() => setApproving(null)}
          disabled={mine(approving)}
        >
          <Details
            rows={[
              { label: t('field.member'), value: approving.username },
              { label: t('field.amount'), value: `${approving.amount} USDT` },
              { label: t('field.fee'), value: `${approving.fee} USDT` },
              { label: t('field.received'), value: `${approving.received} USDT` },
              { label: t('field.network'), value: approving.network },
              { label: t('field.address'), value: <span className="admin-mono">{approving.address}</span> },
              {
                label: t('field.approvals'),
                value: t('withdrawals.approvalsSoFar', {
                  done: approving.approvals.length,
                  needed: approving.approvalsNeeded,
                }),
              },
            ]}
          />
          {approving.approvals.length > 0 && (
            <p>
              {t('withdrawals.approvedBy', { names: approving.approvals.map((a) => a.username).join(', ') })}
            </p>
          )}
          {approving.approvalsNeeded === 2 && <p>{t('withdrawals.makerChecker')}</p>}
          {mine(approving) ? (
            <p className="admin-error-text">{t('withdrawals.alreadyApproved')}</p>
          ) : (
            <p>
              {approving.approvals.length + 1 >= approving.approvalsNeeded
                ? t('withdrawals.sendsNow')
                : t('withdrawals.firstOfTwo')}
            </p>
          )}
        </ActionDialog>
      )}
      {rejecting && (
        <ActionDialog
          title={t('withdrawals.rejectTitle', { id: rejecting.id })}
          confirmLabel={t('withdrawals.reject')}
          reason="member"
          danger
          onConfirm={(reason) => reject(rejecting, reason)}
          onClose={() => setRejecting(null)}
        >
          <p>
            {t('withdrawals.rejectSummary', {
              amount: rejecting.amount,
              member: rejecting.username,
            })}
          </p>
        </ActionDialog>
      )}
      {releasing && (
        <ActionDialog
          title={t('withdrawals.releaseTitle', { id: releasing.id })}
          confirmLabel={t('withdrawals.release')}
          reason="audit"
          onConfirm={(reason) => release(releasing, reason)}
          onClose={() => setReleasing(null)}
        >
          <Details
            rows={[
              { label: t('field.member'), value: releasing.username },
              { label: t('field.amount'), value: `${releasing.amount} USDT` },
              { label: t('field.network'), value: releasing.network },
              { label: t('field.address'), value: <span className="admin-mono">{releasing.address}</span> },
              { label: t('withdrawals.sendingSince'), value: time(releasing.sendingSince) },
            ]}
          />
          <p>{t('withdrawals.releaseSummary', { amount: releasing.amount, member: releasing.username })}</p>
          <p>{t('withdrawals.releaseJournal', { id: releasing.id })}</p>
        </ActionDialog>
      )}
    </QueueScreen>
  );
}
