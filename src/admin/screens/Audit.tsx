/** The audit log (admins only): every operator action, newest first, filtered by operator and action. */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../../../contract/admin/model';
import { fetchAllPages } from '../api';
import { csvFilename, type CsvColumn } from '../csv';
import { isoTime, useAdminQuery, useFormatTime } from '../hooks';
import { QueueScreen, type Column } from '../table';

const LIMIT = 50;

/** Translated labels of the actions that are not an operator's own (the system actor's) or new (release). */
const ACTION_LABELS: Partial<
  Record<string, 'auditActions.reconcileComplete' | 'auditActions.reconcileRelease' | 'auditActions.release'>
> = {
  'withdrawal.reconcile_complete': 'auditActions.reconcileComplete',
  'withdrawal.reconcile_release': 'auditActions.reconcileRelease',
  'withdrawal.release': 'auditActions.release',
};
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

  function apply(e: FormEvent) {
    e.preventDefault();
    const next: { operatorId?: string; action?: string } = {};
    if (operatorText.trim()) next.operatorId = operatorText.trim();
    if (actionText.trim()) next.action = actionText.trim();
    setFilter(next);
    setPage(1);
  }

  const columns: Column<AuditEntry>[] = [
    { header: t('field.time'), cell: (e) => time(e.at) },
    {
      header: t('field.operator'),
      // The system actor (the reconciler's decisions) has no operator: its role, and that it was automatic.
      cell: (e) =>
        e.operatorId === null ? (
          <>
            {t('roles.system')} <span className="admin-sub">{t('audit.systemActor')}</span>
          </>
        ) : (
          <>
            {e.username} <span className="admin-sub">{t(`roles.${e.role}`)}</span>
          </>
        ),
    },
    {
      header: t('field.action'),
      cell: (e) => {
        const label = ACTION_LABELS[e.action];
        return label ? (
          <>
            {t(label)} <span className="admin-sub admin-mono">{e.action}</span>
          </>
        ) : (
          <span className="admin-mono">{e.action}</span>
        );
      },
    },
    { header: t('field.target'), cell: (e) => e.target, className: 'admin-mono' },
    { header: t('field.reason'), cell: (e) => e.reason },
    { header: t('field.ip'), cell: (e) => e.ip, className: 'admin-mono' },
    {
      header: t('field.change'),
      cell: (e) => (
        <details>
          <summary>{t('audit.showChange')}</summary>
          <p>{t('field.before')}</p>
          <pre>{json(e.before)}</pre>
          <p>{t('field.after')}</p>
          <pre>{json(e.after)}</pre>
        </details>
      ),
    },
  ];

  return (
    <QueueScreen
      name="audit"
      title={t('nav.audit')}
      csv={{
        filename: csvFilename('audit', filter.action),
        rows: () => fetchAllPages('GET /api/admin/audit', filter, (d) => d),
      }}
      csvColumns={COLUMNS}
      filters={
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
      }
      query={query}
      rows={query.data?.list ?? []}
      columns={columns}
      paging={{ page, limit: LIMIT, total: query.data?.total, onPage: setPage }}
    />
  );
}
