/** The audit log (admins only): every operator action, newest first, filtered by operator and action. */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../../../server/admin/contract';
import { fetchAllPages } from '../api';
import { ExportButton, Pager, QueryStatus } from '../components';
import { csvFilename, type CsvColumn } from '../csv';
import { isoTime, useAdminQuery, useFormatTime } from '../hooks';

const LIMIT = 50;
const json = (value: unknown) => (value === undefined || value === null ? '' : JSON.stringify(value));

const COLUMNS: CsvColumn<AuditEntry>[] = [
  { header: 'id', value: (e) => e.id },
  { header: 'at', value: (e) => isoTime(e.at) },
  { header: 'operator_id', value: (e) => e.operatorId },
  { header: 'username', value: (e) => e.username },
  { header: 'role', value: (e) => e.role },
  { header: 'action', value: (e) => e.action },
  { header: 'target', value: (e) => e.target },
  { header: 'before', value: (e) => json(e.before) },
  { header: 'after', value: (e) => json(e.after) },
  { header: 'reason', value: (e) => e.reason },
  { header: 'ip', value: (e) => e.ip },
];

export function AuditScreen() {
  const { t } = useTranslation();
  const time = useFormatTime();
  const id = useId();
  const [filter, setFilter] = useState<{ operatorId?: string; action?: string }>({});
  const [operatorText, setOperatorText] = useState('');
  const [actionText, setActionText] = useState('');
  const [page, setPage] = useState(1);
  const query = useAdminQuery('GET /api/admin/audit', { ...filter, page, limit: LIMIT });
  const rows = query.data?.list ?? [];

  function apply(e: FormEvent) {
    e.preventDefault();
    const next: { operatorId?: string; action?: string } = {};
    if (operatorText.trim()) next.operatorId = operatorText.trim();
    if (actionText.trim()) next.action = actionText.trim();
    setFilter(next);
    setPage(1);
  }

  return (
    <section className="admin-screen" aria-labelledby="audit-title">
      <header className="admin-screen-head">
        <h1 id="audit-title">{t('nav.audit')}</h1>
        <ExportButton
          filename={csvFilename('audit', filter.action)}
          columns={COLUMNS}
          rows={() => fetchAllPages('GET /api/admin/audit', filter, (d) => d)}
        />
      </header>
      <form className="admin-filters" onSubmit={apply} aria-label={t('audit.filters')}>
        <div>
          <label htmlFor={`${id}-op`}>{t('audit.operatorFilter')}</label>
          <input id={`${id}-op`} value={operatorText} onChange={(e) => setOperatorText(e.target.value)} />
        </div>
        <div>
          <label htmlFor={`${id}-action`}>{t('audit.actionFilter')}</label>
          <input
            id={`${id}-action`}
            value={actionText}
            placeholder="withdrawal.approve"
            onChange={(e) => setActionText(e.target.value)}
          />
        </div>
        <button type="submit" className="button primary">
          {t('audit.apply')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            setOperatorText('');
            setActionText('');
            setFilter({});
            setPage(1);
          }}
        >
          {t('audit.clear')}
        </button>
      </form>
      <QueryStatus
        status={query.status}
        error={query.error}
        onRetry={query.reload}
        empty={rows.length === 0}
      />
      {rows.length > 0 && (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="sr-only">{t('nav.audit')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('field.time')}</th>
                <th scope="col">{t('field.operator')}</th>
                <th scope="col">{t('field.action')}</th>
                <th scope="col">{t('field.target')}</th>
                <th scope="col">{t('field.reason')}</th>
                <th scope="col">{t('field.ip')}</th>
                <th scope="col">{t('field.change')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td>{time(e.at)}</td>
                  <td>
                    {e.username} <span className="admin-sub">{t(`roles.${e.role}`)}</span>
                  </td>
                  <td className="admin-mono">{e.action}</td>
                  <td className="admin-mono">{e.target}</td>
                  <td>{e.reason}</td>
                  <td className="admin-mono">{e.ip}</td>
                  <td>
                    <details>
                      <summary>{t('audit.showChange')}</summary>
                      <p>{t('field.before')}</p>
                      <pre>{json(e.before)}</pre>
                      <p>{t('field.after')}</p>
                      <pre>{json(e.after)}</pre>
                    </details>
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
    </section>
  );
}
