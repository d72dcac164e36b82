/**
 * Identity checks waiting for a person: both document images side by side, then pass, or reject with a
 * reason the member sees.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminCert, AdminCertStatus } from '../../../server/admin/contract';
import { adminCall, fetchAllPages } from '../api';
import {
  AuthImage,
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
import { csvFilename, type CsvColumn } from '../csv';
import { isoTime, useAdminQuery, useFormatTime } from '../hooks';

const STATUSES: readonly AdminCertStatus[] = ['review', 'passed', 'rejected'];
const LIMIT = 20;

const COLUMNS: CsvColumn<AdminCert>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'member_id', value: (c) => c.memberId },
  { header: 'username', value: (c) => c.username },
  { header: 'name', value: (c) => c.name },
  { header: 'id_number', value: (c) => c.idNumber },
  { header: 'status', value: (c) => c.status },
  { header: 'submitted_at', value: (c) => isoTime(c.submittedAt) },
  { header: 'reason', value: (c) => c.reason },
];

export function CertsScreen() {
  const { t } = useTranslation();
  const time = useFormatTime();
  const [status, setStatus] = useState<AdminCertStatus | ''>('review');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [acting, setActing] = useState<{ cert: AdminCert; passed: boolean } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const filter = { ...(status ? { status } : {}), ...(q ? { q } : {}) };
  const query = useAdminQuery('GET /api/admin/certs', { ...filter, page, limit: LIMIT });
  const rows = query.data?.list ?? [];

  async function decide(c: AdminCert, passed: boolean, reason?: string) {
    await adminCall('POST /api/admin/certs/decide', { id: c.id, passed, ...(reason ? { reason } : {}) });
    setActing(null);
    setNotice(t(passed ? 'certs.passed' : 'certs.rejected', { name: c.name }));
    query.reload();
  }

  const evidence = (c: AdminCert) => (
    <>
      <Details
        rows={[
          { label: t('field.member'), value: c.username },
          { label: t('field.name'), value: c.name },
          { label: t('field.idNumber'), value: <span className="admin-mono">{c.idNumber}</span> },
        ]}
      />
      <div className="admin-images">
        <figure>
          <AuthImage url={c.frontUrl} alt={t('certs.frontAlt', { name: c.name })} />
          <figcaption>{t('certs.front')}</figcaption>
        </figure>
        <figure>
          <AuthImage url={c.backUrl} alt={t('certs.backAlt', { name: c.name })} />
          <figcaption>{t('certs.back')}</figcaption>
        </figure>
      </div>
    </>
  );

  return (
    <section className="admin-screen" aria-labelledby="certs-title">
      <header className="admin-screen-head">
        <h1 id="certs-title">{t('nav.certs')}</h1>
        <ExportButton
          filename={csvFilename('identity-checks', status)}
          columns={COLUMNS}
          rows={() => fetchAllPages('GET /api/admin/certs', filter, (d) => d)}
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
            <caption className="sr-only">{t('nav.certs')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('field.id')}</th>
                <th scope="col">{t('field.member')}</th>
                <th scope="col">{t('field.name')}</th>
                <th scope="col">{t('field.idNumber')}</th>
                <th scope="col">{t('field.status')}</th>
                <th scope="col">{t('field.submitted')}</th>
                <th scope="col">{t('field.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <td>{c.id}</td>
                  <td>{c.username}</td>
                  <td>{c.name}</td>
                  <td className="admin-mono">{c.idNumber}</td>
                  <td>
                    <span className={`admin-badge admin-badge-${c.status}`}>{t(`status.${c.status}`)}</span>
                    {c.reason && <span className="admin-sub">{c.reason}</span>}
                  </td>
                  <td>{time(c.submittedAt)}</td>
                  <td className="admin-actions">
                    {c.status === 'review' && (
                      <>
                        <button
                          type="button"
                          className="button primary"
                          aria-label={t('certs.passLabel', { name: c.name })}
                          onClick={() => setActing({ cert: c, passed: true })}
                        >
                          {t('certs.pass')}
                        </button>
                        <button
                          type="button"
                          className="button danger"
                          aria-label={t('certs.rejectLabel', { name: c.name })}
                          onClick={() => setActing({ cert: c, passed: false })}
                        >
                          {t('certs.reject')}
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
      {acting?.passed && (
        <ConfirmDialog
          title={t('certs.passTitle', { name: acting.cert.name })}
          confirmLabel={t('certs.pass')}
          onConfirm={() => decide(acting.cert, true)}
          onClose={() => setActing(null)}
        >
          {evidence(acting.cert)}
        </ConfirmDialog>
      )}
      {acting && !acting.passed && (
        <ReasonDialog
          title={t('certs.rejectTitle', { name: acting.cert.name })}
          confirmLabel={t('certs.reject')}
          memberSees
          danger
          onConfirm={(reason) => decide(acting.cert, false, reason)}
          onClose={() => setActing(null)}
        >
          {evidence(acting.cert)}
        </ReasonDialog>
      )}
    </section>
  );
}
