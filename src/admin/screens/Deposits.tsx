/**
 * Manual deposits (payment proofs, hashes members reported). Finance credits with a reason; review rejects
 * with a reason the member sees. The proof image opens in a dialog, fetched with the operator's token.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminDeposit, AdminDepositStatus } from '../../../server/admin/contract';
import { Dialog } from '../../ui/Dialog';
import { adminCall, fetchAllPages } from '../api';
import {
  AuthImage,
  Details,
  ExportButton,
  Notice,
  Pager,
  QueryStatus,
  ReasonDialog,
  SearchForm,
  StatusTabs,
} from '../components';
import { csvFilename, type CsvColumn } from '../csv';
import { isoTime, useAdminQuery, useFormatTime } from '../hooks';
import { useSession } from '../session';

const STATUSES: readonly AdminDepositStatus[] = ['pending', 'success', 'rejected'];
const LIMIT = 20;

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
  { header: 'proof_url', value: (d) => d.proofUrl },
];

type Acting = { deposit: AdminDeposit; kind: 'credit' | 'reject' | 'proof' };

export function DepositsScreen() {
  const { t } = useTranslation();
  const { can } = useSession();
  const time = useFormatTime();
  const [status, setStatus] = useState<AdminDepositStatus | ''>('pending');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [acting, setActing] = useState<Acting | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const filter = { ...(status ? { status } : {}), ...(q ? { q } : {}) };
  const query = useAdminQuery('GET /api/admin/deposits', { ...filter, page, limit: LIMIT });
  const rows = query.data?.list ?? [];

  async function decide(d: AdminDeposit, kind: 'credit' | 'reject', reason: string) {
    if (kind === 'credit') await adminCall('POST /api/admin/deposits/credit', { id: d.id, reason });
    else await adminCall('POST /api/admin/deposits/reject', { id: d.id, reason });
    setActing(null);
    setNotice(t(kind === 'credit' ? 'deposits.credited' : 'deposits.rejected', { id: d.id }));
    query.reload();
  }

  const summary = (d: AdminDeposit) => (
    <>
      <Details
        rows={[
          { label: t('field.member'), value: d.username },
          { label: t('field.amount'), value: `${d.amount} USDT` },
          { label: t('field.network'), value: d.network },
          { label: t('field.txid'), value: <span className="admin-mono">{d.txid ?? ''}</span> },
        ]}
      />
      <AuthImage url={d.proofUrl} alt={t('deposits.proofAlt', { id: d.id })} />
    </>
  );

  return (
    <section className="admin-screen" aria-labelledby="deposits-title">
      <header className="admin-screen-head">
        <h1 id="deposits-title">{t('nav.deposits')}</h1>
        <ExportButton
          filename={csvFilename('deposits', status)}
          columns={COLUMNS}
          rows={() => fetchAllPages('GET /api/admin/deposits', filter, (d) => d)}
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
            <caption className="sr-only">{t('nav.deposits')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('field.id')}</th>
                <th scope="col">{t('field.member')}</th>
                <th scope="col">{t('field.amount')}</th>
                <th scope="col">{t('field.network')}</th>
                <th scope="col">{t('field.txid')}</th>
                <th scope="col">{t('field.status')}</th>
                <th scope="col">{t('field.created')}</th>
                <th scope="col">{t('field.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <td>{d.id}</td>
                  <td>{d.username}</td>
                  <td className="admin-amount">{d.amount}</td>
                  <td>{d.network}</td>
                  <td className="admin-mono">{d.txid}</td>
                  <td>
                    <span className={`admin-badge admin-badge-${d.status}`}>{t(`status.${d.status}`)}</span>
                    {d.reason && <span className="admin-sub">{d.reason}</span>}
                  </td>
                  <td>{time(d.createdAt)}</td>
                  <td className="admin-actions">
                    {d.proofUrl && (
                      <button
                        type="button"
                        className="button"
                        aria-label={t('deposits.viewProofLabel', { id: d.id })}
                        onClick={() => setActing({ deposit: d, kind: 'proof' })}
                      >
                        {t('deposits.viewProof')}
                      </button>
                    )}
                    {d.status === 'pending' && can('finance') && (
                      <button
                        type="button"
                        className="button primary"
                        aria-label={t('deposits.creditLabel', { id: d.id })}
                        onClick={() => setActing({ deposit: d, kind: 'credit' })}
                      >
                        {t('deposits.credit')}
                      </button>
                    )}
                    {d.status === 'pending' && can('review') && (
                      <button
                        type="button"
                        className="button danger"
                        aria-label={t('deposits.rejectLabel', { id: d.id })}
                        onClick={() => setActing({ deposit: d, kind: 'reject' })}
                      >
                        {t('deposits.reject')}
                      </button>
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
      {acting?.kind === 'proof' && (
        <Dialog title={t('deposits.proofTitle', { id: acting.deposit.id })} onClose={() => setActing(null)}>
          {summary(acting.deposit)}
        </Dialog>
      )}
      {acting && acting.kind !== 'proof' && (
        <ReasonDialog
          title={t(acting.kind === 'credit' ? 'deposits.creditTitle' : 'deposits.rejectTitle', {
            id: acting.deposit.id,
          })}
          confirmLabel={t(acting.kind === 'credit' ? 'deposits.credit' : 'deposits.reject')}
          memberSees={acting.kind === 'reject'}
          danger={acting.kind === 'reject'}
          onConfirm={(reason) => decide(acting.deposit, acting.kind as 'credit' | 'reject', reason)}
          onClose={() => setActing(null)}
        >
          {summary(acting.deposit)}
        </ReasonDialog>
      )}
    </section>
  );
}
