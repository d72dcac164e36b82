/** Members: search, then one member's balances, holds and ledger; admins lock and unlock with a reason. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { AdminMember, AdminMemberDetail } from '../../../server/admin/contract';
import { adminCall, fetchAllPages } from '../api';
import { Details, ExportButton, Notice, Pager, QueryStatus, ReasonDialog, SearchForm } from '../components';
import { csvFilename, type CsvColumn } from '../csv';
import { isoTime, useAdminQuery, useFormatTime } from '../hooks';
import { useSession } from '../session';

const LIMIT = 20;

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
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const filter = q ? { q } : {};
  const query = useAdminQuery('GET /api/admin/members', { ...filter, page, limit: LIMIT });
  const rows = query.data?.list ?? [];
  return (
    <section className="admin-screen" aria-labelledby="members-title">
      <header className="admin-screen-head">
        <h1 id="members-title">{t('nav.members')}</h1>
        <ExportButton
          filename={csvFilename('members')}
          columns={COLUMNS}
          rows={() => fetchAllPages('GET /api/admin/members', filter, (d) => d)}
        />
      </header>
      <SearchForm
        value={q}
        label={t('members.searchLabel')}
        onSearch={(text) => {
          setQ(text);
          setPage(1);
        }}
      />
      <QueryStatus
        status={query.status}
        error={query.error}
        onRetry={query.reload}
        empty={rows.length === 0}
      />
      {rows.length > 0 && (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="sr-only">{t('nav.members')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('field.id')}</th>
                <th scope="col">{t('field.username')}</th>
                <th scope="col">{t('field.email')}</th>
                <th scope="col">{t('field.phone')}</th>
                <th scope="col">{t('field.vip')}</th>
                <th scope="col">{t('field.balance')}</th>
                <th scope="col">{t('field.totalAssets')}</th>
                <th scope="col">{t('field.status')}</th>
                <th scope="col">{t('field.created')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id}>
                  <td>{m.id}</td>
                  <td>
                    <Link to={`/members/${encodeURIComponent(m.id)}`}>{m.username}</Link>
                  </td>
                  <td>{m.email}</td>
                  <td>{m.phone}</td>
                  <td>{m.vip}</td>
                  <td className="admin-amount">{m.balance}</td>
                  <td className="admin-amount">{m.totalAssets}</td>
                  <td>
                    <span className={`admin-badge admin-badge-${m.locked ? 'rejected' : 'success'}`}>
                      {t(m.locked ? 'members.locked' : 'members.active')}
                    </span>
                  </td>
                  <td>{time(m.createdAt)}</td>
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
          {detail.balances.length === 0 ? (
            <p className="admin-state">{t('common.empty')}</p>
          ) : (
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('field.account')}</th>
                  <th scope="col">{t('field.asset')}</th>
                  <th scope="col">{t('field.amount')}</th>
                </tr>
              </thead>
              <tbody>
                {detail.balances.map((b) => (
                  <tr key={`${b.account}-${b.asset}`}>
                    <td>{b.account}</td>
                    <td>{b.asset}</td>
                    <td className="admin-amount">{b.amount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>{t('members.holds')}</h2>
          {detail.holds.length === 0 ? (
            <p className="admin-state">{t('common.empty')}</p>
          ) : (
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('field.id')}</th>
                  <th scope="col">{t('field.account')}</th>
                  <th scope="col">{t('field.amount')}</th>
                  <th scope="col">{t('field.kind')}</th>
                  <th scope="col">{t('field.ref')}</th>
                  <th scope="col">{t('field.created')}</th>
                </tr>
              </thead>
              <tbody>
                {detail.holds.map((h) => (
                  <tr key={h.id}>
                    <td>{h.id}</td>
                    <td>{h.account}</td>
                    <td className="admin-amount">{h.amount}</td>
                    <td>{h.kind}</td>
                    <td>{h.ref}</td>
                    <td>{time(h.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div className="admin-screen-head">
            <h2>{t('members.ledger')}</h2>
            <ExportButton
              filename={csvFilename(`ledger-${member.username}`)}
              columns={LEDGER_COLUMNS}
              rows={() => Promise.resolve(detail.ledger)}
            />
          </div>
          {detail.ledger.length === 0 ? (
            <p className="admin-state">{t('common.empty')}</p>
          ) : (
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('field.time')}</th>
                  <th scope="col">{t('field.kind')}</th>
                  <th scope="col">{t('field.ref')}</th>
                  <th scope="col">{t('field.legs')}</th>
                </tr>
              </thead>
              <tbody>
                {detail.ledger.map((e) => (
                  <tr key={e.id}>
                    <td>{time(e.at)}</td>
                    <td>{e.kind}</td>
                    <td>{e.ref}</td>
                    <td>
                      <ul className="admin-legs">
                        {e.legs.map((l, i) => (
                          <li key={i}>
                            {l.account} <span className="admin-amount">{l.amount}</span>
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {locking && member && (
        <ReasonDialog
          title={t(member.locked ? 'members.unlockTitle' : 'members.lockTitle', { name: member.username })}
          confirmLabel={t(member.locked ? 'members.unlock' : 'members.lock')}
          memberSees={false}
          danger={!member.locked}
          onConfirm={(reason) => setLocked(member, reason)}
          onClose={() => setLocking(false)}
        >
          <p>{t(member.locked ? 'members.unlockHint' : 'members.lockHint')}</p>
        </ReasonDialog>
      )}
    </section>
  );
}
