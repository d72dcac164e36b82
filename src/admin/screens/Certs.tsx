/**
 * Identity checks waiting for a person: both document images side by side, then pass, or reject with a
 * reason the member sees.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminCert, AdminCertStatus } from '../../../contract/admin/model';
import { adminCall } from '../api';
import { ActionDialog, AuthImage, Details } from '../components';
import type { CsvColumn } from '../csv';
import { isoTime, useFormatTime, useQueue } from '../hooks';
import { QueueScreen, RowAction, StatusCell, type Column } from '../table';

const STATUSES: readonly AdminCertStatus[] = ['review', 'passed', 'rejected'];

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
  const queue = useQueue('GET /api/admin/certs', 'identity-checks', STATUSES, 'review');
  const [acting, setActing] = useState<{ cert: AdminCert; passed: boolean } | null>(null);

  async function decide(c: AdminCert, passed: boolean, reason?: string) {
    await adminCall('POST /api/admin/certs/decide', { id: c.id, passed, ...(reason ? { reason } : {}) });
    setActing(null);
    queue.done(t(passed ? 'certs.passed' : 'certs.rejected', { name: c.name }));
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

  const columns: Column<AdminCert>[] = [
    { header: t('field.id'), cell: (c) => c.id },
    { header: t('field.member'), cell: (c) => c.username },
    { header: t('field.name'), cell: (c) => c.name },
    { header: t('field.idNumber'), cell: (c) => c.idNumber, className: 'admin-mono' },
    { header: t('field.status'), cell: (c) => <StatusCell status={c.status} reason={c.reason} /> },
    { header: t('field.submitted'), cell: (c) => time(c.submittedAt) },
    {
      header: t('field.actions'),
      className: 'admin-actions',
      cell: (c) =>
        c.status === 'review' && (
          <>
            <RowAction
              label={t('certs.passLabel', { name: c.name })}
              tone="primary"
              onClick={() => setActing({ cert: c, passed: true })}
            >
              {t('certs.pass')}
            </RowAction>
            <RowAction
              label={t('certs.rejectLabel', { name: c.name })}
              tone="danger"
              onClick={() => setActing({ cert: c, passed: false })}
            >
              {t('certs.reject')}
            </RowAction>
          </>
        ),
    },
  ];

  return (
    <QueueScreen name="certs" title={t('nav.certs')} csvColumns={COLUMNS} columns={columns} {...queue.screen}>
      {acting && (
        <ActionDialog
          title={t(acting.passed ? 'certs.passTitle' : 'certs.rejectTitle', { name: acting.cert.name })}
          confirmLabel={t(acting.passed ? 'certs.pass' : 'certs.reject')}
          reason={acting.passed ? undefined : 'member'}
          danger={!acting.passed}
          onConfirm={(reason) => decide(acting.cert, acting.passed, reason)}
          onClose={() => setActing(null)}
        >
          {evidence(acting.cert)}
        </ActionDialog>
      )}
    </QueueScreen>
  );
}
