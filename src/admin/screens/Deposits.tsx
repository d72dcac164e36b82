/**
 * Manual deposits (payment proofs, hashes members reported). Finance credits with a reason; review rejects
 * with a reason the member sees. The proof image opens in a dialog, fetched with the operator's token. Above
 * the maker-checker threshold a credit needs two different operators: the first only records itself.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminDeposit, AdminDepositStatus } from '../../../contract/admin/model';
import { Dialog } from '../../ui/Dialog';
import { adminCall } from '../api';
import { ActionDialog, AuthImage, Details } from '../components';
import type { CsvColumn } from '../csv';
import { isoTime, useFormatTime, useQueue } from '../hooks';
import { useSession } from '../session';
import { QueueScreen, RowAction, StatusCell, type Column } from '../table';

const STATUSES: readonly AdminDepositStatus[] = ['pending', 'success', 'rejected'];

const COLUMNS: CsvColumn<AdminDeposit>[] = [
  { header: 'id', value: (d) => d.id },
  { header: 'member_id', value: (d) => d.memberId },
  { header: 'username', value: (d) => d.username },
  { header: 'network', value: (d) => d.network },
  { header: 'amount', value: (d) => d.amount },
  { header: 'txid', value: (d) => d.txid },
  { header: 'status', value: (d) => d.status },
  { header: 'created_at', value: (d) => isoTime(d.createdAt) },
  { header: 'reason', value: (d) => d.reason },
  { header: 'approvals_needed', value: (d) => d.approvalsNeeded },
  { header: 'credited_by', value: (d) => d.approvals.map((a) => a.username).join(' ') },
  { header: 'proof_url', value: (d) => d.proofUrl },
];

type Acting = { deposit: AdminDeposit; kind: 'credit' | 'reject' | 'proof' };

export function DepositsScreen() {
  const { t } = useTranslation();
  const { can, operator } = useSession();
  const time = useFormatTime();
  const queue = useQueue('GET /api/admin/deposits', 'deposits', STATUSES, 'pending');
  const [acting, setActing] = useState<Acting | null>(null);

  const mine = (d: AdminDeposit) => d.approvals.some((a) => a.operatorId === operator?.id);

  async function decide(d: AdminDeposit, kind: 'credit' | 'reject', reason: string) {
    if (kind === 'reject') {
      await adminCall('POST /api/admin/deposits/reject', { id: d.id, reason });
      setActing(null);
      queue.done(t('deposits.rejected', { id: d.id }));
      return;
    }
    const after = await adminCall('POST /api/admin/deposits/credit', { id: d.id, reason });
    setActing(null);
    queue.done(
      after.status === 'pending'
        ? t('deposits.creditedWaiting', { done: after.approvals.length, needed: after.approvalsNeeded })
        : t('deposits.credited', { id: d.id }),
    );
  }

  const summary = (d: AdminDeposit) => (
    <>
      <Details
        rows={[
          { label: t('field.member'), value: d.username },
          { label: t('field.amount'), value: `${d.amount} USDT` },
          { label: t('field.network'), value: d.network },
          { label: t('field.txid'), value: <span className="admin-mono">{d.txid ?? ''}</span> },
          {
            label: t('field.approvals'),
            value: t('withdrawals.approvalsSoFar', { done: d.approvals.length, needed: d.approvalsNeeded }),
          },
        ]}
      />
      {d.approvals.length > 0 && (
        <p>{t('withdrawals.approvedBy', { names: d.approvals.map((a) => a.username).join(', ') })}</p>
      )}
      <AuthImage url={d.proofUrl} alt={t('deposits.proofAlt', { id: d.id })} />
    </>
  );

  const columns: Column<AdminDeposit>[] = [
    { header: t('field.id'), cell: (d) => d.id },
    { header: t('field.member'), cell: (d) => d.username },
    { header: t('field.amount'), cell: (d) => d.amount, className: 'admin-amount' },
    { header: t('field.network'), cell: (d) => d.network },
    { header: t('field.txid'), cell: (d) => d.txid, className: 'admin-mono' },
    { header: t('field.status'), cell: (d) => <StatusCell status={d.status} reason={d.reason} /> },
    {
      header: t('field.approvals'),
      cell: (d) => t('withdrawals.approvalsCell', { done: d.approvals.length, needed: d.approvalsNeeded }),
    },
    { header: t('field.created'), cell: (d) => time(d.createdAt) },
    {
      header: t('field.actions'),
      className: 'admin-actions',
      cell: (d) => (
        <>
          {d.proofUrl && (
            <RowAction
              label={t('deposits.viewProofLabel', { id: d.id })}
              onClick={() => setActing({ deposit: d, kind: 'proof' })}
            >
              {t('deposits.viewProof')}
            </RowAction>
          )}
          {d.status === 'pending' && can('finance') && (
            <RowAction
              label={t('deposits.creditLabel', { id: d.id })}
              tone="primary"
              onClick={() => setActing({ deposit: d, kind: 'credit' })}
            >
              {t('deposits.credit')}
            </RowAction>
          )}
          {d.status === 'pending' && can('review') && (
            <RowAction
              label={t('deposits.rejectLabel', { id: d.id })}
              tone="danger"
              onClick={() => setActing({ deposit: d, kind: 'reject' })}
            >
              {t('deposits.reject')}
            </RowAction>
          )}
        </>
      ),
    },
  ];

  return (
    <QueueScreen
      name="deposits"
      title={t('nav.deposits')}
      csvColumns={COLUMNS}
      columns={columns}
      {...queue.screen}
    >
      {acting?.kind === 'proof' && (
        <Dialog title={t('deposits.proofTitle', { id: acting.deposit.id })} onClose={() => setActing(null)}>
          {summary(acting.deposit)}
        </Dialog>
      )}
      {acting && acting.kind !== 'proof' && (
        <ActionDialog
          title={t(acting.kind === 'credit' ? 'deposits.creditTitle' : 'deposits.rejectTitle', {
            id: acting.deposit.id,
          })}
          confirmLabel={t(acting.kind === 'credit' ? 'deposits.credit' : 'deposits.reject')}
          reason={acting.kind === 'reject' ? 'member' : 'audit'}
          danger={acting.kind === 'reject'}
          disabled={acting.kind === 'credit' && mine(acting.deposit)}
          onConfirm={(reason) => decide(acting.deposit, acting.kind as 'credit' | 'reject', reason)}
          onClose={() => setActing(null)}
        >
          {summary(acting.deposit)}
          {acting.kind === 'credit' && acting.deposit.approvalsNeeded === 2 && (
            <p>{t('deposits.makerChecker')}</p>
          )}
          {acting.kind === 'credit' &&
            (mine(acting.deposit) ? (
              <p className="admin-error-text">{t('deposits.alreadyCredited')}</p>
            ) : (
              acting.deposit.approvals.length + 1 < acting.deposit.approvalsNeeded && (
                <p>{t('deposits.firstOfTwo')}</p>
              )
            ))}
        </ActionDialog>
      )}
    </QueueScreen>
  );
}
