/** Members: search, then one member's balances, holds and ledger; admins lock and unlock with a reason. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { AdminMember, AdminMemberDetail } from '../../../contract/admin/model';
import { adminCall } from '../api';
import { ActionDialog, Details, ExportButton, Notice, QueryStatus } from '../components';
import { csvFilename, type CsvColumn } from '../csv';
import { isoTime, useAdminQuery, useFormatTime, useQueue } from '../hooks';
import { useSession } from '../session';
import { DataTable, QueueScreen, type Column } from '../table';

const COLUMNS: CsvColumn<AdminMember>[] = [
  { header: 'id', value: (m) => m.id },
  { header: 'username', value: (m) => m.username },
  { header: 'email', value: (m) => m.email },
  { header: 'phone', value: (m) => m.phone },
  { header: 'vip', value: (m) => m.vip },
  { header: 'created_at', value: (m) => isoTime(m.createdAt) },
  { header: 'locked', value: (m) => m.locked },
  { header: 'balance', value: (m) => m.balance },
  { header: 'total_assets', value: (m) => m.totalAssets },
];

type LedgerEntry = AdminMemberDetail['ledger'][number];
const LEDGER_COLUMNS: CsvColumn<LedgerEntry>[] = [
  { header: 'id', value: (e) => e.id },
  { header: 'kind', value: (e) => e.kind },
  { header: 'ref', value: (e) => e.ref },
  { header: 'at', value: (e) => isoTime(e.at) },
  { header: 'legs', value: (e) => e.legs.map((l) => `${l.account} ${l.amount}`).join('; ') },
];

export function MembersScreen() {
  const { t } = useTranslation();
  const time = useFormatTime();
  const queue = useQueue('GET /api/admin/members', 'members');
  const columns: Column<AdminMember>[] = [
    { header: t('field.id'), cell: (m) => m.id },
    {
      header: t('field.username'),
      cell: (m) => <Link to={`/members/${encodeURIComponent(m.id)}`}>{m.username}</Link>,
    },
    { header: t('field.email'), cell: (m) => m.email },
    { header: t('field.phone'), cell: (m) => m.phone },
    { header: t('field.vip'), cell: (m) => m.vip },
    { header: t('field.balance'), cell: (m) => m.balance, className: 'admin-amount' },
    { header: t('field.totalAssets'), cell: (m) => m.totalAssets, className: 'admin-amount' },
    {
      header: t('field.status'),
      cell: (m) => (
        <span className={`admin-badge admin-badge-${m.locked ? 'rejected' : 'success'}`}>
          {t(m.locked ? 'members.locked' : 'members.active')}
        </span>
      ),
    },
    { header: t('field.created'), cell: (m) => time(m.createdAt) },
  ];
  return (
    <QueueScreen
      name="members"
      title={t('nav.members')}
      csvColumns={COLUMNS}
      searchLabel={t('members.searchLabel')}
      columns={columns}
      {...queue.screen}
      notice={undefined}
    />
  );
}

export function MemberDetailScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { can } = useSession();
  const time = useFormatTime();
  const query = useAdminQuery('GET /api/admin/members/detail', { id });
  const [locking, setLocking] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const detail = query.data;
  const member = detail?.member;

  async function setLocked(m: AdminMember, reason: string) {
    const after = await adminCall('POST /api/admin/members/lock', { id: m.id, locked: !m.locked, reason });
    setLocking(false);
    setNotice(t(after.locked ? 'members.lockedDone' : 'members.unlockedDone', { name: m.username }));
    query.reload();
  }

  const balanceColumns: Column<AdminMemberDetail['balances'][number]>[] = [
    { header: t('field.account'), cell: (b) => b.account },
    { header: t('field.asset'), cell: (b) => b.asset },
    { header: t('field.amount'), cell: (b) => b.amount, className: 'admin-amount' },
  ];
  const holdColumns: Column<AdminMemberDetail['holds'][number]>[] = [
    { header: t('field.id'), cell: (h) => h.id },
    { header: t('field.account'), cell: (h) => h.account },
    { header: t('field.amount'), cell: (h) => h.amount, className: 'admin-amount' },
    { header: t('field.kind'), cell: (h) => h.kind },
    { header: t('field.ref'), cell: (h) => h.ref },
    { header: t('field.created'), cell: (h) => time(h.createdAt) },
  ];
  const ledgerColumns: Column<LedgerEntry>[] = [
    { header: t('field.time'), cell: (e) => time(e.at) },
    { header: t('field.kind'), cell: (e) => e.kind },
    { header: t('field.ref'), cell: (e) => e.ref },
    {
      header: t('field.legs'),
      cell: (e) => (
        <ul className="admin-legs">
          {e.legs.map((l, i) => (
            <li key={i}>
              {l.account} <span className="admin-amount">{l.amount}</span>
            </li>
          ))}
        </ul>
      ),
    },
  ];

  return (
    <section className="admin-screen" aria-labelledby="member-title">
      <p>
        <Link to="/members">{t('members.back')}</Link>
      </p>
      <header className="admin-screen-head">
        <h1 id="member-title">{t('members.detail', { name: member?.username ?? id })}</h1>
        {member && can('admin') && (
          <button
            type="button"
            className={`button ${member.locked ? 'primary' : 'danger'}`}
            onClick={() => setLocking(true)}
          >
            {t(member.locked ? 'members.unlock' : 'members.lock')}
          </button>
        )}
      </header>
      <Notice text={notice} />
      <QueryStatus status={query.status} error={query.error} onRetry={query.reload} empty={!detail} />
      {detail && member && (
        <>
          <Details
            rows={[
              { label: t('field.id'), value: member.id },
              { label: t('field.email'), value: member.email ?? '' },
              { label: t('field.phone'), value: member.phone ?? '' },
              { label: t('field.vip'), value: member.vip },
              { label: t('field.created'), value: time(member.createdAt) },
              { label: t('field.status'), value: t(member.locked ? 'members.locked' : 'members.active') },
              { label: t('field.balance'), value: `${member.balance} USDT` },
              { label: t('field.totalAssets'), value: `${member.totalAssets} USDT` },
            ]}
          />
          <h2>{t('members.balances')}</h2>
          <DataTable
            columns={balanceColumns}
            rows={detail.balances}
            rowKey={(b) => `${b.account}-${b.asset}`}
            emptyText={t('common.empty')}
          />
          <h2>{t('members.holds')}</h2>
          <DataTable
            columns={holdColumns}
            rows={detail.holds}
            rowKey={(h) => h.id}
            emptyText={t('common.empty')}
          />
          <div className="admin-screen-head">
            <h2>{t('members.ledger')}</h2>
            <ExportButton
              filename={csvFilename(`ledger-${member.username}`)}
              columns={LEDGER_COLUMNS}
              rows={() => Promise.resolve(detail.ledger)}
            />
          </div>
          <DataTable
            columns={ledgerColumns}
            rows={detail.ledger}
            rowKey={(e) => e.id}
            emptyText={t('common.empty')}
          />
        </>
      )}
      {locking && member && (
        <ActionDialog
          title={t(member.locked ? 'members.unlockTitle' : 'members.lockTitle', { name: member.username })}
          confirmLabel={t(member.locked ? 'members.unlock' : 'members.lock')}
          reason="audit"
          danger={!member.locked}
          onConfirm={(reason) => setLocked(member, reason)}
          onClose={() => setLocking(false)}
        >
          <p>{t(member.locked ? 'members.unlockHint' : 'members.lockHint')}</p>
        </ActionDialog>
      )}
    </section>
  );
}
