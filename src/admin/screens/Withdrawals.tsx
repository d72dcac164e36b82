/**
 * Withdrawals awaiting review. Approve shows what will be sent (amount, fee, what arrives, address, network)
 * and the approvals so far; above the maker-checker threshold the first approval only records itself and a
 * second, different operator's approval sends it. Reject needs a reason, which the member sees.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminWithdrawal, AdminWithdrawalStatus } from '../../../server/admin/contract';
import { adminCall, fetchAllPages } from '../api';
import {
  ConfirmDialog,
  Details,
  ExportButton,
  Notice,
  Pager,
  QueryStatus,
  ReasonDialog,
  SearchForm,
  StatusTabs,
} from '../components';
import type { CsvColumn } from '../csv';
import { csvFilename } from '../csv';
import { isoTime, useAdminQuery, useFormatTime } from '../hooks';
import { useSession } from '../session';

const STATUSES: readonly AdminWithdrawalStatus[] = ['pending', 'sending', 'success', 'rejected'];
const LIMIT = 20;

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
];

export function WithdrawalsScreen() {
  const { t } = useTranslation();
  const { operator } = useSession();
  const time = useFormatTime();
  const [status, setStatus] = useState<AdminWithdrawalStatus | ''>('pending');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [approving, setApproving] = useState<AdminWithdrawal | null>(null);
  const [rejecting, setRejecting] = useState<AdminWithdrawal | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const filter = { ...(status ? { status } : {}), ...(q ? { q } : {}) };
  const query = useAdminQuery('GET /api/admin/withdrawals', { ...filter, page, limit: LIMIT });
  const rows = query.data?.list ?? [];

  const mine = (w: AdminWithdrawal) => w.approvals.some((a) => a.operatorId === operator?.id);

  async function approve(w: AdminWithdrawal) {
    const after = await adminCall('POST /api/admin/withdrawals/approve', { id: w.id });
    setApproving(null);
    setNotice(
      after.status === 'pending' && after.approvals.length < after.approvalsNeeded
        ? t('withdrawals.approvedWaiting', { done: after.approvals.length, needed: after.approvalsNeeded })
        : t('withdrawals.sent', { id: after.id }),
    );
    query.reload();
  }

  async function reject(w: AdminWithdrawal, reason: string) {
    await adminCall('POST /api/admin/withdrawals/reject', { id: w.id, reason });
    setRejecting(null);
    setNotice(t('withdrawals.rejected', { id: w.id }));
    query.reload();
  }

  return (
    <section className="admin-screen" aria-labelledby="withdrawals-title">
      <header className="admin-screen-head">
        <h1 id="withdrawals-title">{t('nav.withdrawals')}</h1>
        <ExportButton
          filename={csvFilename('withdrawals', status)}
          columns={WITHDRAWAL_COLUMNS}
          rows={() => fetchAllPages('GET /api/admin/withdrawals', filter, (d) => d)}
        />
      </header>
      <StatusTabs
        statuses={STATUSES}
        counts={query.data?.counts}
        value={status}
        onChange={(s) => {
          setStatus(s);
          setPage(1);
        }}
      />
      <SearchForm
        value={q}
        onSearch={(text) => {
          setQ(text);
          setPage(1);
        }}
      />
      <Notice text={notice} />
      <QueryStatus
        status={query.status}
        error={query.error}
        onRetry={query.reload}
        empty={rows.length === 0}
      />
      {rows.length > 0 && (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="sr-only">{t('nav.withdrawals')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('field.id')}</th>
                <th scope="col">{t('field.member')}</th>
                <th scope="col">{t('field.amount')}</th>
                <th scope="col">{t('field.network')}</th>
                <th scope="col">{t('field.address')}</th>
                <th scope="col">{t('field.status')}</th>
                <th scope="col">{t('field.approvals')}</th>
                <th scope="col">{t('field.created')}</th>
                <th scope="col">{t('field.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((w) => (
                <tr key={w.id}>
                  <td>{w.id}</td>
                  <td>{w.username}</td>
                  <td className="admin-amount">{w.amount}</td>
                  <td>{w.network}</td>
                  <td className="admin-mono">{w.address}</td>
                  <td>
                    <span className={`admin-badge admin-badge-${w.status}`}>{t(`status.${w.status}`)}</span>
                    {w.reason && <span className="admin-sub">{w.reason}</span>}
                    {w.txHash && <span className="admin-sub admin-mono">{w.txHash}</span>}
                  </td>
                  <td>
                    {t('withdrawals.approvalsCell', { done: w.approvals.length, needed: w.approvalsNeeded })}
                  </td>
                  <td>{time(w.createdAt)}</td>
                  <td className="admin-actions">
                    {w.status === 'pending' && (
                      <>
                        <button
                          type="button"
                          className="button primary"
                          aria-label={t('withdrawals.approveLabel', { id: w.id })}
                          onClick={() => setApproving(w)}
                        >
                          {t('withdrawals.approve')}
                        </button>
                        <button
                          type="button"
                          className="button danger"
                          aria-label={t('withdrawals.rejectLabel', { id: w.id })}
                          onClick={() => setRejecting(w)}
                        >
                          {t('withdrawals.reject')}
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {query.data && query.data.total > 0 && (
        <Pager page={page} limit={LIMIT} total={query.data.total} onPage={setPage} />
      )}
      {approving && (
        <ConfirmDialog
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
        </ConfirmDialog>
      )}
      {rejecting && (
        <ReasonDialog
          title={t('withdrawals.rejectTitle', { id: rejecting.id })}
          confirmLabel={t('withdrawals.reject')}
          memberSees
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
        </ReasonDialog>
      )}
    </section>
  );
}
